import { DEFAULT_MATCHMAKING_CONFIG } from '@spades/common';
import { loadQueueConfig } from './matchmaking.config';

describe('loadQueueConfig (zod schema)', () => {
  const d = DEFAULT_MATCHMAKING_CONFIG;
  it('uses the defaults when unset or empty', () => {
    const want = {
      tickMs: 1000,
      botOfferAfterMs: d.botOfferAfterMs,
      baseSpread: d.baseSpread,
      spreadPerSecond: d.spreadPerSecond,
      maxSpread: d.maxSpread,
    };
    expect(loadQueueConfig({})).toEqual(want);
    expect(loadQueueConfig({ MATCHMAKING_TICK_MS: ' ' })).toEqual(want);
  });

  it('reads numbers in range (fractions too) and falls back to the default on a bad or out-of-range value', () => {
    expect(loadQueueConfig({ MATCHMAKING_TICK_MS: '200', MATCHMAKING_SPREAD_PER_SECOND: '2.5' })).toMatchObject({
      tickMs: 200,
      spreadPerSecond: 2.5,
    });
    expect(loadQueueConfig({ MATCHMAKING_TICK_MS: '10' }).tickMs).toBe(1000);
    expect(loadQueueConfig({ MATCHMAKING_MAX_SPREAD: 'wide' }).maxSpread).toBe(d.maxSpread);
  });
});
