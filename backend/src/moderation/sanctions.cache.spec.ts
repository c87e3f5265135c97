import { strongest } from './sanctions.cache';

const row = (over: Partial<Parameters<typeof strongest>[0][number]>) => ({
  kind: 'mute' as const,
  scope: 'all' as const,
  reason: 'r',
  ends_at: null,
  ...over,
});

describe('strongest active sanction', () => {
  it('is null without rows', () => {
    expect(strongest([])).toBeNull();
  });

  it('prefers a mute of all chat over a lobby-only one, then the latest end (none = for good)', () => {
    const soon = new Date('2030-01-01T00:00:00Z');
    const later = new Date('2031-01-01T00:00:00Z');
    expect(
      strongest([
        row({ scope: 'lobby', ends_at: null, reason: 'auto' }),
        row({ scope: 'all', ends_at: soon, reason: 'staff soon' }),
        row({ scope: 'all', ends_at: later, reason: 'staff later' }),
      ]),
    ).toEqual({ kind: 'mute', reason: 'staff later', endsAt: later.toISOString(), scope: 'all' });
    expect(strongest([row({ ends_at: later, reason: 'a' }), row({ ends_at: null, reason: 'forever' })])?.reason).toBe(
      'forever',
    );
  });

  it('gives bans no scope', () => {
    expect(strongest([{ kind: 'ban', scope: null, reason: 'x', ends_at: null }])).toEqual({
      kind: 'ban',
      reason: 'x',
      endsAt: null,
      scope: null,
    });
  });
});
