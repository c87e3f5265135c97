import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** Lock files held by this process (a second server in the same process must also be refused). */
const heldLocks = new Set<string>();

export class DataDirLockedError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The data directory ${dir} is already in use by another Spades server (pid ${pid}). ` +
        'Stop it first, or point DATA_DIR somewhere else.',
    );
    this.name = 'DataDirLockedError';
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Settings of the embedded database: a small buffer cache (the WebAssembly heap never shrinks, so what PGlite
 * allocates stays in the server's RSS; the buffer pages are touched when it opens). Measured for an opened data
 * directory: ~125 MB RSS with 16 MB of shared_buffers (~145 MB with 32 MB, ~185 MB with 64 MB).
 */
export const EMBEDDED_POSTGRESQL_CONF = ['shared_buffers=16MB', 'work_mem=2MB', 'maintenance_work_mem=16MB', 'temp_buffers=2MB'];

/**
 * Creating a data directory (initdb) grows PGlite's WebAssembly heap to ~650 MB, which a process never gives
 * back. So a new directory is initialised in a short-lived child process; the server then opens the existing
 * directory (~180 MB).
 */
export async function initDataDirOutOfProcess(pgdata: string): Promise<void> {
  if (existsSync(join(pgdata, 'PG_VERSION'))) return;
  const entry = require.resolve('@electric-sql/pglite');
  const script = `const { PGlite } = require(${JSON.stringify(entry)});
    PGlite.create(${JSON.stringify(pgdata)}).then((db) => db.close()).then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });`;
  await new Promise<void>((resolveInit, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolveInit() : reject(new Error(`initialising the embedded database in ${pgdata} failed (exit ${code}): ${err.trim().slice(-500)}`)),
    );
  });
}

/**
 * Takes DATA_DIR/pgdata.lock (containing our pid). An existing lock is honoured when its pid is alive
 * (and, for our own pid, when this process really holds it); a stale lock (dead pid, or our own pid after
 * a container restart where the pid is always 1) is replaced.
 */
export function acquireDataDirLock(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = join(dataDir, 'pgdata.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldLocks.add(lockPath);
      return lockPath;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let pid = NaN;
      try {
        pid = Number(readFileSync(lockPath, 'utf8').trim());
      } catch {
        /* vanished meanwhile: retry */
      }
      const ours = pid === process.pid;
      if (Number.isInteger(pid) && pid > 0 && ((ours && heldLocks.has(lockPath)) || (!ours && pidAlive(pid)))) {
        throw new DataDirLockedError(dataDir, pid);
      }
      try {
        unlinkSync(lockPath);
      } catch {
        /* someone else removed it */
      }
    }
  }
  throw new Error(`Could not take the lock ${lockPath}`);
}

export function releaseDataDirLock(lockPath: string): void {
  heldLocks.delete(lockPath);
  try {
    if (Number(readFileSync(lockPath, 'utf8').trim()) === process.pid) unlinkSync(lockPath);
  } catch {
    /* already gone */
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

export interface EmbeddedPostgres {
  /** postgres:// URL of the loopback socket server in front of PGlite. */
  url: string;
  stop(): Promise<void>;
}

/**
 * Embedded PostgreSQL: PGlite persisted in DATA_DIR/pgdata behind a pglite-socket server on 127.0.0.1 and a
 * free port (maxConnections 1: it is ONE backend session, so the TypeORM pool must have size 1 as well).
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const lockPath = acquireDataDirLock(dataDir);
  try {
    let db: PGlite;
    try {
      await initDataDirOutOfProcess(join(dataDir, 'pgdata'));
      db = await PGlite.create(join(dataDir, 'pgdata'), { postgresqlconf: EMBEDDED_POSTGRESQL_CONF });
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.code === 'ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING_FLAG') {
        throw new Error(
          'PGlite cannot start inside jest without --experimental-vm-modules: run the backend tests with ' +
            '`npm test -w backend` (or NODE_OPTIONS=--experimental-vm-modules npx jest ...), or set TEST_DATABASE_URL.',
        );
      }
      throw e;
    }
    const port = await freePort();
    const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections: 1 });
    await server.start();
    let stopped = false;
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      async stop() {
        if (stopped) return;
        stopped = true;
        try {
          await server.stop();
          await db.close();
        } finally {
          releaseDataDirLock(lockPath);
        }
      },
    };
  } catch (e) {
    releaseDataDirLock(lockPath);
    throw e;
  }
}
