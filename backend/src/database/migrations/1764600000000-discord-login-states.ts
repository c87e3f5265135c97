import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Discord logins in progress (state → PKCE verifier, client, expiry) move from one process's memory to the
 * database, so the callback may reach any node of several (issue #13) and a restart does not break a login that
 * is under way. Rows are single use (deleted when the callback reads them) and expire after 10 minutes.
 */
export class DiscordLoginStates1764600000000 implements MigrationInterface {
  name = 'DiscordLoginStates1764600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE discord_login_states (
      state_hash text PRIMARY KEY,
      verifier text NOT NULL,
      client text NOT NULL,
      expires_at timestamptz NOT NULL
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE discord_login_states`);
  }
}
