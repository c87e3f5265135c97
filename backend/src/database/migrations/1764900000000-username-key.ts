import { nameKey } from '@spades/common';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `users.username_key`: the look-alike key of the username (`nameKey` in common/src/protocol/text.ts: NFKC,
 * case-folded, `0`→`o`, `1`/`i`→`l`, `rn`→`m`…), unique, so that `admin1`, `AdminI` and `adm1n1` cannot all
 * exist (issue #24). Existing accounts are keyed here; when old names already collide, the oldest account keeps
 * the plain key and each later one gets its key suffixed with its id (unique, and matching no new name: a key of a
 * valid username never holds `#`), so the migration never fails and nobody is renamed.
 */
export class UsernameKey1764900000000 implements MigrationInterface {
  name = 'UsernameKey1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN username_key text`);
    const users: { id: string; username: string }[] = await q.query(
      `SELECT id, username FROM users ORDER BY created_at, id`,
    );
    const seen = new Set<string>();
    const ids: string[] = [];
    const keys: string[] = [];
    for (const u of users) {
      let key = nameKey(u.username);
      if (seen.has(key)) key = `${key}#${u.id}`;
      seen.add(key);
      ids.push(u.id);
      keys.push(key);
    }
    for (let i = 0; i < ids.length; i += 5000) {
      await q.query(
        `UPDATE users u SET username_key = k.key FROM unnest($1::uuid[], $2::text[]) AS k(id, key) WHERE u.id = k.id`,
        [ids.slice(i, i + 5000), keys.slice(i, i + 5000)],
      );
    }
    await q.query(`ALTER TABLE users ALTER COLUMN username_key SET NOT NULL`);
    await q.query(`CREATE UNIQUE INDEX users_username_key_uq ON users (username_key)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX users_username_key_uq`);
    await q.query(`ALTER TABLE users DROP COLUMN username_key`);
  }
}
