import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Several nodes (issue #13): each open table has one owner node and a fencing epoch. A node takes a table over by
 * raising the epoch; every table write checks, in its transaction, that the epoch it carries is still the stored
 * one, so a node whose table was taken over can no longer write to it. `backend_nodes` is the registry of live
 * nodes (heartbeat, draining flag, load for placement). Single-node deployments leave both untouched.
 */
export class TableOwnership1764500000000 implements MigrationInterface {
  name = 'TableOwnership1764500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE games ADD COLUMN owner_node text`);
    await q.query(`ALTER TABLE games ADD COLUMN owner_epoch integer NOT NULL DEFAULT 0`);
    await q.query(`CREATE INDEX games_owner_open_idx ON games (owner_node) WHERE status <> 'CLOSED'`);
    await q.query(`CREATE TABLE backend_nodes (
      id text PRIMARY KEY,
      started_at timestamptz NOT NULL DEFAULT now(),
      heartbeat_at timestamptz NOT NULL DEFAULT now(),
      draining boolean NOT NULL DEFAULT false,
      live_tables integer NOT NULL DEFAULT 0,
      bot_queue integer NOT NULL DEFAULT 0
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE backend_nodes`);
    await q.query(`DROP INDEX games_owner_open_idx`);
    await q.query(`ALTER TABLE games DROP COLUMN owner_epoch`);
    await q.query(`ALTER TABLE games DROP COLUMN owner_node`);
  }
}
