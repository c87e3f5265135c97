/**
 * Game history, replays and invitations (issue #12): HTTP bodies and socket payloads.
 *
 * THE REPLAY DOCUMENT (`GET /api/games/:id/replay[?game=N][&download=1]`), schema `spades-replay`, version 1.
 * Only for a finished game (refused while it is in progress: it would reveal cards). Everything in it is public
 * once the game is over. Compatibility: a reader must check `schema === 'spades-replay'` and `version`; fields
 * may be ADDED within a version, never removed or changed in meaning (that needs version 2).
 *
 * - `actions`: every rules-engine action of the game in order, as the server applied it (`deal` with the hex
 *   seed, `reveal`, `bid`, `play`) and who made it. `createGame(settings)` followed by `apply` of each action
 *   reproduces the game exactly, ending at the final state (`result`). Forced bids are not actions: the engine
 *   places them itself (they appear in `hands[].bids` with `auto: true`).
 * - `hands`: per hand the revealed seed and its commitment (`sha256(seed)`, published when the hand was dealt;
 *   `dealFromSeed(seed)` recomputes `cards`), the dealer, the four hands as dealt (seat order 0-3, sorted),
 *   the bids in the order they were placed (blind nil: `bid: 0, blind: true`), the 13 tricks in play order
 *   with leader and winner, and the engine's score record (`score`: HandRecord, per side deltas and totals).
 * - `result`: the engine's GameResult (winner team/seat, final score per side, place per seat); `payouts`:
 *   coins paid per seat by the settlement of a rated game (null when unrated or not settled).
 */
import type { Card } from '../rules/cards';
import type { Seat } from '../rules/deal';
import type { GameSettings } from '../rules/settings';
import type { GameResult, HandRecord } from '../rules/state';

export const REPLAY_SCHEMA = 'spades-replay' as const;
export const REPLAY_SCHEMA_VERSION = 1 as const;

/** Who made an engine action: a seated human, the bot logic (bot or vacated seat), a timed-out human's turn, the server (deal). */
export type ReplayActor = 'human' | 'bot' | 'timeout' | 'server';

/** A rules-engine action as stored (JSON: the deal seed is a 64-char hex string). */
export type ReplayEngineAction =
  | { type: 'deal'; seed: string }
  | { type: 'reveal'; seat: Seat }
  | { type: 'bid'; seat: Seat; bid: number; blind?: boolean }
  | { type: 'play'; seat: Seat; card: Card };

export interface ReplayAction {
  by: ReplayActor;
  action: ReplayEngineAction;
}

export interface ReplayPlayer {
  seat: Seat;
  /** null for a bot or an empty seat. */
  userId: string | null;
  username: string;
  kind: 'human' | 'bot' | 'vacant';
}

export interface ReplayBid {
  seat: Seat;
  /** 0 = nil (also blind nil). */
  bid: number;
  blind: boolean;
  /** Placed by the engine (forced bid). */
  auto: boolean;
}

export interface ReplayTrick {
  /** 1..13 */
  number: number;
  leader: Seat;
  winner: Seat;
  cards: { seat: Seat; card: Card }[];
}

export interface ReplayHand {
  handNumber: number;
  dealer: Seat;
  /** 64 hex chars, revealed at the end of the hand. */
  seed: string;
  /** hex sha256(seed), published when the hand was dealt. */
  commitment: string;
  /** The four hands as dealt, by seat (sorted). */
  cards: Card[][];
  bids: ReplayBid[];
  tricks: ReplayTrick[];
  /** The engine's record of the hand (bids, tricks per seat, per-side scores). */
  score: HandRecord;
}

export interface GameReplay {
  schema: typeof REPLAY_SCHEMA;
  version: typeof REPLAY_SCHEMA_VERSION;
  gameId: string;
  /** Play Again keeps the table id: the N-th game played at the table. */
  gameNumber: number;
  finishedAt: string;
  rated: boolean;
  private: boolean;
  settings: GameSettings;
  players: ReplayPlayer[];
  hands: ReplayHand[];
  actions: ReplayAction[];
  result: GameResult;
  payouts: number[] | null;
}

/** One finished game in a player's history (`GET /api/users/:id/games`). */
export interface GameHistoryItem {
  gameId: string;
  gameNumber: number;
  finishedAt: string;
  mode: 'PARTNERS' | 'SOLO';
  /** Bidding variant as shown in the lobby: REG, WHIZ, MIRROR or the gimmick's name (e.g. 'BID 3'). */
  variant: string;
  settings: GameSettings;
  rated: boolean;
  /** The player's seat in that game. */
  seat: Seat;
  players: ReplayPlayer[];
  /** PARTNERS: the partner; SOLO: nobody. */
  partners: ReplayPlayer[];
  opponents: ReplayPlayer[];
  result: 'won' | 'lost';
  /** 1 = best (PARTNERS: 1 or 2). */
  place: number;
  /** Final score of the player's side, and of every side (per side: team 0/1 or seat). */
  score: number;
  finalScores: number[];
  /** Net coins of the game for the player: payout − buy-in (rated), 0 unrated; null while not settled. */
  coins: number | null;
  /** Rating change of the game, when ratings exist (null otherwise). */
  ratingChange: number | null;
}

export interface GameHistoryPage {
  items: GameHistoryItem[];
  page: number;
  pageSize: number;
  total: number;
}

export const HISTORY_PAGE_SIZE_DEFAULT = 20;
export const HISTORY_PAGE_SIZE_MAX = 100;

/** The table's invite link (host only): `url` opens the web client, `appUrl` the desktop app. */
export interface InviteLink {
  gameId: string;
  token: string;
  url: string;
  appUrl: string;
  /**
   * Issue #31: the host configured the public address (CLIENT_URL): `url` is built from it. When false, `url` is
   * built from the default and the client builds the link from the address it is actually using instead.
   */
  configured?: boolean;
}

/** An in-app invitation to a table (`game_invitation`, `GET /api/invitations`). */
export interface GameInvitation {
  gameId: string;
  from: { id: string; username: string; avatar: string | null };
  to: string;
  createdAt: number;
  /** A seat held for the invitee until `reservedUntil` (epoch ms), or null. */
  reservedSeat: number | null;
  reservedUntil: number | null;
  private: boolean;
  settings: GameSettings;
}

export interface InvitePlayerPayload {
  gameId: string;
  userId: string;
  /** Hold a free seat for the invitee for a short time (INVITE_RESERVATION_MS). */
  reserveSeat?: boolean;
}

export interface InvitationCancelled {
  gameId: string;
  reason: string;
}

export interface InvitationDeclined {
  gameId: string;
  userId: string;
  username: string;
}

/** Web and app invite links of a table. */
export function inviteUrls(clientUrl: string, gameId: string, token: string): { url: string; appUrl: string } {
  const q = `invite=${encodeURIComponent(token)}`;
  const id = encodeURIComponent(gameId);
  return { url: `${clientUrl.replace(/\/+$/, '')}/table/${id}?${q}`, appUrl: `spades://table/${id}?${q}` };
}

/**
 * A replay share link of a finished private game (issue #24, ruling 15): `POST/GET /api/games/:id/replay/shares`;
 * whoever holds `token` opens that one replay (`GET /api/shared-replays/:id?share=<token>`) until it is revoked.
 */
export interface ReplayShareLink {
  id: string;
  gameId: string;
  gameNumber: number;
  createdAt: string;
  /** The token to put in a link (`?share=`). */
  token: string;
  /**
   * The web client's route of the shared replay, `/replay/:id?game=N&share=<token>` (replaySharePagePath): the
   * client puts the address the player is using in front of it unless `configured` (issue #31, like InviteLink).
   * Older servers leave it out.
   */
  path?: string;
  /** The shared replay's address built from CLIENT_URL (or its default: see `configured`). */
  url: string;
  /** The host configured the public address (CLIENT_URL): `url` is the link to share as is. */
  configured?: boolean;
}

/** The web client's route of a shared replay (what a share link opens, after the server's address). */
export function replaySharePagePath(gameId: string, gameNumber: number, token: string): string {
  return `/replay/${encodeURIComponent(gameId)}?game=${gameNumber}&share=${encodeURIComponent(token)}`;
}

/** The HTTP path of a game's share links (list, create; `/:shareId` revokes). */
export function replaySharesPath(gameId: string): string {
  return `/api/games/${encodeURIComponent(gameId)}/replay/shares`;
}
