/**
 * Game payloads (spec §3 / §7), owned by the games module (issue #4). Every payload a client receives is
 * built by the server from the rules engine's redacted `viewFor` for that recipient: a player's own hand
 * appears only in their own payloads, spectators never get a hand, and the deal seed of a hand is only
 * revealed in `hand_completed` (its sha256 commitment is in `new_hand_started`).
 *
 * Server → client events (all carry `gameId`): game_update (TableView, after every change: it carries each bid
 * and card), new_hand_started, bidding_ready, trick_complete, clear_trick, hand_completed, game_over,
 * game_closed, seat_replacement_started, chat_message, games_updated (lobby list), error { message }.
 */
import type { Card } from '../rules/cards';
import type { Seat } from '../rules/deal';
import type { ErrorCode } from './wire-errors';
import type { GameSettings } from '../rules/settings';
import type { SideHandScore } from '../rules/state';
export type TableStatus = 'WAITING' | 'BIDDING' | 'PLAYING' | 'HAND_COMPLETED' | 'COMPLETED' | 'CLOSED';

export interface ListSeat {
  id: string;
  username: string;
  name: string;
  avatar: string | null;
  type: 'human' | 'bot';
  position: number;
}

/** GET /api/games item and games_updated entry (spec §3 Game list item). Never contains cards. */
export interface GameListItem {
  id: string;
  /** Lobby status: WAITING, else PLAYING (shown as IN PROGRESS). */
  status: 'WAITING' | 'PLAYING';
  /** The table's real state. */
  phase: TableStatus;
  minPoints: number;
  maxPoints: number;
  buyIn: number;
  gameMode: 'PARTNERS' | 'SOLO';
  players: (ListSeat | null)[];
  forcedBid: 'NONE' | 'BID4NIL' | 'BID3' | 'BIDHEARTS' | 'SUICIDE' | 'CRAZY ACES';
  specialRules: { assassin: boolean; screamer: boolean };
  rules: {
    gameType: 'REGULAR' | 'WHIZ' | 'MIRROR' | 'SOLO';
    allowNil: boolean;
    allowBlindNil: boolean;
    coinAmount: number;
  };
  hostId: string | null;
  rated: boolean;
  spectatorCount: number;
  createdAt: string;
  /** The table's full validated settings (public): lets the lobby show e.g. a SOLO table's WHIZ or MIRROR. */
  settings: GameSettings;
  /** Private table (issue #12): only listed for its members and invitees. */
  private?: boolean;
  /** Issue #27: a tournament match's table (seats reserved for its players; no Play Again). Absent: an ordinary table. */
  tournament?: TableTournamentLink;
}

/** Issue #27: the tournament a table belongs to (lobby badge, table view). */
export interface TableTournamentLink {
  tournamentId: string;
  matchId: string;
  name: string;
  /** Per seat: the user it is reserved for, null for a bot's seat. */
  reserved: (string | null)[];
}

/** A card in a trick: the card plus who played it (spec: "cards with playerIndex"). */
export interface WireTrickCard {
  playerIndex: number;
  suit: Card['suit'];
  rank: Card['rank'];
}

export interface TableSeat extends ListSeat {
  image: string | null;
  /** PARTNERS: 1 (seats 0,2, red) or 2 (seats 1,3, blue). SOLO: seat + 1. */
  team: number;
  tricks: number;
  bid: number | null;
  blind: boolean;
  handCount: number;
  isDealer: boolean;
  /** The recipient's own cards only; null for every other seat (and while withheld for blind nil). */
  hand: Card[] | null;
  timeouts: number;
}

export interface HandScoreSummary {
  handNumber: number;
  dealerIndex: number;
  team1Score: number;
  team2Score: number;
  team1Bags: number;
  team2Bags: number;
  team1TotalScore: number;
  team2TotalScore: number;
  /** Per seat: the score change of the seat's side this hand. */
  playerScores: number[];
  playerTotalScores: number[];
  playerBags: number[];
  tricksPerPlayer: number[];
  /** Per seat; blind nil is -1 (spec §9). */
  bids: number[];
  sides: SideHandScore[];
  /** The hand's deal seed (hex), revealed now: sha256(seed) === commitment; dealFromSeed(seed) gives the hands. */
  seed: string;
  commitment: string;
}

export interface TableView {
  id: string;
  gameId: string;
  status: TableStatus;
  gameNumber: number;
  hostId: string | null;
  rated: boolean;
  mySeat: number | null;
  viewer: 'player' | 'spectator';
  currentPlayer: string | null;
  currentPlayerIndex: number | null;
  players: (TableSeat | null)[];
  /** hands[mySeat] = own cards; every other entry is []. Spectators: all []. */
  hands: Card[][];
  handCounts: number[];
  /** Own cards withheld until `reveal_cards` (a blind nil is still possible). */
  handHidden: boolean;
  bidding: {
    bids: (number | null)[];
    blind: boolean[];
    autoBid: boolean[];
    nilBids: boolean[];
    currentBidderIndex: number | null;
    currentPlayer: string | null;
  };
  play: {
    currentTrick: WireTrickCard[];
    trickLeaderIndex: number | null;
    trickNumber: number;
    currentPlayerIndex: number | null;
    spadesBroken: boolean;
    tricks: number[];
    lastTrick: { winnerIndex: number; leaderIndex: number; cards: WireTrickCard[] } | null;
    /** A completed trick is on display (clear_trick pending). */
    trickPending: boolean;
  };
  /** Legal bids for the recipient when it is their turn to bid, else null. */
  legalBids: { bids: number[]; blindNil: boolean } | null;
  /** Legal cards for the recipient when it is their turn to play, else []. */
  legalCards: Card[];
  /** Issue #31: the recipient may claim the remaining tricks now (common's claimRefusal on its own view). */
  canClaim?: boolean;
  dealerIndex: number | null;
  handNumber: number;
  handCommitment: string | null;
  team1TotalScore: number;
  team2TotalScore: number;
  team1Bags: number;
  team2Bags: number;
  playerScores: number[];
  playerBags: number[];
  winningTeam: 'team1' | 'team2' | null;
  winningPlayer: number | null;
  places: number[] | null;
  /** Coins paid per seat by the settlement (rated games, after game over). */
  payouts: number[] | null;
  gameMode: 'PARTNERS' | 'SOLO';
  minPoints: number;
  maxPoints: number;
  buyIn: number;
  forcedBid: GameListItem['forcedBid'];
  specialRules: GameListItem['specialRules'];
  rules: GameListItem['rules'];
  settings: GameSettings;
  spectators: { id: string; username: string; avatar: string | null }[];
  /** Deadline (epoch ms) of the current human turn. */
  turnExpiresAt: number | null;
  seatReplacements: { seatIndex: number; expiresAt: number }[];
  lastHandSummary: HandScoreSummary | null;
  /** Every hand's summary of this game. Absent in an incremental `game_update` where it did not change. */
  history?: HandScoreSummary[];
  /** The table chat (capped). Absent in an incremental `game_update`: new messages arrive as `chat_message`. */
  chat?: GameChatMessage[];
  /** Private table (issue #12). */
  private?: boolean;
  /** Issue #27: a tournament match's table (no Play Again). Absent: an ordinary table. */
  tournament?: TableTournamentLink;
  /** Pending in-app invitations; `reservedUntil` (epoch ms) while a seat is held for the invitee. */
  invitations?: {
    userId: string;
    username: string;
    fromId: string;
    seatIndex: number | null;
    reservedUntil: number | null;
  }[];
  serverTime: number;
}

export interface GameChatMessage {
  id: string;
  gameId: string;
  /** 'system' for system messages. */
  userId: string;
  userName: string;
  message: string;
  /** Epoch ms. */
  timestamp: number;
  isGameMessage: true;
  /** Issue #31: a quick-chat preset (its id in QUICK_CHAT); clients with quick chat off hide it. */
  quick?: string;
}

/** hand_completed: the hand's score summary with the revealed seed. */
export interface HandSummary extends HandScoreSummary {
  gameId: string;
}
export type HandCompletedPayload = HandSummary;

export interface GameOver {
  gameId: string;
  winningTeam: 'team1' | 'team2' | null;
  winningPlayer: number | null;
  places: number[] | null;
  finalScores: number[];
  team1TotalScore: number;
  team2TotalScore: number;
  rated: boolean;
  payouts: number[] | null;
}

/** games_updated / GET /api/games item. */
export type GameSummary = GameListItem;
/** game_update payload and GET /api/games/:id body. */
export type GameUpdate = TableView;
export type GameStatus = TableStatus;

/** A card sent by a client: the engine's Card ({suit:'S',rank:14}), spec forms, or a code ("AS", "10H"). */
export type WireCard = Card | { suit: string; rank: string | number } | string;

/**
 * Client → server payloads. Every game action may carry `actionId` (any string ≤ 100 chars, unique per
 * action of that user at that table): a retry with the same id gets the original result and changes nothing.
 * `userId` fields sent by old clients are ignored: the identity is the socket's authenticated user.
 */
export interface GameIdPayload {
  gameId: string;
  actionId?: string;
}
export interface JoinGamePayload extends GameIdPayload {
  seat?: Seat;
  /** Invite token of a private table (from the invite link). */
  invite?: string;
}
export interface MakeBidPayload extends GameIdPayload {
  bid: number;
  /** true = blind nil (bid must be 0, cards not yet revealed). */
  blind?: boolean;
}
export interface PlayCardPayload extends GameIdPayload {
  card: WireCard;
}
export interface FillSeatPayload extends GameIdPayload {
  seatIndex: Seat;
}
export interface BotSeatPayload extends GameIdPayload {
  seatIndex: Seat;
  /** Must equal the authenticated user when present. */
  requesterId?: string;
}
export interface CreateGamePayload {
  settings: GameSettings;
  /** Issue #12: a private table (invitation only). */
  private?: boolean;
}
export interface GameChatInput extends GameIdPayload {
  message: string;
}

export interface BiddingReady {
  gameId: string;
  currentBidderIndex: number | null;
  currentPlayer: string | null;
}
export interface TrickComplete {
  gameId: string;
  trick: { winnerIndex: Seat; leaderIndex: Seat; cards: WireTrickCard[] };
  /** Completed tricks in this hand (1..13). */
  trickNumber: number;
  tricks: number[];
}
export interface NewHandStarted {
  gameId: string;
  handNumber: number;
  /** Only the recipient's own seat holds cards ([] while withheld for a possible blind nil); others []. */
  hands: Card[][];
  handHidden: boolean;
  dealerIndex: number | null;
  currentBidderIndex: number | null;
  /** hex sha256 of the hand's seed (revealed in hand_completed). */
  commitment: string | null;
}
export interface SeatReplacementStarted {
  gameId: string;
  seatIndex: number;
  /** Epoch ms when a bot takes the seat (a human may take it before). */
  expiresAt: number;
}
export interface GameClosed {
  gameId: string;
  reason: string;
}

/** Acknowledgement of client game actions. */
export type Ack = (
  result: { ok: true; [k: string]: unknown } | { ok: false; message: string; code?: ErrorCode },
) => void;
