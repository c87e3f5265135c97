#!/usr/bin/env node
// `npm start`: build what the server needs (common, backend, the web client), then run the backend,
// which serves the API and the web app on http://localhost:${PORT:-3000}.
import { spawnSync, spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const env = {
  ...process.env,
  NX_DAEMON: 'false',
  NX_NO_CLOUD: 'true',
  NX_TUI: 'false',
  NX_SKIP_NX_CACHE: process.env.NX_SKIP_NX_CACHE ?? '',
};
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', env });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

run('npx', ['nx', 'run-many', '-t', 'build', '-p', '@spades/common', '@spades/backend', '--outputStyle=stream']);
run('npx', ['nx', 'run', '@spades/desktop:build:web', '--outputStyle=stream']);

// the server's heap flags (backend/src/config/node-flags.ts), unless NODE_OPTIONS sets them
const { serverNodeFlags } = createRequire(import.meta.url)('../backend/dist/config/node-flags.js');
const server = spawn(process.execPath, [...serverNodeFlags(process.env.NODE_OPTIONS), 'backend/dist/main.js'], {
  stdio: 'inherit',
  env: process.env,
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.kill(sig));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
