import { Injectable } from '@nestjs/common';
import type { AuditAction, AuditEntry, AuditPage, AuditQuery } from '@spades/common';
import { AUDIT_ACTIONS, AUDIT_EXPORT_MAX } from '@spades/common';
import { DataSource, EntityManager } from 'typeorm';
import { UUID_RE } from '@spades/common';

/** What one console action writes to the audit log. */
export interface AuditRecord {
  /** The moderator/admin; null for the server itself (automatic actions). */
  actorId: string | null;
  action: AuditAction;
  targetUserId?: string | null;
  /** e.g. `game:<id>`, `report:<id>`, `setting:<key>` */
  targetRef?: string | null;
  reason?: string | null;
  before?: unknown;
  after?: unknown;
}

interface AuditRow {
  id: string;
  at: Date;
  actor_id: string | null;
  actor_name: string | null;
  action: AuditAction;
  target_user_id: string | null;
  target_name: string | null;
  target_ref: string | null;
  reason: string | null;
  before: unknown;
  after: unknown;
}

export const AUDIT_PAGE_MAX = 200;

/**
 * The append-only audit log (issue #25; table `audit_log`, whose trigger refuses UPDATE/DELETE). Every console
 * action calls `record` with the SAME EntityManager as the change it describes, so the change and its log line
 * commit together or not at all.
 */
@Injectable()
export class AuditService {
  constructor(private readonly ds: DataSource) {}

  async record(m: EntityManager | null, r: AuditRecord): Promise<void> {
    await (m ?? this.ds.manager).query(
      `INSERT INTO audit_log (actor_id, action, target_user_id, target_ref, reason, before, after)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb)`,
      [
        r.actorId,
        r.action,
        r.targetUserId ?? null,
        r.targetRef ?? null,
        r.reason ?? null,
        r.before === undefined ? null : JSON.stringify(r.before),
        r.after === undefined ? null : JSON.stringify(r.after),
      ],
    );
  }

  /** Newest first, filtered; `before` pages to older entries. Unknown filters are ignored by the caller's parser. */
  async list(q: AuditQuery, max = AUDIT_PAGE_MAX): Promise<AuditPage> {
    const limit = Math.min(Math.max(1, Math.floor(q.limit ?? 50)), max);
    const rows = await this.query(q, limit + 1);
    const more = rows.length > limit;
    const entries = rows.slice(0, limit).map(toEntry);
    return { entries, nextBefore: more ? entries[entries.length - 1].id : null };
  }

  /** Up to AUDIT_EXPORT_MAX entries for the CSV/JSON export. */
  async exportRows(q: AuditQuery): Promise<AuditEntry[]> {
    return (await this.query({ ...q, before: q.before }, AUDIT_EXPORT_MAX)).map(toEntry);
  }

  private async query(q: AuditQuery, limit: number): Promise<AuditRow[]> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (q.action) where.push(`a.action = $${params.push(q.action)}`);
    if (q.actor) where.push(`a.actor_id = $${params.push(q.actor)}`);
    if (q.target) where.push(`a.target_user_id = $${params.push(q.target)}`);
    if (q.before) where.push(`a.id < $${params.push(q.before)}`);
    return this.ds.query(
      `SELECT a.id::text AS id, a.at, a.actor_id, ua.username AS actor_name, a.action, a.target_user_id,
              ut.username AS target_name, a.target_ref, a.reason, a.before, a.after
         FROM audit_log a
         LEFT JOIN users ua ON ua.id = a.actor_id
         LEFT JOIN users ut ON ut.id = a.target_user_id
        ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY a.id DESC
        LIMIT ${limit}`,
      params,
    );
  }
}

function toEntry(r: AuditRow): AuditEntry {
  return {
    id: r.id,
    at: new Date(r.at).toISOString(),
    actorId: r.actor_id,
    actorName: r.actor_name,
    action: r.action,
    targetUserId: r.target_user_id,
    targetName: r.target_name,
    targetRef: r.target_ref,
    reason: r.reason,
    before: r.before,
    after: r.after,
  };
}

/** Parses the audit query string; a bad filter is an error message (400), never silently dropped. */
export function parseAuditQuery(raw: Record<string, unknown>): AuditQuery | string {
  const q: AuditQuery = {};
  const str = (k: string) => (typeof raw[k] === 'string' && raw[k] !== '' ? (raw[k] as string) : undefined);
  const action = str('action');
  if (action !== undefined) {
    if (!(AUDIT_ACTIONS as readonly string[]).includes(action)) return `Unknown audit action "${action.slice(0, 60)}"`;
    q.action = action as AuditAction;
  }
  for (const k of ['actor', 'target'] as const) {
    const v = str(k);
    if (v !== undefined) {
      if (!UUID_RE.test(v)) return `${k} must be an account id`;
      q[k] = v;
    }
  }
  const before = str('before');
  if (before !== undefined) {
    if (!/^[1-9][0-9]{0,17}$/.test(before)) return 'before must be an audit entry id';
    q.before = before;
  }
  const limit = str('limit');
  if (limit !== undefined) {
    const n = Number(limit);
    if (!Number.isInteger(n) || n < 1 || n > AUDIT_PAGE_MAX) return `limit must be 1–${AUDIT_PAGE_MAX}`;
    q.limit = n;
  }
  return q;
}

const CSV_COLUMNS = [
  'id',
  'at',
  'actorId',
  'actorName',
  'action',
  'targetUserId',
  'targetName',
  'targetRef',
  'reason',
  'before',
  'after',
] as const;

/** RFC 4180 CSV; cells that a spreadsheet would run as a formula are prefixed with `'`. */
export function auditCsv(entries: AuditEntry[]): string {
  const cell = (v: unknown): string => {
    let s = v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
    if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [CSV_COLUMNS.join(',')];
  for (const e of entries) lines.push(CSV_COLUMNS.map((c) => cell(e[c])).join(','));
  return lines.join('\r\n') + '\r\n';
}
