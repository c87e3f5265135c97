import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  effectiveSigma,
  formatRating,
  formatRatingChange,
  isProvisional,
  newRating,
  PlayerRating,
  RATING_OPTIONS,
  RATING_SIGMA0,
  RatedSeat,
  rateGame,
  spearman,
} from './rating';
import { eloModel, plackettLuceModel, simulate } from './simulate';
import { plackettLuce } from './weng-lin';

const NO_TAU = { ...RATING_OPTIONS, tau: 0 };
const fresh = (): PlayerRating => newRating();
const seats = (
  places: number[],
  left: number[] = [],
  ratings: PlayerRating[] = [fresh(), fresh(), fresh(), fresh()],
): RatedSeat[] => places.map((place, seat) => ({ seat, rating: ratings[seat], place, left: left.includes(seat) }));

describe('Weng-Lin Plackett-Luce, hand-computed', () => {
  it('PARTNERS, four new players (mu 1500, sigma 500, beta 250, no tau): ±117.85, sigma 490.65', () => {
    // c² = 2·(2·500² + 250²) = 1,125,000; the winner's omega = 1 − 1/2; team Δmu = 0.5 · 500,000 / c = 235.70,
    // each member gets half (equal sigmas). delta = gamma · 1/4 · 500,000 / c² with gamma = sqrt(500,000)/c = 2/3
    // → 0.074074; member sigma = 500 · sqrt(1 − 0.5 · 0.074074) = 490.653.
    const out = rateGame('PARTNERS', seats([1, 2, 1, 2]), 0, NO_TAU);
    for (const c of out) {
      expect(c.after.mu - c.before.mu).toBeCloseTo(c.seat % 2 === 0 ? 117.851 : -117.851, 2);
      expect(c.after.sigma).toBeCloseTo(490.653, 2);
    }
    expect(out.map((c) => c.delta)).toEqual([118, -118, 118, -118]);
  });

  it('SOLO, four new players in places 1-2-3-4: +167.71, +93.17, −18.63, −242.24', () => {
    // c² = 4·(500² + 250²) = 1,250,000, c = 1118.03; sumQ by rank = 4, 3, 2, 1 (equal strengths);
    // omega: 1st 1 − 1/4; 2nd −1/4 + 2/3; 3rd −1/4 − 1/3 + 1/2; 4th −1/4 − 1/3 − 1/2 + 0; Δmu = omega · 500²/c.
    // 1st: delta = gamma · 3/16 · 500²/c² with gamma = 500/c → sigma = 500 · sqrt(1 − 0.016770) = 495.790.
    const out = rateGame('SOLO', seats([1, 2, 3, 4]), 0, NO_TAU);
    const dmu = out.map((c) => c.after.mu - c.before.mu);
    [167.705, 93.169, -18.634, -242.241].forEach((v, i) => expect(dmu[i]).toBeCloseTo(v, 2));
    expect(out[0].after.sigma).toBeCloseTo(495.79, 2);
    expect(dmu.reduce((a, b) => a + b, 0)).toBeCloseTo(0, 9);
  });

  it('SOLO ties share the rank: a tie for 2nd gives both the same change', () => {
    const out = rateGame('SOLO', seats([1, 2, 2, 4]), 0);
    expect(out[1].after.mu).toBeCloseTo(out[2].after.mu, 9);
    expect(out[0].delta).toBeGreaterThan(out[1].delta);
    expect(out[3].delta).toBeLessThan(0);
  });

  it('the favourite gains less for a win than the underdog', () => {
    const strong = { mu: 1800, sigma: 200, ratedAt: 0 };
    const weak = { mu: 1300, sigma: 200, ratedAt: 0 };
    const favWins = rateGame('PARTNERS', seats([1, 2, 1, 2], [], [strong, weak, strong, weak]), 0);
    const upset = rateGame('PARTNERS', seats([2, 1, 2, 1], [], [strong, weak, strong, weak]), 0);
    expect(favWins[0].delta).toBeGreaterThan(0);
    expect(upset[1].delta).toBeGreaterThan(favWins[0].delta);
  });
});

describe('leavers', () => {
  it('PARTNERS: a leaver on the winning team loses as if the team had lost; the partner keeps the win', () => {
    const out = rateGame('PARTNERS', seats([1, 2, 1, 2], [0]), 0);
    const lostGame = rateGame('PARTNERS', seats([2, 1, 2, 1]), 0);
    expect(out[0].delta).toBeLessThan(0);
    expect(out[0].after.mu).toBeCloseTo(lostGame[0].after.mu, 9);
    expect(out[2].delta).toBe(118);
    expect(out[1].delta).toBe(-118);
  });

  it('PARTNERS: a leaver on the losing team loses; the partner does not lose rating for it', () => {
    const out = rateGame('PARTNERS', seats([2, 1, 2, 1], [0]), 0);
    expect(out[0].delta).toBe(-118);
    expect(out[2].delta).toBe(0);
    expect(out[2].after.mu).toBe(out[2].before.mu);
    expect(out[2].after.sigma).toBeLessThan(out[2].before.sigma);
    expect(out[1].delta).toBe(118);
  });

  it('SOLO: a leaver who was ahead is ranked last; the others move up', () => {
    const out = rateGame('SOLO', seats([1, 2, 3, 4], [0]), 0);
    const reordered = rateGame('SOLO', seats([4, 1, 2, 3]), 0);
    out.forEach((c, i) => expect(c.after.mu).toBeCloseTo(reordered[i].after.mu, 9));
    expect(out[0].delta).toBeLessThan(0);
  });
});

describe('uncertainty and display', () => {
  it('sigma grows with inactivity up to the initial sigma; a settled player turns provisional after months away', () => {
    const day = 86_400_000;
    const settled: PlayerRating = { mu: 1700, sigma: 190, ratedAt: 0 };
    expect(effectiveSigma(settled, 0)).toBe(190);
    expect(effectiveSigma(settled, 30 * day)).toBeGreaterThan(190);
    expect(isProvisional(settled, 30 * day)).toBe(false);
    expect(isProvisional(settled, 200 * day)).toBe(true);
    expect(effectiveSigma(settled, 5000 * day)).toBe(RATING_SIGMA0);
    expect(isProvisional(newRating(), 0)).toBe(true);
  });

  it('inactivity widens the update: the same win moves an idle player more', () => {
    const day = 86_400_000;
    const r: PlayerRating = { mu: 1600, sigma: 200, ratedAt: 0 };
    const now = rateGame('SOLO', seats([1, 2, 3, 4], [], [r, r, r, r]), 0);
    const later = rateGame('SOLO', seats([1, 2, 3, 4], [], [r, r, r, r]), 90 * day);
    expect(later[0].delta).toBeGreaterThan(now[0].delta);
  });

  it('formats ratings and changes', () => {
    expect(formatRating(1523, true)).toBe('1523?');
    expect(formatRating(1523, false)).toBe('1523');
    expect(formatRatingChange(14)).toBe('+14');
    expect(formatRatingChange(-9)).toBe('\u22129');
    expect(formatRatingChange(0)).toBe('\u00b10');
  });
});

const ratingArb = fc.record({
  mu: fc.double({ min: 500, max: 2500, noNaN: true }),
  sigma: fc.double({ min: 40, max: 500, noNaN: true }),
  ratedAt: fc.constant(0),
});
const soloPlaces = fc
  .array(fc.integer({ min: 0, max: 100 }), { minLength: 4, maxLength: 4 })
  .filter((xs) => {
    const best = Math.max(...xs);
    return xs.filter((x) => x === best).length === 1; // a tied top score plays another hand: one winner
  })
  .map((scores) => scores.map((s) => 1 + scores.filter((t) => t > s).length));

describe('properties', () => {
  it('a winner (not a leaver) never loses rating, in both modes, whoever left', () => {
    fc.assert(
      fc.property(
        fc.array(ratingArb, { minLength: 4, maxLength: 4 }),
        soloPlaces,
        fc.boolean(),
        fc.subarray([0, 1, 2, 3]),
        (rs, solo, t0, left) => {
          const partners = t0 ? [1, 2, 1, 2] : [2, 1, 2, 1];
          for (const [mode, places] of [
            ['SOLO', solo],
            ['PARTNERS', partners],
          ] as const) {
            const out = rateGame(mode, seats(places, left, rs), 0);
            out.forEach((c, i) => {
              if (places[i] === 1 && !left.includes(i)) expect(c.after.mu).toBeGreaterThanOrEqual(c.before.mu);
              if (left.includes(i)) expect(c.after.mu).toBeLessThanOrEqual(c.before.mu);
              expect(c.after.sigma).toBeLessThanOrEqual(c.before.sigma + 5);
              expect(c.after.sigma).toBeGreaterThan(0);
            });
            if (mode === 'PARTNERS') {
              // a leaver's partner never loses rating for it
              for (const l of left)
                if (!left.includes((l + 2) % 4))
                  expect(out[(l + 2) % 4].after.mu).toBeGreaterThanOrEqual(out[(l + 2) % 4].before.mu);
            }
          }
        },
      ),
    );
  });

  it('zero-sum up to the model: without leavers Σ (team Δmu / team sigma²) = 0; with equal sigmas Σ Δmu = 0', () => {
    fc.assert(
      fc.property(fc.array(ratingArb, { minLength: 4, maxLength: 4 }), soloPlaces, (rs, places) => {
        const solo = rateGame('SOLO', seats(places, [], rs), 0, NO_TAU);
        expect(solo.reduce((s, c) => s + (c.after.mu - c.before.mu) / c.before.sigma ** 2, 0)).toBeCloseTo(0, 9);
        const partners = rateGame('PARTNERS', seats([1, 2, 1, 2], [], rs), 0, NO_TAU);
        const team = (t: number) => {
          const m = partners.filter((c) => c.seat % 2 === t);
          return m.reduce((s, c) => s + c.after.mu - c.before.mu, 0) / m.reduce((s, c) => s + c.before.sigma ** 2, 0);
        };
        expect(team(0) + team(1)).toBeCloseTo(0, 9);
        const equal = rs.map((r) => ({ ...r, sigma: rs[0].sigma }));
        const eq = rateGame('SOLO', seats(places, [], equal), 0);
        expect(eq.reduce((s, c) => s + c.after.mu - c.before.mu, 0)).toBeCloseTo(0, 6);
      }),
    );
  });

  it('plackettLuce keeps the shape and rejects malformed games', () => {
    expect(() => plackettLuce([[{ mu: 1, sigma: 1 }]], [1], RATING_OPTIONS)).toThrow(RangeError);
    expect(() => plackettLuce([[], [{ mu: 1, sigma: 1 }]], [1, 2], RATING_OPTIONS)).toThrow(RangeError);
    expect(
      plackettLuce(
        [
          [{ mu: 1, sigma: 1 }],
          [
            { mu: 1, sigma: 1 },
            { mu: 1, sigma: 1 },
          ],
        ],
        [1, 2],
        RATING_OPTIONS,
      )[1],
    ).toHaveLength(2);
  });
});

describe('simulation (deterministic)', () => {
  it('64 players, 2,000 mixed games at noise 1: Spearman(hidden skill, rating) ≥ 0.9', () => {
    const res = simulate(
      plackettLuceModel,
      { players: 64, games: 2000, seed: 11, noise: 1, mode: 'MIXED' },
      [250, 2000],
    );
    expect(res.spearman).toBeGreaterThanOrEqual(0.9);
    expect(res.curve[0].spearman).toBeLessThan(res.spearman); // it learns: better after 2,000 games than after 250
  });

  it('a model that ignores the results ranks at random (the measure can fail)', () => {
    const blind = { ...eloModel, name: 'blind', rate: (_m: 'PARTNERS' | 'SOLO', p: number[]) => p.map((x) => x + 0) };
    const res = simulate(blind, { players: 64, games: 200, seed: 11, noise: 1, mode: 'MIXED' });
    expect(Number.isNaN(res.spearman) || Math.abs(res.spearman) < 0.3).toBe(true);
  });

  it('spearman: identical order 1, reversed −1, ties averaged', () => {
    expect(spearman([1, 2, 3], [10, 20, 30])).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 12);
    expect(spearman([1, 1, 2, 2], [1, 2, 3, 4])).toBeCloseTo(0.894, 3);
  });
});
