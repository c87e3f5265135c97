import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Ratings (issue #11): one skill rating per user (Weng-Lin mu/sigma), one row per settled rated game (the
 * exactly-once guard) with the per-player history (who played with whom, seat, place, left, rating before/after,
 * coins won), escalating bans from rated tables, and `users.role` ('user' | 'admin', set from ADMIN_USERS at boot).
 */
export class Ratings1764100000000 implements MigrationInterface {
  name = 'Ratings1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN role varchar(10) NOT NULL DEFAULT 'user'`);
    await q.query(`ALTER TABLE users ADD CONSTRAINT users_role_ck CHECK (role IN ('user', 'admin'))`);
    await q.query(`
      CREATE TABLE user_ratings (
        user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        mu double precision NOT NULL,
        sigma double precision NOT NULL,
        rated_at timestamptz,
        rated_games integer NOT NULL DEFAULT 0,
        games_started integer NOT NULL DEFAULT 0,
        games_finished integer NOT NULL DEFAULT 0,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT user_ratings_counts_ck CHECK (games_finished >= 0 AND games_finished <= games_started AND rated_games >= 0)
      )`);
    await q.query(`CREATE INDEX user_ratings_mu_idx ON user_ratings (mu DESC)`);
    await q.query(`
      CREATE TABLE rated_games (
        game_key varchar(60) PRIMARY KEY,
        table_id uuid NOT NULL,
        game_number integer NOT NULL,
        mode varchar(10) NOT NULL CHECK (mode IN ('PARTNERS', 'SOLO')),
        outcome varchar(10) NOT NULL CHECK (outcome IN ('completed', 'abandoned')),
        buy_in bigint NOT NULL,
        created_at timestamptz NOT NULL,
        CONSTRAINT rated_games_table_uq UNIQUE (table_id, game_number)
      )`);
    await q.query(`CREATE INDEX rated_games_created_idx ON rated_games (created_at)`);
    await q.query(`
      CREATE TABLE rating_history (
        game_key varchar(60) NOT NULL REFERENCES rated_games(game_key) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        seat smallint NOT NULL,
        team smallint NOT NULL,
        place smallint,
        left_game boolean NOT NULL,
        rated boolean NOT NULL,
        mu_before double precision NOT NULL,
        sigma_before double precision NOT NULL,
        mu_after double precision NOT NULL,
        sigma_after double precision NOT NULL,
        delta integer NOT NULL,
        payout bigint NOT NULL,
        created_at timestamptz NOT NULL,
        PRIMARY KEY (game_key, user_id)
      )`);
    await q.query(`CREATE INDEX rating_history_user_idx ON rating_history (user_id, created_at)`);
    await q.query(`CREATE INDEX rating_history_left_idx ON rating_history (user_id, created_at) WHERE left_game`);
    await q.query(`
      CREATE TABLE rating_bans (
        id bigserial PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        game_key varchar(60) NOT NULL,
        level integer NOT NULL,
        abandonments integer NOT NULL,
        issued_at timestamptz NOT NULL,
        banned_until timestamptz NOT NULL,
        CONSTRAINT rating_bans_game_uq UNIQUE (user_id, game_key)
      )`);
    await q.query(`CREATE INDEX rating_bans_user_idx ON rating_bans (user_id, issued_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS rating_bans`);
    await q.query(`DROP TABLE IF EXISTS rating_history`);
    await q.query(`DROP TABLE IF EXISTS rated_games`);
    await q.query(`DROP TABLE IF EXISTS user_ratings`);
    await q.query(`ALTER TABLE users DROP CONSTRAINT IF EXISTS users_role_ck`);
    await q.query(`ALTER TABLE users DROP COLUMN IF EXISTS role`);
  }
}
