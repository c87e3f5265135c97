import { describe, expect, it } from 'vitest';
import { houseTake, payoutsOf, prizePool, refundsOf, splitPrizes } from './prizes';
import { potFor } from '../rules/prizes';
import {
  driveToEnd,
  everyoneWinsInSeatOrder,
  newTournament,
  startedWith,
  step,
  testConfig,
  testPlayer,
} from './testkit';
import type { Entrant } from './types';

const solo = (n: number): Entrant[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `e${i + 1}`,
    seed: i + 1,
    players: [{ userId: `u${i + 1}`, username: `U${i + 1}`, rating: 1500 }],
  }));
const teams = (n: number): Entrant[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `e${i + 1}`,
    seed: i + 1,
    players: [
      { userId: `a${i + 1}`, username: `A${i + 1}`, rating: 1500 },
      { userId: `b${i + 1}`, username: `B${i + 1}`, rating: 1500 },
    ],
  }));

describe('prize pool and split', () => {
  it('pool = floor(players × buyIn × 0.9), the table pot for four', () => {
    expect(prizePool(100_000, 8)).toBe(720_000);
    expect(prizePool(150_000, 4)).toBe(potFor(150_000));
    expect(prizePool(1_000_000_000, 16)).toBe(14_400_000_000);
    expect(prizePool(0, 16)).toBe(0);
    expect(prizePool(100_000, 0)).toBe(0);
  });

  it('floors every amount; the remainder stays with the house', () => {
    const p = splitPrizes(
      1_000_001,
      [50, 30, 20],
      [1, 2, 3].map((x) => ({ entrantId: `e${x}`, place: x })),
      solo(3),
    );
    expect(p).toEqual([
      { userId: 'u1', amount: 500_000, place: 1 },
      { userId: 'u2', amount: 300_000, place: 2 },
      { userId: 'u3', amount: 200_000, place: 3 },
    ]);
  });

  it('tied places share the percents of the places they cover', () => {
    const standings = [
      { entrantId: 'e1', place: 1 },
      { entrantId: 'e2', place: 2 },
      { entrantId: 'e3', place: 2 },
      { entrantId: 'e4', place: 4 },
    ];
    // 2nd and 3rd (30 + 20) shared by two; place 4 has no percent
    expect(splitPrizes(1000, [50, 30, 20], standings, solo(4)).map((x) => [x.userId, x.amount])).toEqual([
      ['u1', 500],
      ['u2', 250],
      ['u3', 250],
    ]);
    // three tied at 1st: (50 + 30 + 20) / 3 floored
    const all = [1, 2, 3].map((i) => ({ entrantId: `e${i}`, place: 1 }));
    expect(splitPrizes(1000, [50, 30, 20], all, solo(3)).map((x) => x.amount)).toEqual([333, 333, 333]);
  });

  it('a team prize is split equally between the partners, floored once', () => {
    const standings = [
      { entrantId: 'e1', place: 1 },
      { entrantId: 'e2', place: 2 },
      { entrantId: 'e3', place: 3 },
      { entrantId: 'e4', place: 3 },
    ];
    const p = splitPrizes(1001, [65, 35], standings, teams(4));
    // 65 % of 1001 = 650.65 → 325 each; 35 % = 350.35 → 175 each
    expect(p.map((x) => [x.userId, x.amount, x.place])).toEqual([
      ['a1', 325, 1],
      ['b1', 325, 1],
      ['a2', 175, 2],
      ['b2', 175, 2],
    ]);
  });

  it('a free tournament has no pool, no prizes, no refunds', () => {
    expect(splitPrizes(0, [100], [{ entrantId: 'e1', place: 1 }], solo(1))).toEqual([]);
    const s = driveToEnd(startedWith(testConfig('PARTNERS', 8, { buyIn: 0 }), 8), everyoneWinsInSeatOrder);
    expect(payoutsOf(s)).toEqual([]);
    expect(refundsOf(s)).toEqual([]);
    expect(houseTake(s)).toBe(0);
  });

  it('payouts + house = every buy-in at the end', () => {
    const s = driveToEnd(startedWith(testConfig('SOLO', 16, { buyIn: 150_000 }), 16), everyoneWinsInSeatOrder);
    expect(payoutsOf(s)).toEqual(s.payouts);
    const paid = s.payouts.reduce((a, p) => a + p.amount, 0);
    expect(paid + houseTake(s)).toBe(16 * 150_000);
    expect(houseTake(s)).toBeGreaterThanOrEqual(16 * 15_000);
  });

  it('refunds: every registration before the start, the players after it (not the dropped single)', () => {
    let s = newTournament(testConfig('PARTNERS', 8, { kind: 'scheduled', minEntrants: 4 }));
    for (let i = 1; i <= 5; i++) s = step(s, { type: 'registered', at: i, players: [testPlayer(i)] });
    expect(refundsOf(s).map((r) => r.userId)).toEqual(['u1', 'u2', 'u3', 'u4', 'u5']);
    s = step(s, { type: 'started', at: 100 });
    expect(
      refundsOf(s)
        .map((r) => r.userId)
        .sort(),
    ).toEqual(['u1', 'u2', 'u3', 'u4']);
    expect(refundsOf(s).every((r) => r.amount === 100_000)).toBe(true);
  });
});
