import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import {
  checkLineText,
  INVITE_CODE_ALPHABET,
  INVITE_CODE_MAX_USES,
  INVITE_CODE_NOTE_MAX,
  normalizeInviteCode,
  REGISTRATION_MESSAGES,
  type InviteCode,
} from '@spades/common';
import { randomInt } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../admin/audit.service';
import type { RegistrationGate } from './registration.gate';
import { SettingsService } from './settings.service';
import { staffReason } from './staff-reason';

interface InviteRow {
  code: string;
  created_at: Date;
  created_by: string | null;
  created_by_name: string | null;
  note: string | null;
  max_uses: number | null;
  uses: number;
  expires_at: Date | null;
  revoked_at: Date | null;
}

export const INVITE_CODES_LIST_MAX = 500;

/**
 * Who may create an account (issue #25): the host's registration mode, and the invite codes admins hand out while
 * it is "invite codes only". `admit` runs inside the transaction that creates the account, so a code's use is
 * counted exactly when an account is created with it (and a code with one use left admits one account only).
 */
@Injectable()
export class InviteCodesService implements RegistrationGate {
  constructor(
    private readonly ds: DataSource,
    private readonly settings: SettingsService,
    private readonly audit: AuditService,
  ) {}

  startingCoins(): number {
    return this.settings.get().startingCoins;
  }

  /** Refuses (403 `{ message }`) a new account the registration mode does not allow; counts the code's use. */
  async admit(m: EntityManager, inviteCode: unknown): Promise<void> {
    const mode = this.settings.registration();
    if (mode === 'open') return;
    if (mode === 'closed') throw new ForbiddenException(REGISTRATION_MESSAGES.closed);
    if (inviteCode === undefined || inviteCode === null || inviteCode === '')
      throw new ForbiddenException(REGISTRATION_MESSAGES.inviteRequired);
    const code = normalizeInviteCode(inviteCode);
    if (!code) throw new ForbiddenException(REGISTRATION_MESSAGES.inviteInvalid);
    const used = (await m.query(
      `UPDATE invite_codes SET uses = uses + 1
        WHERE code = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
          AND (max_uses IS NULL OR uses < max_uses)
        RETURNING code`,
      [code],
    )) as unknown[];
    // TypeORM returns [rows, count] for UPDATE … RETURNING on PostgreSQL
    const rows = Array.isArray(used[0]) ? (used[0] as unknown[]) : used;
    if (rows.length === 0) throw new ForbiddenException(REGISTRATION_MESSAGES.inviteInvalid);
  }

  async list(): Promise<InviteCode[]> {
    return (
      (await this.ds.query(`${SELECT} ORDER BY i.created_at DESC LIMIT ${INVITE_CODES_LIST_MAX}`)) as InviteRow[]
    ).map(toCode);
  }

  async create(actorId: string, body: Record<string, unknown> | undefined): Promise<InviteCode> {
    const b = body ?? {};
    const reason = staffReason(b.reason);
    const maxUses = b.maxUses === undefined ? 1 : b.maxUses;
    if (
      maxUses !== null &&
      (typeof maxUses !== 'number' || !Number.isInteger(maxUses) || maxUses < 1 || maxUses > INVITE_CODE_MAX_USES)
    )
      throw new BadRequestException(`maxUses must be 1–${INVITE_CODE_MAX_USES} or null (unlimited)`);
    const days = b.expiresInDays ?? null;
    if (days !== null && (typeof days !== 'number' || !Number.isInteger(days) || days < 1 || days > 365))
      throw new BadRequestException('expiresInDays must be 1–365 or null (never)');
    let note: string | null = null;
    if (b.note !== undefined && b.note !== null) {
      const t = checkLineText(b.note, 'The note');
      if (!t.ok) throw new BadRequestException(t.message);
      if (t.text.length > INVITE_CODE_NOTE_MAX)
        throw new BadRequestException(`The note must be at most ${INVITE_CODE_NOTE_MAX} characters`);
      note = t.text || null;
    }
    const code = newInviteCode();
    await this.ds.transaction(async (m) => {
      await m.query(
        `INSERT INTO invite_codes (code, created_by, note, max_uses, expires_at)
         VALUES ($1, $2, $3, $4, CASE WHEN $5::int IS NULL THEN NULL ELSE now() + make_interval(days => $5::int) END)`,
        [code, actorId, note, maxUses, days],
      );
      await this.audit.record(m, {
        actorId,
        action: 'invite.create',
        targetRef: `invite:${code}`,
        reason,
        after: { maxUses, expiresInDays: days, note },
      });
    });
    return this.get(code);
  }

  async revoke(actorId: string, rawCode: string, body: Record<string, unknown> | undefined): Promise<InviteCode> {
    const reason = staffReason(body?.reason);
    const code = normalizeInviteCode(rawCode);
    if (!code) throw new NotFoundException('No such invite code');
    await this.ds.transaction(async (m) => {
      const rows = (await m.query(`SELECT uses, revoked_at FROM invite_codes WHERE code = $1 FOR UPDATE`, [code])) as {
        uses: number;
        revoked_at: Date | null;
      }[];
      if (!rows[0]) throw new NotFoundException('No such invite code');
      if (rows[0].revoked_at) throw new BadRequestException('This invite code is already revoked');
      await m.query(`UPDATE invite_codes SET revoked_at = now() WHERE code = $1`, [code]);
      await this.audit.record(m, {
        actorId,
        action: 'invite.revoke',
        targetRef: `invite:${code}`,
        reason,
        before: { revoked: false, uses: rows[0].uses },
        after: { revoked: true },
      });
    });
    return this.get(code);
  }

  private async get(code: string): Promise<InviteCode> {
    const rows = (await this.ds.query(`${SELECT} WHERE i.code = $1`, [code])) as InviteRow[];
    if (!rows[0]) throw new NotFoundException('No such invite code');
    return toCode(rows[0]);
  }
}

const SELECT = `SELECT i.code, i.created_at, i.created_by, u.username AS created_by_name, i.note, i.max_uses, i.uses,
                       i.expires_at, i.revoked_at
                  FROM invite_codes i LEFT JOIN users u ON u.id = i.created_by`;

function toCode(r: InviteRow): InviteCode {
  const expiresAt = r.expires_at ? new Date(r.expires_at) : null;
  return {
    code: r.code,
    createdAt: new Date(r.created_at).toISOString(),
    createdBy: r.created_by ? { id: r.created_by, username: r.created_by_name ?? '' } : null,
    note: r.note,
    maxUses: r.max_uses,
    uses: r.uses,
    expiresAt: expiresAt?.toISOString() ?? null,
    revokedAt: r.revoked_at ? new Date(r.revoked_at).toISOString() : null,
    active:
      !r.revoked_at && (!expiresAt || expiresAt.getTime() > Date.now()) && (r.max_uses === null || r.uses < r.max_uses),
  };
}

/** 12 characters of the unambiguous alphabet (~59 bits). */
export function newInviteCode(): string {
  let c = '';
  for (let i = 0; i < 12; i++) c += INVITE_CODE_ALPHABET[randomInt(INVITE_CODE_ALPHABET.length)];
  return c;
}
