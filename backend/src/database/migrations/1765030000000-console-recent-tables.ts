import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The console's recent tables (issue #25, `GET /api/admin/tables?status=recent`): closed tables, most recently
 * closed first. A partial index in that order lets the list stop after its page instead of sorting every closed
 * game's row (and reading its snapshot) on a server with a long history. Only closed rows are in it, and a row's
 * `finished_at` is set once, when the table closes.
 */
export class ConsoleRecentTables1765030000000 implements MigrationInterface {
  name = 'ConsoleRecentTables1765030000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX games_closed_recent_idx ON games (finished_at DESC NULLS LAST, created_at DESC) WHERE status = 'CLOSED'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX games_closed_recent_idx`);
  }
}
