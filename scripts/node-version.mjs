#!/usr/bin/env node
// Does this Node.js satisfy the root package.json's `engines.node`? Used by `.ci/run` before anything is installed,
// so it has no dependencies: a small subset of semver ranges (`||` alternatives of space-separated comparators
// `^X.Y.Z`, `>=`, `>`, `<=`, `<`, `=`/bare; missing minor/patch count as 0). build/node-version.spec.ts checks it
// against the real `semver` package and the range against every dependency's own `engines.node`.
//   node scripts/node-version.mjs            exit 0 if process.version satisfies engines.node, else 1 (with a message)
//   node scripts/node-version.mjs 22.13.0    the same for the given version
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** [major, minor, patch] of "22", "22.13" or "v22.13.0" (prerelease/build suffixes ignored). */
function parse(v) {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(v.trim());
  if (!m) throw new Error(`not a version: ${v}`);
  return [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)];
}

function cmp(a, b) {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  return 0;
}

function comparator(version, c) {
  const m = /^(\^|>=|<=|>|<|=)?\s*(.+)$/.exec(c);
  if (!m) throw new Error(`unsupported range part: ${c}`);
  const op = m[1] ?? '=';
  const want = parse(m[2]);
  const d = cmp(version, want);
  switch (op) {
    case '^': // same major (the engines ranges used here never have a 0 major)
      return d >= 0 && version[0] === want[0];
    case '>=':
      return d >= 0;
    case '>':
      return d > 0;
    case '<=':
      return d <= 0;
    case '<':
      return d < 0;
    default:
      return d === 0;
  }
}

/** Whether `version` satisfies `range` (the subset of semver described above). */
export function satisfies(version, range) {
  const v = parse(version);
  return range.split('||').some((alt) => {
    const parts = alt
      .trim()
      .replace(/(>=|<=|>|<|=|\^)\s+/g, '$1')
      .split(/\s+/)
      .filter(Boolean);
    if (parts.length === 0) throw new Error(`empty range alternative in "${range}"`);
    return parts.every((p) => comparator(v, p));
  });
}

export function enginesNode() {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const range = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).engines?.node;
  if (typeof range !== 'string') throw new Error('package.json has no engines.node');
  return range;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const version = process.argv[2] ?? process.versions.node;
  const range = enginesNode();
  if (!satisfies(version, range)) {
    console.error(`Node.js ${version} does not satisfy engines.node "${range}" (package.json)`);
    process.exit(1);
  }
}
