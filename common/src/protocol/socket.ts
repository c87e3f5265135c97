/**
 * socket.io event maps (spec §7), for `Server<ClientToServerEvents, ServerToClientEvents>` and
 * `Socket<ServerToClientEvents, ClientToServerEvents>` on the client.
 * Until a socket is authenticated (handshake `auth.token` or the `authenticate` event) every other event
 * is answered with `error { message }`.
 */
import type { ChatMessage, LobbyChatInput } from './chat';
import type { ErrorCode } from './wire-errors';
import type {
  Ack,
  BiddingReady,
  BotSeatPayload,
  CreateGamePayload,
  FillSeatPayload,
  GameChatInput,
  GameChatMessage,
  GameClosed,
  GameIdPayload,
  GameOver,
  GameSummary,
  GameUpdate,
  HandSummary,
  JoinGamePayload,
  MakeBidPayload,
  NewHandStarted,
  PlayCardPayload,
  SeatReplacementStarted,
  TrickComplete,
} from './games';
import type { GameInvitation, InvitationCancelled, InvitationDeclined, InvitePlayerPayload } from './replay';
import type { ClaimPayload, QuickChatInput } from './quick-chat';
import type { Announcement } from './settings';
import type { SanctionNotice } from './admin-sanctions';
import type {
  PartnerInvitation,
  PartnerUpdate,
  PlayBotsNowPayload,
  QuickPlayJoinPayload,
  QuickPlayMatched,
  QuickPlayStatus,
} from './matchmaking';
import type {
  TournamentMatchReady,
  TournamentsChanged,
  TournamentTableScores,
  TournamentView,
  UnwatchTournamentAck,
  WatchTournamentAck,
  WatchTournamentPayload,
} from './tournaments';

/** Handshake `auth` object. Only `token` is used; the server never trusts a client-sent userId. */
export interface SocketAuth {
  token?: string;
  userId?: string;
  username?: string;
  avatar?: string | null;
}

export interface AuthenticatePayload {
  token: string;
  userId?: string;
  username?: string;
}

export interface AuthenticatedPayload {
  success: boolean;
  userId?: string;
  message?: string;
}

export interface SocketErrorPayload {
  message: string;
  /** The event that caused it, when known. */
  event?: string;
  /**
   * A refusal's typed code (a rule: SPADES_NOT_BROKEN; a malformed payload: INVALID_PAYLOAD): clients react to the
   * code, never to the text.
   */
  code?: ErrorCode;
}

export interface FriendAddedPayload {
  userId: string;
  username: string;
}

export interface ClientToServerEvents {
  authenticate: (payload: AuthenticatePayload) => void;
  lobby_chat_message: (payload: LobbyChatInput) => void;
  chat_message: (payload: GameChatInput) => void;
  join_game: (payload: JoinGamePayload) => void;
  join_game_as_spectator: (payload: GameIdPayload) => void;
  create_game: (
    payload: CreateGamePayload,
    ack?: (res: { ok: true; gameId: string } | { ok: false; message: string }) => void,
  ) => void;
  start_game: (payload: GameIdPayload, ack?: Ack) => void;
  make_bid: (payload: MakeBidPayload, ack?: Ack) => void;
  play_card: (payload: PlayCardPayload, ack?: Ack) => void;
  /** Issue #31: claim the remaining tricks (only when `TableView.canClaim`; refused with `error` otherwise). */
  claim: (payload: ClaimPayload, ack?: Ack) => void;
  /** Issue #31: a quick-chat preset (QUICK_CHAT id), rate-limited like chat. */
  quick_chat: (payload: QuickChatInput, ack?: Ack) => void;
  start_new_hand: (payload: GameIdPayload, ack?: Ack) => void;
  play_again: (payload: GameIdPayload, ack?: Ack) => void;
  leave_game: (payload: GameIdPayload, ack?: Ack) => void;
  fill_seat_with_bot: (payload: FillSeatPayload, ack?: Ack) => void;
  setup_trick_completion_delay: (payload: GameIdPayload, ack?: Ack) => void;
  /** Games (not in the spec): look at the own cards, declining blind nil. */
  reveal_cards: (payload: GameIdPayload, ack?: Ack) => void;
  /** Games: socket versions of POST /api/games/:id/invite-bot(-midgame) and remove-bot(-midgame). */
  invite_bot: (payload: BotSeatPayload, ack?: Ack) => void;
  remove_bot: (payload: BotSeatPayload, ack?: Ack) => void;
  /** Issue #12: invite a friend to the table (seated players). */
  invite_player: (payload: InvitePlayerPayload, ack?: Ack) => void;
  decline_invitation: (payload: GameIdPayload, ack?: Ack) => void;
  /**
   * The client shows the lobby's table list: the server answers `games_updated` (the full list) once, then
   * sends `game_added` / `game_changed` / `game_removed` as tables change, and presence changes
   * (`presence_changed`). `{ full: true }`: instead of deltas, a `games_updated` full list at most once a second
   * while anything changed (for simple clients). Re-send after every reconnect.
   */
  watch_lobby: (payload?: WatchLobbyPayload, ack?: Ack) => void;
  /** The client left the lobby view (e.g. sat at a table): no more lobby list or presence traffic. */
  unwatch_lobby: (payload?: unknown, ack?: Ack) => void;
  /** Issue #28: quick play (common/src/protocol/matchmaking.ts). */
  quickplay_join: (
    payload: QuickPlayJoinPayload,
    ack?: (res: ({ ok: true } & QuickPlayStatus) | { ok: false; message: string }) => void,
  ) => void;
  quickplay_leave: (payload?: unknown, ack?: Ack) => void;
  quickplay_status: (
    payload?: unknown,
    ack?: (res: ({ ok: true } & QuickPlayStatus) | { ok: false; message: string }) => void,
  ) => void;
  quickplay_bots: (
    payload?: unknown,
    ack?: (res: { ok: true; gameId: string } | { ok: false; message: string }) => void,
  ) => void;
  play_bots_now: (
    payload: PlayBotsNowPayload,
    ack?: (res: { ok: true; gameId: string } | { ok: false; message: string }) => void,
  ) => void;
  partner_invite: (payload: { userId: string } & QuickPlayJoinPayload, ack?: Ack) => void;
  partner_accept: (payload: { fromId: string }, ack?: Ack) => void;
  partner_decline: (payload: { fromId: string }, ack?: Ack) => void;
  /** Issue #27: follow a tournament (`tournament_updated` on every change; the ack carries the current view). */
  watch_tournament: (payload: WatchTournamentPayload, ack?: (res: WatchTournamentAck) => void) => void;
  unwatch_tournament: (payload: WatchTournamentPayload, ack?: (res: UnwatchTournamentAck) => void) => void;
}

export interface WatchLobbyPayload {
  full?: boolean;
}

/** Users who came online / went offline since the last `presence_changed` (coalesced, lobby watchers only). */
export interface PresenceChanged {
  online: string[];
  offline: string[];
}

export interface ServerToClientEvents {
  authenticated: (payload: AuthenticatedPayload) => void;
  online_users: (userIds: string[]) => void;
  friendAdded: (payload: FriendAddedPayload) => void;
  lobby_chat_message: (message: ChatMessage) => void;
  chat_message: (payload: { gameId: string; message: GameChatMessage }) => void;
  games_updated: (games: GameSummary[]) => void;
  /** Lobby list deltas for sockets that `watch_lobby`: a new listed table, a changed one (whole item), a table gone. */
  game_added: (game: GameSummary) => void;
  game_changed: (game: GameSummary) => void;
  game_removed: (payload: { id: string; gameId: string }) => void;
  presence_changed: (payload: PresenceChanged) => void;
  game_update: (game: GameUpdate) => void;
  bidding_ready: (payload: BiddingReady) => void;
  trick_complete: (payload: TrickComplete) => void;
  clear_trick: (payload: GameIdPayload) => void;
  hand_completed: (payload: HandSummary) => void;
  new_hand_started: (payload: NewHandStarted) => void;
  seat_replacement_started: (payload: SeatReplacementStarted) => void;
  game_over: (payload: GameOver) => void;
  game_closed: (payload: GameClosed) => void;
  error: (payload: SocketErrorPayload) => void;
  /** Issue #12: an in-app invitation to a table (Join / Decline). */
  game_invitation: (payload: GameInvitation) => void;
  /** The table of a pending invitation closed. */
  game_invitation_cancelled: (payload: InvitationCancelled) => void;
  /** To the inviter: the invitee declined. */
  invitation_declined: (payload: InvitationDeclined) => void;
  /** Issue #24: the host removed you from a table before its start (`reason`: what to show). */
  removed_from_table: (payload: InvitationCancelled) => void;
  /**
   * Issue #24: the socket's session token expired; the server disconnects the socket right after. The client signs
   * out (like an HTTP 401) and shows the login page.
   */
  session_expired: (payload: SessionExpiredPayload) => void;
  /** Issue #25: the host's announcement banner changed (null: removed); also sent on connect while one is up. */
  announcement: (payload: Announcement | null) => void;
  /**
   * Issue #25: a moderator sanctioned this account (warn, mute, forced rename; a ban is sent right before the server
   * closes the socket). The text to show: `sanctionNoticeText(notice)`.
   */
  sanction_notice: (payload: SanctionNotice) => void;
  /**
   * Issue #31: to the player only, when their turn timer ran out and the server bid or played for them (the
   * table's other events tell everyone what was played). `seatLost`: this timeout cost them the seat.
   */
  turn_timed_out: (payload: TurnTimedOut) => void;
  /** Issue #28: quick play. */
  quickplay_status: (payload: QuickPlayStatus) => void;
  quickplay_matched: (payload: QuickPlayMatched) => void;
  quickplay_bot_offer: (payload: QuickPlayStatus) => void;
  partner_invitation: (payload: PartnerInvitation) => void;
  partner_update: (payload: PartnerUpdate) => void;
  /** Issue #27: a watched tournament changed (the same view for every watcher: no `me` / `nextMatch`). */
  tournament_updated: (payload: TournamentView) => void;
  /** Issue #27: to a match's players: your table is open, take your seat before `seatDeadline`. */
  tournament_match_ready: (payload: TournamentMatchReady) => void;
  /** Issue #27: to a tournament's watchers after each hand at one of its tables: that table's score now. */
  tournament_scores: (payload: TournamentTableScores) => void;
  /**
   * Issue #27: to lobby watchers (`watch_lobby`) on every node: these tournaments' lobby rows changed (created,
   * registrations, started, next round, finished, cancelled), coalesced over TOURNAMENTS_CHANGED_MS. No per-player
   * data: the client re-reads the lists (`GET /api/tournaments?status=…`) that show them.
   */
  tournaments_changed: (payload: TournamentsChanged) => void;
}

/** Issue #31: what the server did for a player whose turn timer ran out. */
export interface TurnTimedOut {
  gameId: string;
  seatIndex: number;
  /** The bid made (blind nil: `blind`) or the card played (code, e.g. "7C"), whichever the turn was. */
  action: { type: 'bid'; bid: number; blind: boolean } | { type: 'play'; card: string };
  /** Consecutive timeouts of this player now (1, 2, …). */
  timeouts: number;
  /** The number of consecutive timeouts that gives the seat to a bot (MAX_CONSECUTIVE_TIMEOUTS). */
  maxTimeouts: number;
  seatLost: boolean;
}

export interface SessionExpiredPayload {
  message: string;
}

/** The message of `session_expired`. */
export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please sign in again.';

export type ServerEventName = keyof ServerToClientEvents;
export type ClientEventName = keyof ClientToServerEvents;
/** The payload of a server → client event. */
export type ServerPayload<E extends ServerEventName> = Parameters<ServerToClientEvents[E]>[0];
/** The payload of a client → server event (what a well-behaved client sends; the server still validates it). */
export type ClientPayload<E extends ClientEventName> = Parameters<ClientToServerEvents[E]>[0];
/** One server → client event with its payload, as a discriminated union (e.g. a list of events to send). */
export type ServerEmit = { [E in ServerEventName]: { event: E; payload: ServerPayload<E> } }[ServerEventName];
