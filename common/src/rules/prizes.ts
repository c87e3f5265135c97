/**
 * Prizes (spec §9, issue decision 7, clarification 2). Integer arithmetic only.
 */
import type { GameSettings } from './settings';
import type { GameResult } from './state';

/** Pot = floor(4 × buyIn × 0.9) (10% house fee), in integers: floor(36 × buyIn / 10). */
export function potFor(buyIn: number): number {
  return Math.floor((36 * buyIn) / 10);
}

/**
 * Payout per seat (index 0..3) for a finished game. PARTNERS: each winning partner gets floor(pot / 2).
 * SOLO: 1st gets pot − buyIn; 2nd place gets the buy-in back; players tied for 2nd split it equally
 * (floor), any indivisible remainder stays with the house. Everybody else gets 0.
 */
export function payoutsFor(settings: GameSettings, result: Pick<GameResult, 'places'>): number[] {
  const pot = potFor(settings.buyIn);
  const payouts = [0, 0, 0, 0];
  if (settings.gameMode === 'PARTNERS') {
    for (let seat = 0; seat < 4; seat++) if (result.places[seat] === 1) payouts[seat] = Math.floor(pot / 2);
    return payouts;
  }
  const firsts = [0, 1, 2, 3].filter((s) => result.places[s] === 1);
  const seconds = [0, 1, 2, 3].filter((s) => result.places[s] === 2);
  if (firsts.length === 1) {
    payouts[firsts[0]] = pot - settings.buyIn;
    for (const s of seconds) payouts[s] = Math.floor(settings.buyIn / seconds.length);
  } else {
    // Not reachable through the engine (a tied top score plays another hand): split 1st+2nd prizes equally.
    for (const s of firsts) payouts[s] = Math.floor(pot / firsts.length);
  }
  return payouts;
}

/** The house's share: 4 × buyIn minus everything paid out. */
export function houseFee(settings: GameSettings, payouts: readonly number[]): number {
  return 4 * settings.buyIn - payouts.reduce((a, b) => a + b, 0);
}

/** Create Game dialog / result dialog preview (clarification 2). */
export function prizePreview(
  settings: Pick<GameSettings, 'gameMode' | 'buyIn'>,
): { mode: 'PARTNERS'; pot: number; perWinner: number } | { mode: 'SOLO'; pot: number; first: number; second: number } {
  const pot = potFor(settings.buyIn);
  if (settings.gameMode === 'PARTNERS') return { mode: 'PARTNERS', pot, perWinner: Math.floor(pot / 2) };
  return { mode: 'SOLO', pot, first: pot - settings.buyIn, second: settings.buyIn };
}
