/**
 * Hand scoring and game end (spec §9 scoring text + issue decisions 1, 2, 6, 7).
 */
import type { Seat } from './deal';
import type { GameSettings } from './settings';
import { GameResult, seatsOfSide, sideCount, SideHandScore, isPartners } from './state';

export const NIL_POINTS = 100;
export const BLIND_NIL_POINTS = 200;
export const BAG_LIMIT = 10;
export const BAG_PENALTY = 100;

/**
 * Scores one hand for every side. Pure; the inputs are not modified.
 * - contract = sum of the side's non-nil bids; tricks = all tricks of the side (a nil bidder's tricks count too);
 * - made (tricks ≥ contract): +10 × contract and bags = tricks − contract (+1 each); set: −10 × contract, no bags;
 * - each nil: +100 if the bidder took no trick, else −100; blind nil ±200; added to the side;
 * - bags accumulate; every 10 cost 100 points and are removed (remainder carries).
 */
export function scoreHand(
  settings: GameSettings,
  bids: readonly number[],
  blind: readonly boolean[],
  tricksPerSeat: readonly number[],
  scores: readonly number[],
  bags: readonly number[],
): SideHandScore[] {
  const out: SideHandScore[] = [];
  const n = sideCount(settings);
  for (let side = 0; side < n; side++) {
    const seats = seatsOfSide(settings, side);
    let bid = 0;
    let tricks = 0;
    let nilPoints = 0;
    for (const s of seats) {
      tricks += tricksPerSeat[s];
      if (bids[s] === 0) {
        const v = blind[s] ? BLIND_NIL_POINTS : NIL_POINTS;
        nilPoints += tricksPerSeat[s] === 0 ? v : -v;
      } else {
        bid += bids[s];
      }
    }
    const made = tricks >= bid;
    const contractPoints = made ? 10 * bid : -10 * bid;
    const bagsTaken = made ? tricks - bid : 0;
    let bagsAfter = bags[side] + bagsTaken;
    let bagPenalty = 0;
    while (bagsAfter >= BAG_LIMIT) {
      bagsAfter -= BAG_LIMIT;
      bagPenalty -= BAG_PENALTY;
    }
    const delta = contractPoints + bagsTaken + nilPoints + bagPenalty;
    out.push({
      side,
      seats,
      bid,
      tricks,
      contractPoints,
      bagsTaken,
      nilPoints,
      bagPenalty,
      delta,
      scoreBefore: scores[side],
      scoreAfter: scores[side] + delta,
      bagsBefore: bags[side],
      bagsAfter,
    });
  }
  return out;
}

/**
 * Game end after a hand (decision 6): the game ends when any side has score ≥ maxPoints or ≤ minPoints,
 * unless the top score is tied (then another hand is played). Winner = highest score. Returns null if
 * the game goes on.
 */
export function gameOutcome(settings: GameSettings, scores: readonly number[]): GameResult | null {
  const ended = scores.some((s) => s >= settings.maxPoints || s <= settings.minPoints);
  if (!ended) return null;
  const top = Math.max(...scores);
  if (scores.filter((s) => s === top).length > 1) return null;
  const winnerSide = scores.indexOf(top);
  const places: number[] = [];
  for (let seat = 0; seat < 4; seat++) {
    const side = isPartners(settings) ? seat % 2 : seat;
    const mine = scores[side];
    // competition ranking among sides: 1 + number of sides with a strictly higher score
    places.push(1 + scores.filter((s) => s > mine).length);
  }
  return {
    winnerTeam: isPartners(settings) ? (winnerSide as 0 | 1) : null,
    winnerSeat: isPartners(settings) ? null : (winnerSide as Seat),
    finalScores: scores.slice(),
    places,
  };
}
