import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { DEFAULT_SETTINGS } from '../src/rules';
import { basicBot, randomBot } from '../src/bots';
import type { Bot } from '../src/bots';
import { duplicateMatch, parseGames } from './duplicate';

describe('bench:bots --games', () => {
  it('accepts even N ≥ 2 and refuses odd, too small or non-integer N with a clear message', () => {
    expect(parseGames('2')).toBe(2);
    expect(parseGames('10000')).toBe(10000);
    for (const bad of ['3', '1', '0', '-4', '2.5', 'abc', '', '7']) {
      expect(() => parseGames(bad)).toThrow(
        /--games must be an even integer ≥ 2 \(duplicate deals are played in pairs\)/,
      );
    }
  });

  it('property: plays exactly the requested number of games, in seat-swapped pairs on the same deals', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4 }), fc.integer(), (pairs, seed) => {
        let games = 0;
        const seen: number[][] = [];
        const counting = (b: Bot): Bot => ({
          name: b.name,
          act(view, rng) {
            if (
              view.phase === 'BIDDING' &&
              view.handNumber === 1 &&
              view.bids.every((x) => x === null) &&
              view.viewer === view.turn
            ) {
              games++;
              seen.push(view.hand ? view.hand.map((c) => c.suit.charCodeAt(0) * 100 + c.rank) : []);
            }
            return b.act(view, rng);
          },
        });
        const r = duplicateMatch(counting(randomBot), counting(basicBot), DEFAULT_SETTINGS, 2 * pairs, seed);
        expect(r.games).toBe(2 * pairs);
        expect(games).toBe(2 * pairs);
        expect(r.pairScores).toHaveLength(pairs);
        expect(r.winsA).toBeGreaterThanOrEqual(0);
        expect(r.winsA).toBeLessThanOrEqual(2 * pairs);
        // the two games of a pair start from the same deal (same first bidder's hand)
        for (let p = 0; p < pairs; p++) expect(seen[2 * p + 1]).toEqual(seen[2 * p]);
      }),
      { numRuns: 20 },
    );
    expect(() => duplicateMatch(randomBot, basicBot, DEFAULT_SETTINGS, 3, 1)).toThrow(RangeError);
  });
});
