/* eslint-disable @typescript-eslint/no-explicit-any -- raw SQL rows */
/** Fork / kill / restart a real server process on a persistent database (PGlite data dir or a Postgres schema). */
import { ChildProcess, fork } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { startEmbeddedPostgres } from '../../../src/database/embedded-postgres';

export interface ChildDb {
  env: Record<string, string | undefined>;
  /** SQL against the same database (a short-lived connection; only while no child runs when embedded). */
  dataDir: string;
  schema?: string;
  cleanup(): Promise<void>;
}

export function childDb(): ChildDb {
  const dataDir = mkdtempSync(join(tmpdir(), 'spades-child-'));
  const template = process.env.SPADES_PGLITE_TEMPLATE;
  const pgUrl = process.env.TEST_DATABASE_URL;
  const schema = pgUrl ? `c_${process.pid}_${randomBytes(4).toString('hex')}` : undefined;
  if (!pgUrl && template && existsSync(join(template, 'pgdata')))
    cpSync(join(template, 'pgdata'), join(dataDir, 'pgdata'), { recursive: true });
  return {
    dataDir,
    schema,
    env: {
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: pgUrl,
      DATABASE_SCHEMA: schema,
      DATABASE_POOL_SIZE: '4',
      JWT_SECRET: 'child-secret-child-secret-child-secret-00',
      CLIENT_URL: 'http://localhost:5173',
      LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    },
    async cleanup() {
      if (schema) {
        const ds = await new DataSource({ type: 'postgres', url: pgUrl, poolSize: 1 }).initialize();
        try {
          await ds.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        } finally {
          await ds.destroy();
        }
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ChildServer {
  url: string;
  proc: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(): Promise<void>;
}

export function startChild(db: ChildDb, extraEnv: Record<string, string> = {}): Promise<ChildServer> {
  const backendDir = resolve(__dirname, '../../..');
  const proc = fork(resolve(__dirname, 'child-server.ts'), [], {
    cwd: backendDir,
    execArgv: ['-r', '@swc-node/register'],
    env: {
      ...process.env,
      ...extraEnv,
      CHILD_ENV: JSON.stringify(db.env),
      SWC_NODE_PROJECT: join(backendDir, 'tsconfig.json'),
    },
    // CHILD_STDOUT=1 (with TEST_LOG_LEVEL=debug) shows the children's JSON logs: how the cluster tests are debugged
    stdio: ['ignore', process.env.CHILD_STDOUT === '1' ? 'inherit' : 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) =>
    proc.once('exit', (code, signal) => r({ code, signal })),
  );
  return new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error('child server did not start')), 60000);
    proc.once('message', (m: { ready?: number }) => {
      clearTimeout(timer);
      if (!m?.ready) return reject(new Error('child server failed'));
      resolveReady({
        url: `http://127.0.0.1:${m.ready}`,
        proc,
        exited,
        async kill() {
          if (proc.exitCode !== null || proc.signalCode !== null) return;
          proc.kill('SIGKILL');
          await exited;
        },
      });
    });
    void exited.then((e) => {
      clearTimeout(timer);
      reject(new Error(`child server exited before ready: ${JSON.stringify(e)}`));
    });
  });
}

/**
 * Runs `fn` with SQL access to the child's database while no child server runs (embedded: opens the PGlite
 * data dir directly; PostgreSQL: the child's schema). No app boots, so no table is restored or touched.
 */
export async function withDatabase<T>(
  db: ChildDb,
  fn: (q: (sql: string, params?: unknown[]) => Promise<any[]>) => Promise<T>,
): Promise<T> {
  let url = db.env.DATABASE_URL;
  let stop: (() => Promise<void>) | null = null;
  if (!url) {
    const embedded = await startEmbeddedPostgres(db.dataDir);
    url = embedded.url;
    stop = () => embedded.stop();
  }
  const ds = new DataSource({
    type: 'postgres',
    url,
    poolSize: 1,
    extra: db.schema ? { options: `-c search_path=${db.schema}` } : undefined,
  });
  try {
    await ds.initialize();
    return await fn((sql, params) => ds.query(sql, params));
  } finally {
    if (ds.isInitialized) await ds.destroy();
    await stop?.();
  }
}
