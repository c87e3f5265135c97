/**
 * Issue #27: tournaments on the wire. HTTP (identity from the token only):
 * - `GET /api/tournaments?status=open|running|finished` → `TournamentSummary[]`
 * - `GET /api/tournaments/:id` → `TournamentView` (for the caller: `me`, `nextMatch`)
 * - `POST /api/tournaments` `CreateTournamentInput` (kind `sit_and_go`, any player) → `TournamentView`
 * - `POST /api/tournaments/:id/register` `RegisterTournamentInput` → `TournamentView` (buy-in to escrow)
 * - `POST /api/tournaments/:id/unregister` → `TournamentView` (refund; before the start only)
 * - `GET /api/users/:id/tournaments` → `TournamentHistoryItem[]`
 * - console (moderator/admin): `POST /api/admin/tournaments` (kind `scheduled` by default, or `sit_and_go`), `POST /api/admin/tournaments/:id/cancel`
 *   `{ reason }` (refunds every buy-in; audited).
 * Socket (typed in `ClientToServerEvents` / `ServerToClientEvents`, socket.ts): client → server `watch_tournament` /
 * `unwatch_tournament` `{ tournamentId }` (acks `WatchTournamentAck` / `UnwatchTournamentAck`); server → client
 * `tournament_updated` (`TournamentView` without `me`/`nextMatch`: the same for every watcher), `tournament_scores`
 * (`TournamentTableScores`, to the watchers after each hand), `tournament_match_ready` (to the match's players: take
 * your seat before `seatDeadline`) and `tournaments_changed` (`TournamentsChanged`, to lobby watchers: re-read the
 * lists).
 */
import type { GameMode } from '../rules/settings';
import type { ErrorCode } from './wire-errors';
import type {
  Entrant,
  Payout,
  Standing,
  TournamentKind,
  TournamentRules,
  TournamentSize,
  TournamentStatus,
} from '../tournament/types';

/** The caller's part in a tournament. */
export interface TournamentMe {
  /** Registered (and not dropped at the start as the odd single of a PARTNERS tournament). */
  registered: boolean;
  /** PARTNERS: the partner's user id (registered together, or paired at the start), else null. */
  partnerId: string | null;
  /** Beaten (out of the tournament; FINISHED: everybody but the winner). */
  eliminated: boolean;
}

export interface TournamentSummary {
  id: string;
  name: string;
  kind: TournamentKind;
  mode: GameMode;
  size: TournamentSize;
  buyIn: number;
  status: TournamentStatus;
  /** Players registered (REGISTERING) or playing. */
  registered: number;
  /** Prize pool if it filled / as it stands: floor(players × buyIn × 0.9). */
  prizePool: number;
  prizeSplit: number[];
  startsAt: number | null;
  registrationOpensAt: number | null;
  minEntrants: number;
  createdAt: number;
  createdByName: string;
  /** The round being played (RUNNING), 1-based, and the number of rounds. */
  round: number | null;
  roundCount: number;
  /**
   * The caller's part: always set in `GET /api/tournaments` (registered false when not), so the lobby needs no view
   * per tournament; on the tournament view see `TournamentView.me`.
   */
  me?: TournamentMe | null;
}

export interface TournamentMatchView {
  id: string;
  round: number;
  status: 'PENDING' | 'SEATING' | 'PLAYING' | 'DONE';
  entrantIds: string[];
  gameId: string | null;
  seatDeadline: number | null;
  /** Live score per entrant while the game runs (from the table), or the final score. */
  scores: Record<string, number> | null;
  advanced: string[];
  places: Record<string, number> | null;
  walkover: boolean;
  /**
   * The table closed without a finished game (staff closed it): decided by `scores` at that moment, ties by seed.
   * Absent from servers before this rule.
   */
  closed?: boolean;
  /** SOLO: the entrants seated when the game started (the others were replaced by bots); absent = all of them. */
  present?: string[];
}

export interface TournamentView extends TournamentSummary {
  rules: TournamentRules;
  noShowMs: number;
  registrations: { userId: string; username: string; partnerId: string | null }[];
  entrants: Entrant[];
  rounds: { number: number; matches: TournamentMatchView[] }[];
  standings: Standing[];
  payouts: Payout[];
  startedAt: number | null;
  finishedAt: number | null;
  cancelReason: string | null;
  /** The caller (HTTP only); null when not registered. */
  me?: TournamentMe | null;
  /** The caller's next or current match (HTTP only). */
  nextMatch?: { matchId: string; gameId: string | null; seatDeadline: number | null } | null;
}

export interface CreateTournamentInput {
  name: string;
  mode: GameMode;
  size: TournamentSize;
  buyIn: number;
  /** Percent per place, integers summing to 100 (default: DEFAULT_PRIZE_SPLIT[mode]). */
  prizeSplit?: number[];
  rules?: Partial<TournamentRules>;
  /** Console only. */
  kind?: TournamentKind;
  startsAt?: number | null;
  registrationOpensAt?: number | null;
  minEntrants?: number;
  noShowMs?: number;
}

export interface RegisterTournamentInput {
  /** PARTNERS: register as a team with this friend (both must have the coins); omit to be paired at the start. */
  partnerId?: string;
}

export interface WatchTournamentPayload {
  tournamentId: string;
}

/** A refused `watch_tournament` / `unwatch_tournament` (also sent as `error { message, event, code }`). */
export interface TournamentAckRefused {
  ok: false;
  message: string;
  code?: ErrorCode;
}

/** The ack of `watch_tournament`: the view now (the same for every watcher: no `me` / `nextMatch`). */
export type WatchTournamentAck = { ok: true; tournament: TournamentView } | TournamentAckRefused;
export type UnwatchTournamentAck = { ok: true } | TournamentAckRefused;

/** The lobby's tournament lists: `GET /api/tournaments?status=` (open: REGISTERING, finished: also CANCELLED). */
export type TournamentListStatus = 'open' | 'running' | 'finished';

/** The lobby list a tournament of this status is in. */
export function tournamentListOf(status: TournamentStatus): TournamentListStatus {
  return status === 'REGISTERING' ? 'open' : status === 'RUNNING' ? 'running' : 'finished';
}

/**
 * Socket `tournaments_changed`, to lobby watchers: the lobby rows of these tournaments changed (created, registered
 * count, started, round, finished, cancelled). Public fields only, never a player's part (`me`): clients re-read
 * the lists they show — the one of `status` and any list that had the tournament (a status change moves the row).
 */
export interface TournamentsChanged {
  tournaments: { id: string; status: TournamentStatus }[];
}

/** Socket `tournaments_changed` is coalesced on the server over this window. */
export const TOURNAMENTS_CHANGED_MS = 1000;

/**
 * Issue #27: a tournament table's score after a hand (socket `tournament_scores`, to `watch_tournament` sockets).
 * The tournament page shows it on the match until the match's result arrives in `tournament_updated`.
 */
export interface TournamentTableScores {
  tournamentId: string;
  matchId: string;
  gameId: string;
  /** Hands played at the table so far. */
  handNumber: number;
  /** Each seat's score (PARTNERS: its team's). The match's entrant i sits at seat i. */
  scoresBySeat: number[];
}

export interface TournamentMatchReady {
  tournamentId: string;
  name: string;
  matchId: string;
  gameId: string;
  round: number;
  seatDeadline: number;
}

export interface TournamentHistoryItem {
  tournamentId: string;
  name: string;
  mode: GameMode;
  size: TournamentSize;
  status: TournamentStatus;
  finishedAt: number | null;
  place: number | null;
  prize: number;
  /** Every game the player played in it (replay links: /replay/:gameId). */
  games: { matchId: string; round: number; gameId: string }[];
}
