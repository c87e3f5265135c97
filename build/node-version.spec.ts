// One Node.js version everywhere (issue #15 item 12): package.json's engines.node must be a range every installed
// dependency accepts (else `npm install` prints EBADENGINE), and .nvmrc, the container image and .ci/run must pick
// a Node inside it. scripts/node-version.mjs (what .ci/run checks before anything is installed) must agree with semver.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { enginesNode, satisfies } from '../scripts/node-version.mjs';

const root = resolve(__dirname, '..');
const read = (p: string) => readFileSync(join(root, p), 'utf8');
const engines = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
const lock = JSON.parse(read('package-lock.json')) as {
  packages: Record<string, { engines?: Record<string, string> | string[]; optional?: boolean }>;
};

describe('Node.js version', () => {
  it('package.json engines.node is a range every dependency in the lockfile accepts (no EBADENGINE)', () => {
    expect(semver.validRange(engines)).not.toBeNull();
    expect(lock.packages[''].engines).toEqual({ node: engines }); // the lockfile is current
    const refused: string[] = [];
    for (const [path, p] of Object.entries(lock.packages)) {
      const want = p.engines && !Array.isArray(p.engines) ? p.engines.node : undefined;
      if (path === '' || !want || !semver.validRange(want)) continue;
      if (!semver.subset(engines, want)) refused.push(`${path} wants ${want}`);
    }
    expect(refused).toEqual([]);
  });

  it('Node 20 is not allowed (end of life; Electron 45 and TypeORM refuse it), Node 22 LTS is', () => {
    expect(semver.intersects(engines, '20.x')).toBe(false);
    expect(semver.satisfies('22.23.3', engines)).toBe(true);
  });

  it('.nvmrc, the container image and .ci/run name a Node major inside engines.node', () => {
    const nvmrc = read('.nvmrc').trim();
    expect(nvmrc).toMatch(/^\d+$/);
    // nvm takes the newest release of that major: the range must accept that major's current line.
    expect(semver.intersects(`${nvmrc}.x`, engines)).toBe(true);
    expect(read('build/backend.Dockerfile')).toMatch(new RegExp(`^ARG NODE_IMAGE=node:${nvmrc}-bookworm-slim$`, 'm'));
    const ci = read('.ci/run');
    expect(ci).toContain('node scripts/node-version.mjs');
    expect(ci).toContain(`"$node_pkg@${nvmrc}"`);
    // The version check and the install come before anything runs npm.
    expect(ci.indexOf('node scripts/node-version.mjs')).toBeLessThan(ci.indexOf('npm install --package-lock-only'));
  });

  it('scripts/node-version.mjs reads engines.node and agrees with semver on it and on other ranges', () => {
    expect(enginesNode()).toBe(engines);
    const versions: string[] = [];
    for (const major of [18, 20, 21, 22, 23, 24, 25, 26]) {
      for (const minor of [0, 1, 11, 12, 13, 14, 19, 20])
        for (const patch of [0, 3]) versions.push(`${major}.${minor}.${patch}`);
    }
    const ranges = [
      engines,
      '>=22.12',
      '^20.19.0 || ^22.13.0 || >=24.11.0',
      '>= 22.12.0',
      '>=18 <23',
      '^22',
      '22.13.0',
      '>22.12.0 <=24.11.0',
    ];
    for (const range of ranges) {
      for (const v of versions) expect(satisfies(v, range), `${v} in ${range}`).toBe(semver.satisfies(v, range));
    }
    expect(satisfies('v22.23.3', engines)).toBe(true);
    expect(satisfies('20.20.2', engines)).toBe(false);
  });
});
