/**
 * Smoke test of the whole harness at a tiny size: the real server (backend/dist, built by the harness when
 * missing), two tables of one human + three heuristic bots, five measured seconds, the echo baseline.
 * Only the shape and the absence of errors are asserted: speed belongs to the benchmark's own output.
 * `--nodes 2` (issue #13) runs against a real PostgreSQL and Redis (skipped without TEST_DATABASE_URL and
 * REDIS_URL); without Redis it must stop before starting anything, with a clear message.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { freePort } from './server-process';
import { CLUSTER_KEYS, DURABLE_KEYS, RESULT_KEYS } from './stats';

const BACKEND = resolve(__dirname, '../..');
const PG = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;

function runBench(args: string[], env: NodeJS.ProcessEnv = {}) {
  return spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, 'load.bench.ts'), ...args], {
    cwd: BACKEND,
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it('bench:load plays two tables without errors and prints the result JSON last (with the durable echo)', () => {
  const r = runBench([
    '--tables',
    '2',
    '--seconds',
    '5',
    '--rate',
    '4',
    '--bots',
    'heuristic',
    '--db',
    'pglite',
    '--warmup',
    '2',
    '--baseline-seconds',
    '2',
    '--durable-baseline',
    '--quiet',
  ]);
  const lines = r.stdout.trim().split('\n');
  if (r.status !== 0) throw new Error(`bench:load exited ${r.status}: ${r.stderr}`);
  const result = JSON.parse(lines[lines.length - 1]);
  expect(Object.keys(result)).toEqual([...RESULT_KEYS, ...DURABLE_KEYS]);
  // the durable echo (embedded database here) answered every act: its errors count in `errors`
  expect(result.durableBaselineP99Ms).toBeGreaterThan(0);
  expect(result.errors).toBe(0);
  expect(result.tables).toBe(2);
  expect(result.sockets).toBe(2);
  expect(result.actionsPerSecond).toBeGreaterThan(0);
  expect(result.ackP99Ms).toBeGreaterThan(0);
  expect(result.updateP99Ms).toBeGreaterThan(0);
  expect(result.baselineP99Ms).toBeGreaterThan(0);
  expect(result.serverRssMB).toBeGreaterThan(0);
  expect(result.nodes).toBe(1);
}, 300_000);

it('bench:load --nodes 2 without a reachable Redis stops at once with a clear message (no server started)', async () => {
  const url = `redis://127.0.0.1:${await freePort()}`;
  const r = runBench(['--nodes', '2', '--tables', '2', '--seconds', '1'], { REDIS_URL: url });
  expect(r.status).toBe(1);
  expect(r.stdout.trim()).toBe('');
  expect(r.stderr).toContain(
    `bench:load: --nodes needs Redis (the nodes forward commands through it): ${url} is unreachable`,
  );
  expect(r.stderr).not.toContain(' pid ');
}, 60_000);

const withCluster = PG && REDIS_URL ? it : it.skip;
if (!PG || !REDIS_URL) {
  console.warn(
    '[load.smoke.spec] bench:load --nodes needs TEST_DATABASE_URL and REDIS_URL (PostgreSQL + Redis): skipped',
  );
}

withCluster(
  'bench:load --nodes 2 plays four tables over two server processes without errors, per node, and leaves nothing behind',
  async () => {
    const r = runBench(
      [
        '--nodes',
        '2',
        '--tables',
        '4',
        '--seconds',
        '5',
        '--rate',
        '8',
        '--bots',
        'heuristic',
        '--warmup',
        '2',
        '--baseline-seconds',
        '2',
      ],
      { BENCH_DATABASE_URL: PG, REDIS_URL },
    );
    if (r.status !== 0) throw new Error(`bench:load exited ${r.status}: ${r.stderr}`);
    const lines = r.stdout.trim().split('\n');
    const result = JSON.parse(lines[lines.length - 1]);
    expect(Object.keys(result)).toEqual([...RESULT_KEYS, ...CLUSTER_KEYS]);
    expect(result.errors).toBe(0);
    expect(result.nodes).toBe(2);
    expect(result.actionsPerSecond).toBeGreaterThan(0);
    expect(result.perNode).toHaveLength(2);
    expect(new Set(result.perNode.map((n: { nodeId: string }) => n.nodeId)).size).toBe(2);
    // every open table is owned by one of the two nodes
    expect(result.perNode.reduce((a: number, n: { tables: number }) => a + n.tables, 0)).toBe(4);
    for (const n of result.perNode) expect(n.rssMB).toBeGreaterThan(0);
    // the totals are the sums over the nodes (rounded separately)
    const rss = result.perNode.reduce((a: number, n: { rssMB: number }) => a + n.rssMB, 0);
    expect(Math.abs(result.serverRssMB - rss)).toBeLessThanOrEqual(1);
    expect(result.cpuPctPerTable).toBeGreaterThan(0);
    expect(result.forwardedShare === null || (result.forwardedShare >= 0 && result.forwardedShare <= 1)).toBe(true);
    // both nodes were started (their pids are in the progress lines) and both are gone
    const pids = [...r.stderr.matchAll(/node bench-\S+ pid (\d+)/g)].map((m) => Number(m[1]));
    expect(pids).toHaveLength(2);
    for (const pid of pids) expect(alive(pid)).toBe(false);
    // the run's schema is dropped
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { Client } = require('pg');
    const c = new Client({ connectionString: PG });
    await c.connect();
    try {
      const { rows } = await c.query(`SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE $1`, [
        `bench\\_${r.pid}\\_%`,
      ]);
      expect(rows).toEqual([]);
    } finally {
      await c.end();
    }
  },
  300_000,
);
