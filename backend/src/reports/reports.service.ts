import { BadRequestException, ConflictException, HttpException, Injectable, NotFoundException } from '@nestjs/common';
import type {
  ReportCategory,
  ReportContext,
  ReportContextKind,
  ReportDetail,
  ReportQueuePage,
  ReportQueueQuery,
  ReportReceipt,
  ReportStatus,
  ReportSummary,
  SanctionRequest,
} from '@spades/common';
import {
  parseReportRequest,
  REPORT_CATEGORIES,
  REPORT_RATE_MAX,
  REPORT_RATE_WINDOW_MS,
  REPORT_STATUSES,
} from '@spades/common';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../admin/audit.service';
import { checkReason, checkSanctionInput, SanctionsService } from '../moderation/sanctions.service';
import { RateLimit, RateLimiter } from '../realtime/rate.limiter';
import { UUID_RE } from '@spades/common';
import { ReportContextCapture } from './report-context';
import { REPORT_MESSAGES as M } from './reports.messages';

export const REPORT_LIMIT: RateLimit = { scope: 'report', max: REPORT_RATE_MAX, windowMs: REPORT_RATE_WINDOW_MS };
export const REPORT_PAGE_MAX = 200;

interface ReportRow {
  id: string;
  status: ReportStatus;
  category: ReportCategory;
  text: string;
  context_kind: ReportContextKind;
  target_id: string;
  target_name: string;
  reporter_id: string | null;
  reporter_name: string | null;
  assignee_id: string | null;
  assignee_name: string | null;
  created_at: Date;
  closed_at: Date | null;
}

interface ReportFullRow extends ReportRow {
  context: ReportContext;
  closed_by: string | null;
  closed_by_name: string | null;
  resolution_reason: string | null;
  resolution_action: SanctionRequest | null;
  sanction_id: string | null;
  against_target: number;
}

const SUMMARY_COLUMNS = `r.id::text AS id, r.status, r.category, r.text, r.context_kind, r.target_id, ut.username AS target_name,
  r.reporter_id, ur.username AS reporter_name, r.assignee_id, ua.username AS assignee_name, r.created_at, r.closed_at`;
const SUMMARY_JOINS = `JOIN users ut ON ut.id = r.target_id
  LEFT JOIN users ur ON ur.id = r.reporter_id
  LEFT JOIN users ua ON ua.id = r.assignee_id`;

/**
 * Reports (issue #25): a player files one (POST /api/reports; the context is captured by the server, rate-limited
 * with the shared RateLimiter, one pending report per reporter, player and context); moderators list, open, assign,
 * resolve with a sanction (SanctionsService.apply in the same transaction) or dismiss them. Every console step writes
 * one audit entry in the transaction of the change. Closing an 'auto-mute' report ends its automatic mute: the
 * review decides (a resolve applies the chosen sanction instead).
 */
@Injectable()
export class ReportsService {
  constructor(
    private readonly ds: DataSource,
    private readonly limiter: RateLimiter,
    private readonly capture: ReportContextCapture,
    private readonly sanctions: SanctionsService,
    private readonly audit: AuditService,
  ) {}

  /** A player's report; 400 bad input or self-report, 404 unknown player, 429 too many. */
  async file(reporterId: string, body: unknown): Promise<{ receipt: ReportReceipt; created: boolean }> {
    const parsed = parseReportRequest(body);
    if (!parsed.ok) throw new BadRequestException(parsed.message);
    const req = parsed.value;
    if (req.userId === reporterId) throw new BadRequestException(M.notYourself);
    const [target]: { username: string }[] = await this.ds.query(`SELECT username FROM users WHERE id = $1`, [
      req.userId,
    ]);
    if (!target) throw new NotFoundException(M.playerNotFound);
    if (!(await this.limiter.admit(REPORT_LIMIT, reporterId))) throw new HttpException(M.tooManyReports, 429);
    const { context, ref } = await this.capture.capture(reporterId, req.userId, req.context);
    // one pending report per reporter, player and context: a second click is answered with the first
    const rows: { id: string; created: boolean }[] = await this.ds.query(
      `WITH existing AS (
         SELECT id FROM reports
          WHERE reporter_id = $1 AND target_id = $2 AND status IN ('open', 'assigned')
            AND category = $3 AND context_ref IS NOT DISTINCT FROM $6
          LIMIT 1),
       inserted AS (
         INSERT INTO reports (reporter_id, target_id, category, text, context_kind, context_ref, context)
         SELECT $1, $2, $3, $4, $5, $6, $7::jsonb WHERE NOT EXISTS (SELECT 1 FROM existing)
         RETURNING id)
       SELECT id::text AS id, true AS created FROM inserted
       UNION ALL SELECT id::text, false FROM existing`,
      [reporterId, req.userId, req.category, req.text ?? '', context.kind, ref, JSON.stringify(context)],
    );
    const { id, created } = rows[0];
    return {
      receipt: { id, message: created ? M.received(target.username) : M.alreadyReported(target.username) },
      created,
    };
  }

  /** Open (and assigned) reports: the dashboard's count. */
  async openCount(): Promise<number> {
    const [r]: { n: number }[] = await this.ds.query(
      `SELECT count(*)::int AS n FROM reports WHERE status IN ('open', 'assigned')`,
    );
    return r.n;
  }

  /** Reports against a player, newest first (the players console). */
  async against(userId: string, limit = 50): Promise<ReportSummary[]> {
    if (!UUID_RE.test(userId)) return [];
    const rows: ReportRow[] = await this.ds.query(
      `SELECT ${SUMMARY_COLUMNS} FROM reports r ${SUMMARY_JOINS} WHERE r.target_id = $1 ORDER BY r.id DESC LIMIT $2`,
      [userId, limit],
    );
    return rows.map(toSummary);
  }

  async list(q: ReportQueueQuery): Promise<ReportQueuePage> {
    const limit = q.limit ?? 50;
    const where: string[] = [];
    const params: unknown[] = [];
    if (q.status) where.push(`r.status = $${params.push(q.status)}`);
    if (q.category) where.push(`r.category = $${params.push(q.category)}`);
    if (q.target) where.push(`r.target_id = $${params.push(q.target)}`);
    if (q.assignee) where.push(`r.assignee_id = $${params.push(q.assignee)}`);
    if (q.before) where.push(`r.id < $${params.push(q.before)}`);
    const rows: ReportRow[] = await this.ds.query(
      `SELECT ${SUMMARY_COLUMNS} FROM reports r ${SUMMARY_JOINS}
        ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY r.id DESC LIMIT ${limit + 1}`,
      params,
    );
    const counted: { status: ReportStatus; n: number }[] = await this.ds.query(
      `SELECT status, count(*)::int AS n FROM reports GROUP BY status`,
    );
    const counts = Object.fromEntries(REPORT_STATUSES.map((s) => [s, 0])) as Record<ReportStatus, number>;
    for (const c of counted) counts[c.status] = c.n;
    const reports = rows.slice(0, limit).map(toSummary);
    return { reports, nextBefore: rows.length > limit ? reports[reports.length - 1].id : null, counts };
  }

  async detail(id: string, m?: EntityManager): Promise<ReportDetail> {
    if (!/^[1-9][0-9]{0,17}$/.test(id)) throw new NotFoundException(M.reportNotFound);
    const [r]: ReportFullRow[] = await (m ?? this.ds.manager).query(
      `SELECT ${SUMMARY_COLUMNS}, r.context, r.closed_by, uc.username AS closed_by_name, r.resolution_reason,
              r.resolution_action, r.sanction_id,
              (SELECT count(*)::int FROM reports o WHERE o.target_id = r.target_id) AS against_target
         FROM reports r ${SUMMARY_JOINS} LEFT JOIN users uc ON uc.id = r.closed_by
        WHERE r.id = $1`,
      [id],
    );
    if (!r) throw new NotFoundException(M.reportNotFound);
    return {
      ...toSummary(r),
      context: r.context,
      reportsAgainstTarget: r.against_target,
      resolution:
        r.status === 'resolved' || r.status === 'dismissed'
          ? {
              status: r.status,
              byId: r.closed_by ?? '',
              byName: r.closed_by_name,
              reason: r.resolution_reason ?? '',
              action: r.resolution_action,
              sanctionId: r.status === 'resolved' ? r.sanction_id : null,
              at: new Date(r.closed_at!).toISOString(),
            }
          : null,
    };
  }

  /** Assigns an open or assigned report to a moderator or admin (default: the caller). */
  async assign(actorId: string, id: string, body: unknown): Promise<ReportDetail> {
    const b = asObject(body);
    const reason = checkReason(b.reason);
    const assigneeId = b.assigneeId === undefined || b.assigneeId === null ? actorId : b.assigneeId;
    if (typeof assigneeId !== 'string' || !UUID_RE.test(assigneeId)) throw new BadRequestException(M.assigneeNotStaff);
    return this.ds.transaction(async (tx) => {
      const cur = await this.lockOpen(tx, id);
      const [who]: { role: string }[] = await tx.query(`SELECT role FROM users WHERE id = $1`, [assigneeId]);
      if (!who || (who.role !== 'moderator' && who.role !== 'admin')) throw new BadRequestException(M.assigneeNotStaff);
      await tx.query(`UPDATE reports SET status = 'assigned', assignee_id = $2, assigned_at = now() WHERE id = $1`, [
        id,
        assigneeId,
      ]);
      await this.audit.record(tx, {
        actorId,
        action: 'report.assign',
        targetUserId: cur.target_id,
        targetRef: `report:${id}`,
        reason,
        before: { status: cur.status, assigneeId: cur.assignee_id },
        after: { status: 'assigned', assigneeId },
      });
      return this.detail(id, tx);
    });
  }

  /** Resolves a report by applying a sanction to the reported player (one transaction with the sanction). */
  async resolve(actorId: string, id: string, body: unknown): Promise<ReportDetail> {
    const b = asObject(body);
    const reason = checkReason(b.reason);
    const action = checkSanctionInput(b.action);
    return this.ds.transaction(async (tx) => {
      const cur = await this.lockOpen(tx, id);
      const sanction = await this.sanctions.apply(actorId, cur.target_id, action, tx);
      await this.endAutoMute(tx, actorId, cur, reason);
      await this.close(tx, id, 'resolved', actorId, reason, action, sanction.id);
      await this.audit.record(tx, {
        actorId,
        action: 'report.resolve',
        targetUserId: cur.target_id,
        targetRef: `report:${id}`,
        reason,
        before: { status: cur.status },
        after: { status: 'resolved', action, sanctionId: sanction.id },
      });
      return this.detail(id, tx);
    });
  }

  async dismiss(actorId: string, id: string, body: unknown): Promise<ReportDetail> {
    const reason = checkReason(asObject(body).reason);
    return this.ds.transaction(async (tx) => {
      const cur = await this.lockOpen(tx, id);
      await this.endAutoMute(tx, actorId, cur, reason);
      await this.close(tx, id, 'dismissed', actorId, reason, null, cur.sanction_id);
      await this.audit.record(tx, {
        actorId,
        action: 'report.dismiss',
        targetUserId: cur.target_id,
        targetRef: `report:${id}`,
        reason,
        before: { status: cur.status },
        after: { status: 'dismissed' },
      });
      return this.detail(id, tx);
    });
  }

  private async lockOpen(
    tx: EntityManager,
    id: string,
  ): Promise<{
    target_id: string;
    status: ReportStatus;
    assignee_id: string | null;
    category: ReportCategory;
    sanction_id: string | null;
  }> {
    if (!/^[1-9][0-9]{0,17}$/.test(id)) throw new NotFoundException(M.reportNotFound);
    const [cur] = await tx.query(
      `SELECT target_id, status, assignee_id, category, sanction_id FROM reports WHERE id = $1 FOR UPDATE`,
      [id],
    );
    if (!cur) throw new NotFoundException(M.reportNotFound);
    if (cur.status === 'resolved' || cur.status === 'dismissed') throw new ConflictException(M.reportClosed);
    return cur;
  }

  /** An auto-mute lasts until its review: closing the report lifts it (unless a sanction already replaced it). */
  private async endAutoMute(
    tx: EntityManager,
    actorId: string,
    cur: { category: ReportCategory; sanction_id: string | null },
    reason: string,
  ): Promise<void> {
    if (cur.category !== 'auto-mute' || !cur.sanction_id) return;
    const [active] = await tx.query(
      `SELECT 1 FROM sanctions WHERE id = $1 AND lifted_at IS NULL AND (ends_at IS NULL OR ends_at > now())`,
      [cur.sanction_id],
    );
    if (active)
      await this.sanctions.lift(actorId, cur.sanction_id, `${M.autoMuteReviewed}: ${reason}`.slice(0, 500), tx);
  }

  private async close(
    tx: EntityManager,
    id: string,
    status: 'resolved' | 'dismissed',
    actorId: string,
    reason: string,
    action: SanctionRequest | null,
    sanctionId: string | null,
  ): Promise<void> {
    await tx.query(
      `UPDATE reports SET status = $2, closed_at = now(), closed_by = $3, resolution_reason = $4,
              resolution_action = $5::jsonb, sanction_id = $6
        WHERE id = $1`,
      [id, status, actorId, reason, action ? JSON.stringify(action) : null, sanctionId],
    );
  }
}

function asObject(body: unknown): Record<string, unknown> {
  return body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
}

function toSummary(r: ReportRow): ReportSummary {
  return {
    id: r.id,
    status: r.status,
    category: r.category,
    text: r.text,
    contextKind: r.context_kind,
    targetId: r.target_id,
    targetName: r.target_name,
    reporterId: r.reporter_id,
    reporterName: r.reporter_name,
    assigneeId: r.assignee_id,
    assigneeName: r.assignee_name,
    createdAt: new Date(r.created_at).toISOString(),
    closedAt: r.closed_at ? new Date(r.closed_at).toISOString() : null,
  };
}

/** Parses GET /api/admin/reports's query; a bad filter is a 400 message. */
export function parseReportQuery(raw: Record<string, unknown>): ReportQueueQuery | string {
  const q: ReportQueueQuery = {};
  const str = (k: string) => (typeof raw[k] === 'string' && raw[k] !== '' ? (raw[k] as string) : undefined);
  const status = str('status');
  if (status !== undefined) {
    if (!(REPORT_STATUSES as readonly string[]).includes(status)) return M.badStatus;
    q.status = status as ReportStatus;
  }
  const category = str('category');
  if (category !== undefined) {
    if (!(REPORT_CATEGORIES as readonly string[]).includes(category)) return M.badCategory;
    q.category = category as ReportCategory;
  }
  for (const k of ['target', 'assignee'] as const) {
    const v = str(k);
    if (v !== undefined) {
      if (!UUID_RE.test(v)) return M.badAccount(k);
      q[k] = v;
    }
  }
  const before = str('before');
  if (before !== undefined) {
    if (!/^[1-9][0-9]{0,17}$/.test(before)) return M.badBefore;
    q.before = before;
  }
  const limit = str('limit');
  if (limit !== undefined) {
    const n = Number(limit);
    if (!Number.isInteger(n) || n < 1 || n > REPORT_PAGE_MAX) return M.badLimit(REPORT_PAGE_MAX);
    q.limit = n;
  }
  return q;
}
