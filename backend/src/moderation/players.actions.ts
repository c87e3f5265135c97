import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import type {
  AccountRoleName,
  CoinCorrectionResult,
  RevokeSessionsResult,
  RoleChangeResult,
  StaffListItem,
} from '@spades/common';
import { COIN_CORRECTION_MAX } from '@spades/common';
import { DataSource, EntityManager } from 'typeorm';
import { ACCOUNT_ROLES, adminCount, listRoles, setRole } from '../admin/admin.roles';
import { AuditService } from '../admin/audit.service';
import { CoinsService, InsufficientFundsError } from '../coins/coins.service';
import { returnedRows } from '../database/returned-rows';
import { UUID_RE } from '@spades/common';
import { afterCommit } from './after-commit';
import { MODERATION_MESSAGES as M } from './moderation.messages';
import { SanctionsEnforcement } from './sanctions.enforcement';
import { checkReason } from './sanctions.service';

/** Ledger reasons of the console's coin corrections (coin_entries.reason). */
export const COIN_CORRECTION_REASONS = { grant: 'staff_grant', deduct: 'staff_deduct' } as const;

interface Target {
  id: string;
  username: string;
  role: AccountRoleName;
}

/**
 * The console's other actions on a player (issue #25), each in one transaction with its audit entry: revoke
 * sessions (tokens issued before now are refused; open sockets are closed), coin corrections (a ledger transfer
 * from/to the house, never an edit of a balance; admins) and roles (admins; admin.roles.ts setRole).
 */
@Injectable()
export class PlayersActions {
  constructor(
    private readonly ds: DataSource,
    private readonly audit: AuditService,
    private readonly coins: CoinsService,
    private readonly enforcement: SanctionsEnforcement,
  ) {}

  async revokeSessions(actorId: string, targetId: string, reasonInput: unknown): Promise<RevokeSessionsResult> {
    const reason = checkReason(reasonInput);
    const { at, closed } = await this.ds.transaction(async (m) => {
      const t = await this.target(m, targetId);
      await this.assertMayActOn(m, actorId, t);
      const [row] = returnedRows<{ at: Date; before: Date | null }>(
        await m.query(
          `UPDATE users u SET sessions_revoked_at = now() FROM (SELECT sessions_revoked_at FROM users WHERE id = $1) b
            WHERE u.id = $1 RETURNING u.sessions_revoked_at AS at, b.sessions_revoked_at AS before`,
          [t.id],
        ),
      );
      await this.audit.record(m, {
        actorId,
        action: 'player.sessions_revoke',
        targetUserId: t.id,
        reason,
        before: { sessionsRevokedAt: row.before ? new Date(row.before).toISOString() : null },
        after: { sessionsRevokedAt: new Date(row.at).toISOString() },
      });
      const closed = new Promise<number>((resolve) =>
        afterCommit(this.ds, m, () => {
          void this.enforcement.endSessions(t.id, reason).then(resolve, () => resolve(0));
        }),
      );
      return { at: new Date(row.at).toISOString(), closed };
    });
    return { sessionsRevokedAt: at, socketsClosed: await closed };
  }

  async correctCoins(actorId: string, targetId: string, body: unknown): Promise<CoinCorrectionResult> {
    const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const reason = checkReason(b.reason);
    if (b.direction !== 'grant' && b.direction !== 'deduct') throw new BadRequestException(M.badDirection);
    const direction = b.direction;
    const amount = b.amount;
    if (typeof amount !== 'number' || !Number.isInteger(amount) || amount < 1 || amount > COIN_CORRECTION_MAX)
      throw new BadRequestException(M.badAmount);
    return this.ds.transaction(async (m) => {
      const t = await this.target(m, targetId);
      const user = { userId: t.id };
      let result;
      try {
        result =
          direction === 'grant'
            ? await this.coins.transfer(m, 'house', user, amount, COIN_CORRECTION_REASONS.grant, actorId)
            : await this.coins.transfer(m, user, 'house', amount, COIN_CORRECTION_REASONS.deduct, actorId);
      } catch (e) {
        if (e instanceof InsufficientFundsError)
          throw new BadRequestException(M.deductBelowZero(String(e.balance), amount));
        throw e;
      }
      const balance = direction === 'grant' ? result.toBalance : result.fromBalance;
      const before = direction === 'grant' ? balance - BigInt(amount) : balance + BigInt(amount);
      await this.audit.record(m, {
        actorId,
        action: direction === 'grant' ? 'coins.grant' : 'coins.deduct',
        targetUserId: t.id,
        targetRef: `transfer:${result.transferId}`,
        reason,
        before: { balance: before.toString() },
        after: { balance: balance.toString(), amount },
      });
      return { transferId: result.transferId, balance: balance.toString() };
    });
  }

  async changeRole(actorId: string, targetId: string, body: unknown): Promise<RoleChangeResult> {
    const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const reason = checkReason(b.reason);
    const role = b.role;
    if (typeof role !== 'string' || !(ACCOUNT_ROLES as readonly string[]).includes(role))
      throw new BadRequestException(M.badRole);
    const next = role as AccountRoleName;
    return this.ds.transaction(async (m) => {
      // one role change at a time: "the last admin" is decided under this lock
      await m.query(`SELECT pg_advisory_xact_lock(hashtext('spades:roles'))`);
      const t = await this.target(m, targetId);
      if (t.role === 'admin' && next !== 'admin' && (await adminCount(m)) <= 1)
        throw new BadRequestException(M.lastAdmin);
      const change = await setRole(m, t.id, next);
      if (change.before !== next) {
        await this.audit.record(m, {
          actorId,
          action: next === 'user' ? 'role.revoke' : 'role.grant',
          targetUserId: t.id,
          reason,
          before: { role: change.before },
          after: { role: next },
        });
      }
      return { id: t.id, username: t.username, role: next, before: change.before };
    });
  }

  async staff(): Promise<StaffListItem[]> {
    return listRoles(this.ds);
  }

  private async target(m: EntityManager, id: string): Promise<Target> {
    if (!UUID_RE.test(id)) throw new NotFoundException(M.playerNotFound);
    const [t]: Target[] = await m.query(`SELECT id, username, role FROM users WHERE id = $1 FOR UPDATE`, [id]);
    if (!t) throw new NotFoundException(M.playerNotFound);
    return t;
  }

  /** Nobody acts on their own account this way; only admins act on staff accounts. */
  private async assertMayActOn(m: EntityManager, actorId: string, t: Target): Promise<void> {
    if (actorId === t.id) throw new BadRequestException(M.notYourself);
    if (t.role === 'user') return;
    const [a]: { role: string }[] = await m.query(`SELECT role FROM users WHERE id = $1`, [actorId]);
    if (a?.role !== 'admin') throw new ForbiddenException(M.staffTarget);
  }
}
