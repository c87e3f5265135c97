import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Logger } from '@nestjs/common';

/** Lock files held by this process (a second server in the same process must also be refused). */
const heldLocks = new Set<string>();

export class DataDirLockedError extends Error {
  constructor(
    dir: string,
    readonly pid: number,
  ) {
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
export const EMBEDDED_POSTGRESQL_CONF = [
  'shared_buffers=16MB',
  'work_mem=2MB',
  'maintenance_work_mem=16MB',
  'temp_buffers=2MB',
];

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
      code === 0
        ? resolveInit()
        : reject(
            new Error(
              `initialising the embedded database in ${pgdata} failed (exit ${code}): ${err.trim().slice(-500)}`,
            ),
          ),
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
 * The embedded database's thread: PGlite and its socket server, both inside a worker thread, so that the
 * database's work (PostgreSQL compiled to WebAssembly, run synchronously) never holds up the server's event loop.
 * Plain CommonJS evaluated by the worker; it answers `{ listening }` or `{ failed }`, then `{ stopped }` to 'stop'.
 */
const DATABASE_THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite } = require(workerData.pglite);
const { PGLiteSocketServer } = require(workerData.socket);
const text = (e) => String((e && e.stack) || e);
(async () => {
  const db = await PGlite.create(workerData.pgdata, { postgresqlconf: workerData.conf });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: workerData.port, maxConnections: 1 });
  await server.start();
  parentPort.on('message', (m) => {
    if (m !== 'stop') return;
    server.stop().then(() => db.close()).then(
      () => parentPort.postMessage({ stopped: true }),
      (e) => parentPort.postMessage({ stopped: false, error: text(e) }),
    );
  });
  parentPort.postMessage({ listening: true });
})().catch((e) => parentPort.postMessage({ failed: text(e) }));
`;

type DatabaseThreadMessage = { listening: true } | { failed: string } | { stopped: boolean; error?: string };

/** What a database thread that ends unexpectedly reports (the server's queries fail from then on; /health says so). */
const threadLog = new Logger('Database');

/**
 * Embedded PostgreSQL: PGlite persisted in DATA_DIR/pgdata behind a pglite-socket server on 127.0.0.1 and a
 * free port (maxConnections 1: it is ONE backend session, so the TypeORM pool must have size 1 as well), both in a
 * worker thread of this process (its memory still counts in the process's RSS).
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const lockPath = acquireDataDirLock(dataDir);
  try {
    const pgdata = join(dataDir, 'pgdata');
    await initDataDirOutOfProcess(pgdata);
    const port = await freePort();
    const worker = new Worker(DATABASE_THREAD, {
      eval: true,
      workerData: {
        pglite: require.resolve('@electric-sql/pglite'),
        socket: require.resolve('@electric-sql/pglite-socket'),
        pgdata,
        conf: EMBEDDED_POSTGRESQL_CONF,
        port,
      },
    });
    let stopping = false;
    let exited = false;
    worker.once('exit', () => (exited = true));
    const next = () =>
      new Promise<DatabaseThreadMessage>((resolveMsg, reject) => {
        const onExit = (code: number) => reject(new Error(`the embedded database thread exited (${code})`));
        worker.once('exit', onExit);
        worker.once('error', reject);
        worker.once('message', (m: DatabaseThreadMessage) => {
          worker.off('exit', onExit);
          worker.off('error', reject);
          resolveMsg(m);
        });
      });
    const started = await next().catch(async (e: Error) => ({ failed: e.stack ?? e.message }));
    if ('failed' in started) {
      await worker.terminate();
      throw new Error(`the embedded database in ${pgdata} did not start: ${started.failed}`);
    }
    worker.on('error', (e) => threadLog.error(`the embedded database failed: ${e.stack ?? e.message}`));
    worker.on('exit', (code) => {
      if (!stopping) threadLog.error(`the embedded database stopped unexpectedly (thread exit ${code})`);
    });
    let stopped = false;
    return {
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      async stop() {
        if (stopped) return;
        stopped = true;
        stopping = true;
        try {
          if (exited) return; // the thread already ended (logged then): nothing to close, nothing would answer
          const done = next();
          worker.postMessage('stop');
          const m = await done;
          if ('stopped' in m && !m.stopped) throw new Error(`closing the embedded database failed: ${m.error}`);
          await worker.terminate();
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
