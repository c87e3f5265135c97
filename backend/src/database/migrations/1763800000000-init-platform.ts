import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accounts, coins ledger (double entry), social relations, lobby chat and per-mode stats.
 * The house account is the issuer of every coin: it is the only account allowed below zero, so the sum of
 * all balances is always 0 (coins never appear or vanish; the house balance is minus the coins in circulation).
 */
export class InitPlatform1763800000000 implements MigrationInterface {
  name = 'InitPlatform1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        username varchar(20) NOT NULL,
        email varchar(254),
        password_hash text,
        discord_id varchar(32) UNIQUE,
        avatar text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX users_username_lower_uq ON users (lower(username))`);
    await q.query(`CREATE UNIQUE INDEX users_email_lower_uq ON users (lower(email))`);

    await q.query(`
      CREATE TABLE coin_accounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        key varchar(120) NOT NULL UNIQUE,
        kind varchar(10) NOT NULL CHECK (kind IN ('house', 'user', 'escrow')),
        user_id uuid UNIQUE REFERENCES users(id) ON DELETE RESTRICT,
        balance bigint NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT coin_accounts_balance_non_negative CHECK (kind = 'house' OR balance >= 0),
        CONSTRAINT coin_accounts_user_link CHECK ((kind = 'user') = (user_id IS NOT NULL))
      )`);
    await q.query(`INSERT INTO coin_accounts (key, kind) VALUES ('house', 'house')`);
    await q.query(`
      CREATE TABLE coin_entries (
        id bigserial PRIMARY KEY,
        transfer_id uuid NOT NULL,
        account_id uuid NOT NULL REFERENCES coin_accounts(id),
        amount bigint NOT NULL CHECK (amount <> 0),
        reason varchar(40) NOT NULL,
        ref_id varchar(120),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX coin_entries_account_idx ON coin_entries (account_id, id)`);
    await q.query(`CREATE INDEX coin_entries_transfer_idx ON coin_entries (transfer_id)`);

    await q.query(`
      CREATE TABLE user_relations (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        target_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        kind varchar(10) NOT NULL CHECK (kind IN ('friend', 'block')),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, target_id),
        CHECK (user_id <> target_id)
      )`);
    await q.query(`CREATE INDEX user_relations_target_idx ON user_relations (target_id, kind)`);

    await q.query(`
      CREATE TABLE lobby_chat_messages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        username varchar(20) NOT NULL,
        message varchar(500) NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    await q.query(`CREATE INDEX lobby_chat_messages_created_idx ON lobby_chat_messages (created_at DESC)`);

    const counters = [
      'games_played',
      'games_won',
      'nils_bid',
      'nils_made',
      'blind_nils_bid',
      'blind_nils_made',
      'total_bags',
      'reg_played',
      'reg_won',
      'whiz_played',
      'whiz_won',
      'mirror_played',
      'mirror_won',
      'gimmick_played',
      'gimmick_won',
      'screamer_played',
      'screamer_won',
      'assassin_played',
      'assassin_won',
    ];
    await q.query(`
      CREATE TABLE user_stats (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        mode varchar(10) NOT NULL CHECK (mode IN ('PARTNERS', 'SOLO')),
        ${counters.map((c) => `${c} integer NOT NULL DEFAULT 0 CHECK (${c} >= 0)`).join(',\n        ')},
        updated_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, mode)
      )`);
    await q.query(`
      CREATE TABLE stats_recorded_games (
        game_id varchar(120) PRIMARY KEY,
        mode varchar(10) NOT NULL,
        recorded_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of [
      'stats_recorded_games',
      'user_stats',
      'lobby_chat_messages',
      'user_relations',
      'coin_entries',
      'coin_accounts',
      'users',
    ]) {
      await q.query(`DROP TABLE IF EXISTS ${t}`);
    }
  }
}
