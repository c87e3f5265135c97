// Remember the main window's size and position (and maximised state) between runs.
import { isRecord, type JsonStore } from './json-store';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  bounds: Rect;
  maximized: boolean;
}

export const DEFAULT_SIZE = { width: 1280, height: 800 };
export const MIN_SIZE = { width: 800, height: 560 };

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 100_000;

export function parseWindowState(raw: unknown): WindowState | undefined {
  if (!isRecord(raw) || !isRecord(raw.bounds)) return undefined;
  const { x, y, width, height } = raw.bounds;
  if (!isInt(x) || !isInt(y) || !isInt(width) || !isInt(height)) return undefined;
  if (width < MIN_SIZE.width || height < MIN_SIZE.height) return undefined;
  return { bounds: { x, y, width, height }, maximized: raw.maximized === true };
}

/**
 * The bounds to open with: the stored ones if they still overlap a display's work area enough to be grabbed
 * (monitor unplugged, resolution changed…), otherwise the default size centred by Electron (no x/y).
 */
export function initialBounds(
  stored: WindowState | undefined,
  workAreas: readonly Rect[],
): { width: number; height: number; x?: number; y?: number; maximized: boolean } {
  if (!stored) return { ...DEFAULT_SIZE, maximized: false };
  const b = stored.bounds;
  const visible = workAreas.some((a) => {
    const w = Math.min(b.x + b.width, a.x + a.width) - Math.max(b.x, a.x);
    const h = Math.min(b.y + b.height, a.y + a.height) - Math.max(b.y, a.y);
    // At least 100×50 px of the window (its title bar region included) must be on this display.
    return w >= 100 && h >= 50 && b.y >= a.y - 10 && b.y < a.y + a.height - 50;
  });
  if (!visible) return { ...DEFAULT_SIZE, maximized: stored.maximized };
  return { ...b, maximized: stored.maximized };
}

export interface TrackableWindow {
  on(event: 'resize' | 'move' | 'close', listener: () => void): unknown;
  getNormalBounds(): Rect;
  isMaximized(): boolean;
  isFullScreen(): boolean;
  isMinimized(): boolean;
}

export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Save on resize/move (debounced) and immediately on close. */
export function trackWindowState(
  win: TrackableWindow,
  store: JsonStore<WindowState>,
  timers: Timers,
  options: { delayMs?: number; initiallyMaximized?: boolean } = {},
): void {
  const delayMs = options.delayMs ?? 500;
  let handle: unknown;
  let lastMaximized = options.initiallyMaximized ?? false;
  const save = (): void => {
    // In full screen or minimised, keep the last known maximised flag; the normal bounds are always right.
    if (!win.isFullScreen() && !win.isMinimized()) lastMaximized = win.isMaximized();
    store.write({ bounds: win.getNormalBounds(), maximized: lastMaximized });
  };
  const schedule = (): void => {
    if (handle !== undefined) timers.clearTimeout(handle);
    handle = timers.setTimeout(() => {
      handle = undefined;
      save();
    }, delayMs);
  };
  win.on('resize', schedule);
  win.on('move', schedule);
  win.on('close', () => {
    if (handle !== undefined) timers.clearTimeout(handle);
    handle = undefined;
    save();
  });
}
