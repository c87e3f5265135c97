/**
 * The console's players area (issue #25): search, a player's page and the actions on a player (sanctions, lifting
 * them, revoking sessions, coin corrections, roles). Every route is under `/api/admin/…`, guarded on the server;
 * every action takes a `reason` (1–STAFF_REASON_MAX characters) and writes one audit entry.
 *
 * Routes (M = moderators and admins, A = admins only):
 *   GET  /api/admin/players?q=&limit=            M  PlayerSearchResult   (q: name, e-mail or account id)
 *   GET  /api/admin/players/:id                  M  PlayerDetail
 *   POST /api/admin/players/:id/sanctions        M  SanctionRequest (+ scope for a mute) → Sanction
 *   POST /api/admin/sanctions/:id/lift           M  LiftSanctionRequest → Sanction (mutes and bans only)
 *   POST /api/admin/players/:id/revoke-sessions  M  RevokeSessionsRequest → RevokeSessionsResult
 *   POST /api/admin/players/:id/coins            A  CoinCorrectionRequest → CoinCorrectionResult
 *   POST /api/admin/players/:id/role             A  RoleChangeRequest → RoleChangeResult
 *   GET  /api/admin/roles                        A  StaffList
 * And for the player themselves (any signed-in account):
 *   GET  /api/moderation/standing                   PlayerStanding (marks warnings/renames as seen)
 */
import type { AccountRoleName } from './admin';
import type { MuteScope, Sanction, SanctionNotice, SanctionRequest } from './admin-sanctions';

export const ADMIN_PLAYERS_PATH = '/api/admin/players';
export const ADMIN_SANCTIONS_PATH = '/api/admin/sanctions';
export const ADMIN_ROLES_PATH = '/api/admin/roles';
export const STANDING_PATH = '/api/moderation/standing';

/** GET /api/admin/players: at most this many results (default PLAYER_SEARCH_DEFAULT). */
export const PLAYER_SEARCH_MAX = 50;
export const PLAYER_SEARCH_DEFAULT = 20;
/** A player's page lists this many of the latest ledger entries, games, reports and sanctions. */
export const PLAYER_PAGE_ROWS = 20;
/** Largest coin correction in one action. */
export const COIN_CORRECTION_MAX = 1_000_000_000;

export interface PlayerSearchItem {
  id: string;
  username: string;
  email: string | null;
  role: AccountRoleName;
  createdAt: string;
  online: boolean;
  /** An active ban / mute right now. */
  banned: boolean;
  muted: boolean;
}

export interface PlayerSearchResult {
  players: PlayerSearchItem[];
}

export interface PlayerLedgerEntry {
  /** coin_entries id */
  id: string;
  at: string;
  /** Signed, as a decimal string (bigint): + received, − paid. */
  amount: string;
  /** e.g. 'registration_grant', 'buy_in', 'payout', 'staff_grant', 'staff_deduct' */
  reason: string;
  refId: string | null;
}

export interface PlayerGameItem {
  gameId: string;
  /** The table's game number (a table can play several games). */
  gameNumber: number;
  mode: string;
  rated: boolean;
  private: boolean;
  finishedAt: string;
  seat: number;
  /** Rating points won or lost (rated games), else null. */
  ratingChange: number | null;
}

export interface PlayerReportItem {
  id: string;
  category: string;
  status: string;
  createdAt: string;
  reporterId: string | null;
  reporterName: string | null;
  text: string | null;
}

export interface PlayerRatingSummary {
  /** The displayed rating (as on the leaderboard). */
  rating: number;
  ratedGames: number;
  gamesStarted: number;
  gamesFinished: number;
}

export interface PlayerSessions {
  online: boolean;
  /** Live sockets of the account (every node). */
  sockets: number;
  lastSignInAt: string | null;
  /** Session tokens issued before this time are refused. */
  sessionsRevokedAt: string | null;
}

/** GET /api/admin/players/:id */
export interface PlayerDetail {
  id: string;
  username: string;
  email: string | null;
  role: AccountRoleName;
  createdAt: string;
  avatar: string | null;
  discordLinked: boolean;
  /** null: never rated. */
  rating: PlayerRatingSummary | null;
  coins: { balance: string; ledger: PlayerLedgerEntry[] };
  games: PlayerGameItem[];
  /** null: this server has no reports yet (the reports table is missing). */
  reports: PlayerReportItem[] | null;
  sanctions: Sanction[];
  activeMute: SanctionNotice | null;
  activeBan: SanctionNotice | null;
  sessions: PlayerSessions;
}

/** POST /api/admin/players/:id/sanctions body: a SanctionRequest; a mute may say its scope (default 'all'). */
export type PlayerSanctionBody = SanctionRequest & { scope?: MuteScope };

export interface LiftSanctionRequest {
  reason: string;
}

export interface RevokeSessionsRequest {
  reason: string;
}

export interface RevokeSessionsResult {
  sessionsRevokedAt: string;
  /** Sockets closed now. */
  socketsClosed: number;
}

/** A ledger transfer from ('grant') or to ('deduct') the house; a deduct below zero is refused (400). */
export interface CoinCorrectionRequest {
  direction: 'grant' | 'deduct';
  /** Whole coins, 1–COIN_CORRECTION_MAX. */
  amount: number;
  reason: string;
}

export interface CoinCorrectionResult {
  transferId: string;
  /** The player's balance after the correction (decimal string). */
  balance: string;
}

/** 'user' revokes a staff role (the account becomes a Player). */
export interface RoleChangeRequest {
  role: AccountRoleName;
  reason: string;
}

export interface RoleChangeResult {
  id: string;
  username: string;
  role: AccountRoleName;
  before: AccountRoleName;
}

export interface StaffListItem {
  id: string;
  username: string;
  role: AccountRoleName;
}

export interface StaffList {
  staff: StaffListItem[];
}

/** GET /api/moderation/standing: what the signed-in player is told about their own account. */
export interface PlayerStanding {
  mute: SanctionNotice | null;
  /** Warnings and forced renames not shown before (each is returned once). */
  notices: SanctionNotice[];
}

// ------------------------------------------------------------------ the texts players and staff see

const pad = (n: number) => String(n).padStart(2, '0');

/** "2026-12-01 18:00 UTC" */
export function sanctionEndText(endsAt: string | Date): string {
  const d = typeof endsAt === 'string' ? new Date(endsAt) : endsAt;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

/** "Banned until 2026-12-01 18:00 UTC: cheating" / "Banned for good: cheating" (login refusals, socket closes). */
export function banMessage(n: Pick<SanctionNotice, 'endsAt' | 'reason'>): string {
  return `${n.endsAt ? `Banned until ${sanctionEndText(n.endsAt)}` : 'Banned for good'}: ${n.reason}`;
}

/**
 * "You are muted until 2026-12-01 18:00 UTC: spam" / "You are muted in lobby chat until a moderator reviews it: …"
 * (a lobby mute without an end: the automatic mute) / "You are muted for good: …".
 */
export function muteMessage(n: Pick<SanctionNotice, 'endsAt' | 'reason' | 'scope'>): string {
  const where = n.scope === 'lobby' ? ' in lobby chat' : '';
  const until = n.endsAt
    ? `until ${sanctionEndText(n.endsAt)}`
    : n.scope === 'lobby'
      ? 'until a moderator reviews it'
      : 'for good';
  return `You are muted${where} ${until}: ${n.reason}`;
}

/** The text of any notice, as the player's client shows it. */
export function sanctionNoticeText(n: SanctionNotice): string {
  switch (n.kind) {
    case 'ban':
      return banMessage(n);
    case 'mute':
      return muteMessage(n);
    case 'warn':
      return `A moderator warned you: ${n.reason}`;
    case 'rename':
      return `A moderator changed your name: ${n.reason}`;
  }
}
