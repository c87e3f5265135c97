import { BadRequestException, Injectable } from '@nestjs/common';
import { normalizeStats, STATS_COUNTER_FIELDS, Stats, StatsModeFilter } from '@spades/common';
import { DataSource, EntityManager } from 'typeorm';

type Counter = (typeof STATS_COUNTER_FIELDS)[number];
const column = (f: Counter) => f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export type StatsGameMode = 'PARTNERS' | 'SOLO';
/** Which per-type counters a game counts towards. */
export type StatsGameType = 'REG' | 'WHIZ' | 'MIRROR' | 'GIMMICK';
export type StatsSpecialRule = 'SCREAMER' | 'ASSASSIN' | null;

export interface PlayerGameResult {
  userId: string;
  won: boolean;
  /** Bags (overtricks) this player's side took during the game (solo: the player's own). */
  bags: number;
  nilsBid: number;
  nilsMade: number;
  blindNilsBid: number;
  blindNilsMade: number;
}

export interface GameResultRecord {
  /** Unique per game: recording the same game twice is a no-op (returns false). */
  gameId: string;
  mode: StatsGameMode;
  gameType: StatsGameType;
  specialRule: StatsSpecialRule;
  /** Human players only (bots/guests have no stats rows). */
  players: PlayerGameResult[];
}

/**
 * Per-player, per-mode (PARTNERS / SOLO) counters of spec §3. ALL is the sum of both modes.
 */
@Injectable()
export class StatsService {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Adds one finished (rated) game to every listed player's stats, INSIDE the caller's settlement
   * transaction (pass its EntityManager). Idempotent per gameId: returns false if already recorded.
   */
  async recordGameResult(manager: EntityManager, result: GameResultRecord): Promise<boolean> {
    if (!manager.queryRunner?.isTransactionActive) {
      return manager.transaction((m) => this.recordGameResult(m, result));
    }
    if (result.mode !== 'PARTNERS' && result.mode !== 'SOLO') throw new RangeError('mode must be PARTNERS or SOLO');
    const inserted: unknown[] = await manager.query(
      `INSERT INTO stats_recorded_games (game_id, mode) VALUES ($1, $2) ON CONFLICT (game_id) DO NOTHING RETURNING game_id`,
      [result.gameId, result.mode],
    );
    if (!inserted.length) return false;
    const typePrefix = { REG: 'reg', WHIZ: 'whiz', MIRROR: 'mirror', GIMMICK: 'gimmick' }[result.gameType];
    if (!typePrefix) throw new RangeError('unknown gameType');
    for (const p of result.players) {
      for (const n of [p.bags, p.nilsBid, p.nilsMade, p.blindNilsBid, p.blindNilsMade]) {
        if (!Number.isInteger(n) || n < 0) throw new RangeError('stats counters must be non-negative integers');
      }
      const inc: Partial<Record<string, number>> = {
        games_played: 1,
        games_won: p.won ? 1 : 0,
        nils_bid: p.nilsBid,
        nils_made: p.nilsMade,
        blind_nils_bid: p.blindNilsBid,
        blind_nils_made: p.blindNilsMade,
        total_bags: p.bags,
        [`${typePrefix}_played`]: 1,
        [`${typePrefix}_won`]: p.won ? 1 : 0,
      };
      if (result.specialRule === 'SCREAMER') Object.assign(inc, { screamer_played: 1, screamer_won: p.won ? 1 : 0 });
      if (result.specialRule === 'ASSASSIN') Object.assign(inc, { assassin_played: 1, assassin_won: p.won ? 1 : 0 });
      const cols = Object.keys(inc);
      await manager.query(
        `INSERT INTO user_stats (user_id, mode, ${cols.join(', ')}) VALUES ($1, $2, ${cols.map((_, i) => `$${i + 3}`).join(', ')})
         ON CONFLICT (user_id, mode) DO UPDATE SET ${cols.map((c) => `${c} = user_stats.${c} + EXCLUDED.${c}`).join(', ')}, updated_at = now()`,
        [p.userId, result.mode, ...cols.map((c) => inc[c])],
      );
    }
    return true;
  }

  /** Stats of spec §3 for one mode or ALL; every field present (0 when no games). */
  async getStats(
    userId: string,
    mode: StatsModeFilter = 'ALL',
    manager: EntityManager = this.dataSource.manager,
  ): Promise<Stats> {
    if (!['ALL', 'PARTNERS', 'SOLO'].includes(mode))
      throw new BadRequestException('mode must be ALL, PARTNERS or SOLO');
    const sums = STATS_COUNTER_FIELDS.map((f) => `COALESCE(SUM(${column(f)}), 0)::int AS "${f}"`).join(', ');
    const [row] = await manager.query(
      `SELECT ${sums} FROM user_stats WHERE user_id = $1 ${mode === 'ALL' ? '' : 'AND mode = $2'}`,
      mode === 'ALL' ? [userId] : [userId, mode],
    );
    return normalizeStats(row);
  }
}
