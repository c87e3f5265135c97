import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The console's audit log (issue #25): who did what, on whom, why, before/after, when. Append-only: a trigger
 * refuses UPDATE and DELETE (and TRUNCATE), so not even a bug in the server can rewrite history; only a migration
 * that drops the trigger could. `actor_id` is NULL for actions of the server itself (an automatic mute).
 * Accounts are referenced without foreign keys on purpose: the log outlives what it talks about.
 */
export class AuditLog1765000000000 implements MigrationInterface {
  name = 'AuditLog1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_log (
        id bigserial PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        actor_id uuid,
        action text NOT NULL CHECK (length(action) BETWEEN 1 AND 60),
        target_user_id uuid,
        target_ref text CHECK (target_ref IS NULL OR length(target_ref) <= 200),
        reason text CHECK (reason IS NULL OR length(reason) <= 1000),
        before jsonb,
        after jsonb
      )`);
    await q.query(`CREATE INDEX audit_log_target_idx ON audit_log (target_user_id, id DESC)`);
    await q.query(`CREATE INDEX audit_log_actor_idx ON audit_log (actor_id, id DESC)`);
    await q.query(`CREATE INDEX audit_log_action_idx ON audit_log (action, id DESC)`);
    await q.query(`
      CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        RAISE EXCEPTION 'audit_log is append-only';
      END $$`);
    await q.query(`
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log
      FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`);
    await q.query(`
      CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
      FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE audit_log`);
    await q.query(`DROP FUNCTION audit_log_append_only()`);
  }
}
