// Type-checks main + preload + shared against Electron's own type definitions (electron/electron.d.ts).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const desktopDir = resolve(__dirname, '../..');
const tsc = resolve(desktopDir, '../node_modules/typescript/bin/tsc');
const electronTypes = resolve(desktopDir, '../node_modules/electron/electron.d.ts');

function runTsc(project: string) {
  const r = spawnSync(process.execPath, [tsc, '--noEmit', '-p', project], {
    cwd: desktopDir,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

describe('type-check against Electron type definitions', () => {
  it('main, preload and shared compile with tsc --noEmit (strict)', () => {
    const r = runTsc(join(__dirname, 'tsconfig.json'));
    expect(r.output).toBe('');
    expect(r.status).toBe(0);
  }, 120_000);

  it('the same check rejects a misuse of the Electron API (so it really checks against Electron)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spades-tsc-'));
    try {
      writeFileSync(
        join(dir, 'bad.ts'),
        "import { BrowserWindow } from 'electron';\nnew BrowserWindow({ webPreferences: { sandbox: 'yes' } });\n",
      );
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          extends: join(__dirname, 'tsconfig.json'),
          compilerOptions: {
            paths: { electron: [electronTypes] },
            typeRoots: [resolve(desktopDir, '../node_modules/@types')],
          },
          include: [],
          files: [join(dir, 'bad.ts')],
        }),
      );
      const r = runTsc(join(dir, 'tsconfig.json'));
      expect(r.status).not.toBe(0);
      expect(r.output).toMatch(/bad\.ts\(2,\d+\): error TS2322: Type 'string' is not assignable to type 'boolean/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
