// The backend container's entrypoint, run for real without Docker: it must migrate a fresh database, then start the
// server, whose /health answers 200. Always on the embedded database (the container without DATABASE_URL), and on
// PostgreSQL when TEST_DATABASE_URL is set (e.g. postgres://root@127.0.0.1:5432/test; without it that one test is
// skipped with the reason printed).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from 'pg';
import { buildBackendOnce } from './test-support/backend-build';
import { freePort } from './test-support/free-port';

const entrypoint = join(__dirname, 'docker-entrypoint.sh');
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

if (!TEST_DATABASE_URL) {
  console.warn(
    '[docker-entrypoint.spec] TEST_DATABASE_URL is not set: skipping the migrate + start + /health test against PostgreSQL',
  );
}

interface Run {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function runEntrypoint(env: Record<string, string>): Run {
  let out = '';
  const child = spawn(entrypoint, [], {
    cwd: tmpdir(), // the script must find the app from its own location, not the working directory
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  return { child, output: () => out, exited };
}

async function waitForHealth(url: string, run: Run, timeoutMs: number): Promise<{ status: number; body: unknown }> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void run.exited.then(() => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`entrypoint exited before /health answered:\n${run.output()}`);
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (r.status === 200) return { status: r.status, body: await r.json() };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`/health did not answer 200 within ${timeoutMs} ms:\n${run.output()}`);
}

async function stop(run: Run): Promise<number | null> {
  if (run.child.exitCode !== null || run.child.signalCode !== null) return run.child.exitCode;
  run.child.kill('SIGTERM');
  const timer = setTimeout(() => run.child.kill('SIGKILL'), 15_000);
  const code = await run.exited;
  clearTimeout(timer);
  return code;
}

describe('build/docker-entrypoint.sh', () => {
  let dataDir: string;

  beforeAll(() => {
    buildBackendOnce();
    dataDir = mkdtempSync(join(tmpdir(), 'spades-entrypoint-data-'));
  }, 300_000);

  afterAll(() => {
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('is an executable POSIX shell script', () => {
    expect(() => accessSync(entrypoint, constants.X_OK)).not.toThrow();
  });

  it('migrates a fresh embedded database (no DATABASE_URL), then starts the server; restarts on the same data', async () => {
    const embeddedDir = mkdtempSync(join(tmpdir(), 'spades-entrypoint-embedded-'));
    try {
      for (const round of [1, 2]) {
        const port = await freePort();
        const env: Record<string, string> = {
          PORT: String(port),
          DATA_DIR: embeddedDir,
          CLIENT_URL: `http://localhost:${port}`,
        };
        const run = runEntrypoint(env);
        try {
          const health = await waitForHealth(`http://127.0.0.1:${port}/health`, run, 120_000);
          expect(health.body).toMatchObject({ status: 'ok' });
          const out = run.output();
          expect(out.indexOf('running database migrations')).toBeGreaterThanOrEqual(0);
          expect(out.indexOf('running database migrations')).toBeLessThan(out.indexOf('starting the server'));
          if (round === 1) {
            // exec'd with the server's Node flags (backend/src/config/node-flags.ts), the container's only process
            const cmdline = readFileSync(`/proc/${run.child.pid}/cmdline`, 'utf8').split('\0');
            expect(cmdline).toEqual(
              expect.arrayContaining(['--max-old-space-size=1024', '--max-semi-space-size=8', 'backend/dist/main.js']),
            );
            // an account created in round 1 must still log in after the restart (round 2)
            const r = await fetch(`http://127.0.0.1:${port}/api/auth/register`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({
                username: 'entry_user',
                email: 'entry@example.com',
                password: 'entrypoint-pass-1',
              }),
            });
            expect(r.status).toBe(201);
          } else {
            const r = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ email: 'entry@example.com', password: 'entrypoint-pass-1' }),
            });
            expect(r.status).toBe(200);
            expect(((await r.json()) as { user: { coins: number } }).user.coins).toBe(5_000_000);
          }
        } finally {
          await stop(run);
        }
      }
    } finally {
      rmSync(embeddedDir, { recursive: true, force: true });
    }
  }, 300_000);

  it.skipIf(!TEST_DATABASE_URL)(
    'migrates a fresh PostgreSQL database, then starts the server; /health answers 200',
    async () => {
      const dbName = `spades_entrypoint_${process.pid}_${randomBytes(3).toString('hex')}`;
      const admin = new Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${dbName}`);
      const dbUrl = new URL(TEST_DATABASE_URL!);
      dbUrl.pathname = `/${dbName}`;
      const port = await freePort();
      const run = runEntrypoint({
        DATABASE_URL: dbUrl.toString(),
        PORT: String(port),
        DATA_DIR: dataDir,
        JWT_SECRET: randomBytes(32).toString('base64url'),
        CLIENT_URL: `http://localhost:${port}`,
      });
      try {
        const health = await waitForHealth(`http://127.0.0.1:${port}/health`, run, 120_000);
        expect(health.status).toBe(200);
        expect(health.body).toMatchObject({ status: 'ok' });
        // readiness (the image's HEALTHCHECK): the database (and Redis, when REDIS_URL is set) answers
        const ready = await fetch(`http://127.0.0.1:${port}/health/ready`);
        expect(ready.status).toBe(200);
        expect(await ready.json()).toMatchObject({ status: 'ok', details: { database: { status: 'up' } } });

        // Migrations ran (before the server started) into the fresh database.
        const out = run.output();
        expect(out).toContain('docker-entrypoint: running database migrations');
        expect(out.indexOf('running database migrations')).toBeLessThan(out.indexOf('starting the server'));
        const db = new Client({ connectionString: dbUrl.toString() });
        await db.connect();
        try {
          const { rows } = await db.query<{ n: string }>('SELECT count(*) AS n FROM migrations');
          expect(Number(rows[0].n)).toBeGreaterThan(0);
        } finally {
          await db.end();
        }

        // exec: the server itself gets SIGTERM and shuts down.
        const code = await stop(run);
        expect(run.child.signalCode === 'SIGTERM' || code === 0 || code === 143).toBe(true);
      } finally {
        await stop(run);
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
        await admin.end();
      }
    },
    180_000,
  );

  it('fails (non-zero) without starting the server when the migrations cannot run', async () => {
    const port = await freePort();
    const run = runEntrypoint({
      // Nothing listens on port 1: the migration step fails and `set -e` stops the script.
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      PORT: String(port),
      DATA_DIR: dataDir,
      JWT_SECRET: randomBytes(32).toString('base64url'),
    });
    const code = await Promise.race([
      run.exited,
      new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 60_000)),
    ]);
    if (code === 'timeout') await stop(run);
    expect(code).not.toBe('timeout');
    expect(code).not.toBe(0);
    expect(run.output()).toContain('running database migrations');
    expect(run.output()).not.toContain('starting the server');
  }, 90_000);
});
