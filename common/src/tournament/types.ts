/**
 * Issue #27: tournaments — the types of the pure, event-sourced tournament engine (`./engine.ts`). A tournament is
 * a state plus an append-only list of events; `applyTournament(state, event)` is the only way to change it, and the
 * backend stores exactly those events (restart = replay). Nothing here reads a clock or a random source: times come
 * in on the events, pairing is by rating with the registration order as the tie-break.
 */
import type { GameMode, GameSettings } from '../rules/settings';

export type TournamentKind = 'sit_and_go' | 'scheduled';
export type TournamentStatus = 'REGISTERING' | 'RUNNING' | 'FINISHED' | 'CANCELLED';
export type TournamentSize = 8 | 16;

/** The rules every table of the tournament plays (the table's own buy-in is 0: coins move through the tournament). */
export type TournamentRules = Omit<GameSettings, 'buyIn' | 'gameMode'>;

export interface TournamentConfig {
  name: string;
  kind: TournamentKind;
  mode: GameMode;
  /** Players (not teams): 8 or 16. */
  size: TournamentSize;
  /** Coins per player. 0 = a free tournament (no escrow, no prizes). */
  buyIn: number;
  rules: TournamentRules;
  /** Percent of the prize pool per final place (1st, 2nd, …); integers summing to 100. */
  prizeSplit: number[];
  /** Scheduled only: epoch ms of the start; registration closes then (no late registration). */
  startsAt: number | null;
  /** Scheduled only: epoch ms registration opens (null = at creation). */
  registrationOpensAt: number | null;
  /** Players needed at the start time (scheduled); a sit-and-go needs `size`. */
  minEntrants: number;
  /** Time a match's players have to take their seats before a walkover, ms. */
  noShowMs: number;
  createdBy: string;
}

export interface Registration {
  userId: string;
  username: string;
  rating: number;
  /** PARTNERS: registered together with this partner (both rows carry each other's id), else null. */
  partnerId: string | null;
  at: number;
}

/** A player (SOLO) or a team of two (PARTNERS). */
export interface Entrant {
  id: string;
  players: { userId: string; username: string; rating: number }[];
  /** 1 = strongest. */
  seed: number;
}

export type MatchStatus = 'PENDING' | 'SEATING' | 'PLAYING' | 'DONE';

export interface MatchResult {
  /** Entrant ids that go on (PARTNERS: 1, SOLO: up to 2; the final: the winner / the top two). */
  advanced: string[];
  /** Place of each entrant that took part in this match (1 = best); no-shows get the last places. */
  places: Record<string, number>;
  walkover: boolean;
  /**
   * The table closed without a finished game (staff closed a stuck table): decided by the score at that moment
   * (`closedMatchResult`). Unset on results before this rule existed.
   */
  closed?: boolean;
  gameId: string | null;
  /** Final score per entrant, when a game was played (closed: the score when the table closed). */
  scores: Record<string, number> | null;
}

export interface Match {
  /** `r<round>m<index>`, e.g. `r1m0`. */
  id: string;
  round: number;
  /** PARTNERS: two team ids. SOLO: up to four player ids (fewer when earlier tables sent fewer on). */
  entrantIds: string[];
  status: MatchStatus;
  /** The table, once opened. */
  gameId: string | null;
  /** Epoch ms after which a missing player/team forfeits (walkover). */
  seatDeadline: number | null;
  result: MatchResult | null;
  /**
   * Entrant ids seated when the game started (`match_started.present`); absent ones were replaced by bots, are not
   * ranked by the game and take the last places. Unset = everybody was seated.
   */
  present?: string[];
}

export interface Round {
  number: number;
  matches: Match[];
}

export interface Standing {
  entrantId: string;
  place: number;
}

export interface Payout {
  userId: string;
  amount: number;
  place: number;
}

export interface TournamentState {
  id: string;
  config: TournamentConfig;
  status: TournamentStatus;
  createdAt: number;
  registrations: Registration[];
  entrants: Entrant[];
  rounds: Round[];
  /** Final standings (FINISHED). */
  standings: Standing[];
  /** Prizes paid (FINISHED). */
  payouts: Payout[];
  startedAt: number | null;
  finishedAt: number | null;
  cancelReason: string | null;
}

export type TournamentEvent =
  | { type: 'registered'; at: number; players: { userId: string; username: string; rating: number }[] }
  | { type: 'unregistered'; at: number; userId: string }
  | { type: 'started'; at: number }
  | { type: 'cancelled'; at: number; reason: string }
  | { type: 'match_opened'; at: number; matchId: string; gameId: string; seatDeadline: number }
  /** `present`: entrant ids fully seated when the game started (SOLO with bots); omitted = all of them. */
  | { type: 'match_started'; at: number; matchId: string; present?: string[] }
  /** A played game: the place (1..4) of each entrant seated (by entrant id) and the scores. */
  | {
      type: 'match_played';
      at: number;
      matchId: string;
      places: Record<string, number>;
      scores: Record<string, number>;
    }
  /** No game: `present` = entrant ids fully seated at the deadline. */
  | { type: 'match_walkover'; at: number; matchId: string; present: string[] }
  /**
   * The match's table closed (or was abandoned) without a finished game, from SEATING or PLAYING: decided by
   * `scores` (entrant id → the score when it closed; none = 0) — `closedMatchResult`.
   */
  | { type: 'match_closed'; at: number; matchId: string; scores: Record<string, number> };

export type TournamentErrorCode =
  | 'NOT_REGISTERING'
  | 'ALREADY_REGISTERED'
  | 'NOT_REGISTERED'
  | 'FULL'
  | 'PARTNER_REQUIRED'
  | 'PARTNER_NOT_ALLOWED'
  | 'NOT_RUNNING'
  | 'UNKNOWN_MATCH'
  | 'MATCH_STATE'
  | 'BAD_RESULT'
  | 'TOO_FEW_ENTRANTS'
  | 'BAD_CONFIG'
  /** A malformed event (unknown type, missing or ill-typed fields). */
  | 'BAD_EVENT';

export type TournamentApplyResult =
  { ok: true; state: TournamentState } | { ok: false; error: TournamentErrorCode; message: string };
