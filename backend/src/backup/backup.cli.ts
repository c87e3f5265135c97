/**
 * `npm run backup -- --out FILE` and `npm run restore -- FILE [--replace]` (issue #26), on the server's own
 * database: DATABASE_URL (+ DATABASE_SCHEMA) or the embedded database in DATA_DIR.
 * - backup works while the server runs: PostgreSQL is read in one snapshot; the embedded database serves one
 *   process, so when the server holds it the command asks that server (127.0.0.1:PORT, the control header) for
 *   the backup instead. The file is written beside FILE and renamed when complete and checked.
 * - restore checks the whole file first (checksum, counts, schema version), then loads it in one transaction into
 *   an empty database (or, with --replace, drops what is there in that same transaction). Stop the server first.
 */
import { createWriteStream, existsSync, renameSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';
import { AppConfig, ConfigValidationError, loadAppConfig } from '../config/config.schema';
import { resolveDatabaseTarget } from '../database/data-source';
import { DataDirLockedError } from '../database/embedded-postgres';
import { MIGRATIONS } from '../database/migrations';
import { BACKUP_CONTROL_HEADER, backupControlToken } from './backup.control';
import { dumpDatabase } from './backup.dump';
import { BackupFileError, BackupManifest, BackupWriter, readBackup } from './backup.format';
import { restoreDatabase, RestoreRefused } from './backup.restore';

export const BACKUP_CLI_USAGE = `Usage:
  npm run backup -- --out FILE            write a backup of the whole database (works while the server runs)
  npm run restore -- FILE [--replace]     restore a backup into an empty database (stop the server first;
                                          --replace drops what the database holds, in the same transaction)
Uses the server's database: DATABASE_URL (and DATABASE_SCHEMA), or the embedded database in DATA_DIR.`;

export interface CliOutput {
  log(line: string): void;
  error(line: string): void;
}

type Command = { cmd: 'backup'; out: string } | { cmd: 'restore'; file: string; replace: boolean };

/** The command line, or a usage error ('' = help). */
export function parseBackupArgs(argv: string[]): Command | string {
  const [cmd, ...rest] = argv;
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        out: { type: 'string', short: 'o' },
        replace: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  const { values, positionals } = parsed;
  if (values.help) return '';
  if (cmd === 'backup') {
    if (positionals.length || values.replace) return 'backup takes only --out FILE';
    if (!values.out) return 'backup needs --out FILE';
    return { cmd, out: resolve(values.out) };
  }
  if (cmd === 'restore') {
    if (values.out) return 'restore takes the backup FILE, not --out';
    if (positionals.length !== 1) return 'restore takes one backup FILE';
    return { cmd, file: resolve(positionals[0]), replace: values.replace === true };
  }
  return cmd === undefined ? '' : `Unknown command "${cmd}"`;
}

const n = (x: number) => x.toLocaleString('en-US');
export function describeManifest(m: BackupManifest): string {
  return (
    `schema ${m.schemaVersion}, taken ${m.createdAt}: ${n(m.counts.accounts)} accounts, ${n(m.counts.games)} games, ` +
    `${n(m.counts.ledgerEntries)} ledger entries (${Object.keys(m.tables).length} tables, sha256 ${m.sha256.slice(0, 16)}…)`
  );
}

/** Opens the database WITHOUT running migrations (a backup reads it as it is; a restore builds the schema itself). */
async function openRaw(config: AppConfig): Promise<DataSource> {
  const target = await resolveDatabaseTarget(config);
  const ds = new DataSource({ ...target.options, migrations: [], logging: ['error'], poolSize: 1 });
  try {
    await ds.initialize();
  } catch (e) {
    if (target.embedded) await target.embedded.stop();
    throw e;
  }
  const destroy = ds.destroy.bind(ds);
  ds.destroy = async () => {
    try {
      await destroy();
    } finally {
      if (target.embedded) await target.embedded.stop();
    }
  };
  return ds;
}

/** Asks the running server that holds the embedded database for a backup, into `file`. */
async function backupFromRunningServer(config: AppConfig, file: string, pid: number, out: CliOutput): Promise<void> {
  const url = `http://127.0.0.1:${config.port}/api/admin/backup`;
  out.log(`The embedded database is in use by the running server (pid ${pid}): asking it for the backup (${url}).`);
  let res: Response;
  try {
    res = await fetch(url, { headers: { [BACKUP_CONTROL_HEADER]: backupControlToken(config.jwtSecret) } });
  } catch (e) {
    throw new Error(
      `The server holding ${config.dataDir} does not answer on port ${config.port} (${e instanceof Error ? e.message : e}). ` +
        "Run this command with the server's PORT, or stop the server and run it again.",
    );
  }
  if (!res.ok || !res.body)
    throw new Error(
      `The running server refused the backup (HTTP ${res.status}): same DATA_DIR and JWT_SECRET as the server?`,
    );
  await pipeline(Readable.fromWeb(res.body as never), createWriteStream(file, { mode: 0o600 }));
}

/** Runs one command; resolves to the exit code (0 done, 1 failed, 2 usage). */
export async function runBackupCli(argv: string[], env: NodeJS.ProcessEnv, out: CliOutput = console): Promise<number> {
  const parsed = parseBackupArgs(argv);
  if (typeof parsed === 'string') {
    if (parsed) out.error(parsed);
    out.error(BACKUP_CLI_USAGE);
    return parsed ? 2 : 0;
  }
  let config: AppConfig;
  try {
    config = loadAppConfig(env);
  } catch (e) {
    out.error(e instanceof ConfigValidationError ? e.message : String(e));
    return 1;
  }
  return parsed.cmd === 'backup' ? backup(config, parsed.out, out) : restore(config, parsed.file, parsed.replace, out);
}

async function backup(config: AppConfig, file: string, out: CliOutput): Promise<number> {
  const partial = `${file}.partial`;
  try {
    let ds: DataSource | null = null;
    try {
      ds = await openRaw(config);
    } catch (e) {
      if (!(e instanceof DataDirLockedError)) throw e;
      await backupFromRunningServer(config, partial, e.pid, out);
    }
    if (ds) {
      const qr = ds.createQueryRunner();
      try {
        await qr.connect();
        await dumpDatabase(qr, new BackupWriter(partial));
      } finally {
        await qr.release();
        await ds.destroy();
      }
    }
    const manifest = await readBackup(partial); // what was written reads back whole
    renameSync(partial, file);
    out.log(`Backup written to ${file}: ${describeManifest(manifest)}`);
    return 0;
  } catch (e) {
    if (existsSync(partial)) rmSync(partial, { force: true });
    out.error(`Backup failed: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

async function restore(config: AppConfig, file: string, replace: boolean, out: CliOutput): Promise<number> {
  if (!existsSync(file)) {
    out.error(`No such file: ${file}`);
    return 1;
  }
  let ds: DataSource;
  try {
    ds = await openRaw(config);
  } catch (e) {
    out.error(
      e instanceof DataDirLockedError
        ? `The embedded database in ${config.dataDir} is in use by a running server (pid ${e.pid}): stop it, or restore into a new DATA_DIR.`
        : `Could not open the database: ${e instanceof Error ? e.message : String(e)}`,
    );
    return 1;
  }
  const qr = ds.createQueryRunner();
  try {
    await qr.connect();
    if (config.databaseSchema)
      await qr.query(`CREATE SCHEMA IF NOT EXISTS "${config.databaseSchema.replace(/"/g, '""')}"`);
    const r = await restoreDatabase(qr, file, MIGRATIONS, { replace });
    out.log(`Restored ${file}: ${describeManifest(r.manifest)}`);
    out.log(
      r.migratedAfter.length
        ? `Migrated to this server's schema: ${r.migratedAfter.join(', ')}`
        : "The backup was already at this server's schema.",
    );
    for (const [t, count] of Object.entries(r.restored)) out.log(`  ${t.padEnd(24)} ${n(count)}`);
    return 0;
  } catch (e) {
    out.error(
      e instanceof BackupFileError || e instanceof RestoreRefused
        ? `Restore refused: ${e.message}`
        : `Restore failed: ${e instanceof Error ? e.message : String(e)}`,
    );
    return 1;
  } finally {
    await qr.release();
    await ds.destroy();
  }
}
