#!/usr/bin/env node
// `npm test`: every project's tests through Nx (common: vitest + fast-check; backend: jest against a real
// database; desktop: renderer + main-process vitest and Playwright e2e in Chromium), then one summary line
// `tests: N passed, N failed, N skipped` added up from the JSON reports each runner writes to TEST_RESULTS_DIR,
// preceded by each failed test's name and the start of its error (a CI log often keeps only its tail).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const resultsDir = join(root, 'test-results', 'summary');
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', TEST_RESULTS_DIR: resultsDir };
const started = Date.now();
// One project at a time. Side by side (--parallel=2) took 26 min instead of about 47, but on 2 cores (load average
// 17-19) the backend's real-timer suites missed turns: games.timers' scripted player timed out three times in a
// row. See docs/testing.md before trying it again.
const r = spawnSync('npx', ['nx', 'run-many', '-t', 'test', '--parallel=1', '--outputStyle=stream', '--skipNxCache'], {
  stdio: 'inherit',
  env,
  cwd: root,
});

let passed = 0;
let failed = 0;
let skipped = 0;
const lines = [];
const failures = [];
const flaky = [];
for (const file of existsSync(resultsDir) ? readdirSync(resultsDir).sort() : []) {
  const report = JSON.parse(readFileSync(join(resultsDir, file), 'utf8'));
  let p, f, s;
  if (report.stats && 'expected' in report.stats) {
    // Playwright
    p = report.stats.expected + (report.stats.flaky ?? 0);
    f = report.stats.unexpected;
    s = report.stats.skipped;
    failures.push(...playwrightFailures(report.suites ?? []));
    flaky.push(...playwrightFailures(report.suites ?? [], [], 'flaky'));
  } else {
    // vitest / jest
    p = report.numPassedTests;
    f = report.numFailedTests + (report.numRuntimeErrorTestSuites ?? 0);
    s = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    failures.push(...(report.failures ?? jestLikeFailures(report.testResults ?? [])));
  }
  passed += p;
  failed += f;
  skipped += s;
  lines.push(`  ${file.replace(/\.json$/, '').padEnd(18)} ${p} passed, ${f} failed, ${s} skipped`);
}
const status = r.status ?? 1;
if (status !== 0 && failed === 0) failed = 1; // a target failed before its runner could report (e.g. a build error)
if (flaky.length) {
  console.log(`\nPassed only on retry (${flaky.length}):`);
  for (const f of flaky) {
    console.log(`  ~ ${f.name}`);
    for (const l of firstLines(f.message, 6)) console.log(`      ${l}`);
  }
}
if (failures.length) {
  console.log(`\nFailed (${failures.length}):`);
  for (const f of failures.slice(0, 20)) {
    console.log(`  ✘ ${f.name}`);
    for (const l of firstLines(f.message)) console.log(`      ${l}`);
  }
}
console.log(`\nTest summary (${Math.round((Date.now() - started) / 1000)} s):`);
for (const l of lines) console.log(l);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(status);

/** Playwright's JSON report: suites nest; a spec's test failed when its last result did not pass. */
function playwrightFailures(suites, out = [], status = 'unexpected') {
  for (const suite of suites) {
    for (const spec of suite.specs ?? [])
      for (const t of spec.tests ?? []) {
        const last = t.results?.[t.results.length - 1];
        const failedRun = t.results?.find((r) => r.status !== 'passed' && r.status !== 'skipped');
        if (t.status === status && last)
          out.push({
            name: `${spec.file}:${spec.line} › ${spec.title}`,
            message: failedRun?.error?.message ?? last.status,
          });
      }
    playwrightFailures(suite.suites ?? [], out, status);
  }
  return out;
}

/** vitest's JSON report (jest's shape): files with assertion results. */
function jestLikeFailures(files) {
  const out = [];
  for (const file of files) {
    const name = file.name ? file.name.replace(`${root}/`, '') : '?';
    const failed = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failed)
      out.push({ name: `${name} › ${a.fullName ?? a.title}`, message: (a.failureMessages ?? []).join('\n') });
    if (!failed.length && file.status === 'failed') out.push({ name, message: file.message ?? '' });
  }
  return out;
}

/** The first lines of an error, without terminal colours. */
function firstLines(message, n = 12) {
  // eslint-disable-next-line no-control-regex
  const plain = String(message ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  return plain
    .split('\n')
    .filter((l) => l.trim() && !/node_modules|node:internal|new Promise \(/.test(l))
    .slice(0, n);
}
