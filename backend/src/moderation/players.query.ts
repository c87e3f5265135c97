import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import type {
  AccountRoleName,
  PlayerDetail,
  PlayerGameItem,
  PlayerLedgerEntry,
  PlayerReportItem,
  PlayerSearchItem,
} from '@spades/common';
import { displayRating, PLAYER_PAGE_ROWS, PLAYER_SEARCH_DEFAULT, PLAYER_SEARCH_MAX } from '@spades/common';
import { DataSource } from 'typeorm';
import { RealtimeService } from '../realtime/realtime.service';
import { UUID_RE } from '@spades/common';
import { MODERATION_MESSAGES as M } from './moderation.messages';
import { SanctionsService } from './sanctions.service';

/** `%`, `_` and `\` match themselves in a LIKE pattern. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

interface SearchRow {
  id: string;
  username: string;
  email: string | null;
  role: AccountRoleName;
  created_at: Date;
  banned: boolean;
  muted: boolean;
}

/** Parses `?q=&limit=` of the player search, or 400 `{ message }`. */
export function parsePlayerSearch(raw: Record<string, unknown>): { q: string; limit: number } {
  const q = typeof raw.q === 'string' ? raw.q.trim() : '';
  if (q.length < 1 || q.length > 100) throw new BadRequestException(M.badQuery);
  let limit = PLAYER_SEARCH_DEFAULT;
  if (raw.limit !== undefined && raw.limit !== '') {
    limit = Number(raw.limit);
    if (!Number.isInteger(limit) || limit < 1 || limit > PLAYER_SEARCH_MAX) throw new BadRequestException(M.badLimit);
  }
  return { q, limit };
}

/**
 * The console's read side of players (issue #25): search by name, e-mail or id, and a player's page (profile, role,
 * rating, coins and the latest ledger entries, games, reports against them, sanctions, sessions).
 */
@Injectable()
export class PlayersQuery {
  constructor(
    private readonly ds: DataSource,
    private readonly sanctions: SanctionsService,
    private readonly realtime: RealtimeService,
  ) {}

  /** An exact id first, then names and e-mails: exact matches, then prefixes, then anywhere (case-insensitive). */
  async search(q: string, limit: number): Promise<PlayerSearchItem[]> {
    const pattern = `%${likeEscape(q.toLowerCase())}%`;
    const prefix = `${likeEscape(q.toLowerCase())}%`;
    const rows: SearchRow[] = await this.ds.query(
      `SELECT u.id, u.username, u.email, u.role, u.created_at,
              EXISTS (SELECT 1 FROM sanctions s WHERE s.user_id = u.id AND s.kind = 'ban' AND s.lifted_at IS NULL
                        AND (s.ends_at IS NULL OR s.ends_at > now())) AS banned,
              EXISTS (SELECT 1 FROM sanctions s WHERE s.user_id = u.id AND s.kind = 'mute' AND s.lifted_at IS NULL
                        AND (s.ends_at IS NULL OR s.ends_at > now())) AS muted
         FROM users u
        WHERE ($1::uuid IS NOT NULL AND u.id = $1::uuid)
           OR lower(u.username) LIKE $2 OR lower(u.email) LIKE $2
        ORDER BY (u.id = $1::uuid) IS TRUE DESC,
                 (lower(u.username) = $3 OR lower(u.email) = $3) DESC,
                 (lower(u.username) LIKE $4 OR lower(u.email) LIKE $4) DESC,
                 lower(u.username)
        LIMIT $5`,
      [UUID_RE.test(q) ? q : null, pattern, q.toLowerCase(), prefix, limit],
    );
    return rows.map((r) => ({
      id: r.id,
      username: r.username,
      email: r.email,
      role: r.role,
      createdAt: new Date(r.created_at).toISOString(),
      online: this.realtime.isOnline(r.id),
      banned: r.banned,
      muted: r.muted,
    }));
  }

  async detail(id: string): Promise<PlayerDetail> {
    if (!UUID_RE.test(id)) throw new NotFoundException(M.playerNotFound);
    const [u]: {
      id: string;
      username: string;
      email: string | null;
      role: AccountRoleName;
      created_at: Date;
      avatar: string | null;
      discord_id: string | null;
      sessions_revoked_at: Date | null;
      last_sign_in_at: Date | null;
    }[] = await this.ds.query(
      `SELECT id, username, email, role, created_at, avatar, discord_id, sessions_revoked_at, last_sign_in_at
         FROM users WHERE id = $1`,
      [id],
    );
    if (!u) throw new NotFoundException(M.playerNotFound);
    const [rating, coins, games, reports, sanctions, mute, ban, sockets] = await Promise.all([
      this.rating(id),
      this.coins(id),
      this.games(id),
      this.reports(id),
      this.sanctions.list(id),
      this.sanctions.activeMute(id),
      this.sanctions.activeBan(id),
      this.realtime.socketsOfUser(id).then(
        (s) => s.length,
        () => 0,
      ),
    ]);
    const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
    return {
      id: u.id,
      username: u.username,
      email: u.email,
      role: u.role,
      createdAt: new Date(u.created_at).toISOString(),
      avatar: u.avatar,
      discordLinked: !!u.discord_id,
      rating,
      coins,
      games,
      reports,
      sanctions,
      activeMute: mute,
      activeBan: ban,
      sessions: {
        online: sockets > 0 || this.realtime.isOnline(id),
        sockets,
        lastSignInAt: iso(u.last_sign_in_at),
        sessionsRevokedAt: iso(u.sessions_revoked_at),
      },
    };
  }

  private async rating(id: string): Promise<PlayerDetail['rating']> {
    const [r]: { mu: number; rated_games: number; games_started: number; games_finished: number }[] =
      await this.ds.query(
        `SELECT mu, rated_games, games_started, games_finished FROM user_ratings WHERE user_id = $1`,
        [id],
      );
    if (!r) return null;
    return {
      rating: displayRating(Number(r.mu)),
      ratedGames: r.rated_games,
      gamesStarted: r.games_started,
      gamesFinished: r.games_finished,
    };
  }

  private async coins(id: string): Promise<PlayerDetail['coins']> {
    const [acc]: { id: string; balance: string }[] = await this.ds.query(
      `SELECT id, balance::text AS balance FROM coin_accounts WHERE user_id = $1`,
      [id],
    );
    if (!acc) return { balance: '0', ledger: [] };
    const rows: { id: string; created_at: Date; amount: string; reason: string; ref_id: string | null }[] =
      await this.ds.query(
        `SELECT id::text AS id, created_at, amount::text AS amount, reason, ref_id FROM coin_entries
          WHERE account_id = $1 ORDER BY id DESC LIMIT $2`,
        [acc.id, PLAYER_PAGE_ROWS],
      );
    const ledger: PlayerLedgerEntry[] = rows.map((r) => ({
      id: r.id,
      at: new Date(r.created_at).toISOString(),
      amount: r.amount,
      reason: r.reason,
      refId: r.ref_id,
    }));
    return { balance: acc.balance, ledger };
  }

  private async games(id: string): Promise<PlayerGameItem[]> {
    const rows: {
      game_id: string;
      game_number: number;
      mode: string;
      rated: boolean;
      private: boolean;
      finished_at: Date;
      seat: number;
      rating_change: number | null;
    }[] = await this.ds.query(
      `SELECT p.game_id, p.game_number, r.mode, r.rated, r.private, p.finished_at, p.seat, p.rating_change
         FROM game_record_players p JOIN game_records r ON r.game_id = p.game_id AND r.game_number = p.game_number
        WHERE p.user_id = $1 ORDER BY p.finished_at DESC LIMIT $2`,
      [id, PLAYER_PAGE_ROWS],
    );
    return rows.map((r) => ({
      gameId: r.game_id,
      gameNumber: r.game_number,
      mode: r.mode,
      rated: r.rated,
      private: r.private,
      finishedAt: new Date(r.finished_at).toISOString(),
      seat: r.seat,
      ratingChange: r.rating_change,
    }));
  }

  /** Reports against the player (null when this server has no reports table). */
  private async reports(id: string): Promise<PlayerReportItem[] | null> {
    const [{ present }]: { present: boolean }[] = await this.ds.query(
      `SELECT to_regclass('reports') IS NOT NULL AS present`,
    );
    if (!present) return null;
    const rows: {
      id: string;
      category: string;
      status: string;
      created_at: Date;
      reporter_id: string | null;
      reporter_name: string | null;
      text: string | null;
    }[] = await this.ds.query(
      `SELECT r.id::text AS id, r.category, r.status, r.created_at, r.reporter_id, u.username AS reporter_name, r.text
         FROM reports r LEFT JOIN users u ON u.id = r.reporter_id
        WHERE r.target_id = $1 ORDER BY r.id DESC LIMIT $2`,
      [id, PLAYER_PAGE_ROWS],
    );
    return rows.map((r) => ({
      id: r.id,
      category: r.category,
      status: r.status,
      createdAt: new Date(r.created_at).toISOString(),
      reporterId: r.reporter_id,
      reporterName: r.reporter_name,
      text: r.text,
    }));
  }
}
