import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lean persistence (issue #10): each `game_events` row carries the command's `delta` (changed table fields +
 * new chat messages; the engine moves are in `actions`), and `games.snapshot` is written only at boundaries.
 * `games.seq` now means "the last event seq included in the snapshot": a restore replays the rows after it.
 * Existing rows are all included in their table's snapshot, so nothing needs converting.
 */
export class LeanTableEvents1764400000000 implements MigrationInterface {
  name = 'LeanTableEvents1764400000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE game_events ADD COLUMN delta jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE game_events DROP COLUMN delta`);
  }
}
