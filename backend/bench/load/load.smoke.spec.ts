/**
 * Smoke test of the whole harness at a tiny size: the real server (backend/dist, built by the harness when
 * missing), two tables of one human + three heuristic bots, five measured seconds, the echo baseline.
 * Only the shape and the absence of errors are asserted: speed belongs to the benchmark's own output.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { RESULT_KEYS } from './stats';

const BACKEND = resolve(__dirname, '../..');

it('bench:load plays two tables without errors and prints the result JSON last', () => {
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      join(__dirname, 'load.bench.ts'),
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
      '--quiet',
    ],
    { cwd: BACKEND, encoding: 'utf8', timeout: 240_000, env: { ...process.env, LOG_LEVEL: 'warn' } },
  );
  const lines = r.stdout.trim().split('\n');
  if (r.status !== 0) throw new Error(`bench:load exited ${r.status}: ${r.stderr}`);
  const result = JSON.parse(lines[lines.length - 1]);
  expect(Object.keys(result)).toEqual([...RESULT_KEYS]);
  expect(result.errors).toBe(0);
  expect(result.tables).toBe(2);
  expect(result.sockets).toBe(2);
  expect(result.actionsPerSecond).toBeGreaterThan(0);
  expect(result.ackP99Ms).toBeGreaterThan(0);
  expect(result.updateP99Ms).toBeGreaterThan(0);
  expect(result.baselineP99Ms).toBeGreaterThan(0);
  expect(result.serverRssMB).toBeGreaterThan(0);
}, 300_000);
