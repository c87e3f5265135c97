import { Controller, Get, Injectable, Module, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiProperty, ApiTags } from '@nestjs/swagger';
import { displayRating, isProvisional, LEADERBOARD_MIN_GAMES_FOR_WIN_RATE, LEADERBOARD_SIZE } from '@spades/common';
import type { LeaderboardBy, LeaderboardEntry, LeaderboardResponse } from '@spades/common';
import { IsIn, IsOptional } from 'class-validator';
import { DataSource } from 'typeorm';
import { CurrentUserId, JwtAuthGuard } from '../auth/jwt-auth.guard';
import { SETTLED_RATING_SQL } from '../ratings/ratings.service';

export class LeaderboardQueryDto {
  @ApiProperty({ required: false, enum: ['rating', 'coins', 'wins', 'winRate'], default: 'coins' })
  @IsOptional()
  @IsIn(['rating', 'coins', 'wins', 'winRate'], { message: 'by must be rating, coins, wins or winRate' })
  by?: LeaderboardBy;
}

interface Row {
  rank: string;
  id: string;
  username: string;
  avatar: string | null;
  coins: string;
  gp: string;
  gw: string;
  mu: number | null;
  sigma: number | null;
  rated_at: Date | null;
  settled: boolean;
}

@Injectable()
export class LeaderboardService {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Top 100 and the caller's own rank. Ties share a rank (RANK()); equal values are listed by username.
   * coins = ledger balance; wins = games won (all modes); winRate = won / played, only with ≥ 10 games;
   * rating = skill rating (issue #11), provisional players (effective sigma above the threshold) excluded.
   */
  async leaderboard(by: LeaderboardBy, callerId: string): Promise<LeaderboardResponse> {
    const metric = (
      { rating: 'mu', coins: 'coins', wins: 'gw', winRate: '(gw::float8 / NULLIF(gp, 0))' } as Record<
        LeaderboardBy,
        string
      >
    )[by];
    const filter =
      by === 'winRate' ? `WHERE gp >= ${LEADERBOARD_MIN_GAMES_FOR_WIN_RATE}` : by === 'rating' ? 'WHERE settled' : '';
    const sql = `
      WITH base AS (
        SELECT u.id, u.username, u.avatar, COALESCE(a.balance, 0) AS coins,
               COALESCE(s.gp, 0) AS gp, COALESCE(s.gw, 0) AS gw,
               r.mu, r.sigma, r.rated_at, COALESCE(${SETTLED_RATING_SQL}, false) AS settled
          FROM users u
          LEFT JOIN coin_accounts a ON a.user_id = u.id
          LEFT JOIN user_ratings r ON r.user_id = u.id
          LEFT JOIN (SELECT user_id, SUM(games_played) AS gp, SUM(games_won) AS gw FROM user_stats GROUP BY user_id) s
                 ON s.user_id = u.id
      ), ranked AS (
        SELECT RANK() OVER (ORDER BY ${metric} DESC) AS rank, base.* FROM base ${filter}
      )`;
    const top: Row[] = await this.dataSource.query(
      `${sql} SELECT * FROM ranked ORDER BY rank, lower(username), id LIMIT ${LEADERBOARD_SIZE}`,
    );
    const mine: Row[] = await this.dataSource.query(`${sql} SELECT * FROM ranked WHERE id = $1`, [callerId]);
    const toEntry = (r: Row): LeaderboardEntry => {
      const gp = Number(r.gp);
      const gw = Number(r.gw);
      return {
        rank: Number(r.rank),
        userId: r.id,
        username: r.username,
        avatar: r.avatar,
        coins: Number(r.coins),
        gamesPlayed: gp,
        gamesWon: gw,
        winRate: gp > 0 ? Math.round((gw / gp) * 1000) / 10 : 0,
        rating: r.mu === null ? null : displayRating(r.mu),
        provisional:
          r.mu === null ||
          isProvisional(
            { mu: r.mu, sigma: Number(r.sigma), ratedAt: r.rated_at ? new Date(r.rated_at).getTime() : null },
            Date.now(),
          ),
      };
    };
    return { by, entries: top.map(toEntry), me: mine.length ? toEntry(mine[0]) : null };
  }
}

@ApiTags('leaderboard')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('leaderboard')
export class LeaderboardController {
  constructor(private readonly service: LeaderboardService) {}

  @Get()
  get(@CurrentUserId() me: string, @Query() q: LeaderboardQueryDto): Promise<LeaderboardResponse> {
    return this.service.leaderboard(q.by ?? 'coins', me);
  }
}

@Module({ controllers: [LeaderboardController], providers: [LeaderboardService] })
export class LeaderboardModule {}
