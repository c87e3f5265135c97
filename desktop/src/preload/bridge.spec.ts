import { describe, expect, it, vi } from 'vitest';
import { IPC, type DeepLink, type DesktopBridge } from '../shared/bridge';
import { apiBaseFromArgv, createDesktopBridge, type IpcRendererLike } from './bridge';

function fakeIpc() {
  const listeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
  const ipc = {
    invoke: vi.fn(async (channel: string, ...args: unknown[]) => ({ channel, args })),
    send: vi.fn(),
    sendSync: vi.fn((_channel: string): unknown => null),
    on: vi.fn((channel: string, l: (event: unknown, ...args: unknown[]) => void) => {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)!.add(l);
    }),
    removeListener: vi.fn((channel: string, l: (event: unknown, ...args: unknown[]) => void) => {
      listeners.get(channel)?.delete(l);
    }),
    emit: (channel: string, ...args: unknown[]) =>
      listeners.get(channel)?.forEach((l) => l({ sender: 'SECRET' }, ...args)),
    count: (channel: string) => listeners.get(channel)?.size ?? 0,
  };
  return ipc satisfies IpcRendererLike;
}

const argv = ['/opt/Spades/spades', '--type=renderer', '--spades-api-base=https://play.example.org'];
const link: DeepLink = { kind: 'table', gameId: 'g1', spectate: false, path: '/table/g1' };

describe('preload bridge', () => {
  it('exposes exactly the DesktopBridge methods', () => {
    const bridge = createDesktopBridge(fakeIpc(), argv);
    const expected: (keyof DesktopBridge)[] = [
      'notify',
      'toggleFullScreen',
      'isFullScreen',
      'openExternal',
      'appInfo',
      'getApiBase',
      'onDeepLink',
      'servers',
      'session',
      'updates',
    ];
    expect(Object.keys(bridge).sort()).toEqual([...expected].sort());
    for (const k of expected)
      expect(typeof bridge[k]).toBe(['servers', 'session', 'updates'].includes(k) ? 'object' : 'function');
  });

  it('maps each method to its IPC channel with its arguments', async () => {
    const ipc = fakeIpc();
    const b = createDesktopBridge(ipc, argv);
    const n = { kind: 'mention' as const, title: 'Ann', body: 'hi @you' };
    await expect(b.notify(n)).resolves.toEqual({ channel: IPC.notify, args: [n] });
    await expect(b.toggleFullScreen()).resolves.toEqual({ channel: IPC.toggleFullScreen, args: [] });
    await expect(b.isFullScreen()).resolves.toEqual({ channel: IPC.isFullScreen, args: [] });
    await expect(b.openExternal('https://x.example')).resolves.toEqual({
      channel: IPC.openExternal,
      args: ['https://x.example'],
    });
    await expect(b.appInfo()).resolves.toEqual({ channel: IPC.appInfo, args: [] });
  });

  it('returns the API base passed on the command line, synchronously', () => {
    expect(createDesktopBridge(fakeIpc(), argv).getApiBase()).toBe('https://play.example.org');
    expect(apiBaseFromArgv(['x'])).toBe('');
  });

  it('delivers deep links to subscribers (without the IPC event) and unsubscribes', () => {
    const ipc = fakeIpc();
    const b = createDesktopBridge(ipc, argv);
    const seen: unknown[][] = [];
    const off = b.onDeepLink((...args: unknown[]) => seen.push(args));
    ipc.emit(IPC.deepLink, link);
    expect(seen).toEqual([[link]]);
    off();
    off(); // idempotent
    ipc.emit(IPC.deepLink, link);
    expect(seen).toHaveLength(1);
    expect(ipc.count(IPC.deepLink)).toBe(0);
    expect(ipc.removeListener).toHaveBeenCalledTimes(1);
  });

  it('tells main once that a listener is attached, so queued links are flushed', () => {
    const ipc = fakeIpc();
    const b = createDesktopBridge(ipc, argv);
    b.onDeepLink(() => {});
    b.onDeepLink(() => {});
    expect(ipc.send.mock.calls).toEqual([[IPC.deepLinkReady]]);
    expect(ipc.count(IPC.deepLink)).toBe(2);
  });

  it('rejects a non-function callback', () => {
    const b = createDesktopBridge(fakeIpc(), argv);
    expect(() => b.onDeepLink('x' as unknown as () => void)).toThrow(TypeError);
  });

  it('takes the server and session from main at load (sendSync), the argument only as a fallback', async () => {
    const ipc = fakeIpc();
    const server = {
      id: 's1',
      address: 'https://two.example',
      name: 'Two',
      icon: null,
      description: '',
      version: '1',
      signedIn: true,
      current: true,
    };
    ipc.sendSync.mockImplementation(() => ({ server, token: 'jwt.two.token', protocolVersion: 1 }));
    const b = createDesktopBridge(ipc, argv);
    expect(ipc.sendSync).toHaveBeenCalledWith(IPC.bootState);
    expect(b.getApiBase()).toBe('https://two.example');
    expect(b.servers!.current()).toEqual(server);
    expect(b.session!.get()).toBe('jwt.two.token');
    b.session!.set(null);
    expect(b.session!.get()).toBeNull();
    expect(ipc.invoke).toHaveBeenCalledWith(IPC.sessionSet, null);
    await expect(b.servers!.add('x.example')).resolves.toEqual({ channel: IPC.serversAdd, args: ['x.example'] });
    await expect(b.servers!.switchTo('s2')).resolves.toEqual({ channel: IPC.serversSwitch, args: ['s2'] });
    await expect(b.servers!.answerLink('r1', true)).resolves.toEqual({
      channel: IPC.serversAnswerLink,
      args: ['r1', true],
    });
    await expect(b.updates!.setEnabled(false)).resolves.toEqual({ channel: IPC.updateSetEnabled, args: [false] });
    const seen: unknown[] = [];
    const off = b.updates!.onChange((s) => seen.push(s));
    ipc.emit(IPC.updateChanged, { status: 'ready', enabled: true, version: '2.0.0' });
    off();
    ipc.emit(IPC.updateChanged, { status: 'idle', enabled: true });
    expect(seen).toEqual([{ status: 'ready', enabled: true, version: '2.0.0' }]);
    // first run: no server yet → no API base, even though a start argument exists
    ipc.sendSync.mockImplementation(() => ({ server: null, token: null, protocolVersion: 1 }));
    expect(createDesktopBridge(ipc, argv).getApiBase()).toBe('');
    ipc.sendSync.mockImplementation(() => {
      throw new Error('no main');
    });
    expect(createDesktopBridge(ipc, argv).getApiBase()).toBe('https://play.example.org');
  });
});
