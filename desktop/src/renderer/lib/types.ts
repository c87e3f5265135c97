import { toListItemRules, validateSettings } from '@spades/common';
/**
 * Client-side shapes and defensive normalisers for what the server sends (spec §3). The wire types
 * live in common/src/protocol; the normalisers accept the spec's field variants (username or name,
 * avatar or image, buyIn or rules.coinAmount, gameMode or rules.gameType …) so the UI never crashes
 * on a missing field.
 */
import type { AccountRoleName, PlayerStanding, SocialStatus, Stats } from '@spades/common';

/** The wire types of spec §3, from common (one source for both ends). */
export type { SocialStatus, Stats };

export interface User {
  id: string;
  username: string;
  email?: string;
  avatar?: string | null;
  coins: number;
  stats?: Partial<Stats> | null;
  /** Issue #25: the stored role (a console link for staff) and the moderation standing sent with the profile. */
  role?: AccountRoleName;
  standing?: PlayerStanding;
}

export interface LobbyPlayer {
  id: string;
  username: string;
  avatar?: string | null;
  status: SocialStatus;
  online: boolean;
  coins: number;
}

export const STAT_KEYS: (keyof Stats)[] = [
  'gamesPlayed',
  'gamesWon',
  'nilsBid',
  'nilsMade',
  'blindNilsBid',
  'blindNilsMade',
  'totalBags',
  'bagsPerGame',
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
];

export interface SeatPlayer {
  id: string;
  username: string;
  avatar?: string | null;
  type: 'bot' | 'human';
}

export type GameStatus = 'WAITING' | 'BIDDING' | 'PLAYING' | 'HAND_COMPLETED' | 'COMPLETED' | string;

export interface GameListItem {
  id: string;
  status: GameStatus;
  minPoints: number;
  maxPoints: number;
  buyIn: number;
  gameMode: 'PARTNERS' | 'SOLO';
  players: (SeatPlayer | null)[];
  forcedBid: string;
  gameType: string;
  allowNil: boolean;
  allowBlindNil: boolean;
  assassin: boolean;
  screamer: boolean;
  rated?: boolean;
  phase: string;
  hostId: string | null;
  /** Private table (issue #12): listed only for its members and invitees. */
  private?: boolean;
}

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' ? (v as Record<string, unknown>) : {});
const num = (v: unknown, d = 0): number =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
      ? Number(v)
      : d;
const str = (v: unknown, d = ''): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : d);

export function normalizeUser(raw: unknown): User | null {
  const o = obj(raw);
  const id = str(o.id);
  if (!id) return null;
  return {
    id,
    username: str(o.username ?? o.name, 'Player'),
    email: typeof o.email === 'string' ? o.email : undefined,
    avatar: (typeof o.avatar === 'string' ? o.avatar : typeof o.image === 'string' ? o.image : null) || null,
    coins: num(o.coins),
    stats: o.stats && typeof o.stats === 'object' ? (o.stats as Partial<Stats>) : null,
    ...(o.role === 'user' || o.role === 'moderator' || o.role === 'admin' ? { role: o.role } : {}),
    ...(o.standing && typeof o.standing === 'object' ? { standing: o.standing as PlayerStanding } : {}),
  };
}

export function normalizeStatus(v: unknown): SocialStatus {
  return v === 'friend' || v === 'blocked' ? v : 'none';
}

export function normalizeLobbyPlayer(raw: unknown): LobbyPlayer | null {
  const o = obj(raw);
  const id = str(o.id);
  if (!id) return null;
  return {
    id,
    username: str(o.username ?? o.name, 'Player'),
    avatar: (typeof o.avatar === 'string' ? o.avatar : null) || null,
    status: normalizeStatus(o.status),
    online: o.online === true,
    coins: num(o.coins),
  };
}

/** Spec §3: missing values default to 0; regPlayed/regWon fall back to gamesPlayed/gamesWon. */
export function normalizeStats(raw: unknown): Stats {
  const o = obj(raw);
  const s = {} as Stats;
  for (const k of STAT_KEYS) s[k] = num(o[k]);
  if (o.regPlayed === undefined || o.regPlayed === null) s.regPlayed = s.gamesPlayed;
  if (o.regWon === undefined || o.regWon === null) s.regWon = s.gamesWon;
  return s;
}

export function normalizeSeatPlayer(raw: unknown): SeatPlayer | null {
  if (!raw || typeof raw !== 'object') return null;
  const o = obj(raw);
  const id = str(o.id ?? o.userId);
  const isBot = o.type === 'bot' || o.isBot === true || id.startsWith('bot');
  if (!id && !isBot) return null;
  return {
    id: id || 'bot',
    username: str(o.username ?? o.name ?? o.userName, isBot ? 'Bot' : 'Player'),
    avatar: (typeof o.avatar === 'string' ? o.avatar : typeof o.image === 'string' ? o.image : null) || null,
    type: isBot ? 'bot' : 'human',
  };
}

export function normalizeGame(raw: unknown): GameListItem | null {
  let o = obj(raw);
  const id = str(o.id);
  if (!id) return null;
  // common's GameSummary carries `settings` (GameSettings); derive the spec's list fields from it via common.
  if (o.settings && typeof o.settings === 'object' && !o.rules) {
    const v = validateSettings(o.settings);
    if (v.ok) o = { ...toListItemRules(v.settings), ...o, rules: toListItemRules(v.settings).rules };
  }
  const rules = obj(o.rules);
  const sr = obj(o.specialRules);
  const gameType = str(rules.gameType, 'REGULAR');
  const gameMode =
    o.gameMode === 'SOLO' || o.gameMode === 'PARTNERS' ? o.gameMode : gameType === 'SOLO' ? 'SOLO' : 'PARTNERS';
  const rawPlayers = Array.isArray(o.players) ? o.players : Array.isArray(o.seats) ? o.seats : [];
  const players: (SeatPlayer | null)[] = [0, 1, 2, 3].map((i) => normalizeSeatPlayer(rawPlayers[i]));
  const buyIn = num(o.buyIn, num(rules.coinAmount, 100000)) || 100000;
  // A SOLO table's rules.gameType is 'SOLO': its WHIZ / MIRROR comes from the settings (or a top-level biddingOption).
  const biddingOption = str(o.biddingOption) || str(obj(o.settings).biddingOption);
  return {
    id,
    status: str(o.status, 'WAITING'),
    phase: str(o.phase, str(o.status, 'WAITING')),
    hostId: typeof o.hostId === 'string' ? o.hostId : null,
    minPoints: num(o.minPoints, -100),
    maxPoints: num(o.maxPoints, 500),
    buyIn,
    gameMode,
    players,
    forcedBid: str(o.forcedBid, 'NONE'),
    gameType: biddingOption === 'WHIZ' ? 'WHIZ' : biddingOption === 'MIRROR' ? 'MIRROR' : gameType,
    allowNil: (rules.allowNil ?? sr.allowNil ?? true) !== false,
    allowBlindNil: (rules.allowBlindNil ?? sr.allowBlindNil ?? false) === true,
    assassin: sr.assassin === true,
    screamer: sr.screamer === true,
    rated: typeof o.rated === 'boolean' ? o.rated : undefined,
    private: o.private === true,
  };
}

/** Spec §2: the mode badge (REGULAR green; WHIZ blue; MIRRORS red; gimmicks orange with short labels). */
export function modeBadge(g: Pick<GameListItem, 'forcedBid' | 'gameType'>): {
  label: string;
  tone: 'green' | 'blue' | 'red' | 'orange';
} {
  const gimmickLabels: Record<string, string> = {
    BID4NIL: '4 OR NIL',
    '4 OR NIL': '4 OR NIL',
    BID3: 'BID 3',
    'BID 3': 'BID 3',
    BIDHEARTS: 'BID ♥s',
    'BID HEARTS': 'BID ♥s',
    SUICIDE: 'SUICIDE',
    'CRAZY ACES': 'CRAZY As',
    CRAZYACES: 'CRAZY As',
  };
  const g1 = gimmickLabels[g.forcedBid];
  if (g1) return { label: g1, tone: 'orange' };
  if (g.gameType === 'WHIZ') return { label: 'WHIZ', tone: 'blue' };
  if (g.gameType === 'MIRROR' || g.gameType === 'MIRRORS') return { label: 'MIRRORS', tone: 'red' };
  return { label: 'REGULAR', tone: 'green' };
}

export function statusBadge(status: GameStatus): 'WAITING' | 'IN PROGRESS' {
  return status === 'WAITING' ? 'WAITING' : 'IN PROGRESS';
}

export interface ChatMessage {
  id: string;
  userId: string;
  username: string;
  message: string;
  timestamp: number;
  system: boolean;
  /** Issue #31: a quick-chat preset id (hidden for players who turned quick chat off). */
  quick?: string;
}

/** Lobby (§3: username or userName) and game chat (userId 'system' = system message). Invalid → null (logged, ignored). */
export function normalizeChat(raw: unknown): ChatMessage | null {
  const o = obj(raw);
  const inner = o.message && typeof o.message === 'object' ? obj(o.message) : o;
  const message = str(inner.message ?? inner.text);
  if (!message) return null;
  const userId = str(inner.userId, '');
  const ts = inner.timestamp;
  return {
    id: str(inner.id, `${userId}-${String(ts)}-${message.slice(0, 8)}`),
    userId,
    username: str(inner.username ?? inner.userName, userId === 'system' ? 'System' : 'Player'),
    message,
    timestamp: typeof ts === 'number' ? ts : typeof ts === 'string' ? Date.parse(ts) || Date.now() : Date.now(),
    system: userId === 'system' || inner.isSystem === true || inner.system === true,
    ...(typeof inner.quick === 'string' ? { quick: inner.quick } : {}),
  };
}
