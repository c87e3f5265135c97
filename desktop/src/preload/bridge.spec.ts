import { describe, expect, it, vi } from 'vitest';
import { IPC, type DeepLink, type DesktopBridge } from '../shared/bridge';
import { apiBaseFromArgv, createDesktopBridge, type IpcRendererLike } from './bridge';

function fakeIpc() {
  const listeners = new Map<string, Set<(event: unknown, ...args: unknown[]) => void>>();
  const ipc = {
    invoke: vi.fn(async (channel: string, ...args: unknown[]) => ({ channel, args })),
    send: vi.fn(),
    on: vi.fn((channel: string, l: (event: unknown, ...args: unknown[]) => void) => {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)!.add(l);
    }),
    removeListener: vi.fn((channel: string, l: (event: unknown, ...args: unknown[]) => void) => {
      listeners.get(channel)?.delete(l);
    }),
    emit: (channel: string, ...args: unknown[]) => listeners.get(channel)?.forEach((l) => l({ sender: 'SECRET' }, ...args)),
    count: (channel: string) => listeners.get(channel)?.size ?? 0,
  };
  return ipc satisfies IpcRendererLike;
}

const argv = ['/opt/Spades/spades', '--type=renderer', '--spades-api-base=https://play.example.org'];
const link: DeepLink = { kind: 'table', gameId: 'g1', spectate: false, path: '/table/g1' };

describe('preload bridge', () => {
  it('exposes exactly the DesktopBridge methods', () => {
    const bridge = createDesktopBridge(fakeIpc(), argv);
    const expected: (keyof DesktopBridge)[] = ['notify', 'toggleFullScreen', 'isFullScreen', 'openExternal', 'appInfo', 'getApiBase', 'onDeepLink'];
    expect(Object.keys(bridge).sort()).toEqual([...expected].sort());
    for (const k of expected) expect(typeof bridge[k]).toBe('function');
  });

  it('maps each method to its IPC channel with its arguments', async () => {
    const ipc = fakeIpc();
    const b = createDesktopBridge(ipc, argv);
    const n = { kind: 'mention' as const, title: 'Ann', body: 'hi @you' };
    await expect(b.notify(n)).resolves.toEqual({ channel: IPC.notify, args: [n] });
    await expect(b.toggleFullScreen()).resolves.toEqual({ channel: IPC.toggleFullScreen, args: [] });
    await expect(b.isFullScreen()).resolves.toEqual({ channel: IPC.isFullScreen, args: [] });
    await expect(b.openExternal('https://x.example')).resolves.toEqual({ channel: IPC.openExternal, args: ['https://x.example'] });
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
});
