/**
 * Restoring a backup file (issue #26). Everything is checked before the database is touched (header, checksum,
 * counts, schema version); then ONE transaction creates the schema as it was at the backup's migration, loads every
 * row, moves the sequences past the restored ids and runs the newer migrations — so a restore either completes or
 * changes nothing. The target must be empty, or `replace` drops what is there inside that same transaction.
 */
import type { MigrationInterface } from 'typeorm';
import { BackupFileError, BackupManifest, readBackup, TableChunk } from './backup.format';
import type { SqlSession } from './backup.dump';

export type MigrationClass = new () => MigrationInterface;

export class RestoreRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefused';
  }
}

export interface RestoreResult {
  manifest: BackupManifest;
  /** Migrations run after loading the data (the backup was made by an older server). */
  migratedAfter: string[];
  /** Rows per table after the restore (what the database now holds). */
  restored: Record<string, number>;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
export const migrationTimestamp = (m: MigrationClass): number => Number(/(\d{13})$/.exec(m.name)?.[1] ?? NaN);

/** The migrations this server knows, oldest first. */
function ordered(migrations: readonly MigrationClass[]): MigrationClass[] {
  return [...migrations].sort((a, b) => migrationTimestamp(a) - migrationTimestamp(b));
}

/** Checks the file alone (no database): its manifest, or BackupFileError / RestoreRefused with the reason. */
export async function checkBackup(file: string, migrations: readonly MigrationClass[]): Promise<BackupManifest> {
  const manifest = await readBackup(file);
  const known = ordered(migrations);
  const latest = known[known.length - 1];
  if (manifest.schemaTimestamp > migrationTimestamp(latest))
    throw new RestoreRefused(
      `This backup was made by a newer server (schema ${manifest.schemaVersion}; this server knows up to ${latest.name}). ` +
        'Upgrade this server first, then restore.',
    );
  if (!known.some((m) => m.name === manifest.schemaVersion))
    throw new RestoreRefused(`This backup's schema ${manifest.schemaVersion} is not one this server knows.`);
  return manifest;
}

async function tableCount(db: SqlSession): Promise<number> {
  const [{ n }] = await db.query(
    `SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
  );
  return n;
}

/** Drops every table, view and function of the current schema (inside the caller's transaction). */
async function dropEverything(db: SqlSession): Promise<void> {
  const tables: { name: string }[] = await db.query(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
  );
  for (const t of tables) await db.query(`DROP TABLE IF EXISTS ${ident(t.name)} CASCADE`);
  const fns: { sig: string }[] = await db.query(
    `SELECT p.oid::regprocedure::text AS sig FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = current_schema() AND p.prokind = 'f'
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')`,
  );
  for (const f of fns) await db.query(`DROP FUNCTION IF EXISTS ${f.sig} CASCADE`);
}

async function runMigration(db: SqlSession, M: MigrationClass): Promise<void> {
  await new M().up(db as never);
  await db.query(`INSERT INTO migrations (timestamp, name) VALUES ($1, $2)`, [migrationTimestamp(M), M.name]);
}

async function insertChunk(db: SqlSession, c: TableChunk): Promise<void> {
  const cols = c.columns.map(ident).join(', ');
  await db.query(
    `INSERT INTO ${ident(c.table)} (${cols}) OVERRIDING SYSTEM VALUE
     SELECT ${cols} FROM json_populate_recordset(NULL::${ident(c.table)}, $1::json)`,
    [`[${c.rows.join(',')}]`],
  );
}

/** Moves every serial/identity sequence past the largest restored value. */
async function resetSequences(db: SqlSession): Promise<void> {
  const seqs: { t: string; c: string; seq: string | null }[] = await db.query(
    `SELECT table_name AS t, column_name AS c, pg_get_serial_sequence(quote_ident(table_name), column_name) AS seq
       FROM information_schema.columns
      WHERE table_schema = current_schema() AND (column_default LIKE 'nextval(%' OR is_identity = 'YES')`,
  );
  for (const s of seqs) {
    if (!s.seq) continue;
    await db.query(`SELECT setval($1, COALESCE((SELECT max(${ident(s.c)}) FROM ${ident(s.t)}), 0) + 1, false)`, [
      s.seq,
    ]);
  }
}

/**
 * Restores `file` into the database `db` is connected to (ONE connection, no transaction open). Refuses a
 * damaged file, a newer schema, and a database that holds tables unless `replace`.
 */
export async function restoreDatabase(
  db: SqlSession,
  file: string,
  migrations: readonly MigrationClass[],
  opts: { replace?: boolean } = {},
): Promise<RestoreResult> {
  const manifest = await checkBackup(file, migrations);
  const existing = await tableCount(db);
  if (existing > 0 && !opts.replace)
    throw new RestoreRefused(
      `The target database already holds ${existing} tables. Restore into an empty database (a new DATA_DIR, an ` +
        'empty DATABASE_SCHEMA or database), or pass --replace to drop what is there (stop every server on it first).',
    );
  const known = ordered(migrations);
  const upTo = known.filter((m) => migrationTimestamp(m) <= manifest.schemaTimestamp);
  const after = known.filter((m) => migrationTimestamp(m) > manifest.schemaTimestamp);
  await db.query('BEGIN');
  try {
    if (existing > 0) await dropEverything(db);
    await db.query(
      `CREATE TABLE migrations (id SERIAL PRIMARY KEY, timestamp bigint NOT NULL, name character varying NOT NULL)`,
    );
    for (const M of upTo) await runMigration(db, M);
    // the schema's migrations may seed rows (e.g. the house account): the backup's rows replace them
    const tables = Object.keys(manifest.tables);
    for (const t of [...tables].reverse()) await db.query(`DELETE FROM ${ident(t)}`);
    await readBackup(file, (chunk) => insertChunk(db, chunk));
    await resetSequences(db);
    for (const M of after) await runMigration(db, M);
    const restored: Record<string, number> = {};
    for (const t of tables) {
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM ${ident(t)}`);
      restored[t] = n;
    }
    await db.query('COMMIT');
    return { manifest, migratedAfter: after.map((m) => m.name), restored };
  } catch (e) {
    await db.query('ROLLBACK').catch(() => undefined);
    if (e instanceof BackupFileError || e instanceof RestoreRefused) throw e;
    throw new RestoreRefused(`The restore failed and changed nothing: ${e instanceof Error ? e.message : String(e)}`);
  }
}
