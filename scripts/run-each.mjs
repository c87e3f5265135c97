#!/usr/bin/env node
// `node ../scripts/run-each.mjs a b c`: runs the npm scripts a, b and c of the current package one after the other,
// every one of them even when an earlier one failed, and exits non-zero if any failed. The desktop's `test` runs
// its unit, main-process and e2e suites this way, so a failed unit test does not hide the e2e results.
import { spawnSync } from 'node:child_process';

const failed = [];
for (const script of process.argv.slice(2)) {
  const r = spawnSync('npm', ['run', script], { stdio: 'inherit', shell: process.platform === 'win32' });
  if (r.status !== 0) failed.push(script);
}
if (failed.length) console.error(`failed: ${failed.join(', ')}`);
process.exit(failed.length ? 1 : 0);
