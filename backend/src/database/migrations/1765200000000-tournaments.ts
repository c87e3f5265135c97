import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Tournaments (issue #27): one row per tournament (its config, the snapshot of its state = every event applied, the
 * number of events, the owner node + fencing epoch like `games`), its events (append-only, unique per tournament and
 * seq: a retried command cannot apply twice), and the leases of the cluster-wide scheduler jobs (one holder at a time).
 */
export class Tournaments1765200000000 implements MigrationInterface {
  name = 'Tournaments1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tournaments (
        id uuid PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('sit_and_go', 'scheduled')),
        status text NOT NULL CHECK (status IN ('REGISTERING', 'RUNNING', 'FINISHED', 'CANCELLED')),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 100),
        config jsonb NOT NULL,
        state jsonb NOT NULL,
        seq integer NOT NULL DEFAULT 0,
        starts_at timestamptz,
        created_by uuid,
        owner_node text,
        owner_epoch integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
    await q.query(`CREATE INDEX tournaments_status_idx ON tournaments (status, created_at DESC)`);
    await q.query(`CREATE INDEX tournaments_due_idx ON tournaments (starts_at) WHERE status = 'REGISTERING'`);
    await q.query(`
      CREATE TABLE tournament_events (
        tournament_id uuid NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        seq integer NOT NULL,
        event jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (tournament_id, seq)
      )`);
    await q.query(`
      CREATE TABLE tournament_players (
        tournament_id uuid NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        PRIMARY KEY (user_id, tournament_id)
      )`);
    await q.query(`
      CREATE TABLE scheduler_leases (
        name text PRIMARY KEY,
        holder text NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE scheduler_leases`);
    await q.query(`DROP TABLE tournament_players`);
    await q.query(`DROP TABLE tournament_events`);
    await q.query(`DROP TABLE tournaments`);
  }
}
