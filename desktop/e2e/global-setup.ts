import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, openSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '../..');
// one file per runner process: e2e runs of other checkouts on the same machine must not stop this run's server
export const STATE_FILE = join(tmpdir(), `spades-desktop-e2e-${process.pid}.json`);

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => res(port));
    });
  });
}

function run(cmd: string, args: string[], cwd = root): void {
  const r = spawnSync(cmd, args, {
    cwd,
    stdio: 'inherit',
    env: { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' },
  });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed with ${r.status}`);
}

export default async function globalSetup(): Promise<void> {
  if (process.env.E2E_BASE_URL) return;
  if (process.env.E2E_SKIP_BUILD !== '1') {
    // Same order as scripts/start.mjs: common and backend, then the web client.
    run('npx', ['tsc', '-p', 'common/tsconfig.lib.json']);
    run('npx', ['tsc', '-p', 'backend/tsconfig.app.json']);
    run('npx', ['vite', 'build', '--config', 'vite.config.mts', '--logLevel', 'warn'], join(root, 'desktop'));
  }
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'spades-e2e-data-'));
  const log = openSync(join(dataDir, 'server.log'), 'a');
  const server = spawn(process.execPath, [join(root, 'backend/dist/main.js')], {
    cwd: root,
    detached: false,
    stdio: ['ignore', log, log],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      CLIENT_URL: `http://127.0.0.1:${port}`,
      // desktop-bridge.e2e.spec.ts: the page on 127.0.0.1 talks to the API base the bridge gives (localhost)
      CORS_ORIGINS: `http://localhost:${port}`,
      LOG_LEVEL: 'warn',
      REGISTER_MAX_PER_IP: '10000',
      // Shortened timers (the spec's defaults are 1–1.5 s bots, 2 s trick display, 12 s summary, 30 s result).
      BOT_DELAY_MIN_MS: process.env.E2E_BOT_DELAY_MIN_MS ?? '120',
      BOT_DELAY_MAX_MS: process.env.E2E_BOT_DELAY_MAX_MS ?? '200',
      TRICK_DISPLAY_MS: '700',
      HAND_SUMMARY_MS: process.env.E2E_HAND_SUMMARY_MS ?? '15000',
      RESULT_MS: '30000',
      BOT_LEVEL: process.env.E2E_BOT_LEVEL ?? 'basic',
    },
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  let ok = false;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) break;
    try {
      const r = await fetch(`${base}/health`);
      if (r.ok) {
        ok = true;
        break;
      }
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  writeFileSync(STATE_FILE, JSON.stringify({ pid: server.pid, dataDir, base }));
  if (!ok) {
    server.kill('SIGTERM');
    throw new Error(`backend did not become healthy at ${base} (log: ${join(dataDir, 'server.log')})`);
  }
  process.env.E2E_BASE_URL = base;
  process.env.E2E_DATA_DIR = dataDir;
}
