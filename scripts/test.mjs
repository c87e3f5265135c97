#!/usr/bin/env node
// `npm test`: every project's tests through Nx (common: vitest + fast-check; backend: jest against a real
// database; desktop: renderer + main-process vitest and Playwright e2e in Chromium), then one summary line
// `tests: N passed, N failed, N skipped` added up from the JSON reports each runner writes to TEST_RESULTS_DIR.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const resultsDir = join(root, 'test-results', 'summary');
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', TEST_RESULTS_DIR: resultsDir };
const started = Date.now();
const r = spawnSync('npx', ['nx', 'run-many', '-t', 'test', '--parallel=1', '--outputStyle=stream', '--skipNxCache'], {
  stdio: 'inherit',
  env,
  cwd: root,
});

let passed = 0;
let failed = 0;
let skipped = 0;
const lines = [];
for (const file of existsSync(resultsDir) ? readdirSync(resultsDir).sort() : []) {
  const report = JSON.parse(readFileSync(join(resultsDir, file), 'utf8'));
  let p, f, s;
  if (report.stats && 'expected' in report.stats) {
    // Playwright
    p = report.stats.expected + (report.stats.flaky ?? 0);
    f = report.stats.unexpected;
    s = report.stats.skipped;
  } else {
    // vitest / jest
    p = report.numPassedTests;
    f = report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0);
    s = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  }
  passed += p;
  failed += f;
  skipped += s;
  lines.push(`  ${file.replace(/\.json$/, '').padEnd(18)} ${p} passed, ${f} failed, ${s} skipped`);
}
const status = r.status ?? 1;
if (status !== 0 && failed === 0) failed = 1; // a target failed before its runner could report (e.g. a build error)
console.log(`\nTest summary (${Math.round((Date.now() - started) / 1000)} s):`);
for (const l of lines) console.log(l);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(status);
