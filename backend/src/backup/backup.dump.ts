/**
 * Reading the whole database consistently and writing it to a backup file (issue #26). Works the same on PostgreSQL
 * and the embedded database: one REPEATABLE READ, READ ONLY transaction (one snapshot: a game's events, its
 * settlement and the ledger agree), each table streamed through a cursor as row_to_json text.
 */
import { BackupManifest, BACKUP_FORMAT, BACKUP_VERSION, BackupWriter, TABLE_LINE } from './backup.format';

/** What runs SQL on ONE connection (a QueryRunner). */
export interface SqlSession {
  query(sql: string, params?: unknown[]): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- TypeORM's own signature
}

/** Not backed up: TypeORM's own bookkeeping (restore writes it) and the cluster's liveness rows (ephemeral). */
export const SKIPPED_TABLES = new Set(['migrations', 'backend_nodes']);
const FETCH_ROWS = 2000;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The schema's tables, parents before children (foreign keys), then by name. */
export async function tablesInOrder(db: SqlSession): Promise<string[]> {
  const tables: { name: string }[] = await db.query(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const edges: { child: string; parent: string }[] = await db.query(
    `SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE c.contype = 'f' AND n.nspname = current_schema()`,
  );
  const strip = (t: string) => t.replace(/^.*\./, '').replace(/"/g, '');
  const names = tables.map((t) => t.name).filter((t) => !SKIPPED_TABLES.has(t));
  const parents = new Map(names.map((t) => [t, new Set<string>()]));
  for (const e of edges) {
    const child = strip(e.child);
    const parent = strip(e.parent);
    if (child !== parent && parents.has(child) && parents.has(parent)) parents.get(child)!.add(parent);
  }
  const out: string[] = [];
  const placed = new Set<string>();
  while (out.length < names.length) {
    const next = names.find((t) => !placed.has(t) && [...parents.get(t)!].every((p) => placed.has(p)));
    if (!next) throw new Error('foreign keys form a cycle between tables: cannot order the backup');
    out.push(next);
    placed.add(next);
  }
  return out;
}

/** Insertable columns of a table (generated columns are left to the database), in their order. */
export async function columnsOf(db: SqlSession, table: string): Promise<string[]> {
  const rows: { name: string }[] = await db.query(
    `SELECT column_name AS name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = $1 AND is_generated = 'NEVER'
      ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((r) => r.name);
}

/** The last migration applied: name and timestamp. */
export async function schemaVersionOf(db: SqlSession): Promise<{ name: string; timestamp: number }> {
  const rows: { name: string; timestamp: string }[] = await db.query(
    `SELECT name, timestamp::text AS timestamp FROM migrations ORDER BY timestamp DESC LIMIT 1`,
  );
  if (!rows.length) throw new Error('the database has no migrations applied: nothing to back up');
  return { name: rows[0].name, timestamp: Number(rows[0].timestamp) };
}

/**
 * Writes the backup of the database `db` is connected to. `db` must be ONE connection; this opens and ends its
 * own read-only snapshot transaction on it.
 */
export async function dumpDatabase(db: SqlSession, out: BackupWriter, now = new Date()): Promise<BackupManifest> {
  await db.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    const schema = await schemaVersionOf(db);
    const tables = await tablesInOrder(db);
    await out.line(JSON.stringify({ format: BACKUP_FORMAT, version: BACKUP_VERSION }));
    const counts: Record<string, number> = {};
    for (const table of tables) {
      const columns = await columnsOf(db, table);
      await out.line(`${TABLE_LINE}${table} ${JSON.stringify(columns)}`);
      counts[table] = 0;
      await db.query(
        `DECLARE backup_rows NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS j FROM ${ident(table)} t`,
      );
      for (;;) {
        const rows: { j: string }[] = await db.query(`FETCH ${FETCH_ROWS} FROM backup_rows`);
        for (const r of rows) await out.line(r.j);
        counts[table] += rows.length;
        if (rows.length < FETCH_ROWS) break;
      }
      await db.query('CLOSE backup_rows');
    }
    await db.query('COMMIT');
    return out.finish({
      format: BACKUP_FORMAT,
      version: BACKUP_VERSION,
      schemaVersion: schema.name,
      schemaTimestamp: schema.timestamp,
      createdAt: now.toISOString(),
      tables: counts,
      counts: { accounts: counts.users ?? 0, games: counts.games ?? 0, ledgerEntries: counts.coin_entries ?? 0 },
    });
  } catch (e) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw e;
  }
}
