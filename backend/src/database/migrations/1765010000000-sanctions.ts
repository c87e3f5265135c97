import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Sanctions (issue #25): warnings, chat mutes, bans and forced renames, one row each. A mute/ban is active while it
 * was not lifted and `ends_at` is NULL (for good / until reviewed) or in the future. `seen_at`: when the player was
 * shown a warning or a forced rename (their next profile fetch). `users.sessions_revoked_at`: session tokens issued
 * up to that second are refused (console "revoke sessions", and every ban).
 */
export class Sanctions1765010000000 implements MigrationInterface {
  name = 'Sanctions1765010000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE sanctions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('warn', 'mute', 'ban', 'rename')),
        scope text CHECK (scope IN ('all', 'lobby')),
        reason text NOT NULL CHECK (length(reason) BETWEEN 1 AND 1000),
        ends_at timestamptz,
        created_by uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        lifted_at timestamptz,
        lifted_by uuid,
        lift_reason text CHECK (lift_reason IS NULL OR length(lift_reason) <= 1000),
        seen_at timestamptz,
        CONSTRAINT sanctions_scope_ck CHECK ((kind = 'mute') = (scope IS NOT NULL))
      )`);
    await q.query(`CREATE INDEX sanctions_user_idx ON sanctions (user_id, created_at DESC)`);
    // the enforcement look-ups (login, token validation, chat): only rows that can still be active
    await q.query(
      `CREATE INDEX sanctions_active_idx ON sanctions (user_id, kind) WHERE lifted_at IS NULL AND kind IN ('mute', 'ban')`,
    );
    await q.query(`ALTER TABLE users ADD COLUMN sessions_revoked_at timestamptz`);
    await q.query(`ALTER TABLE users ADD COLUMN last_sign_in_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users DROP COLUMN last_sign_in_at`);
    await q.query(`ALTER TABLE users DROP COLUMN sessions_revoked_at`);
    await q.query(`DROP TABLE sanctions`);
  }
}
