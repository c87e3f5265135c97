// Electron main process: the composition root. Everything with logic lives in small modules with injected
// Electron dependencies (unit-tested); this file only wires the real Electron objects into them.
import {
  app,
  BrowserWindow,
  ipcMain,
  Menu,
  net,
  Notification,
  protocol,
  safeStorage,
  screen,
  session,
  shell,
} from 'electron';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { DESKTOP_APP_ORIGIN, IPC, type AppInfo } from '../shared/bridge';
import { APP_SCHEME, serveAppRequest } from './app-protocol';
import { createAttention } from './attention';
import { createDeepLinkRouter } from './deep-link';
import { registerIpcHandlers } from './ipc';
import { createJsonStore } from './json-store';
import { createLoginRounds } from './login-rounds';
import { acquireSingleInstance, registerProtocolClient, wireDeepLinkSources } from './lifecycle';
import { consoleLogger as log } from './logger';
import { buildMenuTemplate } from './menu';
import { applyNavigationPolicy, originOf } from './navigation';
import { createNotifier } from './notifications';
import { isPermissionAllowed } from './permissions';
import { createServerLinkGate } from './server-links';
import { createServerRegistry, parseServersFile, type FetchJson } from './servers';
import { registerServerIpc } from './servers-ipc';
import { parseSettings, startupServer } from './settings';
import { createUpdater, type AutoUpdaterLike } from './updater';
import { mainWindowOptions } from './window';
import { initialBounds, parseWindowState, trackWindowState } from './window-state';

const PRODUCT_NAME = 'Spades';
const APP_ID = 'com.spades.desktop';
// Set by electron-vite in development (`electron-vite dev`); absent in the packaged app.
const devServerUrl = app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL;
const appOrigin = (devServerUrl && originOf(devServerUrl)) || DESKTOP_APP_ORIGIN;
const rendererDir = join(__dirname, '../renderer');
// Build-time default server (SPADES_DEFAULT_API_URL, see electron.vite.config.ts).
declare const __SPADES_DEFAULT_API_URL__: string | undefined;
const buildDefaultApiBase = typeof __SPADES_DEFAULT_API_URL__ === 'string' ? __SPADES_DEFAULT_API_URL__ : undefined;
// Build-time update feed (SPADES_UPDATE_URL, see electron.vite.config.ts and build/README.md); '' = no updates.
declare const __SPADES_UPDATE_URL__: string | undefined;
const updateFeedUrl = typeof __SPADES_UPDATE_URL__ === 'string' ? __SPADES_UPDATE_URL__ : '';
/** A server-info answer that takes longer than this counts as unreachable. */
const PROBE_TIMEOUT_MS = 8_000;

// Must happen before `ready`: app:// behaves like https (standard, secure origin, fetch, CORS).
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true } },
]);

if (acquireSingleInstance(app, log)) start();

function start(): void {
  if (process.platform === 'win32') app.setAppUserModelId(APP_ID); // notifications on Windows need it
  registerProtocolClient(
    app,
    { argv: process.argv, execPath: process.execPath, defaultApp: Boolean(process.defaultApp) },
    log,
  );

  const userData = app.getPath('userData');
  const settingsStore = createJsonStore(fs, join(userData, 'settings.json'), parseSettings, log);
  const windowStore = createJsonStore(fs, join(userData, 'window-state.json'), parseWindowState, log);
  const fetchJson: FetchJson = async (url) => {
    const res = await net.fetch(url, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text) as unknown;
    } catch {
      /* not JSON: not a Spades server */
    }
    return { status: res.status, json };
  };
  const registry = createServerRegistry({
    store: createJsonStore(fs, join(userData, 'servers.json'), parseServersFile, log),
    safeStorage,
    fetchJson,
    newId: () => randomUUID(),
    now: () => new Date(),
    log,
  });
  const startup = startupServer({
    packaged: app.isPackaged,
    env: process.env,
    argv: process.argv,
    store: settingsStore,
    defaultApiBase: buildDefaultApiBase,
    log,
  });
  if (startup && (startup.select || registry.list().length === 0)) {
    const seeded = registry.seed(startup.address);
    if (seeded && (startup.select || !registry.current())) registry.switchTo(seeded.id);
  }
  /** The current server's address ('' before the first one is chosen): read per request and per page load. */
  const apiBase = (): string => registry.current()?.address ?? '';
  log.info(`server ${apiBase() || '(none yet: the chooser)'}`);
  const current = registry.current();
  if (current) void registry.refresh(current.id).catch(() => undefined);

  let win: BrowserWindow | undefined;
  /** Bring the window to front; re-create it if it was closed (macOS keeps the app running without windows). */
  const focusWindow = (): void => {
    if (!win || win.isDestroyed()) {
      if (app.isReady()) win = createMainWindow();
      return;
    }
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  };
  const pageOrigin = (devServerUrl ?? DESKTOP_APP_ORIGIN).replace(/\/+$/, '');
  /** Make a server current and load `path` on it: the page (and its preload) start again on that server. */
  const openOn = (serverId: string, path: string): boolean => {
    if (!registry.switchTo(serverId)) return false;
    if (win && !win.isDestroyed()) void win.loadURL(`${pageOrigin}${path.startsWith('/') ? path : '/'}`);
    return true;
  };
  const gate = createServerLinkGate({
    registry,
    newId: () => randomUUID(),
    openOn: (id, path) => void openOn(id, path),
    log,
  });
  // Sign-ins in the system browser come back without naming their server: remember where each one started.
  const logins = createLoginRounds({ currentAddress: () => registry.current()?.address ?? null, now: Date.now, log });
  const router = createDeepLinkRouter({
    deliver: (link) => {
      if (win && !win.isDestroyed()) win.webContents.send(IPC.deepLink, link);
    },
    focusWindow,
    gate,
    logins,
    log,
  });
  // Before `ready`: macOS delivers the launching link through `open-url` early.
  wireDeepLinkSources({ app, launchArgv: process.argv, handleDeepLink: router.handleDeepLink, focusWindow });

  const toggleFullScreen = (): boolean => {
    if (!win || win.isDestroyed()) return false;
    // setFullScreen animates on macOS: answer with the requested state, not a racy re-read.
    const next = !win.isFullScreen();
    win.setFullScreen(next);
    return next;
  };
  const attention = createAttention({
    isWindowFocused: () => Boolean(win && !win.isDestroyed() && win.isVisible() && win.isFocused()),
    flashFrame: (on) => {
      if (win && !win.isDestroyed()) win.flashFrame(on);
    },
    setBadgeCount: (n) => void app.setBadgeCount(n),
  });
  const notifyNative = createNotifier({
    isSupported: () => Notification.isSupported(),
    isWindowFocused: () => Boolean(win && !win.isDestroyed() && win.isVisible() && win.isFocused()),
    createNotification: (o) => new Notification(o),
    focusWindow,
    openLink: router.dispatch,
  });
  // "your turn" (and a ready tournament match: a seat deadline runs) while the window is not focused also flashes
  // the taskbar and counts the waiting tables.
  const notify: typeof notifyNative = (n) => {
    if ((n.kind === 'your-turn' || n.kind === 'tournament-match') && n.gameId) attention.yourTurn(n.gameId);
    return notifyNative(n);
  };
  const updater = createUpdater({
    feedUrl: updateFeedUrl,
    packaged: app.isPackaged,
    // electron-updater reads Electron's `app` when loaded: only in the running app, only when there is a feed.
    loadAutoUpdater: async () => (await import('electron-updater')).autoUpdater as unknown as AutoUpdaterLike,
    enabled: () => settingsStore.read()?.autoUpdate !== false,
    saveEnabled: (enabled) => void settingsStore.write({ ...(settingsStore.read() ?? {}), autoUpdate: enabled }),
    onChange: (state) => {
      if (win && !win.isDestroyed()) win.webContents.send(IPC.updateChanged, state);
    },
    setInterval: (fn, ms) => setInterval(fn, ms),
    clearInterval: (h) => clearInterval(h as NodeJS.Timeout),
    log,
  });
  const appInfo = (): AppInfo => ({
    name: PRODUCT_NAME,
    version: app.getVersion(),
    platform: process.platform,
    electron: process.versions.electron,
    chrome: process.versions.chrome,
    apiBase: apiBase(),
    packaged: app.isPackaged,
  });
  registerIpcHandlers({
    ipcMain,
    appOrigin,
    mainContentsId: () => (win && !win.isDestroyed() ? win.webContents.id : undefined),
    log,
    actions: {
      notify,
      toggleFullScreen,
      isFullScreen: () => Boolean(win && !win.isDestroyed() && win.isFullScreen()),
      openExternal: (url) => {
        logins.opened(url);
        return shell.openExternal(url);
      },
      appInfo,
      deepLinkReady: () => router.rendererReady(),
    },
  });
  registerServerIpc({
    ipcMain,
    appOrigin,
    mainContentsId: () => (win && !win.isDestroyed() ? win.webContents.id : undefined),
    log,
    actions: {
      bootState: () => registry.bootState(),
      list: () => registry.list(),
      probe: (address) => registry.probe(address),
      add: (address) => registry.add(address),
      switchTo: (id) => openOn(id, '/'),
      forget: (id) => {
        const wasCurrent = registry.current()?.id === id;
        const ok = registry.forget(id);
        // the page was on that server: start again on the chooser
        if (ok && wasCurrent && win && !win.isDestroyed()) void win.loadURL(`${pageOrigin}/servers`);
        return ok;
      },
      answerLink: (requestId, accept) => gate.answer(requestId, accept),
      setSession: (token) => registry.setSession(token),
      updateState: () => updater.state(),
      setUpdatesEnabled: (enabled) => updater.setEnabled(enabled),
      restartToUpdate: () => updater.restart(),
    },
  });

  // Every web contents (including any the renderer might try to create) gets the navigation policy.
  app.on('web-contents-created', (_event, contents) => {
    applyNavigationPolicy(contents, {
      appOrigin,
      openExternal: (url) => void shell.openExternal(url),
      log,
    });
  });

  function createMainWindow(): BrowserWindow {
    const stored = windowStore.read();
    const workAreas = screen.getAllDisplays().map((d) => d.workArea);
    const { maximized, ...bounds } = initialBounds(stored, workAreas);
    const w = new BrowserWindow(
      mainWindowOptions({
        preloadPath: join(__dirname, '../preload/index.js'),
        apiBase: apiBase(),
        bounds,
        title: PRODUCT_NAME,
        // Linux window managers take the window icon from here (Windows/macOS use the executable's icon).
        iconPath:
          process.platform !== 'linux'
            ? undefined
            : app.isPackaged
              ? join(process.resourcesPath, 'icon.png')
              : join(__dirname, '../../../build/icons/png/512x512.png'),
      }),
    );
    trackWindowState(
      w,
      windowStore,
      { setTimeout, clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout) },
      {
        initiallyMaximized: maximized,
      },
    );
    w.on('focus', () => attention.focused());
    w.once('ready-to-show', () => {
      if (maximized) w.maximize();
      w.show();
    });
    // A reload or crash drops the renderer's deep-link listener: queue until it subscribes again.
    w.webContents.on('did-start-navigation', (details) => {
      if (details.isMainFrame && !details.isSameDocument) router.rendererGone();
    });
    w.webContents.on('render-process-gone', () => router.rendererGone());
    w.on('closed', () => {
      if (win === w) win = undefined;
      router.rendererGone();
    });
    if (devServerUrl) void w.loadURL(devServerUrl);
    else void w.loadURL(`${DESKTOP_APP_ORIGIN}/`);
    return w;
  }

  void app.whenReady().then(() => {
    session.defaultSession.setPermissionRequestHandler((contents, permission, callback) => {
      callback(isPermissionAllowed(permission, contents.getURL(), appOrigin));
    });
    session.defaultSession.setPermissionCheckHandler((_contents, permission, requestingOrigin) =>
      isPermissionAllowed(permission, requestingOrigin, appOrigin),
    );
    if (!devServerUrl) {
      protocol.handle(APP_SCHEME, async (request) => {
        const r = await serveAppRequest(request.url, {
          rendererDir,
          apiBase: apiBase(),
          exists: (p) => {
            try {
              return fs.statSync(p).isFile();
            } catch {
              return false;
            }
          },
          readFile: (p) => fs.promises.readFile(p),
        });
        // A copy backed by a plain ArrayBuffer satisfies both Node's and the DOM's BodyInit.
        const body = typeof r.body === 'string' ? r.body : Uint8Array.from(r.body);
        return new Response(body, { status: r.status, headers: r.headers });
      });
    }
    const template = buildMenuTemplate(
      process.platform,
      PRODUCT_NAME,
      {
        showRules: () => router.dispatch({ kind: 'rules' }),
        showServers: () => router.dispatch({ kind: 'servers', path: '/servers' }),
        toggleFullScreen: () => void toggleFullScreen(),
        reload: () => win?.webContents.reload(),
        quit: () => app.quit(),
      },
      !app.isPackaged,
    );
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
    if (!win || win.isDestroyed()) win = createMainWindow();
    void updater.start();
  });

  app.on('activate', () => {
    if (app.isReady() && (!win || win.isDestroyed())) win = createMainWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
