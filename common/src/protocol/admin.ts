/**
 * The host console's shared contracts (issue #25): staff roles, the audit log and the console's route prefix.
 * Each console area (players and sanctions, tables, reports, settings, dashboard) declares its own DTOs in
 * `admin-*.ts` beside this file; they all live under `/api/admin/…` and are guarded on the server
 * (moderators and admins; some routes admins only).
 */

/** Roles stored on accounts. 'user' is shown as "Player" in the console. */
export type StaffRole = 'moderator' | 'admin';
export type AccountRoleName = 'user' | StaffRole;
export const ACCOUNT_ROLE_LABELS: Record<AccountRoleName, string> = {
  user: 'Player',
  moderator: 'Moderator',
  admin: 'Admin',
};

/**
 * Every moderator/admin action, as written to the append-only audit log. Add new kinds here (one list, so the
 * console's filter and the server agree).
 */
export const AUDIT_ACTIONS = [
  'role.grant',
  'role.revoke',
  'player.warn',
  'player.mute',
  'player.unmute',
  'player.ban',
  'player.unban',
  'player.rename',
  'player.sessions_revoke',
  'coins.grant',
  'coins.deduct',
  'table.close',
  'table.remove_player',
  'report.assign',
  'report.resolve',
  'report.dismiss',
  'settings.update',
  'invite.create',
  'invite.revoke',
  'automod.mute',
  'server.backup',
  'account.delete',
  'tournament.create',
  'tournament.cancel',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One audit log row. `actorId` null = the server itself (e.g. an automatic mute). */
export interface AuditEntry {
  id: string;
  at: string;
  actorId: string | null;
  actorName: string | null;
  action: AuditAction;
  targetUserId: string | null;
  targetName: string | null;
  /** What else the action was about, e.g. `game:<id>`, `report:<id>`, `setting:registration`. */
  targetRef: string | null;
  reason: string | null;
  before: unknown;
  after: unknown;
}

/** GET /api/admin/audit?action=&actor=&target=&before=&limit= (newest first; `before` = an entry id for paging). */
export interface AuditQuery {
  action?: AuditAction;
  /** actor account id */
  actor?: string;
  /** target account id */
  target?: string;
  /** entries older than this id */
  before?: string;
  limit?: number;
}

export interface AuditPage {
  entries: AuditEntry[];
  /** Pass as `before` for the next (older) page; null at the end. */
  nextBefore: string | null;
}

/** GET /api/admin/audit/export?format=csv|json (same filters, up to AUDIT_EXPORT_MAX rows). */
export const AUDIT_EXPORT_MAX = 50_000;

/** GET /api/admin/me: who is using the console (403 for players). */
export interface StaffMe {
  id: string;
  username: string;
  role: StaffRole;
}

/** A reason is required for every console action: 1–500 characters. */
export const STAFF_REASON_MAX = 500;
