import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue #26: sign-in through OpenID Connect issuers and GitHub.
 * - `user_identities`: a provider identity (provider id + the issuer's stable subject) linked to one account; an
 *   account has at most one identity per provider. Deleted with the account.
 * - `sso_login_states`: logins in progress (like discord_login_states: keyed by a hash of the state, single use,
 *   10 minutes) with the PKCE verifier, the nonce, the client and, when a signed-in player links a provider, the
 *   account to link to.
 * - `sso_link_tickets`: single-use, 2-minute tickets a signed-in player gets to start linking in a browser (also
 *   for Discord: `discord_login_states.link_user_id` is the account a Discord login links to).
 */
export class SsoIdentities1765060000000 implements MigrationInterface {
  name = 'SsoIdentities1765060000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE user_identities (
      provider varchar(32) NOT NULL,
      subject varchar(255) NOT NULL,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      email varchar(254),
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (provider, subject),
      UNIQUE (user_id, provider)
    )`);
    await q.query(`CREATE TABLE sso_login_states (
      state_hash text PRIMARY KEY,
      provider varchar(32) NOT NULL,
      verifier text NOT NULL,
      nonce text NOT NULL,
      client text NOT NULL,
      link_user_id uuid REFERENCES users(id) ON DELETE CASCADE,
      expires_at timestamptz NOT NULL
    )`);
    await q.query(`CREATE TABLE sso_link_tickets (
      ticket_hash text PRIMARY KEY,
      user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
      provider varchar(32) NOT NULL,
      expires_at timestamptz NOT NULL
    )`);
    await q.query(
      `ALTER TABLE discord_login_states ADD COLUMN link_user_id uuid REFERENCES users(id) ON DELETE CASCADE`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE discord_login_states DROP COLUMN link_user_id`);
    await q.query(`DROP TABLE sso_link_tickets`);
    await q.query(`DROP TABLE sso_login_states`);
    await q.query(`DROP TABLE user_identities`);
  }
}
