/**
 * Ratings of rated games (issue #11): the Weng-Lin update from @spades/common, stored exactly once per game
 * inside the settlement transaction (the `rated_games` row is the guard), the per-game history (who played with
 * whom, seat, place, left, rating before/after, coins won), completion counters, and escalating bans from rated
 * tables for repeated abandonment. Read side: summaries, history, per-game changes, the rating leaderboard SQL and
 * the admin collusion report.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  CollusionPair,
  CollusionReport,
  displayRating,
  GameRatingsResponse,
  isProvisional,
  newRating,
  PlayerRating,
  RATING_IDLE_SIGMA_PER_DAY,
  RATING_PROVISIONAL_SIGMA,
  RATING_SIGMA0,
  rateGame,
  RatingHistoryPoint,
  RatingSummary,
} from '@spades/common';
import { DataSource, EntityManager } from 'typeorm';
import { banMinutes, RATINGS_CONFIG } from './ratings.config';
import type { RatingsConfig } from './ratings.config';

export interface RatedGameInput {
  tableId: string;
  gameNumber: number;
  mode: 'PARTNERS' | 'SOLO';
  buyIn: number;
  /** The four humans who started the game, by seat. */
  participants: { seat: number; userId: string }[];
  /** Place per seat from the game result; null when the game was abandoned by every human. */
  places: number[] | null;
  /** Participants who left the game or lost the seat to timeouts. */
  leavers: string[];
  /** Coins paid out per seat by the settlement. */
  payouts: number[];
  /** Epoch ms of the settlement. */
  at: number;
}

/** Refusal to seat a banned player at a rated table (the games port turns it into a TableError). */
export class RatedBanError extends Error {
  constructor(
    message: string,
    readonly until: Date,
  ) {
    super(message);
  }
}

interface RatingRow {
  user_id: string;
  mu: number;
  sigma: number;
  rated_at: Date | null;
  rated_games: number;
  games_started: number;
  games_finished: number;
}

function utc(d: Date): string {
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** SQL condition: a user_ratings row (alias r) is NOT provisional now (effective sigma ≤ RATING_PROVISIONAL_SIGMA). */
export const SETTLED_RATING_SQL = `(r.rated_at IS NOT NULL AND LEAST(${RATING_SIGMA0 * RATING_SIGMA0}, r.sigma * r.sigma + ${
  RATING_IDLE_SIGMA_PER_DAY * RATING_IDLE_SIGMA_PER_DAY
} * GREATEST(0, EXTRACT(EPOCH FROM (now() - r.rated_at)) / 86400.0)) <= ${RATING_PROVISIONAL_SIGMA * RATING_PROVISIONAL_SIGMA})`;

@Injectable()
export class RatingsService {
  private readonly log = new Logger('Ratings');

  constructor(
    private readonly ds: DataSource,
    @Inject(RATINGS_CONFIG) readonly cfg: RatingsConfig,
  ) {}

  // ------------------------------------------------------------------ settlement (write side)

  /**
   * Records one settled rated game INSIDE the settlement transaction: ratings, history, completion counters and
   * bans. Exactly once per (table, game number): a second call for the same game returns false and writes nothing.
   */
  async recordGame(m: EntityManager, g: RatedGameInput): Promise<boolean> {
    if (!m.queryRunner?.isTransactionActive) throw new Error('recordGame must run inside the settlement transaction');
    const key = `${g.tableId}:${g.gameNumber}`;
    const at = new Date(g.at);
    const ins: unknown[] = await m.query(
      `INSERT INTO rated_games (game_key, table_id, game_number, mode, outcome, buy_in, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING RETURNING game_key`,
      [key, g.tableId, g.gameNumber, g.mode, g.places ? 'completed' : 'abandoned', g.buyIn, at],
    );
    if (!ins.length) return false;
    const ids = g.participants.map((p) => p.userId);
    for (const id of ids) {
      const r = newRating();
      await m.query(`INSERT INTO user_ratings (user_id, mu, sigma) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`, [
        id,
        r.mu,
        r.sigma,
      ]);
    }
    const rows: RatingRow[] = await m.query(
      `SELECT * FROM user_ratings WHERE user_id = ANY($1) ORDER BY user_id FOR UPDATE`,
      [ids],
    );
    const byId = new Map(rows.map((r) => [r.user_id, r]));
    const rating = (id: string): PlayerRating => {
      const r = byId.get(id) as RatingRow;
      return { mu: r.mu, sigma: r.sigma, ratedAt: r.rated_at ? new Date(r.rated_at).getTime() : null };
    };
    const left = new Set(g.leavers);
    const changes = g.places
      ? rateGame(
          g.mode,
          g.participants.map((p) => ({
            seat: p.seat,
            rating: rating(p.userId),
            place: (g.places as number[])[p.seat],
            left: left.has(p.userId),
          })),
          g.at,
        )
      : null;
    for (const [i, p] of g.participants.entries()) {
      const before = rating(p.userId);
      const c = changes?.[i];
      const finished = !left.has(p.userId);
      await m.query(
        `INSERT INTO rating_history (game_key, user_id, seat, team, place, left_game, rated, mu_before, sigma_before, mu_after,
                                     sigma_after, delta, payout, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          key,
          p.userId,
          p.seat,
          g.mode === 'PARTNERS' ? p.seat % 2 : p.seat,
          g.places ? g.places[p.seat] : null,
          !finished,
          !!c,
          c ? c.before.mu : before.mu,
          c ? c.before.sigma : before.sigma,
          c ? c.after.mu : before.mu,
          c ? c.after.sigma : before.sigma,
          c ? c.delta : 0,
          g.payouts[p.seat] ?? 0,
          at,
        ],
      );
      await m.query(
        `UPDATE user_ratings SET mu = $2, sigma = $3, rated_at = CASE WHEN $4 THEN $5::timestamptz ELSE rated_at END,
                rated_games = rated_games + $6, games_started = games_started + 1, games_finished = games_finished + $7,
                updated_at = now()
          WHERE user_id = $1`,
        [p.userId, c ? c.after.mu : before.mu, c ? c.after.sigma : before.sigma, !!c, at, c ? 1 : 0, finished ? 1 : 0],
      );
      if (!finished) await this.maybeBan(m, p.userId, key, at);
    }
    if (process.env.RATINGS_CRASH_DURING_SETTLEMENT === '1') {
      // Test hook: die after the ratings were written, before the settlement transaction commits.
      process.kill(process.pid, 'SIGKILL');
      await new Promise(() => undefined);
    }
    return true;
  }

  /**
   * After an abandonment: `banAbandonments` abandoned rated games inside `banWindowHours` (counting only those
   * after the previous ban) → a ban of banBaseMinutes · 2^(bans in the last banForgiveDays days).
   */
  private async maybeBan(m: EntityManager, userId: string, key: string, at: Date): Promise<void> {
    const c = this.cfg;
    const last: { issued_at: Date }[] = await m.query(
      `SELECT issued_at FROM rating_bans WHERE user_id = $1 ORDER BY issued_at DESC LIMIT 1`,
      [userId],
    );
    const windowStart = new Date(at.getTime() - c.banWindowHours * 3_600_000);
    const since = last.length && new Date(last[0].issued_at) > windowStart ? new Date(last[0].issued_at) : windowStart;
    const [{ n }]: { n: string }[] = await m.query(
      `SELECT count(*) AS n FROM rating_history WHERE user_id = $1 AND left_game AND created_at > $2 AND created_at <= $3`,
      [userId, since, at],
    );
    if (Number(n) < c.banAbandonments) return;
    const [{ recent }]: { recent: string }[] = await m.query(
      `SELECT count(*) AS recent FROM rating_bans WHERE user_id = $1 AND issued_at > $2`,
      [userId, new Date(at.getTime() - c.banForgiveDays * 86_400_000)],
    );
    const level = Number(recent) + 1;
    const until = new Date(at.getTime() + banMinutes(c, level) * 60_000);
    await m.query(
      `INSERT INTO rating_bans (user_id, game_key, level, abandonments, issued_at, banned_until) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT DO NOTHING`,
      [userId, key, level, Number(n), at, until],
    );
    this.log.log(
      `user ${userId} banned from rated tables until ${until.toISOString()} (level ${level}, ${n} abandonments)`,
    );
  }

  // ------------------------------------------------------------------ bans

  /** Active bans (latest end) of the given users. */
  async bannedUntil(userIds: string[], now = Date.now()): Promise<Map<string, Date>> {
    if (!userIds.length) return new Map();
    const rows: { user_id: string; until: Date }[] = await this.ds.query(
      `SELECT user_id, max(banned_until) AS until FROM rating_bans WHERE user_id = ANY($1) AND banned_until > $2 GROUP BY user_id`,
      [userIds, new Date(now)],
    );
    return new Map(rows.map((r) => [r.user_id, new Date(r.until)]));
  }

  /**
   * Refuses a rated game to banned players: `players` with their names; `self` is the user asking (their own ban
   * reads "You are …"). Throws RatedBanError with the message and end time.
   */
  async assertMayPlayRated(players: { userId: string; username: string }[], self: string): Promise<void> {
    const bans = await this.bannedUntil(players.map((p) => p.userId));
    if (!bans.size) return;
    const [userId, until] = [...bans.entries()].sort((a, b) => b[1].getTime() - a[1].getTime())[0];
    const who = userId === self ? 'You are' : `${players.find((p) => p.userId === userId)?.username ?? 'A player'} is`;
    throw new RatedBanError(
      `${who} banned from rated tables until ${utc(until)} for abandoning rated games. Tables with a bot are unrated and stay open.`,
      until,
    );
  }

  // ------------------------------------------------------------------ read side

  async summaries(userIds: string[]): Promise<RatingSummary[]> {
    const ids = [...new Set(userIds)];
    if (!ids.length) return [];
    const rows: RatingRow[] = await this.ds.query(
      `SELECT u.id AS user_id, r.mu, r.sigma, r.rated_at, r.rated_games, r.games_started, r.games_finished
         FROM users u LEFT JOIN user_ratings r ON r.user_id = u.id WHERE u.id = ANY($1)`,
      [ids],
    );
    const bans = await this.bannedUntil(ids);
    const now = Date.now();
    return rows.map((r) => this.toSummary(r, bans.get(r.user_id) ?? null, now));
  }

  private toSummary(r: RatingRow, ban: Date | null, now: number): RatingSummary {
    const pr: PlayerRating =
      r.mu === null || r.mu === undefined
        ? newRating()
        : { mu: r.mu, sigma: r.sigma, ratedAt: r.rated_at ? new Date(r.rated_at).getTime() : null };
    const started = r.games_started ?? 0;
    const finished = r.games_finished ?? 0;
    return {
      userId: r.user_id,
      rating: displayRating(pr.mu),
      provisional: isProvisional(pr, now),
      ratedGames: r.rated_games ?? 0,
      gamesStarted: started,
      gamesFinished: finished,
      completionRate: started > 0 ? Math.round((finished / started) * 1000) / 10 : null,
      bannedUntil: ban ? ban.toISOString() : null,
    };
  }

  async history(userId: string): Promise<RatingHistoryPoint[]> {
    const rows: {
      table_id: string;
      game_number: number;
      mode: 'PARTNERS' | 'SOLO';
      created_at: Date;
      mu_after: number;
      delta: number;
      left_game: boolean;
      place: number | null;
    }[] = await this.ds.query(
      `SELECT g.table_id, g.game_number, g.mode, h.created_at, h.mu_after, h.delta, h.left_game, h.place
           FROM rating_history h JOIN rated_games g ON g.game_key = h.game_key
          WHERE h.user_id = $1 ORDER BY h.created_at, h.game_key LIMIT 1000`,
      [userId],
    );
    return rows.map((r) => ({
      gameId: r.table_id,
      gameNumber: r.game_number,
      mode: r.mode,
      at: new Date(r.created_at).toISOString(),
      rating: displayRating(r.mu_after),
      delta: r.delta,
      left: r.left_game,
      place: r.place,
    }));
  }

  async gameChanges(tableId: string, gameNumber: number): Promise<GameRatingsResponse> {
    const rows: {
      user_id: string;
      seat: number;
      mu_before: number;
      mu_after: number;
      sigma_before: number;
      sigma_after: number;
      delta: number;
      left_game: boolean;
    }[] = await this.ds.query(
      `SELECT user_id, seat, mu_before, mu_after, sigma_before, sigma_after, delta, left_game FROM rating_history WHERE game_key = $1 ORDER BY seat`,
      [`${tableId}:${gameNumber}`],
    );
    return {
      gameId: tableId,
      gameNumber,
      changes: rows.map((r) => ({
        userId: r.user_id,
        seat: r.seat,
        ratingBefore: displayRating(r.mu_before),
        ratingAfter: displayRating(r.mu_after),
        // issue #31: "Rating 1500? → 1382?": provisional before and after this game (the sigmas it was rated with)
        provisionalBefore: Number(r.sigma_before) > RATING_PROVISIONAL_SIGMA,
        provisionalAfter: Number(r.sigma_after) > RATING_PROVISIONAL_SIGMA,
        delta: r.delta,
        left: r.left_game,
      })),
    };
  }

  /**
   * Pairs of players who met in at least `minGames` rated games since `days` ago and for whom those games are at
   * least `minSharePercent` of the less active player's rated games; with the coins that moved between them when
   * they were opponents. Most games together first.
   */
  async collusionReport(days: number, minGames: number, minSharePercent: number): Promise<CollusionReport> {
    const since = new Date(Date.now() - days * 86_400_000);
    const rows: {
      a: string;
      b: string;
      a_name: string;
      b_name: string;
      a_games: string;
      b_games: string;
      together: string;
      partners: string;
      flow: string;
    }[] = await this.ds.query(
      `WITH h AS (
         SELECT h.*, (h.payout - g.buy_in) AS net FROM rating_history h JOIN rated_games g ON g.game_key = h.game_key
          WHERE h.created_at >= $1
       ), per AS (SELECT user_id, count(*) AS games FROM h GROUP BY user_id),
       pairs AS (
         SELECT x.user_id AS a, y.user_id AS b, count(*) AS together,
                count(*) FILTER (WHERE x.team = y.team) AS partners,
                COALESCE(SUM((x.net - y.net) / 2.0) FILTER (WHERE x.team <> y.team), 0) AS flow
           FROM h x JOIN h y ON x.game_key = y.game_key AND x.user_id < y.user_id
          GROUP BY x.user_id, y.user_id HAVING count(*) >= $2
       )
       SELECT p.a, p.b, ua.username AS a_name, ub.username AS b_name, pa.games AS a_games, pb.games AS b_games,
              p.together, p.partners, p.flow
         FROM pairs p JOIN per pa ON pa.user_id = p.a JOIN per pb ON pb.user_id = p.b
         JOIN users ua ON ua.id = p.a JOIN users ub ON ub.id = p.b
        WHERE p.together * 100.0 >= $3 * LEAST(pa.games, pb.games)
        ORDER BY p.together DESC, abs(p.flow) DESC LIMIT 200`,
      [since, minGames, minSharePercent],
    );
    const pairs: CollusionPair[] = rows.map((r) => {
      const together = Number(r.together);
      const partners = Number(r.partners);
      return {
        userA: { id: r.a, username: r.a_name, ratedGames: Number(r.a_games) },
        userB: { id: r.b, username: r.b_name, ratedGames: Number(r.b_games) },
        gamesTogether: together,
        gamesAsPartners: partners,
        gamesAsOpponents: together - partners,
        sharePercent: Math.round((together / Math.min(Number(r.a_games), Number(r.b_games))) * 1000) / 10,
        coinFlowToA: Math.round(Number(r.flow)),
      };
    });
    return { since: since.toISOString(), minGames, minSharePercent, pairs };
  }
}
