import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Replay share links (issue #24, ruling 15): a player of a finished private game shares its replay. The link's
 * token is the row id plus an HMAC of it (key derived from the JWT secret), so nothing secret is stored; revoking
 * sets `revoked_at` and the token stops working.
 */
export class ReplayShares1764700000000 implements MigrationInterface {
  name = 'ReplayShares1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE replay_shares (
      id uuid PRIMARY KEY,
      game_id uuid NOT NULL,
      game_number integer NOT NULL,
      created_by uuid NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz
    )`);
    await q.query(`CREATE INDEX replay_shares_game_idx ON replay_shares (game_id, game_number, created_by)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE replay_shares`);
  }
}
