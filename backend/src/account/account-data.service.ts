/**
 * "Download my data" (issue #26): everything stored about one account, as one JSON document — and nothing about
 * anyone else. Rows are selected by the caller's id only; the parts that belong to others (the captured context
 * of a report, a moderator's id or notes, who blocked the player) are left out. Table chat: only the lines the
 * player wrote, read from the stored table snapshots and event rows (a table's chat is kept there, not in a table
 * of its own).
 */
import { Injectable, NotFoundException } from '@nestjs/common';
import type { AccountExport, ExportedTableChatLine } from '@spades/common';
import { ACCOUNT_EXPORT_FORMAT, ACCOUNT_EXPORT_VERSION, ACCOUNT_MESSAGES } from '@spades/common';
import { DataSource, EntityManager } from 'typeorm';

type Row = Record<string, unknown>;

const iso = (v: unknown): string | null => {
  if (v === null || v === undefined) return null;
  const d = new Date(v as string);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
};

/** Rows of an optional table (one another module may not have created yet): none when it does not exist. */
async function ifTable(m: EntityManager, table: string, sql: string, params: unknown[]): Promise<Row[]> {
  const [t]: { t: string | null }[] = await m.query(`SELECT to_regclass($1)::text AS t`, [table]);
  return t?.t ? m.query(sql, params) : [];
}

/** Chat lines of `userId` in a stored chat array (a snapshot's `chat` or a delta's `chat`). */
function chatLinesOf(gameId: string, chat: unknown, userId: string, out: Map<string, ExportedTableChatLine>): void {
  if (!Array.isArray(chat)) return;
  for (const m of chat as Row[]) {
    if (m?.userId !== userId || typeof m.id !== 'string' || typeof m.message !== 'string') continue;
    const at = typeof m.timestamp === 'number' || typeof m.timestamp === 'string' ? iso(m.timestamp) : null;
    out.set(`${gameId}:${m.id}`, { gameId, id: m.id, message: m.message, at: at ?? '' });
  }
}

@Injectable()
export class AccountDataService {
  constructor(private readonly ds: DataSource) {}

  async export(userId: string): Promise<AccountExport> {
    // one snapshot of the database for the whole document
    return this.ds.transaction('REPEATABLE READ', async (m) => {
      const [u]: Row[] = await m.query(
        `SELECT id, username, email, avatar, discord_id IS NOT NULL AS discord, password_hash IS NOT NULL AS has_password,
                role, created_at, last_sign_in_at, deleted_at
           FROM users WHERE id = $1`,
        [userId],
      );
      if (!u || u.deleted_at) throw new NotFoundException(ACCOUNT_MESSAGES.alreadyDeleted);
      const [acct]: { id: string; balance: string }[] = await m.query(
        `SELECT id, balance::text AS balance FROM coin_accounts WHERE user_id = $1`,
        [userId],
      );
      const balance = Number(acct?.balance ?? 0);
      const entries: Row[] = acct
        ? await m.query(
            `SELECT id::text, transfer_id, amount::text, reason, ref_id, created_at FROM coin_entries
              WHERE account_id = $1 ORDER BY id`,
            [acct.id],
          )
        : [];
      const q = (sql: string) => m.query(sql, [userId]) as Promise<Row[]>;
      const [stats, games, lobby, current, history, bans, relations, mutes, reports, sanctions, options, shares] =
        await Promise.all([
          q(`SELECT to_jsonb(s) - 'user_id' AS r FROM user_stats s WHERE user_id = $1 ORDER BY mode`),
          q(`SELECT to_jsonb(g) - 'final_state' || jsonb_build_object('seat', p.seat, 'ratingChange', p.rating_change) AS r
               FROM game_record_players p JOIN game_records g USING (game_id, game_number)
              WHERE p.user_id = $1 ORDER BY p.finished_at, g.game_id, g.game_number`),
          q(`SELECT id, message, created_at FROM lobby_chat_messages WHERE user_id = $1 ORDER BY created_at, id`),
          q(`SELECT to_jsonb(r) - 'user_id' AS r FROM user_ratings r WHERE user_id = $1`),
          q(`SELECT to_jsonb(h) - 'user_id' AS r FROM rating_history h WHERE user_id = $1 ORDER BY created_at`),
          q(`SELECT to_jsonb(b) - 'user_id' AS r FROM rating_bans b WHERE user_id = $1 ORDER BY issued_at`),
          q(`SELECT r.target_id, t.username, r.kind, r.created_at FROM user_relations r JOIN users t ON t.id = r.target_id
              WHERE r.user_id = $1 ORDER BY r.created_at`),
          q(`SELECT p.target_id, t.username, p.created_at FROM player_mutes p JOIN users t ON t.id = p.target_id
              WHERE p.user_id = $1 ORDER BY p.created_at`),
          q(`SELECT r.id::text AS id, r.created_at, r.category, r.text, r.context_kind, r.status, r.closed_at,
                    t.username AS target_name
               FROM reports r JOIN users t ON t.id = r.target_id WHERE r.reporter_id = $1 ORDER BY r.id`),
          q(`SELECT id, kind, scope, reason, ends_at, created_at, lifted_at, lift_reason, seen_at FROM sanctions
              WHERE user_id = $1 ORDER BY created_at`),
          q(`SELECT to_jsonb(o) - 'user_id' AS r FROM player_options o WHERE user_id = $1`),
          q(
            `SELECT id, game_id, game_number, created_at, revoked_at FROM replay_shares WHERE created_by = $1 ORDER BY created_at`,
          ),
        ]);
      const identities = await ifTable(
        m,
        'user_identities',
        `SELECT provider, email, created_at FROM user_identities WHERE user_id = $1 ORDER BY created_at`,
        [userId],
      );
      const doc: AccountExport & { identities: Row[] } = {
        format: ACCOUNT_EXPORT_FORMAT,
        version: ACCOUNT_EXPORT_VERSION,
        exportedAt: new Date().toISOString(),
        profile: {
          id: u.id as string,
          username: u.username as string,
          email: (u.email as string | null) ?? null,
          avatar: (u.avatar as string | null) ?? null,
          discordLinked: !!u.discord,
          hasPassword: !!u.has_password,
          role: u.role as string,
          createdAt: iso(u.created_at)!,
          lastSignInAt: iso(u.last_sign_in_at),
          coins: balance,
        },
        stats: stats.map((r) => r.r as Row),
        games: games.map((r) => r.r as Row),
        chat: {
          lobby: lobby.map((r) => ({ id: r.id as string, message: r.message as string, at: iso(r.created_at)! })),
          tables: await this.tableChat(m, userId),
        },
        ledger: {
          balance,
          entries: entries.map((e) => ({
            id: e.id as string,
            transferId: e.transfer_id as string,
            amount: Number(e.amount),
            reason: e.reason as string,
            refId: (e.ref_id as string | null) ?? null,
            at: iso(e.created_at)!,
          })),
        },
        ratings: {
          current: (current[0]?.r as Row | undefined) ?? null,
          history: history.map((r) => r.r as Row),
          bans: bans.map((r) => r.r as Row),
        },
        relations: relations.map((r) => ({
          targetId: r.target_id as string,
          targetName: r.username as string,
          kind: r.kind as string,
          at: iso(r.created_at)!,
        })),
        mutes: mutes.map((r) => ({
          targetId: r.target_id as string,
          targetName: r.username as string,
          at: iso(r.created_at)!,
        })),
        reportsFiled: reports.map((r) => ({
          id: r.id,
          at: iso(r.created_at),
          category: r.category,
          text: r.text,
          about: r.context_kind,
          targetName: r.target_name,
          status: r.status,
          closedAt: iso(r.closed_at),
        })),
        sanctions: sanctions.map((s) => ({
          id: s.id,
          kind: s.kind,
          scope: s.scope,
          reason: s.reason,
          endsAt: iso(s.ends_at),
          at: iso(s.created_at),
          liftedAt: iso(s.lifted_at),
          liftReason: s.lift_reason,
          seenAt: iso(s.seen_at),
        })),
        options: (options[0]?.r as Row | undefined) ?? null,
        replayShares: shares.map((s) => ({
          id: s.id,
          gameId: s.game_id,
          gameNumber: s.game_number,
          at: iso(s.created_at),
          revokedAt: iso(s.revoked_at),
        })),
        identities: identities.map((i) => ({ provider: i.provider, email: i.email, linkedAt: iso(i.created_at) })),
      };
      return doc;
    });
  }

  /**
   * The table chat lines the player wrote: every stored chat array (table snapshots and the `chat` of event deltas)
   * that mentions the player's id, filtered to the player's own lines. A scan of the stored tables: a rare request.
   */
  private async tableChat(m: EntityManager, userId: string): Promise<ExportedTableChatLine[]> {
    const out = new Map<string, ExportedTableChatLine>();
    const snaps: { id: string; chat: unknown }[] = await m.query(
      `SELECT id, snapshot -> 'chat' AS chat FROM games WHERE strpos(snapshot::text, $1) > 0`,
      [userId],
    );
    for (const s of snaps) chatLinesOf(s.id, s.chat, userId, out);
    const deltas: { game_id: string; chat: unknown }[] = await m.query(
      `SELECT game_id, delta -> 'chat' AS chat FROM game_events
        WHERE delta -> 'chat' IS NOT NULL AND strpos((delta -> 'chat')::text, $1) > 0 ORDER BY id`,
      [userId],
    );
    for (const d of deltas) chatLinesOf(d.game_id, d.chat, userId, out);
    return [...out.values()].sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id));
  }
}
