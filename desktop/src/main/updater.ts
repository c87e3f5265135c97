// The self-updater (issue #30): electron-updater against a generic feed (latest.yml + installers on any HTTPS
// host) whose URL is set at build time (SPADES_UPDATE_URL), so a community can publish its own builds. Downloads
// in the background; "update ready — restart" in the app; a setting turns it off. electron-updater is injected
// (loaded lazily by index.ts: it needs the real Electron), so the states are unit-tested with a fake feed.
import type { UpdateState } from '../shared/bridge';
import type { Logger } from './logger';

/** The structural subset of electron-updater's AppUpdater. */
export interface AutoUpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  setFeedURL(options: { provider: 'generic'; url: string }): void;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(): void;
  on(event: string, listener: (...args: never[]) => void): unknown;
}

export interface UpdaterDeps {
  /** The feed URL baked in at build time ('' = this build does not update itself). */
  feedUrl: string;
  /** Only the installed app updates (not `electron-vite dev`). */
  packaged: boolean;
  loadAutoUpdater(): Promise<AutoUpdaterLike>;
  /** The stored "check for updates" setting (default on). */
  enabled(): boolean;
  saveEnabled(enabled: boolean): void;
  onChange(state: UpdateState): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
  log: Logger;
}

export interface Updater {
  state(): UpdateState;
  /** Start checking (at start-up and every CHECK_INTERVAL_MS) unless unsupported or turned off. */
  start(): Promise<void>;
  setEnabled(enabled: boolean): Promise<UpdateState>;
  /** Quit and install a downloaded update. False when none is ready. */
  restart(): boolean;
}

export const CHECK_INTERVAL_MS = 4 * 60 * 60 * 1000;

export function isFeedUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password && !u.search && !u.hash;
  } catch {
    return false;
  }
}

export function createUpdater(deps: UpdaterDeps): Updater {
  const supported = deps.packaged && isFeedUrl(deps.feedUrl);
  let state: UpdateState = supported
    ? { status: deps.enabled() ? 'idle' : 'disabled', enabled: deps.enabled() }
    : {
        status: 'unsupported',
        enabled: deps.enabled(),
        message: deps.packaged ? 'This build has no update feed.' : 'Updates apply to the installed app only.',
      };
  let updater: AutoUpdaterLike | undefined;
  let timer: unknown;
  const set = (next: UpdateState): void => {
    state = next;
    deps.onChange(state);
  };
  const check = (): void => {
    if (!updater || !state.enabled || state.status === 'ready') return;
    updater.checkForUpdates().catch((e: unknown) => {
      // also reported through the 'error' event; a rejected promise must not become an unhandled rejection
      deps.log.warn(`update check failed: ${(e as Error)?.message ?? String(e)}`);
    });
  };
  const stopTimer = (): void => {
    if (timer !== undefined) deps.clearInterval(timer);
    timer = undefined;
  };

  async function ensureUpdater(): Promise<AutoUpdaterLike> {
    if (updater) return updater;
    const u = await deps.loadAutoUpdater();
    u.autoDownload = true;
    u.autoInstallOnAppQuit = true;
    u.setFeedURL({ provider: 'generic', url: deps.feedUrl });
    u.on('checking-for-update', () => {
      if (state.status !== 'downloading') set({ status: 'checking', enabled: state.enabled });
    });
    u.on('update-not-available', () => set({ status: 'idle', enabled: state.enabled }));
    u.on('update-available', (info: { version?: string }) =>
      set({ status: 'available', enabled: state.enabled, version: info?.version }),
    );
    u.on('download-progress', (p: { percent?: number }) =>
      set({
        status: 'downloading',
        enabled: state.enabled,
        version: state.version,
        percent: Math.max(0, Math.min(100, Math.round(p?.percent ?? 0))),
      }),
    );
    u.on('update-downloaded', (info: { version?: string }) => {
      stopTimer();
      set({ status: 'ready', enabled: state.enabled, version: info?.version ?? state.version });
    });
    u.on('error', (e: Error) => {
      if (state.status === 'ready') return;
      deps.log.warn(`updater: ${e?.message ?? String(e)}`);
      set({
        status: 'error',
        enabled: state.enabled,
        message: 'Could not check for updates. The app will try again later.',
      });
    });
    updater = u;
    return u;
  }

  async function start(): Promise<void> {
    if (!supported || !state.enabled || timer !== undefined) return;
    try {
      await ensureUpdater();
    } catch (e) {
      set({ status: 'unsupported', enabled: state.enabled, message: 'The updater could not start.' });
      deps.log.error(`updater: ${(e as Error).message}`);
      return;
    }
    timer = deps.setInterval(check, CHECK_INTERVAL_MS);
    check();
  }

  return {
    state: () => state,
    start,
    async setEnabled(enabled) {
      deps.saveEnabled(enabled);
      if (!supported) {
        set({ ...state, enabled });
        return state;
      }
      if (!enabled) {
        stopTimer();
        // a downloaded update stays offered (restart installs it) but no longer installs by itself on quit
        set(state.status === 'ready' ? { ...state, enabled } : { status: 'disabled', enabled });
        if (updater) updater.autoInstallOnAppQuit = false;
        return state;
      }
      if (state.status === 'disabled') set({ status: 'idle', enabled });
      else set({ ...state, enabled });
      if (updater) updater.autoInstallOnAppQuit = true;
      await start();
      return state;
    },
    restart() {
      if (state.status !== 'ready' || !updater) return false;
      updater.quitAndInstall();
      return true;
    },
  };
}
