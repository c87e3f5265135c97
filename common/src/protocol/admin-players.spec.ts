import { describe, expect, it } from 'vitest';
import { banMessage, muteMessage, sanctionEndText, sanctionNoticeText } from './admin-players';

describe('sanction texts', () => {
  it('writes end times in UTC to the minute', () => {
    expect(sanctionEndText('2026-12-01T18:00:59.999Z')).toBe('2026-12-01 18:00 UTC');
    expect(sanctionEndText(new Date(Date.UTC(2027, 0, 2, 3, 4)))).toBe('2027-01-02 03:04 UTC');
  });

  it('says why and until when a player is banned', () => {
    expect(banMessage({ reason: 'cheating', endsAt: '2026-12-01T18:00:00.000Z' })).toBe(
      'Banned until 2026-12-01 18:00 UTC: cheating',
    );
    expect(banMessage({ reason: 'cheating', endsAt: null })).toBe('Banned for good: cheating');
  });

  it('says why, where and until when a player is muted', () => {
    const endsAt = '2026-12-01T18:00:00.000Z';
    expect(muteMessage({ reason: 'spam', endsAt, scope: 'all' })).toBe(
      'You are muted until 2026-12-01 18:00 UTC: spam',
    );
    expect(muteMessage({ reason: 'spam', endsAt, scope: 'lobby' })).toBe(
      'You are muted in lobby chat until 2026-12-01 18:00 UTC: spam',
    );
    expect(muteMessage({ reason: 'spam', endsAt: null, scope: 'all' })).toBe('You are muted for good: spam');
    expect(muteMessage({ reason: 'Muted by 3 players in 24 h', endsAt: null, scope: 'lobby' })).toBe(
      'You are muted in lobby chat until a moderator reviews it: Muted by 3 players in 24 h',
    );
  });

  it('has a text for every kind of notice', () => {
    expect(sanctionNoticeText({ kind: 'warn', reason: 'language', endsAt: null, scope: null })).toBe(
      'A moderator warned you: language',
    );
    expect(sanctionNoticeText({ kind: 'rename', reason: 'offensive name', endsAt: null, scope: null })).toBe(
      'A moderator changed your name: offensive name',
    );
    expect(sanctionNoticeText({ kind: 'ban', reason: 'x', endsAt: null, scope: null })).toBe('Banned for good: x');
    expect(sanctionNoticeText({ kind: 'mute', reason: 'x', endsAt: null, scope: 'all' })).toBe(
      'You are muted for good: x',
    );
  });
});
