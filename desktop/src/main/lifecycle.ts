// Single-instance lock, spades:// registration as default protocol client, and the routing of every
// deep-link source to one handler. Electron's `app` is injected (structural subset) so this is unit-testable.
import { resolve } from 'node:path';
import { DEEP_LINK_SCHEME } from '../shared/bridge';
import { findDeepLinkArg } from './deep-link';
import type { Logger } from './logger';

export interface LifecycleApp {
  requestSingleInstanceLock(): boolean;
  quit(): void;
  setAsDefaultProtocolClient(protocol: string, path?: string, args?: string[]): boolean;
  on(event: 'second-instance', listener: (event: unknown, argv: string[], workingDirectory: string) => void): unknown;
  on(event: 'open-url', listener: (event: { preventDefault(): void }, url: string) => void): unknown;
}

export interface ProcessInfo {
  argv: readonly string[];
  execPath: string;
  /** true when started as `electron path/to/app` (development), where argv[1] is the app path. */
  defaultApp: boolean;
}

/**
 * Register spades:// with the OS. In development (`electron .`) the OS must start Electron with the app path,
 * otherwise a bare Electron would open. Packaged apps are also registered by the installers (electron-builder
 * `protocols`), this covers portable runs (AppImage) and development.
 */
export function registerProtocolClient(app: LifecycleApp, proc: ProcessInfo, log: Logger): boolean {
  let ok: boolean;
  if (proc.defaultApp) {
    const appPath = proc.argv[1];
    ok = appPath ? app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME, proc.execPath, [resolve(appPath)]) : false;
  } else {
    ok = app.setAsDefaultProtocolClient(DEEP_LINK_SCHEME);
  }
  if (!ok) log.warn(`could not register ${DEEP_LINK_SCHEME}:// as default protocol client`);
  return ok;
}

/**
 * Take the single-instance lock. Returns false (and quits) when another instance holds it: that instance receives
 * our argv through `second-instance` and handles the link.
 */
export function acquireSingleInstance(app: LifecycleApp, log: Logger): boolean {
  if (app.requestSingleInstanceLock()) return true;
  log.info('another instance is running; handing over and quitting');
  app.quit();
  return false;
}

export interface DeepLinkSourcesDeps {
  app: LifecycleApp;
  /** argv this process was launched with (a link here launched the app on Windows/Linux). */
  launchArgv: readonly string[];
  /** false when the link was ignored (malformed or foreign). */
  handleDeepLink(url: string): boolean | void;
  /** A second launch without a link still brings the window to front. */
  focusWindow(): void;
}

/**
 * Route all three sources to `handleDeepLink`. macOS `open-url` can fire before `ready` (the link that launched
 * the app), so call this before `app.whenReady()`; the handler queues until the renderer is ready.
 */
export function wireDeepLinkSources(deps: DeepLinkSourcesDeps): void {
  deps.app.on('second-instance', (_event, argv) => {
    // A second launch always brings the window forward: with a valid link the router does it, otherwise we do.
    const link = findDeepLinkArg(Array.isArray(argv) ? argv : []);
    if (!link || deps.handleDeepLink(link) === false) deps.focusWindow();
  });
  deps.app.on('open-url', (event, url) => {
    event.preventDefault();
    deps.handleDeepLink(url);
  });
  const launchLink = findDeepLinkArg(deps.launchArgv);
  if (launchLink) deps.handleDeepLink(launchLink);
}
