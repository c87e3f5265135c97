/**
 * "Delete my account" (issue #26). The account row stays — game records, ratings, the ledger, reports and the
 * append-only audit log keep pointing at its id — but nothing personal is left in it, and its name is replaced
 * everywhere a copy of it was stored. In ONE transaction:
 * - confirmation: the password (argon2), or the username typed exactly for an account without one (Discord/SSO);
 * - refused (409) while an open table still includes the player (seated, watching, in the current game's
 *   participants or its chat): "leave your tables first". Once a table is closed its stored copy is rewritten;
 *   a live table's record in memory could not be;
 * - `users`: a neutral "Deleted #xxxxxxxx" name (key `#deleted:<id>`), no e-mail, password, Discord id, picture or
 *   role; `deleted_at`; `sessions_revoked_at` (and again after the commit; every socket is then closed);
 * - the old name's key is held (SHA-256 in `held_usernames`) for ACCOUNT_NAME_HOLD_DAYS;
 * - the coin balance moves to the house account through CoinsService.transfer (reason `account_closed`);
 * - friends, blocks, mutes (both ways), options and linked sign-in identities are deleted; replay links revoked;
 * - stored copies of the name: lobby chat lines (kept, neutral author; whole-word mentions of the name in anyone's
 *   line replaced), table snapshots and event rows, game records (players, participants), report contexts —
 *   rewritten with `anonymizeDoc`;
 * - an `account.delete` audit entry (actor = target = the account; names are joined at read time, so the console
 *   shows the neutral name for this and every older entry about the account).
 */
import {
  BadRequestException,
  ConflictException,
  ForbiddenException,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  Optional,
} from '@nestjs/common';
import * as argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import type { DeleteAccountResponse, DeletionInfo } from '@spades/common';
import { ACCOUNT_CLOSED_REASON, ACCOUNT_MESSAGES, DELETED_NAME_PREFIX, deletionEffects } from '@spades/common';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../admin/audit.service';
import { CoinsService } from '../coins/coins.service';
import { RealtimeService } from '../realtime/realtime.service';
import { ACCOUNT_CONFIG, type AccountConfig } from './account.config';
import { anonymizeDoc, namesOf, type Anonymization } from './anonymize';

/** What `session_expired` tells the deleted account's open sockets. */
export const ACCOUNT_DELETED_NOTICE = 'Your account was deleted';

interface AccountRow {
  username: string;
  username_key: string;
  password_hash: string | null;
  deleted_at: Date | null;
}

/** Open tables (not CLOSED) whose stored state mentions the user: snapshot, or an event row after it. */
const OPEN_TABLES_SQL = `
  SELECT g.id FROM games g
   WHERE g.status <> 'CLOSED'
     AND (strpos(g.snapshot::text, $1) > 0
          OR EXISTS (SELECT 1 FROM game_events e WHERE e.game_id = g.id AND e.seq > g.seq
                       AND strpos(coalesce(e.delta::text, '') || coalesce(e.payload::text, '') || coalesce(e.actor, ''), $1) > 0))
   ORDER BY g.id`;

@Injectable()
export class AccountDeletionService {
  private readonly log = new Logger('AccountDeletion');

  constructor(
    private readonly ds: DataSource,
    private readonly coins: CoinsService,
    private readonly audit: AuditService,
    @Inject(ACCOUNT_CONFIG) private readonly cfg: AccountConfig,
    @Optional() private readonly realtime?: RealtimeService,
  ) {}

  async info(userId: string): Promise<DeletionInfo> {
    const u = await this.account(this.ds.manager, userId, false);
    return {
      username: u.username,
      hasPassword: u.password_hash !== null,
      nameHoldDays: this.cfg.nameHoldDays,
      openTables: await this.openTables(this.ds.manager, userId),
      effects: deletionEffects(this.cfg.nameHoldDays),
    };
  }

  async delete(userId: string, body: unknown): Promise<DeleteAccountResponse> {
    const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const before = await this.account(this.ds.manager, userId, false);
    await this.confirm(before, b);
    const result = await this.ds.transaction(async (m) => {
      const u = await this.account(m, userId, true);
      if (u.username !== before.username) throw new ConflictException(ACCOUNT_MESSAGES.confirmRequired);
      if ((await this.openTables(m, userId)).length) throw new ConflictException(ACCOUNT_MESSAGES.atTable);
      const neutral = await this.neutralName(m);
      const names = await this.formerNames(m, userId, u.username);
      const [{ now, free_at }]: { now: Date; free_at: Date }[] = await m.query(
        `SELECT now() AS now, now() + make_interval(days => $1::int) AS free_at`,
        [this.cfg.nameHoldDays],
      );
      await m.query(
        `UPDATE users SET username = $2, username_key = '#deleted:' || id::text, email = NULL, password_hash = NULL,
                discord_id = NULL, avatar = NULL, role = 'user', deleted_at = now(),
                sessions_revoked_at = clock_timestamp(), updated_at = now()
          WHERE id = $1`,
        [userId, neutral],
      );
      await m.query(`DELETE FROM held_usernames WHERE free_at <= now()`);
      if (this.cfg.nameHoldDays > 0)
        await m.query(
          `INSERT INTO held_usernames (key_hash, free_at) VALUES (encode(sha256(convert_to($1, 'UTF8')), 'hex'), $2)
           ON CONFLICT (key_hash) DO UPDATE SET free_at = GREATEST(held_usernames.free_at, EXCLUDED.free_at)`,
          [u.username_key, free_at],
        );
      const coinsClosed = await this.closeBalance(m, userId);
      await this.removeLinks(m, userId);
      await this.rewriteCopies(m, { userId, names, neutral });
      await this.audit.record(m, {
        actorId: userId,
        action: 'account.delete',
        targetUserId: userId,
        after: { coinsClosed: coinsClosed.toString(), nameFreeAt: new Date(free_at).toISOString() },
      });
      return {
        ok: true as const,
        deletedAt: new Date(now).toISOString(),
        nameFreeAt: new Date(free_at).toISOString(),
        coinsClosed: Number(coinsClosed),
      };
    });
    await this.endSessions(userId);
    return result;
  }

  private async account(m: EntityManager, userId: string, lock: boolean): Promise<AccountRow> {
    const [u]: AccountRow[] = await m.query(
      `SELECT username, username_key, password_hash, deleted_at FROM users WHERE id = $1 ${lock ? 'FOR UPDATE' : ''}`,
      [userId],
    );
    if (!u || u.deleted_at) throw new NotFoundException(ACCOUNT_MESSAGES.alreadyDeleted);
    return u;
  }

  /** The password, or (no password) the username typed exactly; 400/403 `{ message }` otherwise. */
  private async confirm(u: AccountRow, b: Record<string, unknown>): Promise<void> {
    if (u.password_hash !== null) {
      if (typeof b.password !== 'string' || !b.password)
        throw new BadRequestException(ACCOUNT_MESSAGES.passwordRequired);
      if (b.password.length > 1024 || !(await argon2.verify(u.password_hash, b.password).catch(() => false)))
        throw new ForbiddenException(ACCOUNT_MESSAGES.wrongPassword);
      return;
    }
    if (typeof b.confirm !== 'string' || b.confirm.trim() !== u.username)
      throw new BadRequestException(ACCOUNT_MESSAGES.confirmRequired);
  }

  private async openTables(m: EntityManager, userId: string): Promise<string[]> {
    const rows: { id: string }[] = await m.query(OPEN_TABLES_SQL, [userId]);
    return rows.map((r) => r.id);
  }

  /** "Deleted #" + 8 random hex digits, not yet anyone's name (a `#` no chosen name can hold). */
  private async neutralName(m: EntityManager): Promise<string> {
    for (;;) {
      const name = `${DELETED_NAME_PREFIX}${randomBytes(4).toString('hex')}`;
      const taken: unknown[] = await m.query(`SELECT 1 FROM users WHERE lower(username) = lower($1)`, [name]);
      if (!taken.length) return name;
    }
  }

  /** The current name and every name stored copies gave the player (an older one, before a rename). */
  private async formerNames(m: EntityManager, userId: string, current: string): Promise<Set<string>> {
    const names = new Set<string>([current]);
    const docs: { d: unknown }[] = await m.query(
      `SELECT jsonb_build_array(g.players, g.participants) AS d FROM game_records g
         JOIN game_record_players p USING (game_id, game_number) WHERE p.user_id = $1
       UNION ALL SELECT snapshot AS d FROM games WHERE strpos(snapshot::text, $1::text) > 0
       UNION ALL SELECT context AS d FROM reports WHERE strpos(context::text, $1::text) > 0`,
      [userId],
    );
    for (const r of docs) namesOf(r.d, userId, names);
    return names;
  }

  /** Moves the whole balance to the house through the ledger; returns the amount. */
  private async closeBalance(m: EntityManager, userId: string): Promise<bigint> {
    const [acct]: { balance: string }[] = await m.query(
      `SELECT balance::text AS balance FROM coin_accounts WHERE user_id = $1 FOR UPDATE`,
      [userId],
    );
    const balance = BigInt(acct?.balance ?? 0);
    if (balance > 0n) await this.coins.transfer(m, { userId }, 'house', balance, ACCOUNT_CLOSED_REASON, userId);
    return balance > 0n ? balance : 0n;
  }

  private async removeLinks(m: EntityManager, userId: string): Promise<void> {
    await m.query(`DELETE FROM user_relations WHERE user_id = $1 OR target_id = $1`, [userId]);
    await m.query(`DELETE FROM player_mutes WHERE user_id = $1 OR target_id = $1`, [userId]);
    await m.query(`DELETE FROM player_options WHERE user_id = $1`, [userId]);
    await m.query(`UPDATE replay_shares SET revoked_at = now() WHERE created_by = $1 AND revoked_at IS NULL`, [userId]);
    // sign-in identities of other providers (issue #26's OIDC/GitHub tables, when present)
    for (const [table, column] of [
      ['user_identities', 'user_id'],
      ['sso_login_states', 'link_user_id'],
      ['sso_link_tickets', 'user_id'],
    ]) {
      const [t]: { t: string | null }[] = await m.query(`SELECT to_regclass($1)::text AS t`, [table]);
      if (t?.t) await m.query(`DELETE FROM ${table} WHERE ${column} = $1`, [userId]);
    }
  }

  /** Every stored copy of the player's name gets the neutral one. */
  private async rewriteCopies(m: EntityManager, a: Anonymization & { names: Set<string> }): Promise<void> {
    await m.query(`UPDATE lobby_chat_messages SET username = $2 WHERE user_id = $1`, [a.userId, a.neutral]);
    // whole-word mentions of the name in lobby chat lines (anyone's), as anonymizeDoc does in table chat
    const valid = [...a.names].filter((n) => /^[A-Za-z0-9_-]+$/.test(n));
    if (valid.length)
      await m.query(
        `UPDATE lobby_chat_messages SET message = regexp_replace(message, $1, '\\1' || $2, 'gi')
          WHERE message ~* $1`,
        [`(^|[^A-Za-z0-9_-])(${valid.join('|')})(?=[^A-Za-z0-9_-]|$)`, a.neutral],
      );
    const lower = [...a.names].map((n) => n.toLowerCase());
    // a document is looked at when it holds the id or one of the names (a system line "alice left" has no id)
    const mention = (col: string) =>
      `(strpos(${col}, $1::text) > 0 OR EXISTS (SELECT 1 FROM unnest($2::text[]) n WHERE strpos(lower(${col}), n) > 0))`;

    const records: { game_id: string; game_number: number; players: unknown; participants: unknown }[] = await m.query(
      `SELECT g.game_id, g.game_number, g.players, g.participants FROM game_records g
         JOIN game_record_players p USING (game_id, game_number) WHERE p.user_id = $1::uuid`,
      [a.userId],
    );
    for (const r of records) {
      const players = anonymizeDoc(r.players, a);
      const participants = anonymizeDoc(r.participants, a);
      if (players.changed || participants.changed)
        await m.query(
          `UPDATE game_records SET players = $3::jsonb, participants = $4::jsonb WHERE game_id = $1 AND game_number = $2`,
          [r.game_id, r.game_number, JSON.stringify(players.value), JSON.stringify(participants.value)],
        );
    }

    // the tables the player was at: their snapshot or an event mentions the id, or they have a game record
    const games: { id: string }[] = await m.query(
      `SELECT id FROM games WHERE strpos(snapshot::text, $1::text) > 0
       UNION SELECT DISTINCT game_id FROM game_events
        WHERE strpos(coalesce(delta::text, '') || coalesce(payload::text, '') || coalesce(actor, ''), $1::text) > 0
       UNION SELECT game_id FROM game_record_players WHERE user_id = $1::uuid`,
      [a.userId],
    );
    const ids = games.map((g) => g.id);
    if (!ids.length) return this.rewriteReports(m, a, mention, lower);
    const snaps: { id: string; snapshot: unknown }[] = await m.query(
      `SELECT id, snapshot FROM games WHERE id = ANY($3::uuid[]) AND ${mention('snapshot::text')}`,
      [a.userId, lower, ids],
    );
    for (const s of snaps) {
      const next = anonymizeDoc(s.snapshot, a);
      if (next.changed)
        await m.query(`UPDATE games SET snapshot = $2::jsonb WHERE id = $1`, [s.id, JSON.stringify(next.value)]);
    }
    const events: { id: string; payload: unknown; result: unknown; delta: unknown }[] = await m.query(
      `SELECT id::text, payload, result, delta FROM game_events
        WHERE game_id = ANY($3::uuid[])
          AND ${mention(`coalesce(payload::text, '') || coalesce(result::text, '') || coalesce(delta::text, '')`)}`,
      [a.userId, lower, ids],
    );
    for (const e of events) {
      const [p, r, d] = [anonymizeDoc(e.payload, a), anonymizeDoc(e.result, a), anonymizeDoc(e.delta, a)];
      if (p.changed || r.changed || d.changed)
        await m.query(
          `UPDATE game_events SET payload = $2::jsonb, result = $3::jsonb, delta = $4::jsonb WHERE id = $1`,
          [e.id, json(p.value), json(r.value), json(d.value)],
        );
    }
    await this.rewriteReports(m, a, mention, lower);
  }

  private async rewriteReports(
    m: EntityManager,
    a: Anonymization,
    mention: (col: string) => string,
    lower: string[],
  ): Promise<void> {
    const reports: { id: string; context: unknown }[] = await m.query(
      `SELECT id::text, context FROM reports WHERE (target_id = $1::uuid OR reporter_id = $1::uuid OR ${mention('context::text')})`,
      [a.userId, lower],
    );
    for (const r of reports) {
      const next = anonymizeDoc(r.context, a);
      if (next.changed)
        await m.query(`UPDATE reports SET context = $2::jsonb WHERE id = $1`, [r.id, JSON.stringify(next.value)]);
    }
  }

  /** After the commit: revoke once more (a token signed during the transaction), then close every socket. */
  private async endSessions(userId: string): Promise<void> {
    try {
      await this.ds.query(`UPDATE users SET sessions_revoked_at = clock_timestamp() WHERE id = $1`, [userId]);
      for (const socket of (await this.realtime?.socketsOfUser(userId)) ?? []) {
        socket.emit('session_expired', { message: ACCOUNT_DELETED_NOTICE });
        socket.disconnect(true);
      }
    } catch (e) {
      this.log.error(`ending the sessions of deleted account ${userId}: ${(e as Error).message}`);
    }
  }
}

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));
