/**
 * Reports and player mutes (issue #25). A player reports another from a seat (a game), a profile or a chat line;
 * the SERVER captures the context (the chat lines around the reported one, or the game) — text sent by the
 * reporter is never trusted as evidence. Moderators work the queue under `/api/admin/reports`.
 * A player may also mute another (their chat lines are hidden for the muter, like a block, in lobby and table
 * chat); a player muted by `autoMuteThreshold` distinct players within 24 h is muted in lobby chat until a
 * moderator reviews the 'auto-mute' report the server files.
 *
 * Player routes:
 * - POST   /api/reports             ReportRequest → 201 ReportReceipt
 * - GET    /api/mutes               → PlayerMuteList
 * - PUT    /api/mutes/:userId       → PlayerMuteResult (idempotent)
 * - DELETE /api/mutes/:userId       → PlayerMuteResult (idempotent)
 * Console routes (moderators and admins):
 * - GET    /api/admin/reports?status=&category=&target=&assignee=&before=&limit= → ReportQueuePage
 * - GET    /api/admin/reports/:id                              → ReportDetail
 * - POST   /api/admin/reports/:id/assign   ReportAssignRequest  → ReportDetail
 * - POST   /api/admin/reports/:id/resolve  ReportResolveRequest → ReportDetail
 * - POST   /api/admin/reports/:id/dismiss  ReportDismissRequest → ReportDetail
 */
import type { SanctionRequest } from './admin-sanctions';
import { UUID_RE as UUID } from './ids';
import { checkChatText } from './text';

export const REPORTS_PATH = '/api/reports';
export const MUTES_PATH = '/api/mutes';
export const ADMIN_REPORTS_PATH = '/api/admin/reports';

/** What a player may report a player for. */
export const PLAYER_REPORT_CATEGORIES = [
  'abusive_chat',
  'cheating',
  'quitting',
  'offensive_name',
  'spam',
  'other',
] as const;
export type PlayerReportCategory = (typeof PLAYER_REPORT_CATEGORIES)[number];
/** 'auto-mute' is filed by the server only (a player muted by several players). */
export type ReportCategory = PlayerReportCategory | 'auto-mute';
export const REPORT_CATEGORIES: readonly ReportCategory[] = [...PLAYER_REPORT_CATEGORIES, 'auto-mute'];
export const REPORT_CATEGORY_LABELS: Record<ReportCategory, string> = {
  abusive_chat: 'Abusive chat',
  cheating: 'Cheating or collusion',
  quitting: 'Leaving games',
  offensive_name: 'Offensive name',
  spam: 'Spam',
  other: 'Other',
  'auto-mute': 'Muted by several players',
};

/** The reporter's own words (optional, chat text rules): at most this many characters. */
export const REPORT_TEXT_MAX = 500;
/** Reports one player may file: REPORT_RATE_MAX per REPORT_RATE_WINDOW_MS. */
export const REPORT_RATE_MAX = 5;
export const REPORT_RATE_WINDOW_MS = 10 * 60_000;
/** Chat lines captured before and after the reported line. */
export const REPORT_CHAT_BEFORE = 10;
export const REPORT_CHAT_AFTER = 5;

/** Where the report was made from: only ids — the server reads the content itself. */
export type ReportContextInput =
  | { kind: 'profile' }
  | { kind: 'game'; gameId: string }
  | { kind: 'lobby_chat'; messageId: string }
  | { kind: 'table_chat'; gameId: string; messageId: string };
export type ReportContextKind = ReportContextInput['kind'] | 'auto_mute';

/** POST /api/reports */
export interface ReportRequest {
  /** The reported player. */
  userId: string;
  category: PlayerReportCategory;
  /** 0–REPORT_TEXT_MAX characters. */
  text?: string;
  context: ReportContextInput;
}

/** What the reporter is told (201). */
export interface ReportReceipt {
  id: string;
  message: string;
}

/** One captured chat line (as stored at the time of the report). */
export interface ReportChatLine {
  id: string;
  userId: string;
  username: string;
  message: string;
  /** ISO 8601. */
  at: string;
  /** The line that was reported (for an auto-mute: every line of the muted player). */
  reported: boolean;
}

/** The context the server captured, stored with the report. */
export type ReportContext =
  | { kind: 'profile' }
  | {
      kind: 'game';
      gameId: string;
      status: string;
      private: boolean;
      /** The reported player is seated, watching or wrote in the table's chat (a leaver may no longer be). */
      targetPresent: boolean;
      seats: { seat: number; userId: string | null; username: string | null; bot: boolean }[];
      /** The table's last chat lines. */
      chat: ReportChatLine[];
    }
  | { kind: 'lobby_chat'; messageId: string; lines: ReportChatLine[] }
  | { kind: 'table_chat'; gameId: string; messageId: string; lines: ReportChatLine[] }
  | {
      kind: 'auto_mute';
      threshold: number;
      /** The players whose mutes (within 24 h) triggered it. */
      mutedBy: { userId: string; username: string; at: string }[];
      /** The muted player's last lobby chat lines. */
      lines: ReportChatLine[];
      /** The automatic mute (lifted when the report is dismissed or resolved with another action). */
      sanctionId: string | null;
    };

export const REPORT_STATUSES = ['open', 'assigned', 'resolved', 'dismissed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** One row of the queue. */
export interface ReportSummary {
  id: string;
  status: ReportStatus;
  category: ReportCategory;
  /** The reporter's words ('' when none; the server's for an auto-mute). */
  text: string;
  contextKind: ReportContextKind;
  targetId: string;
  targetName: string;
  /** null = the server (auto-mute). */
  reporterId: string | null;
  reporterName: string | null;
  assigneeId: string | null;
  assigneeName: string | null;
  createdAt: string;
  /** When it was resolved or dismissed. */
  closedAt: string | null;
}

export interface ReportResolution {
  status: 'resolved' | 'dismissed';
  byId: string;
  byName: string | null;
  reason: string;
  /** The sanction applied when resolved with an action. */
  action: SanctionRequest | null;
  sanctionId: string | null;
  at: string;
}

/** GET /api/admin/reports/:id */
export interface ReportDetail extends ReportSummary {
  context: ReportContext;
  resolution: ReportResolution | null;
  /** Reports against the same player (every status), this one included. */
  reportsAgainstTarget: number;
}

/**
 * GET /api/admin/reports?status=open|assigned|resolved|dismissed&category=<ReportCategory>&target=<user id>
 * &assignee=<user id>&before=<report id>&limit=
 */
export interface ReportQueueQuery {
  status?: ReportStatus;
  category?: ReportCategory;
  target?: string;
  assignee?: string;
  before?: string;
  limit?: number;
}

export interface ReportQueuePage {
  reports: ReportSummary[];
  /** Pass as `before` for the next (older) page; null at the end. */
  nextBefore: string | null;
  /** Reports per status (all of them, not just this page). */
  counts: Record<ReportStatus, number>;
}

/** POST …/:id/assign: to a moderator or admin (default: the caller). */
export interface ReportAssignRequest {
  assigneeId?: string;
  reason: string;
}
/** POST …/:id/resolve: applies the sanction to the reported player. */
export interface ReportResolveRequest {
  action: SanctionRequest;
  reason: string;
}
/** POST …/:id/dismiss */
export interface ReportDismissRequest {
  reason: string;
}

/** A player the caller muted. */
export interface PlayerMute {
  userId: string;
  username: string;
  mutedAt: string;
}
export interface PlayerMuteList {
  mutes: PlayerMute[];
}
export interface PlayerMuteResult {
  userId: string;
  muted: boolean;
}
/** Mutes (and unmutes) one player may make: PLAYER_MUTE_RATE_MAX per minute. */
export const PLAYER_MUTE_RATE_MAX = 20;
/** How far back the auto-mute counts distinct muters. */
export const AUTO_MUTE_WINDOW_MS = 24 * 60 * 60_000;

/** Validates a report request (pure; shared by the client's dialog and the server). */
export function parseReportRequest(
  input: unknown,
): { ok: true; value: ReportRequest } | { ok: false; message: string } {
  if (!input || typeof input !== 'object') return { ok: false, message: 'A report must be an object' };
  const r = input as Record<string, unknown>;
  if (typeof r.userId !== 'string' || !UUID.test(r.userId)) return { ok: false, message: 'userId must be a player id' };
  if (typeof r.category !== 'string' || !(PLAYER_REPORT_CATEGORIES as readonly string[]).includes(r.category))
    return { ok: false, message: `category must be one of ${PLAYER_REPORT_CATEGORIES.join(', ')}` };
  let text = '';
  if (r.text !== undefined && r.text !== null) {
    const checked = checkChatText(r.text, 'A report');
    if (!checked.ok) return { ok: false, message: checked.message };
    text = checked.text.trim();
    if (text.length > REPORT_TEXT_MAX)
      return { ok: false, message: `A report can have at most ${REPORT_TEXT_MAX} characters` };
  }
  const c = r.context as Record<string, unknown> | undefined;
  if (!c || typeof c !== 'object') return { ok: false, message: 'context is required' };
  const id = (k: string, re: RegExp, what: string) =>
    typeof c[k] === 'string' && re.test(c[k] as string) ? null : `${k} must be ${what}`;
  let context: ReportContextInput;
  switch (c.kind) {
    case 'profile':
      context = { kind: 'profile' };
      break;
    case 'game': {
      const bad = id('gameId', UUID, 'a game id');
      if (bad) return { ok: false, message: bad };
      context = { kind: 'game', gameId: c.gameId as string };
      break;
    }
    case 'lobby_chat': {
      const bad = id('messageId', UUID, 'a lobby chat message id');
      if (bad) return { ok: false, message: bad };
      context = { kind: 'lobby_chat', messageId: c.messageId as string };
      break;
    }
    case 'table_chat': {
      const bad = id('gameId', UUID, 'a game id') ?? id('messageId', TABLE_MESSAGE_ID, 'a table chat message id');
      if (bad) return { ok: false, message: bad };
      context = { kind: 'table_chat', gameId: c.gameId as string, messageId: c.messageId as string };
      break;
    }
    default:
      return { ok: false, message: 'context.kind must be profile, game, lobby_chat or table_chat' };
  }
  return { ok: true, value: { userId: r.userId, category: r.category as PlayerReportCategory, text, context } };
}

const TABLE_MESSAGE_ID = /^[0-9a-f]{1,64}$/i;
