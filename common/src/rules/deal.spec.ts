import { describe, it, expect } from 'vitest';
import { cardCode, DECK } from './cards';
import {
  dealFromSeed,
  firstDealerFromSeed,
  seedCommitment,
  shuffledIndicesFromSeed,
  verifySeedCommitment,
} from './deal';
import { fromHex, sha256, toHex } from './sha256';

function seedOf(n: number): Uint8Array {
  const s = new Uint8Array(32);
  s[0] = n & 255;
  s[1] = (n >> 8) & 255;
  s[2] = (n >> 16) & 255;
  return s;
}

describe('deal', () => {
  it('is deterministic and a permutation of the deck into 4 × 13', () => {
    for (let n = 0; n < 50; n++) {
      const a = dealFromSeed(seedOf(n));
      const b = dealFromSeed(seedOf(n));
      expect(a).toEqual(b);
      expect(a.map((h) => h.length)).toEqual([13, 13, 13, 13]);
      const codes = a.flat().map(cardCode).sort();
      expect(codes).toEqual(DECK.map(cardCode).sort());
    }
  });

  it('different seeds give different deals and the input seed is untouched', () => {
    const s = seedOf(1);
    const before = toHex(s);
    expect(dealFromSeed(s)).not.toEqual(dealFromSeed(seedOf(2)));
    expect(toHex(s)).toBe(before);
  });

  it('first shuffle step follows the documented algorithm (block 0, first uint16, rejection bound)', () => {
    // Recompute the first swap by hand with the general sha256: j = v0 mod 52 where v0 = bytes 0-1 of block 0.
    let checked = 0;
    for (let n = 0; n < 20; n++) {
      const seed = seedOf(123 + n);
      const block0 = sha256(new Uint8Array([...seed, 0, 0, 0, 0]));
      const v0 = (block0[0] << 8) | block0[1];
      const idx = shuffledIndicesFromSeed(seed);
      expect(new Set(idx).size).toBe(52);
      if (v0 < 65536 - (65536 % 52)) {
        // position 51 receives the card at position j (the deck starts in index order)
        expect(idx[51]).toBe(v0 % 52);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(15);
  });

  it('matches an independent re-implementation of the documented algorithm (general sha256, byte-wise reads)', () => {
    const verifierShuffle = (seed: Uint8Array): number[] => {
      const deck = Array.from({ length: 52 }, (_, i) => i);
      const values: number[] = [];
      let counter = 0;
      const next = (): number => {
        if (values.length === 0) {
          const block = sha256(
            new Uint8Array([...seed, counter >>> 24, (counter >>> 16) & 255, (counter >>> 8) & 255, counter & 255]),
          );
          counter++;
          for (let b = 0; b < 32; b += 2) values.push(block[b] * 256 + block[b + 1]);
        }
        return values.shift() as number;
      };
      for (let i = 51; i >= 1; i--) {
        const n = i + 1;
        let v = next();
        while (v >= 65536 - (65536 % n)) v = next();
        const j = v % n;
        [deck[i], deck[j]] = [deck[j], deck[i]];
      }
      return deck;
    };
    for (let n = 0; n < 200; n++) {
      const seed = sha256(seedOf(n)); // varied 32-byte seeds
      const expected = verifierShuffle(seed);
      expect(shuffledIndicesFromSeed(seed)).toEqual(expected);
      const hands = dealFromSeed(seed);
      for (let s = 0; s < 4; s++) {
        expect(hands[s].map(cardCode).sort()).toEqual(
          expected
            .slice(13 * s, 13 * s + 13)
            .map((i) => cardCode(DECK[i]))
            .sort(),
        );
      }
    }
  });

  it('is roughly uniform: the ace of spades lands in each seat about 1/4 of the time', () => {
    const counts = [0, 0, 0, 0];
    const N = 2000;
    for (let n = 0; n < N; n++) {
      const hands = dealFromSeed(seedOf(n + 1000));
      counts[hands.findIndex((h) => h.some((c) => c.suit === 'S' && c.rank === 14))]++;
    }
    for (const c of counts) expect(Math.abs(c - N / 4)).toBeLessThan(N * 0.05);
  });

  it('commitment is hex sha256 of the seed and verifies', () => {
    const s = seedOf(9);
    expect(seedCommitment(s)).toBe(toHex(sha256(s)));
    expect(seedCommitment(toHex(s))).toBe(toHex(sha256(s)));
    expect(verifySeedCommitment(toHex(s), seedCommitment(s))).toBe(true);
    expect(verifySeedCommitment(seedOf(10), seedCommitment(s))).toBe(false);
    expect(fromHex(seedCommitment(s))!.length).toBe(32);
  });

  it('first dealer is a seat, deterministic, and every seat occurs', () => {
    const seen = new Set<number>();
    for (let n = 0; n < 64; n++) {
      const d = firstDealerFromSeed(seedOf(n));
      expect([0, 1, 2, 3]).toContain(d);
      expect(firstDealerFromSeed(seedOf(n))).toBe(d);
      seen.add(d);
    }
    expect(seen.size).toBe(4);
  });

  it('rejects seeds of the wrong size', () => {
    expect(() => dealFromSeed(new Uint8Array(31))).toThrow(RangeError);
  });
});
