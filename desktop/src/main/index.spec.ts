// The composition root (index.ts) wired to a fake `electron` module (vi.doMock: the real one is never loaded):
// single-instance lock, protocol registration, secure window, app:// serving, IPC, deep links and notifications
// end to end through the real modules.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { PROTOCOL_VERSION } from '../../../common/src/protocol/server-info';
import { IPC, type BootState, type DeepLink, type ServerLinkRequest } from '../shared/bridge';

type Fn = (...args: unknown[]) => unknown;

class Emitter {
  listeners = new Map<string, Fn[]>();
  on(event: string, fn: Fn) {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), fn]);
    return this;
  }
  once(event: string, fn: Fn) {
    return this.on(event, fn);
  }
  emit(event: string, ...args: unknown[]) {
    for (const fn of this.listeners.get(event) ?? []) fn(...args);
  }
}

const serverInfos = new Map<string, unknown>();
const infoOf = (name: string) => ({
  kind: 'spades',
  name,
  icon: null,
  description: '',
  version: '1.0.0',
  protocolVersion: PROTOCOL_VERSION,
  signIn: ['password'],
  registration: 'open',
});

function makeFakeElectron(opts: { lock: boolean; userData: string }) {
  let readyResolve!: () => void;
  const ready = new Promise<void>((r) => (readyResolve = r));
  let isReady = false;
  const app = Object.assign(new Emitter(), {
    isPackaged: true,
    requestSingleInstanceLock: vi.fn(() => opts.lock),
    quit: vi.fn(),
    setAsDefaultProtocolClient: vi.fn(() => true),
    setAppUserModelId: vi.fn(),
    getPath: vi.fn(() => opts.userData),
    getVersion: () => '1.2.3',
    setBadgeCount: vi.fn(() => true),
    whenReady: () => ready,
    isReady: () => isReady,
  });
  const windows: FakeWindow[] = [];
  let nextId = 1;
  class FakeWebContents extends Emitter {
    id = nextId++;
    sent: [string, unknown][] = [];
    send(channel: string, payload: unknown) {
      this.sent.push([channel, payload]);
    }
    reload = vi.fn();
    getURL = () => 'app://spades/';
    setWindowOpenHandler = vi.fn();
  }
  class FakeWindow extends Emitter {
    webContents = new FakeWebContents();
    destroyed = false;
    focused = true;
    fullScreen = false;
    loaded: string[] = [];
    constructor(public options: Record<string, unknown>) {
      super();
      windows.push(this);
      app.emit('web-contents-created', {}, this.webContents);
    }
    isDestroyed = () => this.destroyed;
    isMinimized = () => false;
    restore = vi.fn();
    show = vi.fn();
    focus = vi.fn(() => {
      this.focused = true;
    });
    isVisible = () => true;
    isFocused = () => this.focused;
    isFullScreen = () => this.fullScreen;
    setFullScreen = (v: boolean) => {
      this.fullScreen = v;
    };
    isMaximized = () => false;
    flashFrame = vi.fn();
    maximize = vi.fn();
    getNormalBounds = () => ({ x: 0, y: 0, width: 1280, height: 800 });
    loadURL = async (url: string) => void this.loaded.push(url);
  }
  const ipcHandlers = new Map<string, Fn>();
  const ipcListeners = new Map<string, Fn>();
  const notifications: { options: { title: string; body: string }; emitter: Emitter; shown: boolean }[] = [];
  class FakeNotification extends Emitter {
    static isSupported = () => true;
    shown = false;
    constructor(public options: { title: string; body: string }) {
      super();
      notifications.push({ options, emitter: this, shown: false });
    }
    show() {
      notifications[notifications.length - 1].shown = true;
    }
  }
  const protocolHandlers = new Map<string, (req: { url: string }) => Promise<Response>>();
  const electron = {
    app,
    BrowserWindow: FakeWindow,
    ipcMain: {
      handle: (c: string, fn: Fn) => ipcHandlers.set(c, fn),
      on: (c: string, fn: Fn) => ipcListeners.set(c, fn),
    },
    Menu: { setApplicationMenu: vi.fn(), buildFromTemplate: vi.fn((t: unknown) => t) },
    Notification: FakeNotification,
    protocol: {
      registerSchemesAsPrivileged: vi.fn(),
      handle: (scheme: string, fn: (req: { url: string }) => Promise<Response>) => protocolHandlers.set(scheme, fn),
    },
    screen: { getAllDisplays: () => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }] },
    session: { defaultSession: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() } },
    shell: { openExternal: vi.fn(async () => {}) },
    // reversible and visibly not the plain text: tests can tell an encrypted session from a leaked one
    safeStorage: {
      isEncryptionAvailable: () => true,
      encryptString: (s: string) => Buffer.from(`enc:${[...s].reverse().join('')}`),
      decryptString: (b: Buffer) => [...b.toString().slice(4)].reverse().join(''),
    },
    // the servers' server-info answers, by URL
    net: {
      fetch: vi.fn(async (url: string) => {
        const json = serverInfos.get(url);
        if (!json) throw new Error('connection refused');
        return new Response(JSON.stringify(json), { status: 200 });
      }),
    },
  };
  const becomeReady = async () => {
    isReady = true;
    readyResolve();
    await ready;
    await new Promise((r) => setTimeout(r, 0));
  };
  return { electron, app, windows, ipcHandlers, ipcListeners, notifications, protocolHandlers, becomeReady };
}

let userData: string;
const originalArgv = process.argv;

beforeEach(() => {
  userData = mkdtempSync(join(tmpdir(), 'spades-userdata-'));
  vi.resetModules();
  Object.defineProperty(process, 'resourcesPath', { value: '/opt/Spades/resources', configurable: true });
});
afterEach(() => {
  process.argv = originalArgv;
  vi.doUnmock('electron');
  rmSync(userData, { recursive: true, force: true });
});

async function boot(opts: { lock?: boolean; argv?: string[] } = {}) {
  const fake = makeFakeElectron({ lock: opts.lock ?? true, userData });
  process.argv = opts.argv ?? ['/opt/Spades/spades'];
  vi.doMock('electron', () => ({ ...fake.electron, default: fake.electron }));
  await import('./index');
  return fake;
}

const trustedEvent = (w: { webContents: { id: number } }) => ({
  sender: { id: w.webContents.id },
  senderFrame: { url: 'app://spades/' },
});

describe('main process composition (fake electron)', () => {
  it('quits at once when another instance holds the lock', async () => {
    const fake = await boot({ lock: false });
    expect(fake.app.quit).toHaveBeenCalled();
    expect(fake.ipcHandlers.size).toBe(0);
    expect(fake.app.setAsDefaultProtocolClient).not.toHaveBeenCalled();
  });

  it('registers spades://, IPC handlers, and opens a sandboxed window on app://spades/', async () => {
    const fake = await boot();
    expect(fake.electron.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }),
    ]);
    expect(fake.app.setAsDefaultProtocolClient).toHaveBeenCalledWith('spades');
    expect([...fake.ipcHandlers.keys()].sort()).toEqual(
      [
        IPC.notify,
        IPC.toggleFullScreen,
        IPC.isFullScreen,
        IPC.openExternal,
        IPC.appInfo,
        IPC.serversList,
        IPC.serversProbe,
        IPC.serversAdd,
        IPC.serversSwitch,
        IPC.serversForget,
        IPC.serversAnswerLink,
        IPC.sessionSet,
        IPC.updateState,
        IPC.updateSetEnabled,
        IPC.updateRestart,
      ].sort(),
    );
    expect(fake.windows).toHaveLength(0);
    await fake.becomeReady();
    expect(fake.windows).toHaveLength(1);
    const w = fake.windows[0];
    expect(w.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    expect(w.loaded).toEqual(['app://spades/']);
    expect(fake.electron.Menu.setApplicationMenu).toHaveBeenCalled();
    // Navigation policy applied to the window's contents.
    expect(w.webContents.setWindowOpenHandler).toHaveBeenCalled();

    // app:// serves the renderer's index.html for client routes (or 404 when the bundle is absent).
    const res = await fake.protocolHandlers.get('app')!({ url: 'app://spades/table/abc' });
    expect([200, 404]).toContain(res.status);
    if (res.status === 200) expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
  });

  it('delivers the launching link, open-url and second-instance links once the renderer listens', async () => {
    const fake = await boot({
      argv: ['/opt/Spades/spades', '--server=https://play.spades.example', 'spades://table/launch'],
    });
    fake.app.emit('open-url', { preventDefault() {} }, 'spades://table/mac');
    await fake.becomeReady();
    const w = fake.windows[0];
    fake.app.emit('second-instance', {}, ['/opt/Spades/spades', 'spades://auth/callback?token=abc.def.ghi-123'], '/');
    fake.app.emit('second-instance', {}, ['/opt/Spades/spades', 'spades://evil/x'], '/');
    expect(w.webContents.sent).toEqual([]);
    // An untrusted frame cannot flush the queue.
    fake.ipcListeners.get(IPC.deepLinkReady)!({ sender: { id: 999 }, senderFrame: { url: 'app://spades/' } });
    expect(w.webContents.sent).toEqual([]);
    fake.ipcListeners.get(IPC.deepLinkReady)!(trustedEvent(w));
    expect(w.webContents.sent.map(([c, l]) => [c, (l as DeepLink).kind])).toEqual([
      [IPC.deepLink, 'table'],
      [IPC.deepLink, 'table'],
      [IPC.deepLink, 'auth-callback'],
    ]);
    expect((w.webContents.sent[2][1] as { path: string }).path).toBe('/auth/callback?token=abc.def.ghi-123');
  });

  it('notifications: only when unfocused; click focuses and opens the table', async () => {
    const fake = await boot();
    await fake.becomeReady();
    const w = fake.windows[0];
    fake.ipcListeners.get(IPC.deepLinkReady)!(trustedEvent(w));
    const notify = fake.ipcHandlers.get(IPC.notify)!;
    const n = { kind: 'your-turn', title: 'Your turn', body: 'Bid now', gameId: 'g7' };
    await expect(notify(trustedEvent(w), n)).resolves.toBe(false);
    w.focused = false;
    await expect(notify(trustedEvent(w), n)).resolves.toBe(true);
    expect(fake.notifications).toHaveLength(1);
    expect(fake.notifications[0].shown).toBe(true);
    fake.notifications[0].emitter.emit('click');
    expect(w.focus).toHaveBeenCalled();
    expect(w.webContents.sent).toContainEqual([
      IPC.deepLink,
      { kind: 'table', gameId: 'g7', spectate: false, path: '/table/g7' },
    ]);
    await expect(notify(trustedEvent(w), { ...n, kind: 'spam' })).rejects.toThrow();
  });

  it('a tournament match notification: the click takes the seat; the taskbar flashes for it', async () => {
    const fake = await boot();
    await fake.becomeReady();
    const w = fake.windows[0];
    fake.ipcListeners.get(IPC.deepLinkReady)!(trustedEvent(w));
    w.focused = false;
    const notify = fake.ipcHandlers.get(IPC.notify)!;
    const n = {
      kind: 'tournament-match',
      title: 'Night cup: your match is ready',
      body: 'Round 1',
      gameId: 'g9',
      tournamentId: 't-1',
    };
    await expect(notify(trustedEvent(w), n)).resolves.toBe(true);
    expect(w.flashFrame).toHaveBeenLastCalledWith(true);
    expect(fake.notifications[0].options).toMatchObject({ title: 'Night cup: your match is ready', silent: false });
    fake.notifications[0].emitter.emit('click');
    expect(w.webContents.sent).toContainEqual([
      IPC.deepLink,
      { kind: 'table', gameId: 'g9', spectate: false, path: '/table/g9?join=1' },
    ]);
    // a tournament id on another kind is refused
    await expect(notify(trustedEvent(w), { ...n, kind: 'your-turn' })).rejects.toThrow();
  });

  it('full screen toggles, openExternal only takes http(s), appInfo reports the API base', async () => {
    const fake = await boot({ argv: ['/opt/Spades/spades', '--server=https://play.spades.example'] });
    await fake.becomeReady();
    const w = fake.windows[0];
    const ev = trustedEvent(w);
    await expect(fake.ipcHandlers.get(IPC.toggleFullScreen)!(ev)).resolves.toBe(true);
    await expect(fake.ipcHandlers.get(IPC.isFullScreen)!(ev)).resolves.toBe(true);
    await expect(fake.ipcHandlers.get(IPC.toggleFullScreen)!(ev)).resolves.toBe(false);
    await expect(fake.ipcHandlers.get(IPC.openExternal)!(ev, 'https://discord.com/x')).resolves.toBe(true);
    expect(fake.electron.shell.openExternal).toHaveBeenCalledWith('https://discord.com/x');
    await expect(fake.ipcHandlers.get(IPC.openExternal)!(ev, 'file:///etc/passwd')).rejects.toThrow();
    await expect(fake.ipcHandlers.get(IPC.appInfo)!(ev)).resolves.toMatchObject({
      name: 'Spades',
      version: '1.2.3',
      apiBase: 'https://play.spades.example',
      packaged: true,
    });
    expect(w.options.webPreferences).toMatchObject({
      additionalArguments: ['--spades-api-base=https://play.spades.example'],
    });
  });

  it('first run: no server, the chooser; adding, switching, sessions encrypted per server, forgetting', async () => {
    serverInfos.set('https://one.example/api/server-info', infoOf('One'));
    serverInfos.set('https://two.example/api/server-info', infoOf('Two'));
    const fake = await boot();
    await fake.becomeReady();
    const w = fake.windows[0];
    const ev = trustedEvent(w);
    const bootState = () => {
      const e: Record<string, unknown> = { ...ev };
      fake.ipcListeners.get(IPC.bootState)!(e);
      return e.returnValue as BootState;
    };
    expect(bootState()).toMatchObject({ server: null, token: null });
    const h = (c: string, ...args: unknown[]) => fake.ipcHandlers.get(c)!(ev, ...args);
    const one = (await h(IPC.serversAdd, 'one.example')) as { ok: true; server: { id: string; name: string } };
    expect(one).toMatchObject({ ok: true, server: { name: 'One', current: false } });
    const two = (await h(IPC.serversAdd, 'https://two.example/')) as { ok: true; server: { id: string } };
    await expect(h(IPC.serversSwitch, one.server.id)).resolves.toBe(true);
    expect(w.loaded.at(-1)).toBe('app://spades/');
    await h(IPC.sessionSet, 'token-of-one.abc');
    expect(bootState()).toMatchObject({ server: { name: 'One', signedIn: true }, token: 'token-of-one.abc' });
    await h(IPC.serversSwitch, two.server.id);
    expect(bootState()).toMatchObject({ server: { address: 'https://two.example' }, token: null });
    await h(IPC.sessionSet, 'token-of-two.xyz');
    await h(IPC.serversSwitch, one.server.id);
    expect(bootState().token).toBe('token-of-one.abc');
    const file = readFileSync(join(userData, 'servers.json'), 'utf8');
    expect(file).not.toContain('token-of-one');
    expect(file).not.toContain('token-of-two');
    // the CSP of the page follows the current server
    const res = await fake.protocolHandlers.get('app')!({ url: 'app://spades/' });
    if (res.status === 200)
      expect(res.headers.get('content-security-policy')).toContain(
        "connect-src 'self' https://one.example wss://one.example",
      );
    await expect(h(IPC.serversForget, one.server.id)).resolves.toBe(true);
    expect(w.loaded.at(-1)).toBe('app://spades/servers');
    expect(bootState()).toMatchObject({ server: null, token: null });
    await expect(h(IPC.serversList)).resolves.toHaveLength(1);
  });

  it('a link for another server asks first; accepting adds it, switches and opens the table there', async () => {
    serverInfos.set('https://home.example/api/server-info', infoOf('Home'));
    serverInfos.set('https://friends.example/api/server-info', infoOf('Friends'));
    const fake = await boot({ argv: ['/opt/Spades/spades', '--server=https://home.example'] });
    await fake.becomeReady();
    const w = fake.windows[0];
    const ev = trustedEvent(w);
    fake.ipcListeners.get(IPC.deepLinkReady)!(ev);
    const invite = 'AbCdEfGhIjKlMnOpQr';
    fake.app.emit(
      'second-instance',
      {},
      ['/opt/Spades/spades', `spades://table/t1?server=https%3A%2F%2Ffriends.example&invite=${invite}`],
      '/',
    );
    const [channel, link] = w.webContents.sent.at(-1)!;
    expect(channel).toBe(IPC.deepLink);
    const request = (link as { kind: string; request: ServerLinkRequest }).request;
    expect(link).toMatchObject({ kind: 'server-link' });
    expect(request).toMatchObject({
      server: 'https://friends.example',
      known: null,
      current: { address: 'https://home.example' },
      target: 'invite',
      gameId: 't1',
    });
    expect(w.loaded).toEqual(['app://spades/']); // nothing opened yet
    await expect(fake.ipcHandlers.get(IPC.serversAnswerLink)!(ev, request.id, true)).resolves.toMatchObject({
      ok: true,
      info: { name: 'Friends' },
    });
    expect(w.loaded.at(-1)).toBe(`app://spades/table/t1?invite=${invite}`);
    // a link for the current server (now Friends) goes straight through; one without server too
    fake.app.emit(
      'second-instance',
      {},
      ['/opt/Spades/spades', 'spades://table/t2?server=https://friends.example&spectate=1'],
      '/',
    );
    expect(w.webContents.sent.at(-1)![1]).toMatchObject({
      kind: 'table',
      gameId: 't2',
      spectate: true,
      path: '/table/t2?spectate=1',
    });
  });

  it('a desktop sign-in comes back to the server it was started on, asking first after a switch', async () => {
    serverInfos.set('https://home.example/api/server-info', infoOf('Home'));
    serverInfos.set('https://friends.example/api/server-info', infoOf('Friends'));
    const fake = await boot({ argv: ['/opt/Spades/spades', '--server=https://home.example'] });
    await fake.becomeReady();
    const w = fake.windows[0];
    const ev = trustedEvent(w);
    const h = (c: string, ...args: unknown[]) => fake.ipcHandlers.get(c)!(ev, ...args);
    fake.ipcListeners.get(IPC.deepLinkReady)!(ev);
    const token = 'abc.def.ghi-123';
    const callback = ['/opt/Spades/spades', `spades://auth/callback?token=${token}`];
    // started and finished on Home: delivered, naming Home
    await h(IPC.openExternal, 'https://home.example/api/auth/discord?client=desktop');
    fake.app.emit('second-instance', {}, callback, '/');
    expect(w.webContents.sent.at(-1)![1]).toEqual({
      kind: 'auth-callback',
      token,
      path: `/auth/callback?token=${token}`,
      server: 'https://home.example',
    });
    // started on Home, then the player switched to Friends while the browser was open: asked first
    await h(IPC.openExternal, 'https://home.example/api/auth/oidc/github?client=desktop');
    const friends = (await h(IPC.serversAdd, 'friends.example')) as { ok: true; server: { id: string } };
    await h(IPC.serversSwitch, friends.server.id);
    fake.ipcListeners.get(IPC.deepLinkReady)!(ev);
    fake.app.emit('second-instance', {}, callback, '/');
    const link = w.webContents.sent.at(-1)![1] as { kind: string; request: ServerLinkRequest };
    expect(link).toMatchObject({ kind: 'server-link' });
    expect(link.request).toMatchObject({
      server: 'https://home.example',
      known: { name: 'Home' },
      current: { address: 'https://friends.example' },
      target: 'login',
    });
    await expect(h(IPC.serversAnswerLink, link.request.id, true)).resolves.toMatchObject({ ok: true });
    expect(w.loaded.at(-1)).toBe(`app://spades/auth/callback?token=${token}`);
    await expect(h(IPC.appInfo)).resolves.toMatchObject({ apiBase: 'https://home.example' });
  });

  it('"your turn" while unfocused flashes the frame and badges the waiting tables; focus clears both', async () => {
    const fake = await boot({ argv: ['/opt/Spades/spades', '--server=https://play.spades.example'] });
    await fake.becomeReady();
    const w = fake.windows[0];
    w.focused = false;
    const notify = fake.ipcHandlers.get(IPC.notify)!;
    await notify(trustedEvent(w), { kind: 'your-turn', title: 'Your turn', body: 'Bid', gameId: 'a' });
    await notify(trustedEvent(w), { kind: 'your-turn', title: 'Your turn', body: 'Play', gameId: 'b' });
    await notify(trustedEvent(w), { kind: 'your-turn', title: 'Your turn', body: 'Play', gameId: 'a' });
    expect(fake.app.setBadgeCount.mock.calls.at(-1)).toEqual([2]);
    expect(w.flashFrame).toHaveBeenLastCalledWith(true);
    w.focused = true;
    w.emit('focus');
    expect(fake.app.setBadgeCount.mock.calls.at(-1)).toEqual([0]);
    expect(w.flashFrame).toHaveBeenLastCalledWith(false);
  });
});
