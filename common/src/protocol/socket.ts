/**
 * socket.io event maps (spec §7), for `Server<ClientToServerEvents, ServerToClientEvents>` and
 * `Socket<ServerToClientEvents, ClientToServerEvents>` on the client.
 * Until a socket is authenticated (handshake `auth.token` or the `authenticate` event) every other event
 * is answered with `error { message }`.
 */
import type { ChatMessage, LobbyChatInput } from './chat';
import type {
  Ack,
  BiddingComplete,
  BiddingReady,
  BiddingUpdate,
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
  PlayStart,
  PlayUpdate,
  SeatReplacementStarted,
  TrickComplete,
} from './games';
import type { GameInvitation, InvitationCancelled, InvitationDeclined, InvitePlayerPayload } from './replay';

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
  bidding_update: (payload: BiddingUpdate) => void;
  bidding_complete: (payload: BiddingComplete) => void;
  bidding_ready: (payload: BiddingReady) => void;
  play_start: (payload: PlayStart) => void;
  play_update: (payload: PlayUpdate) => void;
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
}

export interface SessionExpiredPayload {
  message: string;
}

/** The message of `session_expired`. */
export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please sign in again.';

export type ServerEventName = keyof ServerToClientEvents;
export type ClientEventName = keyof ClientToServerEvents;
