import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Roles stored on accounts (issue #24): `users.role` is 'user' | 'moderator' | 'admin' (a CHECK constraint), set
 * only by `npm run admin -- grant|revoke`, ADMIN_USERS account ids (granted at boot, never demoted) or the one-time
 * setup token — never matched by name or e-mail. `admin_setup_token` holds the SHA-256 of the first-admin setup
 * token (one row, shared by every node of a cluster); the token itself is only printed in the log.
 */
export class AccountRoles1764800000000 implements MigrationInterface {
  name = 'AccountRoles1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP CONSTRAINT IF EXISTS users_role_ck`);
    await q.query(`ALTER TABLE users ADD CONSTRAINT users_role_ck CHECK (role IN ('user', 'moderator', 'admin'))`);
    await q.query(`CREATE TABLE admin_setup_token (
      id smallint PRIMARY KEY DEFAULT 1 CHECK (id = 1),
      token_hash text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      redeemed_at timestamptz,
      redeemed_by uuid
    )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE admin_setup_token`);
    await q.query(`UPDATE users SET role = 'user' WHERE role = 'moderator'`);
    await q.query(`ALTER TABLE users DROP CONSTRAINT IF EXISTS users_role_ck`);
    await q.query(`ALTER TABLE users ADD CONSTRAINT users_role_ck CHECK (role IN ('user', 'admin'))`);
  }
}
