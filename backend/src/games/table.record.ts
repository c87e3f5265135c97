/**
 * The table's record and its small predicates (no I/O, no rules): the types every games file shares and the
 * questions "who sits where" that the access rule, the lobby and the machine all ask. Split from table.ts so the
 * access rule (table.access.ts) can read a record without importing the machine that uses the rule.
 */
import type {
  CompletedTrick,
  ErrorCode,
  GameAction,
  GameInvitation,
  GameSettings,
  GameState,
  HandRecord,
  Seat,
  ServerEmit,
} from '@spades/common';
import { randomBytes } from 'node:crypto';
import type { EntityManager } from 'typeorm';

export type TableStatus = 'WAITING' | 'BIDDING' | 'PLAYING' | 'HAND_COMPLETED' | 'COMPLETED' | 'CLOSED';

export interface Participant {
  userId: string;
  username: string;
  avatar: string | null;
}

export interface SeatOccupant extends Participant {
  kind: 'human' | 'bot';
  /** Issue #28: a bot seated by "Play bots now" / a bot offer plays as this common bot (else BOT_LEVEL). */
  level?: string;
}

export type FlowKind = 'turn' | 'bot' | 'clearTrick' | 'nextHand' | 'result';

export interface FlowTimer {
  kind: FlowKind;
  /** Epoch ms at which the server acts. */
  at: number;
  /** Identifies the situation the timer belongs to (kept while the situation is unchanged). */
  key: string;
}

export interface ChatMessage {
  id: string;
  gameId: string;
  userId: string;
  userName: string;
  message: string;
  timestamp: number;
  isGameMessage: true;
  /** Issue #31: a quick-chat preset id (the text is the preset's). */
  quick?: string;
}

/** An in-app invitation to the table (issue #12); `seat` is held for the invitee until `reservedUntil`. */
export interface PendingInvitation {
  userId: string;
  username: string;
  fromId: string;
  fromName: string;
  fromAvatar: string | null;
  createdAt: number;
  seat: Seat | null;
  reservedUntil: number | null;
}

export interface TableRecord {
  id: string;
  createdAt: number;
  status: TableStatus;
  settings: GameSettings;
  seats: (SeatOccupant | null)[];
  spectators: Participant[];
  /** Rated: four humans started the current game; their buy-ins are in escrow. */
  rated: boolean;
  /** Humans who paid a buy-in for the current game (rated games only), by seat at the start. */
  participants: { seat: Seat; userId: string; username: string }[];
  /** Rated participants who left or were removed: they forfeit their buy-in even if they sit again. */
  forfeited?: string[];
  /** 1 for the first game at this table, +1 on every Play Again. */
  gameNumber: number;
  engine: GameState;
  flow: FlowTimer | null;
  /** Seat replacement countdown per seat (epoch ms when a bot takes the seat), null if none. */
  replacements: (number | null)[];
  /** Consecutive turn timeouts per seat. */
  timeouts: number[];
  /** Users for whom '{name} joined the game.' was posted during the current game (reset by Play Again). */
  announced: string[];
  /**
   * Users who left this table (or lost their seat): a socket `join_game` (e.g. re-sent after a reconnect) never
   * seats them again; only an explicit join (HTTP POST /join) does. Optional: older snapshots lack it.
   */
  departed?: string[];
  chat: ChatMessage[];
  /** Humans who asked for the next hand (start_new_hand) during HAND_COMPLETED. */
  handAcks: string[];
  /** Humans who pressed Play Again during COMPLETED. */
  playAgain: string[];
  /** A completed trick is on display (clear_trick pending). */
  trickPending: boolean;
  /** Settlement of the current game: none (unrated / not over), pending, done. */
  settlement: 'none' | 'pending' | 'done';
  /** Coins paid per seat by the last settlement (for the result dialog). */
  payouts: number[] | null;
  closedReason: string | null;
  finishedAt: number | null;
  /** Private table (issue #12): listed for members and invitees only, entered only with an invitation. Optional: older snapshots lack it. */
  private?: boolean;
  /** The invite link's secret (null/absent: no link, or revoked). */
  inviteToken?: string | null;
  /** Pending in-app invitations (cleared when the table closes). */
  invitations?: PendingInvitation[];
  /** Users admitted to a private table by an invitation (they may come back without it). */
  admitted?: string[];
  /** Issue #28: a human's turn at this table (quick play's fast pace); absent: TURN_TIMEOUT_MS. */
  turnMs?: number;
  /** Users the host removed before the start (issue #24): not admitted again by the invite link; a new in-app invitation from the host lifts it. */
  removed?: string[];
  /**
   * Issue #27: a tournament match's table (tournament-tables.ts): its link, and the user each seat is reserved for
   * (null: a bot's seat). Absent/null: an ordinary table.
   */
  tournament?: TableTournament | null;
}

/** Issue #27: which tournament match a table plays. */
export interface TournamentLink {
  tournamentId: string;
  matchId: string;
}

/** Issue #27: the tournament part of a table record (set at opening, never changed). */
export interface TableTournament extends TournamentLink {
  /** The tournament's name (the lobby badge). */
  name: string;
  /** Per seat: the only user who may sit there, or null for a bot's seat. */
  reserved: (string | null)[];
}

export const SEAT_RESERVED = 'That seat is reserved for an invited player';

/** The `game_invitation` payload of a pending invitation. */
export function invitationPayload(rec: TableRecord, i: PendingInvitation): GameInvitation {
  return {
    gameId: rec.id,
    from: { id: i.fromId, username: i.fromName, avatar: i.fromAvatar },
    to: i.userId,
    createdAt: i.createdAt,
    reservedSeat: i.seat,
    reservedUntil: i.reservedUntil,
    private: rec.private === true,
    settings: rec.settings,
  };
}

/** A user-facing refusal: nothing changed. */
export class TableError extends Error {
  constructor(
    message: string,
    readonly status = 400,
    /** The refusal's typed code, sent with the message (HTTP `{ message, code }`, ack `{ ok: false, code }`). */
    readonly code?: ErrorCode,
  ) {
    super(message);
    this.name = 'TableError';
  }
}

export type Note =
  | { type: 'game_update' }
  | { type: 'new_hand_started' }
  | { type: 'bidding_ready' }
  | { type: 'trick_complete'; trick: CompletedTrick; trickNumber: number }
  | { type: 'clear_trick' }
  | { type: 'hand_completed'; record: HandRecord }
  | { type: 'game_over' }
  | { type: 'game_closed'; reason: string }
  | { type: 'seat_replacement_started'; seatIndex: number; expiresAt: number }
  | { type: 'chat_message'; message: ChatMessage };

/** Who made an engine move: a seated human, the bot logic for a bot/vacated seat, the bot logic for a timed-out human, or the server (deal). */
export type ActorKind = 'human' | 'bot' | 'timeout' | 'server';

/** One engine action applied to the table, as stored in the event log (replayable through `apply`). */
export interface AppliedAction {
  gameNumber: number;
  by: ActorKind;
  action: GameAction;
}

export interface Effects {
  notes: Note[];
  /** Events for single users outside the table's recipients (invitations). */
  direct: (ServerEmit & { userId: string })[];
  /** Engine actions applied by this command, in order (the event log's `actions`). */
  actions: AppliedAction[];
  /** Rated game started: move the buy-ins to escrow in the same transaction. */
  escrow: boolean;
  /** The lobby list changed. */
  lobby: boolean;
  /** The record's event-log entry type. */
  logType: string;
  /** Users whose game room membership changed (to leave them out of the next emission). */
  removedUsers: string[];
  /**
   * Issue #25: a write committed in the SAME transaction as the command's event row (the console's audit entry),
   * so the table change and its record commit together or not at all.
   */
  alsoWrite?: (m: EntityManager) => Promise<void>;
}

export function newEffects(logType: string): Effects {
  return { notes: [], direct: [], actions: [], escrow: false, lobby: false, logType, removedUsers: [] };
}

export const SEATS: readonly Seat[] = [0, 1, 2, 3];

export function isHuman(o: SeatOccupant | null | undefined): o is SeatOccupant {
  return !!o && o.kind === 'human';
}

export function humans(rec: TableRecord): SeatOccupant[] {
  return rec.seats.filter(isHuman);
}

/** Host: the seat-0 holder when human (spec §4), else the first seated human. */
export function hostId(rec: TableRecord): string | null {
  const s0 = rec.seats[0];
  if (isHuman(s0)) return s0.userId;
  return humans(rec)[0]?.userId ?? null;
}

export function seatOf(rec: TableRecord, userId: string): Seat | null {
  const i = rec.seats.findIndex((s) => s !== null && s.kind === 'human' && s.userId === userId);
  return i < 0 ? null : (i as Seat);
}

export function isSpectator(rec: TableRecord, userId: string): boolean {
  return rec.spectators.some((s) => s.userId === userId);
}

export function inGame(rec: TableRecord): boolean {
  return rec.status === 'BIDDING' || rec.status === 'PLAYING' || rec.status === 'HAND_COMPLETED';
}

/** An unguessable invite token (144 random bits, URL-safe). */
export function newInviteToken(): string {
  return randomBytes(18).toString('base64url');
}
