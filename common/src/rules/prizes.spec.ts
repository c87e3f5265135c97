import { describe, it, expect } from 'vitest';
import { houseFee, payoutsFor, potFor, prizePreview } from './prizes';
import { DEFAULT_SETTINGS, GameSettings } from './settings';

const partners = (buyIn: number): GameSettings => ({ ...DEFAULT_SETTINGS, buyIn });
const solo = (buyIn: number): GameSettings => ({ ...DEFAULT_SETTINGS, gameMode: 'SOLO', buyIn });

describe('prizes', () => {
  it.each([
    [100000, 360000],
    [150000, 540000],
    [1000000, 3600000],
    [1_000_000_000, 3_600_000_000],
  ])('pot(%i) = %i', (b, p) => {
    expect(potFor(b)).toBe(p);
  });
  it('partners: each winner gets half the pot', () => {
    const p = payoutsFor(partners(100000), { places: [1, 2, 1, 2] });
    expect(p).toEqual([180000, 0, 180000, 0]);
    expect(houseFee(partners(100000), p)).toBe(40000);
  });
  it.each([
    [[1, 2, 3, 4], [260000, 100000, 0, 0], 40000],
    [[2, 1, 2, 4], [50000, 260000, 50000, 0], 40000],
    [[2, 2, 1, 2], [33333, 33333, 260000, 33333], 40001],
    [[4, 3, 2, 1], [0, 0, 100000, 260000], 40000],
  ])('solo places %j → %j, fee %i', (places, expected, fee) => {
    const s = solo(100000);
    const p = payoutsFor(s, { places });
    expect(p).toEqual(expected);
    expect(houseFee(s, p)).toBe(fee);
    expect(p.reduce((a, b) => a + b, 0) + houseFee(s, p)).toBe(4 * s.buyIn);
    expect(p.every(Number.isInteger)).toBe(true);
  });
  it('preview (clarification 2)', () => {
    expect(prizePreview(partners(100000))).toEqual({ mode: 'PARTNERS', pot: 360000, perWinner: 180000 });
    expect(prizePreview(solo(250000))).toEqual({ mode: 'SOLO', pot: 900000, first: 650000, second: 250000 });
  });
});
