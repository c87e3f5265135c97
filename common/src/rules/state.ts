/**
 * The game state: a plain JSON-serialisable object (no classes, Maps or typed arrays; seeds are hex
 * strings) holding everything a server needs to persist and restore a game.
 *
 * Seats 0,1,2,3 are clockwise. PARTNERS: team 0 = seats 0 & 2 ("team1" in the spec's wire format),
 * team 1 = seats 1 & 3 ("team2"). SOLO: side = seat. Per-side arrays (`scores`, `bags`) have length 2
 * in PARTNERS and 4 in SOLO.
 */
import type { Card } from './cards';
import type { Seat } from './deal';
import type { GameSettings } from './settings';

export type Phase = 'WAITING' | 'BIDDING' | 'PLAYING' | 'HAND_COMPLETED' | 'COMPLETED';

export interface TrickCard {
  seat: Seat;
  card: Card;
}

export interface CompletedTrick {
  leader: Seat;
  cards: TrickCard[];
  winner: Seat;
}

/** One side's (team's or solo player's) result for one hand. */
export interface SideHandScore {
  /** Side index: team 0/1 (PARTNERS) or seat (SOLO). */
  side: number;
  seats: Seat[];
  /** Contract: sum of the side's non-nil bids. */
  bid: number;
  tricks: number;
  /** +10×bid if made, −10×bid if set, 0 if the contract is 0. */
  contractPoints: number;
  /** Bags (overtricks) taken this hand: max(0, tricks − bid) when made, else 0. Each is +1 point. */
  bagsTaken: number;
  /** Sum of the side's nil / blind nil results (±100 / ±200 each). */
  nilPoints: number;
  /** −100 per 10 accumulated bags (0, −100 or −200). */
  bagPenalty: number;
  /** Total score change: contractPoints + bagsTaken + nilPoints + bagPenalty. */
  delta: number;
  scoreBefore: number;
  scoreAfter: number;
  bagsBefore: number;
  /** Accumulated bags after penalties (always 0..9). */
  bagsAfter: number;
}

export interface HandRecord {
  handNumber: number;
  dealer: Seat;
  /** Hex seed of the hand: public once the hand is over (verify with verifySeedCommitment). */
  seed: string;
  commitment: string;
  /** Bids per seat; a nil (incl. blind nil) is 0. */
  bids: number[];
  blind: boolean[];
  /** true where the engine placed the bid automatically (forced bid). */
  autoBid: boolean[];
  tricksPerSeat: number[];
  sides: SideHandScore[];
}

export interface GameResult {
  /** PARTNERS: the winning team (0 = seats 0 & 2, 1 = seats 1 & 3). SOLO: null. */
  winnerTeam: 0 | 1 | null;
  /** SOLO: the winning seat. PARTNERS: null. */
  winnerSeat: Seat | null;
  /** Final score per side. */
  finalScores: number[];
  /** Place per seat (1 = best; ties share a place, competition ranking 1,2,2,4). PARTNERS: 1 or 2. */
  places: number[];
}

export interface GameState {
  version: 1;
  settings: GameSettings;
  phase: Phase;
  /** 0 before the first deal, then 1, 2, … */
  handNumber: number;
  dealer: Seat | null;
  /** Unplayed cards per seat (sorted). */
  hands: Card[][];
  /** Whether each seat has looked at its cards this hand (reveal action or a regular bid). */
  revealed: boolean[];
  /** Bid per seat this hand, null until bid; a nil (incl. blind nil) is 0. */
  bids: (number | null)[];
  blind: boolean[];
  autoBid: boolean[];
  /** Seat to act (bid or play), null outside BIDDING/PLAYING. */
  turn: Seat | null;
  /** Cards of the trick in progress, in play order. */
  trick: TrickCard[];
  trickLeader: Seat | null;
  /** Number of completed tricks in this hand (0..13) = 0-based index of the trick in progress. */
  trickNumber: number;
  spadesBroken: boolean;
  tricksWon: number[];
  lastTrick: CompletedTrick | null;
  /**
   * Completed tricks of the current hand, in order (public: every seat saw them played; bots count cards
   * from it). Optional only so that snapshots/literals from before this field stay valid; the engine always sets it.
   */
  handTricks?: CompletedTrick[];
  /** Cumulative score per side. */
  scores: number[];
  /** Accumulated bags per side after penalties (0..9). */
  bags: number[];
  /** Hex seed of the current hand (server only; never in a view). */
  handSeed: string | null;
  /** Hex SHA-256 of handSeed (public). */
  handCommitment: string | null;
  history: HandRecord[];
  result: GameResult | null;
}

export function isPartners(settings: GameSettings): boolean {
  return settings.gameMode === 'PARTNERS';
}

export function sideCount(settings: GameSettings): number {
  return isPartners(settings) ? 2 : 4;
}

/** Side of a seat: team (seat % 2) in PARTNERS, the seat itself in SOLO. */
export function sideOf(settings: GameSettings, seat: Seat): number {
  return isPartners(settings) ? seat % 2 : seat;
}

export function seatsOfSide(settings: GameSettings, side: number): Seat[] {
  return isPartners(settings) ? ([side, side + 2] as Seat[]) : [side as Seat];
}

export function partnerOf(seat: Seat): Seat {
  return ((seat + 2) % 4) as Seat;
}

export function nextSeat(seat: Seat): Seat {
  return ((seat + 1) % 4) as Seat;
}

export function isSeat(x: unknown): x is Seat {
  return x === 0 || x === 1 || x === 2 || x === 3;
}
