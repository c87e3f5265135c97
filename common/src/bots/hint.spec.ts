import { describe, expect, it } from 'vitest';
import { apply, createGame, DEFAULT_SETTINGS, legalBids, viewFor, type Seat } from '../rules';
import { bidHint } from './hint';

describe('bidHint', () => {
  const dealt = () => {
    const r = apply(createGame(DEFAULT_SETTINGS), { type: 'deal', seed: '11'.repeat(32) });
    if (!r.ok) throw new Error(r.error);
    return r.state;
  };

  it('suggests a legal bid for the seat to bid, the same every time', () => {
    const s = dealt();
    const seat = s.turn as Seat;
    const v = viewFor(s, seat);
    const hint = bidHint(v, { maxSamples: 40 });
    expect(legalBids(v).bids).toContain(hint);
    expect(bidHint(v, { maxSamples: 40 })).toBe(hint);
  });

  it('gives nothing to a seat that has no bid to make', () => {
    const s = dealt();
    const other = (((s.turn as number) + 1) % 4) as Seat;
    expect(bidHint(viewFor(s, other))).toBeNull();
    expect(bidHint(viewFor(s, 'spectator'))).toBeNull();
  });
});
