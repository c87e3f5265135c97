#!/usr/bin/env node
// `npm run admin|backup|restore -- …`: the backend's command-line tools (roles, issue #24; backup and restore,
// issue #26), against the server's database (DATABASE_URL, or the embedded one in DATA_DIR).
// Builds common + the backend first when backend/dist is missing (a fresh checkout), then runs backend/dist/<tool>.js.
// Also in the container image: `docker compose exec backend npm run admin -- list`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

const TOOLS = ['admin', 'backup', 'restore'];
const [tool, ...args] = process.argv.slice(2);
if (!TOOLS.includes(tool)) {
  console.error(`usage: node scripts/backend-tool.mjs <${TOOLS.join('|')}> [arguments]`);
  process.exit(2);
}
const root = resolve(import.meta.dirname, '..');
const entry = join(root, 'backend', 'dist', `${tool === 'restore' ? 'backup' : tool}.js`);
if (!existsSync(entry)) {
  const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };
  const build = spawnSync(
    'npx',
    ['nx', 'run-many', '-t', 'build', '-p', '@spades/common', '@spades/backend', '--outputStyle=stream'],
    { stdio: ['ignore', 'inherit', 'inherit'], env, cwd: root },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const toolArgs = tool === 'admin' ? args : [tool, ...args];
const r = spawnSync(process.execPath, [entry, ...toolArgs], { stdio: 'inherit', cwd: root });
process.exit(r.status ?? 1);
