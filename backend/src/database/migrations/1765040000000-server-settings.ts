import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Server settings and invite codes (issue #25). `server_settings` holds ONE row (id = 1): the host's settings as a
 * jsonb document merged over the defaults in code (`completeSettings`), so a new setting needs no migration; its
 * `version` increases with every change and tells the nodes of a cluster whether they are current. `invite_codes`:
 * codes an admin hands out while registration is by invitation; `uses` counts the accounts created with each.
 */
export class ServerSettings1765040000000 implements MigrationInterface {
  name = 'ServerSettings1765040000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE server_settings (
        id smallint PRIMARY KEY CHECK (id = 1),
        value jsonb NOT NULL DEFAULT '{}'::jsonb,
        version bigint NOT NULL DEFAULT 0,
        updated_at timestamptz,
        updated_by uuid
      )`);
    await q.query(`INSERT INTO server_settings (id) VALUES (1)`);
    await q.query(`
      CREATE TABLE invite_codes (
        code text PRIMARY KEY CHECK (code ~ '^[A-Z2-9]{12}$'),
        created_at timestamptz NOT NULL DEFAULT now(),
        created_by uuid,
        note text CHECK (note IS NULL OR length(note) <= 200),
        max_uses integer CHECK (max_uses IS NULL OR max_uses > 0),
        uses integer NOT NULL DEFAULT 0 CHECK (uses >= 0 AND (max_uses IS NULL OR uses <= max_uses)),
        expires_at timestamptz,
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX invite_codes_created_idx ON invite_codes (created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE invite_codes`);
    await q.query(`DROP TABLE server_settings`);
  }
}
