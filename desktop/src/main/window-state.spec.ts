import { describe, expect, it } from 'vitest';
import { createJsonStore, type StoreFs } from './json-store';
import { memoryLogger } from './logger';
import {
  DEFAULT_SIZE,
  initialBounds,
  parseWindowState,
  trackWindowState,
  type Rect,
  type WindowState,
} from './window-state';

/** In-memory fs with the subset the store uses. */
export function memFs(
  files: Record<string, string> = {},
): StoreFs & { files: Record<string, string>; failWrites?: boolean } {
  const fs = {
    files,
    failWrites: false,
    readFileSync(path: string) {
      if (!(path in files)) throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
      return files[path];
    },
    writeFileSync(path: string, data: string) {
      if (fs.failWrites) throw new Error('EACCES');
      files[path] = data;
    },
    renameSync(from: string, to: string) {
      files[to] = files[from];
      delete files[from];
    },
    mkdirSync: () => undefined,
  };
  return fs;
}

const FILE = '/home/u/.config/Spades/window-state.json';
const screen: Rect[] = [{ x: 0, y: 0, width: 1920, height: 1040 }];

describe('json store', () => {
  it('round-trips through the injected fs atomically (no temp file left)', () => {
    const fs = memFs();
    const store = createJsonStore(fs, FILE, parseWindowState, memoryLogger());
    expect(store.read()).toBeUndefined();
    const state: WindowState = { bounds: { x: 10, y: 20, width: 1000, height: 700 }, maximized: true };
    expect(store.write(state)).toBe(true);
    expect(Object.keys(fs.files)).toEqual([FILE]);
    expect(store.read()).toEqual(state);
  });
  it('ignores corrupt or invalid files with a warning', () => {
    const log = memoryLogger();
    expect(createJsonStore(memFs({ [FILE]: '{not json' }), FILE, parseWindowState, log).read()).toBeUndefined();
    expect(
      createJsonStore(memFs({ [FILE]: '{"bounds":{"x":"a"}}' }), FILE, parseWindowState, log).read(),
    ).toBeUndefined();
    expect(log.lines).toHaveLength(2);
  });
  it('reports write failures instead of throwing', () => {
    const fs = memFs();
    fs.failWrites = true;
    const log = memoryLogger();
    expect(
      createJsonStore(fs, FILE, parseWindowState, log).write({
        bounds: { x: 0, y: 0, width: 900, height: 600 },
        maximized: false,
      }),
    ).toBe(false);
    expect(log.lines[0]).toMatch(/^error could not write/);
  });
});

describe('parseWindowState', () => {
  it('rejects too small, non-integer or absurd values', () => {
    expect(parseWindowState({ bounds: { x: 0, y: 0, width: 100, height: 100 } })).toBeUndefined();
    expect(parseWindowState({ bounds: { x: 0.5, y: 0, width: 1000, height: 700 } })).toBeUndefined();
    expect(parseWindowState({ bounds: { x: 1e9, y: 0, width: 1000, height: 700 } })).toBeUndefined();
    expect(parseWindowState({ bounds: { x: -5, y: 0, width: 1000, height: 700 } })).toEqual({
      bounds: { x: -5, y: 0, width: 1000, height: 700 },
      maximized: false,
    });
  });
});

describe('initialBounds', () => {
  it('uses the default size the first time', () => {
    expect(initialBounds(undefined, screen)).toEqual({ ...DEFAULT_SIZE, maximized: false });
  });
  it('restores stored bounds that are on a display', () => {
    const s: WindowState = { bounds: { x: 100, y: 80, width: 1200, height: 800 }, maximized: true };
    expect(initialBounds(s, screen)).toEqual({ x: 100, y: 80, width: 1200, height: 800, maximized: true });
  });
  it('drops the position when the display it was on is gone', () => {
    const s: WindowState = { bounds: { x: 2500, y: 100, width: 1200, height: 800 }, maximized: false };
    expect(initialBounds(s, screen)).toEqual({ ...DEFAULT_SIZE, maximized: false });
    const second: Rect[] = [...screen, { x: 1920, y: 0, width: 2560, height: 1400 }];
    expect(initialBounds(s, second)).toMatchObject({ x: 2500, y: 100 });
  });
  it('drops a position whose title bar would be off screen', () => {
    const s: WindowState = { bounds: { x: 100, y: 1030, width: 1200, height: 800 }, maximized: false };
    expect(initialBounds(s, screen)).toEqual({ ...DEFAULT_SIZE, maximized: false });
  });
});

describe('trackWindowState', () => {
  function fakeWindow() {
    const listeners = new Map<string, (() => void)[]>();
    const w = {
      bounds: { x: 0, y: 0, width: 1280, height: 800 },
      maximized: false,
      fullScreen: false,
      minimized: false,
      on(event: 'resize' | 'move' | 'close', l: () => void) {
        listeners.set(event, [...(listeners.get(event) ?? []), l]);
      },
      emit: (event: string) => (listeners.get(event) ?? []).forEach((l) => l()),
      getNormalBounds: () => ({ ...w.bounds }),
      isMaximized: () => w.maximized,
      isFullScreen: () => w.fullScreen,
      isMinimized: () => w.minimized,
    };
    return w;
  }
  function fakeTimers() {
    let next = 1;
    const pending = new Map<number, () => void>();
    return {
      setTimeout: (fn: () => void) => {
        pending.set(next, fn);
        return next++;
      },
      clearTimeout: (h: unknown) => void pending.delete(h as number),
      flush: () => {
        const fns = [...pending.values()];
        pending.clear();
        fns.forEach((f) => f());
      },
      pending,
    };
  }

  it('debounces saves on move/resize and saves on close', () => {
    const fs = memFs();
    const store = createJsonStore(fs, FILE, parseWindowState, memoryLogger());
    const w = fakeWindow();
    const timers = fakeTimers();
    trackWindowState(w, store, timers);
    w.bounds = { x: 50, y: 60, width: 1100, height: 700 };
    w.emit('move');
    w.emit('resize');
    w.emit('resize');
    expect(timers.pending.size).toBe(1);
    expect(store.read()).toBeUndefined();
    timers.flush();
    expect(store.read()).toEqual({ bounds: { x: 50, y: 60, width: 1100, height: 700 }, maximized: false });
    w.maximized = true;
    w.emit('close');
    expect(store.read()?.maximized).toBe(true);
  });

  it('keeps the maximised flag while in full screen', () => {
    const fs = memFs();
    const store = createJsonStore(fs, FILE, parseWindowState, memoryLogger());
    const w = fakeWindow();
    trackWindowState(w, store, fakeTimers(), { initiallyMaximized: true });
    w.fullScreen = true;
    w.maximized = false; // Electron reports false in full screen
    w.emit('close');
    expect(store.read()?.maximized).toBe(true);
  });
});
