import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Per-player options (issue #31): one row per account that ever saved options, the whole PlayerOptions object as
 * JSON (common/src/protocol/options.ts validates it; a missing row means the defaults). Deleted with the account.
 */
export class PlayerOptions1765100000000 implements MigrationInterface {
  name = 'PlayerOptions1765100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE player_options (
        user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        options jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE player_options`);
  }
}
