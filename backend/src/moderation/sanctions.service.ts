import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Injectable,
  NotFoundException,
} from '@nestjs/common';
import type { AuditAction, MuteScope, Sanction, SanctionNotice, SanctionRequest } from '@spades/common';
import { banMessage, checkLineText, SANCTION_MAX_MINUTES, STAFF_REASON_MAX } from '@spades/common';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../admin/audit.service';
import { returnedRows } from '../database/returned-rows';
import { UUID_RE } from '@spades/common';
import { UsersService } from '../users/users.service';
import { afterCommit } from './after-commit';
import { MODERATION_MESSAGES as M } from './moderation.messages';
import { SanctionsCache } from './sanctions.cache';
import { SanctionsEnforcement } from './sanctions.enforcement';

export type SanctionInput = SanctionRequest & { scope?: MuteScope };

interface SanctionRow {
  id: string;
  user_id: string;
  kind: Sanction['kind'];
  scope: MuteScope | null;
  reason: string;
  ends_at: Date | null;
  created_by: string | null;
  created_by_name: string | null;
  created_at: Date;
  lifted_at: Date | null;
  lifted_by: string | null;
}

const SANCTION_COLUMNS = `s.id, s.user_id, s.kind, s.scope, s.reason, s.ends_at, s.created_by, c.username AS created_by_name,
  s.created_at, s.lifted_at, s.lifted_by`;

const AUDIT_OF: Record<Sanction['kind'], AuditAction> = {
  warn: 'player.warn',
  mute: 'player.mute',
  ban: 'player.ban',
  rename: 'player.rename',
};

/** The reason every console action takes: single-line text of 1–STAFF_REASON_MAX characters, or 400. */
export function checkReason(input: unknown): string {
  if (typeof input !== 'string') throw new BadRequestException(M.reasonRequired);
  const t = checkLineText(input, 'The reason');
  if (!t.ok) throw new BadRequestException(t.message);
  if (t.text.length < 1 || t.text.length > STAFF_REASON_MAX) throw new BadRequestException(M.reasonRequired);
  return t.text;
}

/** A request body as a SanctionInput, or 400 `{ message }`. */
export function checkSanctionInput(body: unknown): SanctionInput {
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const reason = checkReason(b.reason);
  switch (b.kind) {
    case 'warn':
      return { kind: 'warn', reason };
    case 'mute':
    case 'ban': {
      const minutes = b.minutes === undefined ? undefined : b.minutes;
      if (
        minutes === undefined ||
        (minutes !== null &&
          (typeof minutes !== 'number' || !Number.isInteger(minutes) || minutes < 1 || minutes > SANCTION_MAX_MINUTES))
      )
        throw new BadRequestException(M.badMinutes);
      if (b.kind === 'ban') return { kind: 'ban', reason, minutes };
      const scope = b.scope === undefined ? 'all' : b.scope;
      if (scope !== 'all' && scope !== 'lobby') throw new BadRequestException(M.badScope);
      return { kind: 'mute', reason, minutes, scope };
    }
    case 'rename':
      if (typeof b.newUsername !== 'string' || !b.newUsername.trim())
        throw new BadRequestException(M.newUsernameRequired);
      return { kind: 'rename', reason, newUsername: b.newUsername };
    default:
      throw new BadRequestException(M.badKind);
  }
}

/**
 * Sanctions (issue #25): warn, mute (lobby+table chat, or lobby only), ban and forced rename, and lifting a mute
 * or ban. Each is one row in `sanctions` plus one audit entry, in one transaction (the caller's, when it passes its
 * EntityManager). Enforcement (sockets told and closed, seats given to bots, caches cleared on every node) runs
 * after that transaction commits (SanctionsEnforcement). Reads of a player's active mute/ban are cached
 * (SanctionsCache) so chat and sign-ins stay cheap.
 *
 * Rules: nobody sanctions their own account; only admins sanction staff; a staff mute/ban replaces the player's
 * active one of the same kind (the old one is lifted), an automatic one (actor null) is added beside it; a ban also
 * revokes every session token issued before it.
 */
@Injectable()
export class SanctionsService {
  constructor(
    private readonly ds: DataSource,
    private readonly audit: AuditService,
    private readonly users: UsersService,
    private readonly cache: SanctionsCache,
    private readonly enforcement: SanctionsEnforcement,
  ) {}

  /** Applies `req` to `targetUserId` by `actorId` (null = the server). Validates like the HTTP route does. */
  async apply(actorId: string | null, targetUserId: string, req: SanctionInput, m?: EntityManager): Promise<Sanction> {
    const input = checkSanctionInput(req);
    if (!UUID_RE.test(targetUserId)) throw new NotFoundException(M.playerNotFound);
    if (actorId !== null && actorId === targetUserId) throw new BadRequestException(M.notYourself);
    const run = async (tx: EntityManager): Promise<{ sanction: Sanction; renamedFrom: string | null }> => {
      const [target]: { id: string; username: string; role: string }[] = await tx.query(
        `SELECT id, username, role FROM users WHERE id = $1 FOR UPDATE`,
        [targetUserId],
      );
      if (!target) throw new NotFoundException(M.playerNotFound);
      if (actorId !== null && target.role !== 'user') {
        const [actor]: { role: string }[] = await tx.query(`SELECT role FROM users WHERE id = $1`, [actorId]);
        if (actor?.role !== 'admin') throw new ForbiddenException(M.staffTarget);
      }
      let before: unknown = null;
      let renamedFrom: string | null = null;
      if ((input.kind === 'mute' || input.kind === 'ban') && actorId !== null) {
        const replaced = returnedRows<{ id: string; ends_at: Date | null; reason: string }>(
          await tx.query(
            `UPDATE sanctions SET lifted_at = now(), lifted_by = $3, lift_reason = 'Replaced by a new ' || kind
            WHERE user_id = $1 AND kind = $2 AND lifted_at IS NULL AND (ends_at IS NULL OR ends_at > now())
            RETURNING id, ends_at, reason`,
            [targetUserId, input.kind, actorId],
          ),
        );
        if (replaced.length)
          before = { replaced: replaced.map((r) => ({ id: r.id, endsAt: r.ends_at, reason: r.reason })) };
      }
      if (input.kind === 'rename') {
        const next = input.newUsername.trim();
        if (next === target.username) throw new BadRequestException(M.sameUsername);
        await this.users.rename(targetUserId, next, tx);
        const [{ username }]: { username: string }[] = await tx.query(`SELECT username FROM users WHERE id = $1`, [
          targetUserId,
        ]);
        renamedFrom = target.username;
        before = { username: target.username };
        input.newUsername = username;
      }
      const minutes = input.kind === 'mute' || input.kind === 'ban' ? input.minutes : null;
      const scope = input.kind === 'mute' ? (input.scope ?? 'all') : null;
      const [row]: SanctionRow[] = await tx.query(
        `WITH s AS (
           INSERT INTO sanctions (user_id, kind, scope, reason, ends_at, created_by)
           VALUES ($1, $2, $3, $4, CASE WHEN $5::int IS NULL THEN NULL ELSE now() + make_interval(mins => $5::int) END, $6)
           RETURNING *)
         SELECT ${SANCTION_COLUMNS} FROM s LEFT JOIN users c ON c.id = s.created_by`,
        [targetUserId, input.kind, scope, input.reason, minutes, actorId],
      );
      if (input.kind === 'ban')
        await tx.query(`UPDATE users SET sessions_revoked_at = now() WHERE id = $1`, [targetUserId]);
      const sanction = toSanction(row);
      await this.audit.record(tx, {
        actorId,
        action: actorId === null && input.kind === 'mute' ? 'automod.mute' : AUDIT_OF[input.kind],
        targetUserId,
        targetRef: `sanction:${sanction.id}`,
        reason: input.reason,
        before,
        after: {
          kind: sanction.kind,
          scope: sanction.scope,
          endsAt: sanction.endsAt,
          ...(input.kind === 'rename' ? { username: input.newUsername } : {}),
        },
      });
      return { sanction, renamedFrom };
    };
    const done = m?.queryRunner?.isTransactionActive ? await run(m) : await this.ds.transaction(run);
    afterCommit(this.ds, m, () => void this.enforcement.applied(done.sanction, this.cache));
    return done.sanction;
  }

  /** Lifts an active mute or ban (`reason` required). 404 unknown, 400 warn/rename, 409 already over. */
  async lift(actorId: string | null, sanctionId: string, reason: string, m?: EntityManager): Promise<Sanction> {
    const why = checkReason(reason);
    if (!UUID_RE.test(sanctionId)) throw new NotFoundException(M.sanctionNotFound);
    const run = async (tx: EntityManager): Promise<Sanction> => {
      const [cur]: (SanctionRow & { active: boolean })[] = await tx.query(
        `SELECT ${SANCTION_COLUMNS}, (s.lifted_at IS NULL AND (s.ends_at IS NULL OR s.ends_at > now())) AS active
           FROM sanctions s LEFT JOIN users c ON c.id = s.created_by WHERE s.id = $1 FOR UPDATE OF s`,
        [sanctionId],
      );
      if (!cur) throw new NotFoundException(M.sanctionNotFound);
      if (cur.kind !== 'mute' && cur.kind !== 'ban') throw new BadRequestException(M.notLiftable);
      if (!cur.active) throw new ConflictException(M.notActive);
      if (actorId !== null && actorId === cur.user_id) throw new BadRequestException(M.notYourself);
      await tx.query(`UPDATE sanctions SET lifted_at = now(), lifted_by = $2, lift_reason = $3 WHERE id = $1`, [
        sanctionId,
        actorId,
        why,
      ]);
      const [row]: SanctionRow[] = await tx.query(
        `SELECT ${SANCTION_COLUMNS} FROM sanctions s LEFT JOIN users c ON c.id = s.created_by WHERE s.id = $1`,
        [sanctionId],
      );
      await this.audit.record(tx, {
        actorId,
        action: cur.kind === 'ban' ? 'player.unban' : 'player.unmute',
        targetUserId: cur.user_id,
        targetRef: `sanction:${sanctionId}`,
        reason: why,
        before: {
          kind: cur.kind,
          endsAt: cur.ends_at ? new Date(cur.ends_at).toISOString() : null,
          reason: cur.reason,
        },
        after: { liftedAt: row.lifted_at ? new Date(row.lifted_at).toISOString() : null },
      });
      return toSanction(row);
    };
    const lifted = m?.queryRunner?.isTransactionActive ? await run(m) : await this.ds.transaction(run);
    afterCommit(this.ds, m, () => void this.enforcement.lifted(lifted, this.cache));
    return lifted;
  }

  /** The player's active chat mute (the widest, then the longest), or null. Cached for a few seconds. */
  async activeMute(userId: string): Promise<SanctionNotice | null> {
    if (!UUID_RE.test(userId)) return null;
    return (await this.cache.get(userId)).mute;
  }

  /** The player's active ban (the longest), or null. Cached for a few seconds. */
  async activeBan(userId: string): Promise<SanctionNotice | null> {
    if (!UUID_RE.test(userId)) return null;
    return (await this.cache.get(userId)).ban;
  }

  /** The mute that silences this player in `where` ('lobby' chat or 'table' chat), or null. */
  async muteFor(userId: string, where: 'lobby' | 'table'): Promise<SanctionNotice | null> {
    const mute = await this.activeMute(userId);
    if (!mute) return null;
    return where === 'lobby' || mute.scope === 'all' ? mute : null;
  }

  /**
   * A sign-in (password, Discord) of `userId`: the ban message ("Banned until … UTC: reason") when the account is
   * banned, otherwise null, and the sign-in time is recorded for the console's sessions view.
   */
  async signInRefusal(userId: string): Promise<string | null> {
    const ban = await this.activeBan(userId);
    if (ban) return banMessage(ban);
    await this.ds.query(`UPDATE users SET last_sign_in_at = now() WHERE id = $1`, [userId]);
    return null;
  }

  /** The player's sanctions, newest first. */
  async list(userId: string, limit = 100): Promise<Sanction[]> {
    const rows: SanctionRow[] = await this.ds.query(
      `SELECT ${SANCTION_COLUMNS} FROM sanctions s LEFT JOIN users c ON c.id = s.created_by
        WHERE s.user_id = $1 ORDER BY s.created_at DESC, s.id LIMIT $2`,
      [userId, limit],
    );
    return rows.map(toSanction);
  }

  /**
   * What the player is told about their own account: the active mute, and warnings / forced renames not shown
   * before (marked as shown now, so each is returned once).
   */
  async standing(userId: string): Promise<{ mute: SanctionNotice | null; notices: SanctionNotice[] }> {
    const seen: { kind: 'warn' | 'rename'; reason: string }[] = await this.ds.query(
      `WITH shown AS (
         UPDATE sanctions SET seen_at = now()
          WHERE user_id = $1 AND kind IN ('warn', 'rename') AND seen_at IS NULL
          RETURNING kind, reason, created_at, id)
       SELECT kind, reason FROM shown ORDER BY created_at, id`,
      [userId],
    );
    return {
      mute: await this.activeMute(userId),
      notices: seen.map((r) => ({ kind: r.kind, reason: r.reason, endsAt: null, scope: null })),
    };
  }
}

export function toSanction(r: SanctionRow): Sanction {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return {
    id: r.id,
    userId: r.user_id,
    kind: r.kind,
    scope: r.scope,
    reason: r.reason,
    endsAt: iso(r.ends_at),
    createdBy: r.created_by,
    createdByName: r.created_by_name,
    createdAt: new Date(r.created_at).toISOString(),
    liftedAt: iso(r.lifted_at),
    liftedBy: r.lifted_by,
  };
}
