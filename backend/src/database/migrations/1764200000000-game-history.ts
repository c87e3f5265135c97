import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Game history (issue #12): one `game_records` row per finished game (table id + game number), written in the
 * transaction that stores the game's last move: settings, the players by seat, the engine result and the
 * final engine state (public at that point: every seed is revealed, no cards are left). `game_record_players`
 * indexes the humans of each finished game for a player's history; `rating_change` stays null until ratings
 * exist. Backfill: tables whose stored snapshot is a finished game.
 */
interface OldSeat {
  kind: 'human' | 'bot';
  userId: string;
  username: string;
}
interface OldSnapshot {
  gameNumber: number;
  rated?: boolean;
  settings: { gameMode: string };
  seats: (OldSeat | null)[];
  participants?: { seat: number; userId: string; username: string }[];
  engine: { result: unknown };
}

export class GameHistory1764200000000 implements MigrationInterface {
  name = 'GameHistory1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE game_records (
        game_id uuid NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        game_number integer NOT NULL,
        finished_at timestamptz NOT NULL,
        mode varchar(10) NOT NULL,
        rated boolean NOT NULL,
        private boolean NOT NULL DEFAULT false,
        settings jsonb NOT NULL,
        players jsonb NOT NULL,
        participants jsonb NOT NULL,
        result jsonb NOT NULL,
        final_state jsonb NOT NULL,
        PRIMARY KEY (game_id, game_number)
      )`);
    await q.query(`
      CREATE TABLE game_record_players (
        game_id uuid NOT NULL,
        game_number integer NOT NULL,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        seat smallint NOT NULL CHECK (seat BETWEEN 0 AND 3),
        finished_at timestamptz NOT NULL,
        rating_change integer,
        PRIMARY KEY (game_id, game_number, user_id),
        FOREIGN KEY (game_id, game_number) REFERENCES game_records(game_id, game_number) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX game_record_players_user_idx ON game_record_players (user_id, finished_at DESC)`);
    // Backfill: tables whose current snapshot is a finished game (earlier games of a table were not kept apart).
    const rows: { id: string; snapshot: OldSnapshot; finished_at: Date | null; updated_at: Date }[] = await q.query(
      `SELECT id, snapshot, finished_at, updated_at FROM games WHERE snapshot->'engine'->'result' IS NOT NULL AND snapshot->'engine'->>'result' <> 'null'`,
    );
    for (const r of rows) {
      const s = r.snapshot;
      const finishedAt = r.finished_at ?? r.updated_at;
      const players = s.seats.map((o, seat) =>
        o
          ? { seat, userId: o.kind === 'human' ? o.userId : null, username: o.username, kind: o.kind }
          : { seat, userId: null, username: 'Empty seat', kind: 'vacant' },
      );
      await q.query(
        `INSERT INTO game_records (game_id, game_number, finished_at, mode, rated, private, settings, players, participants, result, final_state)
         VALUES ($1, $2, $3, $4, $5, false, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING`,
        [
          r.id,
          s.gameNumber,
          finishedAt,
          s.settings.gameMode,
          !!s.rated,
          JSON.stringify(s.settings),
          JSON.stringify(players),
          JSON.stringify(s.participants ?? []),
          JSON.stringify(s.engine.result),
          JSON.stringify(s.engine),
        ],
      );
      const humans = new Map<string, number>();
      for (const p of s.participants ?? []) humans.set(p.userId, p.seat);
      for (const p of players) if (p.userId && !humans.has(p.userId)) humans.set(p.userId, p.seat);
      for (const [userId, seat] of humans) {
        await q.query(
          `INSERT INTO game_record_players (game_id, game_number, user_id, seat, finished_at)
           SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM users WHERE id = $3) ON CONFLICT DO NOTHING`,
          [r.id, s.gameNumber, userId, seat, finishedAt],
        );
      }
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS game_record_players`);
    await q.query(`DROP TABLE IF EXISTS game_records`);
  }
}
