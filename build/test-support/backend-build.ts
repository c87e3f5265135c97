// Builds common + backend (backend/dist) once per test run, for the build/ specs that start the real server
// (docker-entrypoint.spec.ts, scale-out.spec.ts). vitest may run those files at the same time in separate workers:
// a lock directory serialises them, and a marker named after the run (the workers' parent process) makes the
// second one skip the build instead of rewriting backend/dist under the server the first one started.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..', '..');
const key = createHash('sha256').update(root).digest('hex').slice(0, 12);
const lockDir = join(tmpdir(), `spades-backend-build-${key}.lock`);
const STALE_LOCK_MS = 10 * 60_000;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function lock(): void {
  const deadline = Date.now() + STALE_LOCK_MS;
  for (;;) {
    try {
      mkdirSync(lockDir);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let age = 0;
      try {
        age = Date.now() - statSync(lockDir).mtimeMs;
      } catch {
        continue; // released meanwhile
      }
      if (age > STALE_LOCK_MS || Date.now() > deadline) rmSync(lockDir, { recursive: true, force: true });
      else sleep(250);
    }
  }
}

export function buildBackendOnce(): void {
  const marker = join(tmpdir(), `spades-backend-built-${key}-${process.ppid}`);
  lock();
  try {
    if (existsSync(marker) && existsSync(join(root, 'backend/dist/main.js'))) return;
    for (const ws of ['common', 'backend']) {
      const r = spawnSync('npm', ['run', 'build', '-w', ws, '--silent'], {
        cwd: root,
        encoding: 'utf8',
        timeout: 240_000,
      });
      if (r.status !== 0) throw new Error(`building ${ws} failed:\n${r.stdout}${r.stderr}`);
    }
    for (const f of readdirSync(tmpdir()))
      if (f.startsWith(`spades-backend-built-${key}-`)) rmSync(join(tmpdir(), f), { force: true });
    writeFileSync(marker, new Date().toISOString());
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}
