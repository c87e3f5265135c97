import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Game tables (issue #4): one row per table holding the current snapshot (the table record incl. the rules
 * engine state and timer deadlines), an append-only event log, the hand history with the revealed seeds,
 * and one settlement row per finished rated game (exactly-once payouts).
 */
export class Games1763900000000 implements MigrationInterface {
  name = 'Games1763900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE games (
        id uuid PRIMARY KEY,
        status varchar(20) NOT NULL,
        seq integer NOT NULL DEFAULT 0,
        snapshot jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz
      )`);
    await q.query(`CREATE INDEX games_status_idx ON games (status)`);
    await q.query(`
      CREATE TABLE game_events (
        id bigserial PRIMARY KEY,
        game_id uuid NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seq integer NOT NULL,
        type varchar(40) NOT NULL,
        actor varchar(80),
        action_id varchar(100),
        payload jsonb,
        result jsonb,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT game_events_seq_uq UNIQUE (game_id, seq)
      )`);
    await q.query(
      `CREATE UNIQUE INDEX game_events_action_uq ON game_events (game_id, actor, action_id) WHERE action_id IS NOT NULL`,
    );
    await q.query(`
      CREATE TABLE game_hands (
        game_id uuid NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        game_number integer NOT NULL,
        hand_number integer NOT NULL,
        seed char(64) NOT NULL,
        commitment char(64) NOT NULL,
        record jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (game_id, game_number, hand_number)
      )`);
    await q.query(`
      CREATE TABLE game_settlements (
        game_id uuid NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        game_number integer NOT NULL,
        reason varchar(20) NOT NULL,
        payouts jsonb NOT NULL,
        house_amount bigint NOT NULL,
        settled_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (game_id, game_number)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['game_settlements', 'game_hands', 'game_events', 'games'])
      await q.query(`DROP TABLE IF EXISTS ${t}`);
  }
}
