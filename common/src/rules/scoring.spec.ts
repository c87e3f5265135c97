import { describe, it, expect } from 'vitest';
import { gameOutcome, scoreHand } from './scoring';
import { DEFAULT_SETTINGS, GameSettings } from './settings';

const P: GameSettings = { ...DEFAULT_SETTINGS };
const S: GameSettings = { ...DEFAULT_SETTINGS, gameMode: 'SOLO' };
const F = [false, false, false, false];

describe('scoreHand — partners (team 0 = seats 0&2, team 1 = seats 1&3)', () => {
  it.each([
    // name, bids, blind, tricks, [delta team0, delta team1], [bags after]
    ['made with a bag / set', [4, 5, 3, 1], F, [4, 5, 4, 0], [71, -60], [1, 0]],
    ['exact contracts', [3, 3, 4, 3], F, [3, 3, 4, 3], [70, 60], [0, 0]],
    ['nil made, partner made +1', [0, 3, 4, 3], F, [0, 3, 5, 5], [141, 62], [1, 2]],
    ['nil failed, its tricks count for the team', [0, 4, 4, 4], F, [2, 4, 3, 4], [-59, 80], [1, 0]],
    ['nil failed and team set', [0, 4, 5, 4], F, [1, 4, 3, 5], [-150, 81], [0, 1]],
    ['blind nil made', [0, 4, 4, 4], [true, false, false, false], [0, 5, 5, 3], [241, 80], [1, 0]],
    ['blind nil failed', [0, 4, 4, 4], [true, false, false, false], [1, 4, 4, 4], [-159, 80], [1, 0]],
    ['both partners nil, both failed: all tricks are bags', [0, 4, 0, 4], F, [3, 4, 2, 4], [-195, 80], [5, 0]],
  ] as const)('%s', (_n, bids, blind, tricks, deltas, bagsAfter) => {
    const r = scoreHand(P, bids, blind, tricks, [0, 0], [0, 0]);
    expect(r.map((x) => x.delta)).toEqual(deltas);
    expect(r.map((x) => x.bagsAfter)).toEqual(bagsAfter);
    for (const x of r) expect(x.delta).toBe(x.contractPoints + x.bagsTaken + x.nilPoints + x.bagPenalty);
  });

  it('bags crossing 10 twice in one game (−100 each time, remainder carries)', () => {
    let scores = [0, 0];
    let bags = [0, 0];
    const hands: [number[], number[]][] = [
      [
        [2, 1, 2, 1],
        [5, 1, 5, 2],
      ], // team0 bid 4 took 10: +40 +6 bags = +46 → score 46, bags 6
      [
        [2, 1, 1, 1],
        [5, 1, 5, 2],
      ], // team0 bid 3 took 10: +30 +7 = +37, bags 13 → −100, bags 3: delta −63 → score −17
      [
        [1, 2, 1, 2],
        [5, 2, 4, 2],
      ], // team0 bid 2 took 9: +20 +7 = +27, bags 10 → −100, bags 0: delta −73 → score −90
    ];
    const expected = [
      [46, 6],
      [-17, 3],
      [-90, 0],
    ];
    hands.forEach(([bids, tricks], i) => {
      const r = scoreHand(P, bids, F, tricks, scores, bags);
      scores = r.map((x) => x.scoreAfter);
      bags = r.map((x) => x.bagsAfter);
      expect([scores[0], bags[0]]).toEqual(expected[i]);
    });
    const r2 = scoreHand(P, [2, 1, 1, 1], F, [5, 1, 5, 2], [0, 0], [6, 0]);
    expect(r2[0].bagPenalty).toBe(-100);
  });

  it('a single hand can cost two bag penalties (9 carried + 13)', () => {
    const r = scoreHand(P, [0, 4, 0, 4], F, [7, 0, 6, 0], [0, 0], [9, 0]);
    expect(r[0]).toMatchObject({
      bagsTaken: 13,
      bagPenalty: -200,
      bagsAfter: 2,
      nilPoints: -200,
      delta: 13 - 200 - 200,
    });
    expect(r[1]).toMatchObject({ contractPoints: -80, delta: -80 });
  });
});

describe('scoreHand — solo (per player)', () => {
  it('made, set, nil made, nil failed (its tricks are bags)', () => {
    const r = scoreHand(S, [3, 5, 0, 0], [false, false, true, false], [4, 2, 0, 7], [0, 0, 0, 0], [0, 0, 0, 9]);
    expect(r.map((x) => x.delta)).toEqual([31, -50, 200, -100 + 7 - 100]);
    expect(r.map((x) => x.bagsAfter)).toEqual([1, 0, 0, 6]);
  });
});

describe('gameOutcome', () => {
  const p = { ...P, minPoints: -100, maxPoints: 500 };
  const s = { ...S, minPoints: -100, maxPoints: 500 };
  it.each([
    [p, [499, 200], null],
    [p, [500, 200], { winnerTeam: 0, places: [1, 2, 1, 2] }],
    [p, [520, 530], { winnerTeam: 1, places: [2, 1, 2, 1] }],
    [p, [-100, 50], { winnerTeam: 1, places: [2, 1, 2, 1] }],
    [p, [-120, -150], { winnerTeam: 0, places: [1, 2, 1, 2] }],
    [p, [510, 510], null],
    [p, [-100, -100], null],
    [s, [520, 300, 300, 100], { winnerSeat: 0, places: [1, 2, 2, 4] }],
    [s, [100, 200, -100, 150], { winnerSeat: 1, places: [3, 1, 4, 2] }],
    [s, [600, 600, 0, 0], null],
    [s, [0, 0, 0, 0], null],
  ] as const)('%#: scores %j', (settings, scores, expected) => {
    const r = gameOutcome(settings, scores);
    if (expected === null) expect(r).toBeNull();
    else expect(r).toMatchObject(expected);
  });
});
