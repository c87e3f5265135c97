// Electron main process: the composition root. Everything with logic lives in small modules with injected
// Electron dependencies (unit-tested); this file only wires the real Electron objects into them.
import { app, BrowserWindow, ipcMain, Menu, Notification, protocol, screen, session, shell } from 'electron';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { DESKTOP_APP_ORIGIN, IPC, type AppInfo } from '../shared/bridge';
import { APP_SCHEME, serveAppRequest } from './app-protocol';
import { createDeepLinkRouter } from './deep-link';
import { registerIpcHandlers } from './ipc';
import { createJsonStore } from './json-store';
import { acquireSingleInstance, registerProtocolClient, wireDeepLinkSources } from './lifecycle';
import { consoleLogger as log } from './logger';
import { buildMenuTemplate } from './menu';
import { applyNavigationPolicy, originOf } from './navigation';
import { createNotifier } from './notifications';
import { isPermissionAllowed } from './permissions';
import { parseSettings, resolveApiBase } from './settings';
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
  const apiBase = resolveApiBase({
    packaged: app.isPackaged,
    env: process.env,
    argv: process.argv,
    store: settingsStore,
    defaultApiBase: buildDefaultApiBase,
    log,
  });
  log.info(`API base ${apiBase}`);

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
  const router = createDeepLinkRouter({
    deliver: (link) => {
      if (win && !win.isDestroyed()) win.webContents.send(IPC.deepLink, link);
    },
    focusWindow,
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
  const notify = createNotifier({
    isSupported: () => Notification.isSupported(),
    isWindowFocused: () => Boolean(win && !win.isDestroyed() && win.isVisible() && win.isFocused()),
    createNotification: (o) => new Notification(o),
    focusWindow,
    openLink: router.dispatch,
  });
  const appInfo = (): AppInfo => ({
    name: PRODUCT_NAME,
    version: app.getVersion(),
    platform: process.platform,
    electron: process.versions.electron,
    chrome: process.versions.chrome,
    apiBase,
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
      openExternal: (url) => shell.openExternal(url),
      appInfo,
      deepLinkReady: () => router.rendererReady(),
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
        apiBase,
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
    trackWindowState(w, windowStore, { setTimeout, clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout) }, {
      initiallyMaximized: maximized,
    });
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
          apiBase,
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
        toggleFullScreen: () => void toggleFullScreen(),
        reload: () => win?.webContents.reload(),
        quit: () => app.quit(),
      },
      !app.isPackaged,
    );
    Menu.setApplicationMenu(Menu.buildFromTemplate(template));
    if (!win || win.isDestroyed()) win = createMainWindow();
  });

  app.on('activate', () => {
    if (app.isReady() && (!win || win.isDestroyed())) win = createMainWindow();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
}
