/**
 * The console's Tables area (issue #25): live and recent tables (private ones included), closing a stuck table
 * and removing a player from a seat (a bot takes it). Routes under `/api/admin/tables` (moderators and admins).
 * Opening a table as a spectator uses the ordinary table routes (`POST /api/games/:id/spectate`, socket
 * `join_game_as_spectator`): staff may watch any table, private ones included, and never see a hidden card.
 */
import type { BiddingOption, GameMode } from '../rules/settings';
import { STAFF_REASON_MAX } from './admin';

/** Where a table is: open (waiting, playing, showing its result) or closed (recent). */
export type ConsoleTableStatus = 'WAITING' | 'BIDDING' | 'PLAYING' | 'HAND_COMPLETED' | 'COMPLETED' | 'CLOSED';

/** Filter of GET /api/admin/tables?status=: 'live' = every open table, 'playing' = a game running, 'recent' = closed. */
export type ConsoleTablesFilter = 'live' | 'waiting' | 'playing' | 'recent' | 'all';
export const CONSOLE_TABLE_FILTERS: readonly ConsoleTablesFilter[] = ['live', 'waiting', 'playing', 'recent', 'all'];

/** One seat: a human (with id), a bot, or empty (`vacantUntil` = a running game's seat-replacement deadline). */
export interface ConsoleTableSeat {
  seat: number;
  kind: 'human' | 'bot' | 'empty';
  userId: string | null;
  username: string | null;
  /** Epoch ms when a bot takes a vacated seat, else null. */
  vacantUntil: number | null;
}

/** One row of the console's table list. */
export interface ConsoleTableItem {
  id: string;
  status: ConsoleTableStatus;
  /** GameSettings.gameMode. */
  mode: GameMode;
  /** GameSettings.biddingOption (REG, WHIZ, MIRROR, GIMMICK). */
  biddingOption: BiddingOption;
  buyIn: number;
  private: boolean;
  /** Four humans at the start: buy-ins in escrow, settled exactly once. */
  rated: boolean;
  seats: ConsoleTableSeat[];
  spectators: { userId: string; username: string }[];
  hostId: string | null;
  /** Hand number within the current game (0 before the first deal). */
  handNumber: number;
  gameNumber: number;
  createdAt: string;
  /** When the table closed (recent tables), else null. */
  closedAt: string | null;
  closedReason: string | null;
  /** 'none' | 'pending' | 'done' (a rated game's settlement). */
  settlement: string;
  /** The node that drives the table (cluster mode), else null. */
  node: string | null;
}

/** GET /api/admin/tables?status=live|waiting|playing|recent|all&mode=PARTNERS|SOLO&player=<name or id>&limit= */
export interface ConsoleTablesQuery {
  status?: ConsoleTablesFilter;
  mode?: GameMode;
  /** A user id or a (part of a) username seated or watching. */
  player?: string;
  limit?: number;
}

export interface ConsoleTablesPage {
  tables: ConsoleTableItem[];
  /** Open tables on every node at the time of the request (before filters). */
  liveCount: number;
}

/** POST /api/admin/tables/:id/close */
export interface ConsoleCloseTableRequest {
  reason: string;
}

/** POST /api/admin/tables/:id/remove-player */
export interface ConsoleRemovePlayerRequest {
  userId: string;
  reason: string;
}

/** Answer of close / remove-player: the table as it is afterwards. */
export interface ConsoleTableActionResult {
  ok: true;
  table: ConsoleTableItem;
}

/** Typed messages of the Tables area (HTTP 400/404 `{ message }`). */
export const CONSOLE_TABLE_ERRORS = {
  NOT_FOUND: 'Table not found',
  ALREADY_CLOSED: 'This table is already closed',
  NOT_AT_TABLE: 'This player is not seated or watching at this table',
  BAD_FILTER: 'status must be live, waiting, playing, recent or all',
  BAD_MODE: 'mode must be PARTNERS or SOLO',
  BAD_LIMIT: 'limit must be 1–200',
  BAD_USER: 'userId must be an account id',
  REASON_REQUIRED: `A reason of 1–${STAFF_REASON_MAX} characters is required`,
} as const;

/** What the table chat says when staff act (the reason itself goes to the player and the audit log only). */
export const CONSOLE_TABLE_CLOSED_REASON = 'Closed by a moderator';
