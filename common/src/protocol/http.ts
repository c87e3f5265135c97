/**
 * HTTP contracts (spec §7). Every error response is `{ message: string }` with a 4xx/5xx status.
 */
import type { PlayerStanding } from './admin-players';
import { checkLineText, nameKey, normalizeName } from './text';

export interface ErrorResponse {
  message: string;
}

/** The signed-in user as the API returns it (register, login, profile). `coins` is the ledger balance. */
export interface User {
  id: string;
  username: string;
  /** null for Discord accounts without an e-mail address. */
  email: string | null;
  /** data URL (image/jpeg|png|webp) or null. */
  avatar: string | null;
  coins: number;
  /** Stats over all modes (spec §4 welcome dialog reads gamesPlayed). */
  stats: Stats;
  /** True when the account can sign in with Discord. */
  discordLinked: boolean;
  createdAt: string;
  /** The account's stored role (issue #24); absent from older servers. */
  role?: AccountRole;
  /**
   * Issue #25, GET /api/auth/profile only: the active chat mute and the warnings / forced renames not shown before
   * (each is returned once: show them when present).
   */
  standing?: PlayerStanding;
}

/** Roles stored on accounts (issue #24). Moderators get their powers with the console (a later issue). */
export type AccountRole = 'user' | 'moderator' | 'admin';

/** POST /api/admin/setup: redeem the one-time setup token printed in the server log when no admin exists. */
export interface AdminSetupRequest {
  token: string;
}

export interface AdminSetupResponse {
  role: AccountRole;
}

export interface RegisterRequest {
  username: string;
  email: string;
  password: string;
}

export interface LoginRequest {
  email: string;
  password: string;
}

export interface AuthResponse {
  token: string;
  user: User;
}

/** PUT /api/auth/profile; both optional, at least one. `avatar: null` removes the avatar. */
export interface UpdateProfileRequest {
  username?: string;
  avatar?: string | null;
}

export type ProfileResponse = User;

/** Validation limits enforced by the server (the client may reuse them). */
export const USERNAME_PATTERN = /^[A-Za-z0-9_-]{3,20}$/;
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 20;
export const USERNAME_MESSAGE = 'username must be 3–20 characters: letters, digits, _ or -';
/** A name whose look-alike key (`nameKey`) is another account's: refused on register and rename. */
export const USERNAME_TAKEN_MESSAGE = 'That username is already taken (or looks too much like one that is)';

/**
 * A username as stored, and its look-alike key: normalized (`normalizeName`: NFKC, zero-width stripped), refused
 * with the text rule it breaks (bidi, control, lone surrogate) or when it does not match USERNAME_PATTERN.
 */
export function checkUsername(
  input: unknown,
): { ok: true; username: string; key: string } | { ok: false; message: string } {
  if (typeof input !== 'string') return { ok: false, message: 'username must be a string' };
  const checked = checkLineText(input, 'username');
  if (!checked.ok) return { ok: false, message: checked.message };
  const username = normalizeName(checked.text);
  if (!USERNAME_PATTERN.test(username)) return { ok: false, message: USERNAME_MESSAGE };
  return { ok: true, username, key: nameKey(username) };
}
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const EMAIL_MAX = 254;
/** Decoded avatar size cap in bytes. */
export const AVATAR_MAX_BYTES = 512 * 1024;
export const AVATAR_MIME_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const STARTING_COINS = 5_000_000;

export type SocialStatus = 'friend' | 'blocked' | 'none';

/** GET /api/users item (spec §3 Lobby player). */
export interface LobbyPlayer {
  id: string;
  username: string;
  avatar: string | null;
  /** As seen by the caller: 'friend' / 'blocked' are the caller's own relations to this player. */
  status: SocialStatus;
  online: boolean;
  coins: number;
}

export type UsersResponse = LobbyPlayer[];

export interface FriendRequest {
  friendId: string;
}
export interface BlockRequest {
  blockId: string;
}
/** Response of every social endpoint: the new status of the target as seen by the caller. */
export interface SocialResponse {
  success: true;
  userId: string;
  status: SocialStatus;
}

/** spec §3 Stats: every field present (missing = 0). */
export interface Stats {
  gamesPlayed: number;
  gamesWon: number;
  nilsBid: number;
  nilsMade: number;
  blindNilsBid: number;
  blindNilsMade: number;
  totalBags: number;
  bagsPerGame: number;
  regPlayed: number;
  regWon: number;
  whizPlayed: number;
  whizWon: number;
  mirrorPlayed: number;
  mirrorWon: number;
  gimmickPlayed: number;
  gimmickWon: number;
  screamerPlayed: number;
  screamerWon: number;
  assassinPlayed: number;
  assassinWon: number;
}

export const STATS_COUNTER_FIELDS = [
  'gamesPlayed',
  'gamesWon',
  'nilsBid',
  'nilsMade',
  'blindNilsBid',
  'blindNilsMade',
  'totalBags',
  'regPlayed',
  'regWon',
  'whizPlayed',
  'whizWon',
  'mirrorPlayed',
  'mirrorWon',
  'gimmickPlayed',
  'gimmickWon',
  'screamerPlayed',
  'screamerWon',
  'assassinPlayed',
  'assassinWon',
] as const satisfies readonly (keyof Stats)[];

export function zeroStats(): Stats {
  return {
    gamesPlayed: 0,
    gamesWon: 0,
    nilsBid: 0,
    nilsMade: 0,
    blindNilsBid: 0,
    blindNilsMade: 0,
    totalBags: 0,
    bagsPerGame: 0,
    regPlayed: 0,
    regWon: 0,
    whizPlayed: 0,
    whizWon: 0,
    mirrorPlayed: 0,
    mirrorWon: 0,
    gimmickPlayed: 0,
    gimmickWon: 0,
    screamerPlayed: 0,
    screamerWon: 0,
    assassinPlayed: 0,
    assassinWon: 0,
  };
}

/** Fills missing / non-numeric fields with 0 (spec §3) and recomputes bagsPerGame. */
export function normalizeStats(partial: Partial<Record<keyof Stats, unknown>> | null | undefined): Stats {
  const s = zeroStats();
  for (const k of STATS_COUNTER_FIELDS) {
    const v = partial?.[k];
    s[k] = typeof v === 'number' && Number.isFinite(v) ? v : 0;
  }
  s.bagsPerGame = bagsPerGame(s.totalBags, s.gamesPlayed);
  return s;
}

/** Bags per game, two decimals (0 when no games). */
export function bagsPerGame(totalBags: number, gamesPlayed: number): number {
  return gamesPlayed > 0 ? Math.round((totalBags / gamesPlayed) * 100) / 100 : 0;
}

/** Win % (spec §3): gamesWon / gamesPlayed, rounded, 0 if none. Also used for nil % / blind nil %. */
export function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 100) : 0;
}

export type StatsModeFilter = 'ALL' | 'PARTNERS' | 'SOLO';
export const STATS_MODE_FILTERS: readonly StatsModeFilter[] = ['ALL', 'PARTNERS', 'SOLO'];

/** GET /api/users/:id/stats?mode=ALL|PARTNERS|SOLO → the Stats object itself (spec §7 "stats object"). */
export type StatsResponse = Stats;

export type LeaderboardBy = 'rating' | 'coins' | 'wins' | 'winRate';
export const LEADERBOARD_BY: readonly LeaderboardBy[] = ['rating', 'coins', 'wins', 'winRate'];
/** Minimum rated games to appear in the win-rate ranking. */
export const LEADERBOARD_MIN_GAMES_FOR_WIN_RATE = 10;
export const LEADERBOARD_SIZE = 100;

export interface LeaderboardEntry {
  rank: number;
  userId: string;
  username: string;
  avatar: string | null;
  coins: number;
  gamesPlayed: number;
  gamesWon: number;
  /** Percentage 0–100, rounded to one decimal. */
  winRate: number;
  /** Displayed skill rating (null: never rated) and whether it is provisional (issue #11). */
  rating: number | null;
  provisional: boolean;
}

/**
 * GET /api/leaderboard?by=rating|coins|wins|winRate. `me` is null only when the caller is not ranked (winRate < 10
 * games; rating: provisional players are not ranked).
 */
export interface LeaderboardResponse {
  by: LeaderboardBy;
  entries: LeaderboardEntry[];
  me: LeaderboardEntry | null;
}

export interface HealthResponse {
  status: 'ok';
  database: 'up';
}
