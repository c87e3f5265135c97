/**
 * Game history and replays (issue #12).
 *
 * `recordFinishedGame` runs inside the transaction that stores a game's last move (the actor's snapshot write):
 * one `game_records` row per (table, game number) with the players, the result and the final engine state, and
 * one `game_record_players` row per human of the game. Replays are rebuilt on demand from the stored log:
 * `game_hands` (seed, commitment, HandRecord per hand) and `game_events.actions` (every engine action), applied
 * through common's `runReplay` (= `apply` from `createGame(settings)`).
 */
import { Injectable, Logger, NotFoundException } from '@nestjs/common';
import {
  dealFromSeed,
  effectiveGimmick,
  fromHex,
  GameAction,
  GameHistoryItem,
  GameHistoryPage,
  GameReplay,
  GameResult,
  GameSettings,
  GameState,
  HandRecord,
  HISTORY_PAGE_SIZE_DEFAULT,
  HISTORY_PAGE_SIZE_MAX,
  REPLAY_SCHEMA,
  REPLAY_SCHEMA_VERSION,
  ReplayAction,
  ReplayHand,
  ReplayPlayer,
  runReplay,
  Seat,
  UUID_RE as UUID,
} from '@spades/common';
import { isDeepStrictEqual } from 'node:util';
import { DataSource, EntityManager } from 'typeorm';
import { AppliedAction, isHuman, TableError, TableRecord } from './table';
import { accessRefusal, TableAccess, Viewer } from './table.access';

export const REPLAY_IN_PROGRESS = 'The game is still in progress: its replay is available once it has ended';

interface StoredParticipant {
  seat: Seat;
  userId: string;
  username: string;
  forfeited?: boolean;
}

function playersOf(rec: TableRecord): ReplayPlayer[] {
  return rec.seats.map((o, i) => {
    const seat = i as Seat;
    if (!o) {
      const p = rec.participants.find((x) => x.seat === seat);
      return p
        ? { seat, userId: p.userId, username: p.username, kind: 'human' }
        : { seat, userId: null, username: 'Empty seat', kind: 'vacant' };
    }
    return { seat, userId: o.kind === 'human' ? o.userId : null, username: o.username, kind: o.kind };
  });
}

/** A record whose game is over with a result: its snapshot goes to the history. */
export function gameFinished(rec: TableRecord): boolean {
  return rec.engine.phase === 'COMPLETED' && !!rec.engine.result;
}

/**
 * Stores a finished game (idempotent: once per table and game number). Called with the snapshot of every write;
 * does nothing unless the engine has a result (an abandoned game has none and no replay).
 */
export async function recordFinishedGame(m: EntityManager, rec: TableRecord): Promise<void> {
  const e = rec.engine;
  if (!gameFinished(rec) || !e.result) return; // (the second test narrows the type)
  const finishedAt = new Date(rec.finishedAt ?? Date.now());
  const participants: StoredParticipant[] = rec.participants.map((p) => ({
    ...p,
    forfeited: (rec.forfeited ?? []).includes(p.userId),
  }));
  const inserted: unknown[] = await m.query(
    `INSERT INTO game_records (game_id, game_number, finished_at, mode, rated, private, settings, players, participants, result, final_state)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT DO NOTHING RETURNING game_id`,
    [
      rec.id,
      rec.gameNumber,
      finishedAt,
      rec.settings.gameMode,
      rec.rated,
      rec.private === true,
      JSON.stringify(rec.settings),
      JSON.stringify(playersOf(rec)),
      JSON.stringify(participants),
      JSON.stringify(e.result),
      JSON.stringify(e),
    ],
  );
  if (!inserted.length) return;
  const humans = new Map<string, number>();
  for (const p of rec.participants) humans.set(p.userId, p.seat);
  rec.seats.forEach((o, i) => {
    if (isHuman(o) && !humans.has(o.userId)) humans.set(o.userId, i);
  });
  for (const [userId, seat] of humans) {
    await m.query(
      `INSERT INTO game_record_players (game_id, game_number, user_id, seat, finished_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
      [rec.id, rec.gameNumber, userId, seat, finishedAt],
    );
  }
}

/** REG / WHIZ / MIRROR or the gimmick's name. */
export function variantOf(s: GameSettings): string {
  return effectiveGimmick(s) ?? s.biddingOption;
}

function sideOfSeat(settings: GameSettings, seat: number): number {
  return settings.gameMode === 'PARTNERS' ? seat % 2 : seat;
}

interface RecordRow {
  game_id: string;
  game_number: number;
  finished_at: Date | string;
  rated: boolean;
  private: boolean;
  settings: GameSettings;
  players: ReplayPlayer[];
  participants: StoredParticipant[];
  result: GameResult;
  final_state: GameState;
}

@Injectable()
export class HistoryService {
  private readonly log = new Logger('History');

  constructor(
    private readonly ds: DataSource,
    private readonly access: TableAccess,
  ) {}

  /**
   * A player's finished games, newest first, as `callerId` may see them (issue #24): a private game only when
   * the caller sat at it (your own list shows all of yours) or is an admin.
   */
  async userGames(userId: string, pageInput: unknown, sizeInput: unknown, callerId: string): Promise<GameHistoryPage> {
    if (!UUID.test(userId)) throw new NotFoundException('User not found');
    const [u] = await this.ds.query(`SELECT 1 FROM users WHERE id = $1`, [userId]);
    if (!u) throw new NotFoundException('User not found');
    const page = intParam(pageInput, 1, 1, 1_000_000, 'page');
    const pageSize = intParam(sizeInput, HISTORY_PAGE_SIZE_DEFAULT, 1, HISTORY_PAGE_SIZE_MAX, 'pageSize');
    const everything = callerId === userId || (await this.access.isAdmin(callerId));
    // the access rule for a finished game, in SQL: public, or the caller sat at it ($2)
    const visible = everything
      ? ''
      : `AND (NOT r.private OR EXISTS (SELECT 1 FROM game_record_players c
              WHERE c.game_id = p.game_id AND c.game_number = p.game_number AND c.user_id = $2))`;
    const [{ n }] = await this.ds.query(
      `SELECT count(*)::int AS n FROM game_record_players p
         JOIN game_records r ON r.game_id = p.game_id AND r.game_number = p.game_number
        WHERE p.user_id = $1 ${visible}`,
      everything ? [userId] : [userId, callerId],
    );
    const lim = everything ? 2 : 3;
    const rows: (RecordRow & { seat: number; rating_change: number | null; payouts: number[] | null })[] =
      await this.ds.query(
        `SELECT r.*, p.seat, COALESCE(p.rating_change, rh.delta) AS rating_change, s.payouts
         FROM game_record_players p
         JOIN game_records r ON r.game_id = p.game_id AND r.game_number = p.game_number
         LEFT JOIN game_settlements s ON s.game_id = p.game_id AND s.game_number = p.game_number
         LEFT JOIN rated_games rg ON rg.table_id = p.game_id AND rg.game_number = p.game_number
         LEFT JOIN rating_history rh ON rh.game_key = rg.game_key AND rh.user_id = p.user_id
        WHERE p.user_id = $1 ${visible}
        ORDER BY p.finished_at DESC, p.game_id, p.game_number DESC
        LIMIT $${lim} OFFSET $${lim + 1}`,
        [userId, ...(everything ? [] : [callerId]), pageSize, (page - 1) * pageSize],
      );
    const items = rows.map((r): GameHistoryItem => {
      const seat = r.seat as Seat;
      const partners = r.settings.gameMode === 'PARTNERS';
      const mySide = sideOfSeat(r.settings, seat);
      const participant = r.participants.find((p) => p.userId === userId);
      const forfeited = participant?.forfeited === true;
      const place = r.result.places[seat];
      let coins: number | null = 0;
      if (r.rated && participant) {
        const paid = Array.isArray(r.payouts) && r.payouts.length === 4 ? r.payouts : null;
        coins = paid ? paid[seat] - r.settings.buyIn : null;
      }
      return {
        gameId: r.game_id,
        gameNumber: r.game_number,
        finishedAt: new Date(r.finished_at).toISOString(),
        mode: r.settings.gameMode,
        variant: variantOf(r.settings),
        settings: r.settings,
        rated: r.rated,
        seat,
        players: r.players,
        partners: partners ? r.players.filter((p) => p.seat === (seat + 2) % 4) : [],
        opponents: r.players.filter((p) => sideOfSeat(r.settings, p.seat) !== mySide),
        result: place === 1 && !forfeited ? 'won' : 'lost',
        place,
        score: r.result.finalScores[mySide],
        finalScores: r.result.finalScores,
        coins,
        ratingChange: r.rating_change === null || r.rating_change === undefined ? null : Number(r.rating_change),
      };
    });
    return { items, page, pageSize, total: n };
  }

  /**
   * The replay document of a finished game (the latest finished game at the table unless `gameNumber` is given).
   * Unknown → 404; a game not over → 403 (a replay would reveal cards); an abandoned game has no replay (404).
   * A private game only for its players and admins (403, table.access.ts).
   */
  async replay(gameId: string, gameNumberInput: unknown, viewer: Viewer): Promise<GameReplay> {
    if (!UUID.test(gameId)) throw new NotFoundException('Game not found');
    const gameNumber =
      gameNumberInput === undefined || gameNumberInput === ''
        ? null
        : intParam(gameNumberInput, 1, 1, 1_000_000, 'game');
    const table: { status: string; game_number: number }[] = await this.ds.query(
      `SELECT status, (snapshot->>'gameNumber')::int AS game_number FROM games WHERE id = $1`,
      [gameId],
    );
    if (!table.length) throw new NotFoundException('Game not found');
    const rows: RecordRow[] = await this.ds.query(
      gameNumber === null
        ? `SELECT * FROM game_records WHERE game_id = $1 ORDER BY game_number DESC LIMIT 1`
        : `SELECT * FROM game_records WHERE game_id = $1 AND game_number = $2`,
      gameNumber === null ? [gameId] : [gameId, gameNumber],
    );
    if (!rows.length) {
      const current = table[0];
      const running = current.status !== 'CLOSED' && (gameNumber === null || gameNumber === current.game_number);
      if (running && current.status !== 'WAITING') throw new TableError(REPLAY_IN_PROGRESS, 403);
      throw new NotFoundException('This game has no replay');
    }
    const r = rows[0];
    if (!(await this.access.mayAccessGame(r.private, await this.access.players(r.game_id, r.game_number), viewer))) {
      throw accessRefusal('PRIVATE_GAME');
    }
    return this.build(r);
  }

  /** The replay of one finished game without an access check: only for a verified share link (replay-share.ts). */
  async sharedReplay(gameId: string, gameNumber: number): Promise<GameReplay> {
    const rows: RecordRow[] = await this.ds.query(
      `SELECT * FROM game_records WHERE game_id = $1 AND game_number = $2`,
      [gameId, gameNumber],
    );
    if (!rows.length) throw new NotFoundException('This game has no replay');
    return this.build(rows[0]);
  }

  /** The finished game `gameId`#`gameNumber` (the latest when null): its number and whether it is private; null when none. */
  async finishedGame(
    gameId: string,
    gameNumber: number | null,
  ): Promise<{ gameNumber: number; private: boolean } | null> {
    if (!UUID.test(gameId)) return null;
    const rows: { game_number: number; private: boolean }[] = await this.ds.query(
      gameNumber === null
        ? `SELECT game_number, private FROM game_records WHERE game_id = $1 ORDER BY game_number DESC LIMIT 1`
        : `SELECT game_number, private FROM game_records WHERE game_id = $1 AND game_number = $2`,
      gameNumber === null ? [gameId] : [gameId, gameNumber],
    );
    return rows.length ? { gameNumber: rows[0].game_number, private: rows[0].private } : null;
  }

  private async build(r: RecordRow): Promise<GameReplay> {
    const events: { actions: AppliedAction[] }[] = await this.ds.query(
      `SELECT actions FROM game_events WHERE game_id = $1 AND actions IS NOT NULL ORDER BY seq`,
      [r.game_id],
    );
    const actions: ReplayAction[] = events
      .flatMap((e) => e.actions)
      .filter((a) => a.gameNumber === r.game_number)
      .map((a) => ({ by: a.by, action: a.action as ReplayAction['action'] }));
    const stored: { hand_number: number; seed: string; commitment: string; record: HandRecord }[] = await this.ds.query(
      `SELECT hand_number, seed, commitment, record FROM game_hands WHERE game_id = $1 AND game_number = $2 ORDER BY hand_number`,
      [r.game_id, r.game_number],
    );
    let hands: ReplayHand[];
    if (actions.length) {
      const run = runReplay(
        r.settings,
        actions.map((a) => a.action as GameAction),
      );
      if (!isDeepStrictEqual(run.final.result, r.result)) {
        this.log.error(`replay of ${r.game_id}#${r.game_number} does not reach the stored result`);
        throw new Error('The stored game log is inconsistent');
      }
      hands = run.hands.map((h) => {
        const s = stored.find((x) => x.hand_number === h.handNumber);
        if (s && (s.seed.trim() !== h.seed || s.commitment.trim() !== h.commitment))
          throw new Error(`hand ${h.handNumber}: seed log mismatch`);
        return { ...h, score: h.score ?? (s?.record as HandRecord) };
      });
    } else {
      // games stored before the action log existed: the deals and scores only
      hands = stored.map((s) => ({
        handNumber: s.hand_number,
        dealer: s.record.dealer,
        seed: s.seed.trim(),
        commitment: s.commitment.trim(),
        cards: dealFromSeed(fromHex(s.seed.trim())!),
        bids: s.record.bids.map((bid, seat) => ({
          seat: seat as Seat,
          bid,
          blind: s.record.blind[seat],
          auto: s.record.autoBid[seat],
        })),
        tricks: [],
        score: s.record,
      }));
    }
    const [settled] = await this.ds.query(
      `SELECT payouts FROM game_settlements WHERE game_id = $1 AND game_number = $2`,
      [r.game_id, r.game_number],
    );
    return {
      schema: REPLAY_SCHEMA,
      version: REPLAY_SCHEMA_VERSION,
      gameId: r.game_id,
      gameNumber: r.game_number,
      finishedAt: new Date(r.finished_at).toISOString(),
      rated: r.rated,
      private: r.private,
      settings: r.settings,
      players: r.players,
      hands,
      actions,
      result: r.result,
      payouts: Array.isArray(settled?.payouts) && settled.payouts.length === 4 ? settled.payouts : null,
    };
  }
}

export function intParam(v: unknown, def: number, min: number, max: number, name: string): number {
  if (v === undefined || v === null || v === '') return def;
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max)
    throw new TableError(`${name} must be an integer between ${min} and ${max}`);
  return n;
}
