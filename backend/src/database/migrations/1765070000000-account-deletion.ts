import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Account deletion (issue #26).
 * - `users.deleted_at`: set when the player deleted the account. The row stays (game history, ratings, the ledger
 *   and the audit log keep pointing at it) but holds no personal data any more: a neutral "Deleted #…" name, no
 *   e-mail, password, Discord id or picture; its `username_key` is `#deleted:<id>`, which no chosen name can have.
 * - `held_usernames`: the old name's look-alike key (`nameKey`), stored only as a SHA-256, with the time it becomes
 *   free (ACCOUNT_NAME_HOLD_DAYS after the deletion). A trigger refuses an INSERT or a rename onto a held key with
 *   a unique violation that names `username_key`, so registration, Discord/SSO sign-ups and renames all answer the
 *   usual 409 "That username is already taken" without knowing about deletions.
 */
export class AccountDeletion1765070000000 implements MigrationInterface {
  name = 'AccountDeletion1765070000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN deleted_at timestamptz`);
    await q.query(`
      CREATE TABLE held_usernames (
        key_hash text PRIMARY KEY CHECK (length(key_hash) = 64),
        free_at timestamptz NOT NULL
      )`);
    await q.query(`
      CREATE FUNCTION users_held_name_check() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.deleted_at IS NULL AND EXISTS (
          SELECT 1 FROM held_usernames
           WHERE key_hash = encode(sha256(convert_to(NEW.username_key, 'UTF8')), 'hex') AND free_at > now()
        ) THEN
          RAISE EXCEPTION 'username_key is held after an account deletion'
            USING ERRCODE = 'unique_violation', CONSTRAINT = 'users_username_key_held';
        END IF;
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER users_held_name BEFORE INSERT OR UPDATE OF username_key ON users
      FOR EACH ROW EXECUTE FUNCTION users_held_name_check()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER users_held_name ON users`);
    await q.query(`DROP FUNCTION users_held_name_check()`);
    await q.query(`DROP TABLE held_usernames`);
    await q.query(`ALTER TABLE users DROP COLUMN deleted_at`);
  }
}
