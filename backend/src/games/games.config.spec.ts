import { loadRatingsConfig } from '../ratings/ratings.config';
import { gamesEnvSchema, loadGamesConfig } from './games.config';

describe('loadGamesConfig (zod schema)', () => {
  it('keeps the spec defaults when nothing (or an empty string) is set', () => {
    expect(loadGamesConfig({})).toEqual({
      turnTimeoutMs: 30_000,
      trickDisplayMs: 2_000,
      handSummaryMs: 12_000,
      resultMs: 30_000,
      seatReplacementMs: 120_000,
      botDelayMinMs: 1000,
      botDelayMaxMs: 1500,
      maxConsecutiveTimeouts: 3,
      botLevel: 'strong',
      chatHistory: 100,
      inviteReservationMs: 60_000,
      waitingHostTimeoutMs: 60_000,
    });
    expect(loadGamesConfig({ TURN_TIMEOUT_MS: '', BOT_LEVEL: '' })).toMatchObject({
      turnTimeoutMs: 30_000,
      botLevel: 'strong',
    });
  });

  it('reads integers and the bot level', () => {
    expect(
      loadGamesConfig({ TURN_TIMEOUT_MS: '500', BOT_DELAY_MIN_MS: '0', BOT_DELAY_MAX_MS: '0', BOT_LEVEL: 'basic' }),
    ).toMatchObject({
      turnTimeoutMs: 500,
      botDelayMinMs: 0,
      botDelayMaxMs: 0,
      botLevel: 'basic',
    });
  });

  it('refuses with the same messages as before', () => {
    expect(() => loadGamesConfig({ TURN_TIMEOUT_MS: '0' })).toThrow(
      'TURN_TIMEOUT_MS must be an integer >= 1 (got "0")',
    );
    expect(() => loadGamesConfig({ RESULT_MS: '1.5' })).toThrow('RESULT_MS must be an integer >= 0 (got "1.5")');
    expect(() => loadGamesConfig({ SEAT_REPLACEMENT_MS: 'soon' })).toThrow(
      'SEAT_REPLACEMENT_MS must be an integer >= 0 (got "soon")',
    );
    expect(() => loadGamesConfig({ BOT_DELAY_MIN_MS: '2000' })).toThrow('BOT_DELAY_MAX_MS must be >= BOT_DELAY_MIN_MS');
  });

  it('describes every variable (for the generated configuration docs)', () => {
    for (const [name, schema] of Object.entries(gamesEnvSchema.shape))
      expect([name, schema.description]).toEqual([name, expect.any(String)]);
  });
});

describe('loadRatingsConfig (zod schema)', () => {
  it('keeps defaults and messages', () => {
    expect(loadRatingsConfig({})).toEqual({
      banAbandonments: 3,
      banWindowHours: 24,
      banBaseMinutes: 15,
      banMaxMinutes: 10_080,
      banForgiveDays: 7,
    });
    expect(loadRatingsConfig({ RATING_BAN_FORGIVE_DAYS: '0' }).banForgiveDays).toBe(0);
    expect(() => loadRatingsConfig({ RATING_BAN_ABANDONMENTS: '0' })).toThrow(
      'RATING_BAN_ABANDONMENTS must be an integer >= 1 (got "0")',
    );
  });
});
