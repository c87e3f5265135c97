// Loads build/electron-builder.yml the way electron-builder does, validates it against electron-builder's own schema,
// and checks app id, product name, targets, protocol registration, files and icons.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { DebugLogger } from 'builder-util';
import type { Configuration } from 'app-builder-lib';

const root = resolve(__dirname, '..');
const desktopDir = join(root, 'desktop');
const configPath = join(__dirname, 'electron-builder.yml');

async function load(): Promise<Configuration> {
  return getConfig(desktopDir, configPath, null);
}

type TargetList = Configuration['linux'] extends infer L ? (L extends { target?: infer T } ? T : never) : never;
function targetNames(t: TargetList | undefined | null): string[] {
  const list = t == null ? [] : Array.isArray(t) ? t : [t];
  return list.map((x) => (typeof x === 'string' ? x : x.target));
}

describe('electron-builder configuration', () => {
  it('passes electron-builder schema validation', async () => {
    const config = await load();
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
  });

  it('the validation really rejects a broken config', async () => {
    const config = { ...(await load()), linux: { target: 'AppImage', bogusOption: true } } as unknown as Configuration;
    await expect(validateConfiguration(config, new DebugLogger(false))).rejects.toThrow(
      /Invalid configuration object[\s\S]*configuration\.linux/,
    );
  });

  it('writes a generic update feed (latest*.yml) next to the installers (issue #30)', async () => {
    const c = await load();
    const publish = (Array.isArray(c.publish) ? c.publish : [c.publish]) as { provider: string; url?: string }[];
    expect(publish).toEqual([{ provider: 'generic', url: expect.stringMatching(/^https:\/\//) }]);
    // the app itself checks the folder baked in at build time (SPADES_UPDATE_URL → __SPADES_UPDATE_URL__)
    const vite = readFileSync(join(desktopDir, 'electron.vite.config.ts'), 'utf8');
    expect(vite).toMatch(/__SPADES_UPDATE_URL__: updateUrl/);
    expect(vite).toMatch(/process\.env\.SPADES_UPDATE_URL/);
  });

  it('names the app', async () => {
    const c = await load();
    expect(c.appId).toBe('com.spades.desktop');
    expect(c.productName).toBe('Spades');
  });

  it('builds AppImage + deb, NSIS and dmg (+ zip for macOS updates)', async () => {
    const c = await load();
    expect(targetNames(c.linux?.target).sort()).toEqual(['AppImage', 'deb']);
    expect(targetNames(c.win?.target as TargetList)).toEqual(['nsis']);
    expect(targetNames(c.mac?.target as TargetList)).toEqual(['dmg', 'zip']);
  });

  it('registers spades:// for every platform (Windows through the NSIS include)', async () => {
    const c = await load();
    const schemesOf = (p: Configuration['protocols']) =>
      (p == null ? [] : Array.isArray(p) ? p : [p]).flatMap((x) => x.schemes);
    for (const platform of [c.mac, c.win, c.linux]) {
      expect([...schemesOf(c.protocols), ...schemesOf(platform?.protocols)]).toContain('spades');
    }
    expect(c.protocols).toEqual([{ name: 'Spades', schemes: ['spades'] }]);
    const include = c.nsis?.include;
    expect(include).toBeTruthy();
    const nsh = readFileSync(resolve(desktopDir, include!), 'utf8');
    expect(nsh).toMatch(
      /!macro customInstall[\s\S]*WriteRegStr SHELL_CONTEXT "Software\\Classes\\spades" "URL Protocol" ""/,
    );
    expect(nsh).toMatch(/shell\\open\\command" "" '"\$appExe" "%1"'/);
    expect(nsh).toMatch(/!macro customUnInstall[\s\S]*DeleteRegKey SHELL_CONTEXT "Software\\Classes\\spades"/);
  });

  it('ships only the electron-vite output (main, preload, renderer) and package.json', async () => {
    const c = await load();
    // getConfig normalises the list into one file set.
    const files = (c.files as unknown as { filter: string[] }[]).flatMap((f) => f.filter);
    expect(files).toEqual([
      'out/main/**',
      'out/preload/**',
      'out/renderer/**',
      'package.json',
      '!**/*.map',
      '!node_modules/**',
    ]);
    expect(c.extraMetadata?.main).toBe('out/main/index.js');
    // The main entry electron-vite writes (see desktop/electron.vite.config.ts) is what the package points at.
    const viteConfig = readFileSync(join(desktopDir, 'electron.vite.config.ts'), 'utf8');
    expect(viteConfig).toContain('src/main/index.ts');
  });

  it('pins the installed Electron version', async () => {
    const c = await load();
    const installed = JSON.parse(readFileSync(join(root, 'node_modules/electron/package.json'), 'utf8')) as {
      version: string;
    };
    expect(c.electronVersion).toBe(installed.version);
  });

  it('points at icon files that exist and are what their extension says', async () => {
    const c = await load();
    const ico = resolve(desktopDir, c.win!.icon as string);
    const icns = resolve(desktopDir, c.mac!.icon as string);
    const pngDir = resolve(desktopDir, c.linux!.icon as string);
    expect(readFileSync(ico).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));
    expect(readFileSync(icns).subarray(0, 4).toString('latin1')).toBe('icns');
    for (const n of [16, 24, 32, 48, 64, 128, 256, 512, 1024]) {
      const png = readFileSync(join(pngDir, `${n}x${n}.png`));
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      // IHDR width/height
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([n, n]);
    }
    expect(existsSync(join(__dirname, 'icons/icon.svg'))).toBe(true);
    expect(c.extraResources).toEqual([{ from: '../build/icons/png/512x512.png', to: 'icon.png' }]);
  });
});
