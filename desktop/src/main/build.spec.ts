// `electron-vite build` produces the main, preload and renderer bundles, and electron-builder packs exactly those
// (linux `dir` target with a stand-in Electron distribution, since the real binary cannot be downloaded here).
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const desktopDir = resolve(__dirname, '../..');
const out = join(desktopDir, 'out');

describe('electron-vite build', () => {
  it('emits main, preload and renderer bundles', () => {
    const cli = resolve(desktopDir, '../node_modules/electron-vite/bin/electron-vite.js');
    const r = spawnSync(process.execPath, [cli, 'build', '--logLevel', 'error'], {
      cwd: desktopDir,
      encoding: 'utf8',
      timeout: 180_000,
      env: { ...process.env, SPADES_DEFAULT_API_URL: '' },
    });
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/error/i);
    expect(r.status).toBe(0);

    const main = readFileSync(join(out, 'main/index.js'), 'utf8');
    // CommonJS with electron external (required at runtime, never bundled) and our handlers in it.
    expect(main).toMatch(/require\("electron"\)/);
    expect(main).toContain('spades:open-external');
    expect(main).toContain('requestSingleInstanceLock');

    const preload = readFileSync(join(out, 'preload/index.js'), 'utf8');
    // A sandboxed preload can only require('electron'): everything else must be bundled in.
    const requires = [...preload.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]);
    expect(new Set(requires)).toEqual(new Set(['electron']));
    expect(preload).toContain('exposeInMainWorld');

    const html = readFileSync(join(out, 'renderer/index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      // Absolute URLs: served from app://spades/ with SPA fallback (see app-protocol.ts).
      expect(src.startsWith('/')).toBe(true);
      expect(existsSync(join(out, 'renderer', src))).toBe(true);
    }
    expect(readdirSync(join(out, 'renderer/assets')).some((f) => f.endsWith('.js'))).toBe(true);
  }, 180_000);

  it('electron-builder packs those bundles (and nothing else) into app.asar', () => {
    const work = mkdtempSync(join(tmpdir(), 'spades-pack-'));
    try {
      // A stand-in for the Electron distribution electron-builder would download.
      const fakeElectron = join(work, 'electron-dist');
      mkdirSync(join(fakeElectron, 'resources'), { recursive: true });
      writeFileSync(join(fakeElectron, 'electron'), '#!/bin/sh\n');
      chmodSync(join(fakeElectron, 'electron'), 0o755);
      const output = join(work, 'release');
      const cli = resolve(desktopDir, '../node_modules/electron-builder/cli.js');
      const r = spawnSync(
        process.execPath,
        [
          cli,
          '--linux',
          'dir',
          '--config',
          '../build/electron-builder.yml',
          `-c.electronDist=${fakeElectron}`,
          `-c.directories.output=${output}`,
        ],
        { cwd: desktopDir, encoding: 'utf8', timeout: 180_000 },
      );
      expect(r.status, `${r.stdout}${r.stderr}`).toBe(0);
      const resources = join(output, 'linux-unpacked/resources');
      expect(existsSync(join(output, 'linux-unpacked/spades'))).toBe(true); // executableName
      expect(existsSync(join(resources, 'icon.png'))).toBe(true);
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const asar = require('@electron/asar') as typeof import('@electron/asar');
      const archive = join(resources, 'app.asar');
      const entries = asar.listPackage(archive, { isPack: false }).map((e) => e.replace(/\\/g, '/'));
      expect(entries).toContain('/out/main/index.js');
      expect(entries).toContain('/out/preload/index.js');
      expect(entries).toContain('/out/renderer/index.html');
      expect(entries.filter((e) => e.includes('node_modules') || e.startsWith('/src'))).toEqual([]);
      const pkg = JSON.parse(asar.extractFile(archive, 'package.json').toString()) as {
        main: string;
        desktopName: string;
      };
      expect(pkg.main).toBe('out/main/index.js');
      expect(pkg.desktopName).toBe('spades.desktop');
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 180_000);
});
