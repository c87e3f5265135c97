/**
 * Issue #27: the prize pool and its split. Integer arithmetic only (as `potFor` for tables): the pool is the buy-ins
 * less the 10 % house fee, every amount is floored and the remainders stay with the house.
 */
import type { Entrant, Payout, Standing, TournamentState } from './types';

/** floor(players × buyIn × 9 / 10). */
export function prizePool(buyIn: number, players: number): number {
  if (!(buyIn > 0) || !(players > 0)) return 0;
  return Math.floor((players * buyIn * 9) / 10);
}

/**
 * Payouts for final standings: `split[p - 1]` percent for place p; entrants tied at place p cover places
 * p … p + k − 1 and share the sum of those percents equally; a team's share is split equally between its players.
 * Each player's amount is floored once: floor(pool × percents / (100 × tied × teamSize)). Zero amounts are left out.
 */
export function splitPrizes(pool: number, split: number[], standings: Standing[], entrants: Entrant[]): Payout[] {
  if (pool <= 0) return [];
  const payouts: Payout[] = [];
  const byPlace = new Map<number, Standing[]>();
  for (const st of standings) byPlace.set(st.place, [...(byPlace.get(st.place) ?? []), st]);
  const places = [...byPlace.keys()].sort((a, b) => a - b);
  for (const place of places) {
    const tied = byPlace.get(place) ?? [];
    let percent = 0;
    for (let p = place; p < place + tied.length; p++) percent += split[p - 1] ?? 0;
    if (percent <= 0) continue;
    for (const st of tied) {
      const entrant = entrants.find((e) => e.id === st.entrantId);
      if (!entrant || entrant.players.length === 0) continue;
      const amount = Math.floor((pool * percent) / (100 * tied.length * entrant.players.length));
      if (amount <= 0) continue;
      for (const p of entrant.players) payouts.push({ userId: p.userId, amount, place });
    }
  }
  return payouts;
}

/** Players whose buy-in is in the tournament's escrow (registered, or playing after the start). */
export function playersInPool(s: Pick<TournamentState, 'status' | 'entrants' | 'registrations'>): number {
  if (s.entrants.length > 0) return s.entrants.reduce((a, e) => a + e.players.length, 0);
  return s.registrations.length;
}

/** FINISHED: who gets what (also stored on the state as `payouts`); [] before the end, when cancelled or free. */
export function payoutsOf(s: TournamentState): Payout[] {
  if (s.status !== 'FINISHED') return [];
  return splitPrizes(prizePool(s.config.buyIn, playersInPool(s)), s.config.prizeSplit, s.standings, s.entrants);
}

/** The house's share at the end: every buy-in in escrow minus the payouts (the 10 % and the floored remainders). */
export function houseTake(s: TournamentState): number {
  if (s.status !== 'FINISHED') return 0;
  return s.config.buyIn * playersInPool(s) - s.payouts.reduce((a, p) => a + p.amount, 0);
}

/**
 * Refunds owed when the tournament is cancelled (or for the buy-ins now in escrow): every registered player before
 * the start, every playing player after it (the dropped single was refunded at the start). Free tournaments: none.
 */
export function refundsOf(s: TournamentState): { userId: string; amount: number }[] {
  if (s.config.buyIn <= 0) return [];
  const users =
    s.entrants.length > 0
      ? s.entrants.flatMap((e) => e.players.map((p) => p.userId))
      : s.registrations.map((r) => r.userId);
  return users.map((userId) => ({ userId, amount: s.config.buyIn }));
}
