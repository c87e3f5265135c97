/**
 * What the hand summary and the game result dialogs show, derived from the server's payloads: pure functions,
 * no React.
 */
import { dealFromSeed, normalizeSeed, payoutsFor, seedCommitment, cardEquals, sortHand } from '@spades/common';
import type { Card, GameSettings } from '@spades/common';

export interface GameOverModel {
  winningTeam: 'team1' | 'team2' | null;
  winningPlayer: number | null;
  places: number[] | null;
  finalScores: number[];
  rated: boolean;
  payouts: number[] | null;
}

export const ordinal = (n: number): string => `${n}${n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'}`;

/** SOLO seats by place (the server's places; else by score, ties sharing a place), best first. */
export function soloStandings(
  result: Pick<GameOverModel, 'places' | 'finalScores'>,
): { seat: number; place: number }[] {
  const seats = [0, 1, 2, 3];
  const score = (i: number) => result.finalScores[i] ?? 0;
  const place = (i: number) => result.places?.[i] ?? 1 + seats.filter((j) => score(j) > score(i)).length;
  return seats.map((seat) => ({ seat, place: place(seat) })).sort((a, b) => a.place - b.place || a.seat - b.seat);
}

/** The seats that won: the team's two seats (PARTNERS) or the one winner (SOLO); none for no winner. */
export function gameWinners(
  result: Pick<GameOverModel, 'winningTeam' | 'winningPlayer'>,
  gameMode: 'PARTNERS' | 'SOLO',
): number[] {
  if (gameMode === 'PARTNERS')
    return result.winningTeam === 'team1' ? [0, 2] : result.winningTeam === 'team2' ? [1, 3] : [];
  return result.winningPlayer !== null ? [result.winningPlayer] : [];
}

/** Clarification 2: coins actually won (server payouts; else common's payoutsFor for the places). */
export function gamePayouts(
  result: Pick<GameOverModel, 'payouts' | 'rated' | 'places'>,
  settings: GameSettings,
): number[] | null {
  return result.payouts ?? (result.rated && result.places ? payoutsFor(settings, { places: result.places }) : null);
}

/** The result dialog's title: "Red team wins!", "<name> wins!" or "Game over" without a winner. */
export function resultTitle(
  result: Pick<GameOverModel, 'winningTeam'>,
  gameMode: 'PARTNERS' | 'SOLO',
  winners: number[],
  name: (seat: number) => string,
): string {
  if (winners.length === 0) return 'Game over';
  if (gameMode === 'PARTNERS') return `${result.winningTeam === 'team1' ? 'Red' : 'Blue'} team wins!`;
  return `${name(winners[0])} wins!`;
}

/** A bid in the hand summary: '–' (none), 'BN (−1)' (blind nil), 'Nil' or the number. */
export const summaryBidText = (b: number | undefined): string =>
  b === undefined ? '–' : b === -1 ? 'BN (−1)' : b === 0 ? 'Nil' : String(b);

/** The bags shown: the count since the last 10-bag penalty (never negative). */
export const bagsShown = (bags: number): number => ((bags % 10) + 10) % 10;

export interface RevealedDealCheck {
  /** sha256(seed), hex. */
  recomputed: string;
  /** The four hands the seed deals, by seat (sorted). */
  hands: Card[][];
  commitmentMatches: boolean;
  /** Whether the player's 13 dealt cards are the seed's for their seat; null when not known. */
  handMatches: boolean | null;
}

/**
 * "Verify deal" at the table: recomputes the four hands from the revealed seed with common's dealFromSeed and
 * checks seedCommitment(seed) against the commitment published before the hand. Null for an invalid seed.
 */
export function checkRevealedDeal(
  seed: string,
  commitment: string | null,
  myDealt: Card[] | null,
  mySeat: number | null,
): RevealedDealCheck | null {
  const bytes = normalizeSeed(seed);
  if (!bytes) return null;
  const recomputed = seedCommitment(bytes);
  const hands = dealFromSeed(bytes);
  const mine = mySeat !== null && myDealt && myDealt.length === 13 ? sortHand(myDealt) : null;
  const handMatches = mine && mySeat !== null ? mine.every((c, i) => cardEquals(c, hands[mySeat][i])) : null;
  return {
    recomputed,
    hands,
    commitmentMatches: commitment !== null && recomputed === commitment.toLowerCase(),
    handMatches,
  };
}
