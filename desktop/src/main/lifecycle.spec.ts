import { describe, expect, it, vi } from 'vitest';
import { resolve } from 'node:path';
import { createDeepLinkRouter } from './deep-link';
import { acquireSingleInstance, registerProtocolClient, wireDeepLinkSources, type LifecycleApp } from './lifecycle';
import { memoryLogger } from './logger';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a fake emitter calls listeners of any shape
type Listener = (...args: any[]) => void;

function fakeApp(opts: { lock?: boolean; register?: boolean } = {}) {
  const listeners = new Map<string, Listener[]>();
  const app = {
    requestSingleInstanceLock: vi.fn(() => opts.lock ?? true),
    quit: vi.fn(),
    setAsDefaultProtocolClient: vi.fn((_p: string, _path?: string, _args?: string[]) => opts.register ?? true),
    on: vi.fn((event: string, l: Listener) => {
      listeners.set(event, [...(listeners.get(event) ?? []), l]);
      return app;
    }),
    emit(event: string, ...args: unknown[]) {
      for (const l of listeners.get(event) ?? []) l(...args);
    },
  };
  return app as typeof app & LifecycleApp;
}

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJl';

describe('single instance', () => {
  it('continues when the lock is acquired', () => {
    const app = fakeApp({ lock: true });
    expect(acquireSingleInstance(app, memoryLogger())).toBe(true);
    expect(app.quit).not.toHaveBeenCalled();
  });
  it('quits when another instance holds the lock', () => {
    const app = fakeApp({ lock: false });
    expect(acquireSingleInstance(app, memoryLogger())).toBe(false);
    expect(app.quit).toHaveBeenCalledTimes(1);
  });
});

describe('registerProtocolClient', () => {
  it('registers spades:// plainly when packaged', () => {
    const app = fakeApp();
    expect(
      registerProtocolClient(
        app,
        { argv: ['/opt/Spades/spades'], execPath: '/opt/Spades/spades', defaultApp: false },
        memoryLogger(),
      ),
    ).toBe(true);
    expect(app.setAsDefaultProtocolClient).toHaveBeenCalledWith('spades');
  });
  it('passes electron + the app path in development', () => {
    const app = fakeApp();
    registerProtocolClient(
      app,
      { argv: ['/x/electron', 'out/main/index.js'], execPath: '/x/electron', defaultApp: true },
      memoryLogger(),
    );
    expect(app.setAsDefaultProtocolClient).toHaveBeenCalledWith('spades', '/x/electron', [
      resolve('out/main/index.js'),
    ]);
  });
  it('logs when the OS refuses', () => {
    const app = fakeApp({ register: false });
    const log = memoryLogger();
    expect(registerProtocolClient(app, { argv: ['a'], execPath: 'a', defaultApp: false }, log)).toBe(false);
    expect(log.lines[0]).toMatch(/^warn could not register spades:\/\//);
  });
});

describe('wireDeepLinkSources: every source reaches one handleDeepLink', () => {
  const setup = (launchArgv: string[] = ['/opt/Spades/spades']) => {
    const app = fakeApp();
    const handleDeepLink = vi.fn();
    const focusWindow = vi.fn();
    wireDeepLinkSources({ app, launchArgv, handleDeepLink, focusWindow });
    return { app, handleDeepLink, focusWindow };
  };

  it('handles a link in the launch argv (Windows/Linux cold start)', () => {
    const { handleDeepLink } = setup(['/opt/Spades/spades', '--no-sandbox', 'spades://table/abc']);
    expect(handleDeepLink).toHaveBeenCalledWith('spades://table/abc');
  });
  it('does nothing at launch without a link', () => {
    const { handleDeepLink } = setup();
    expect(handleDeepLink).not.toHaveBeenCalled();
  });
  it('routes second-instance argv (Windows/Linux)', () => {
    const { app, handleDeepLink, focusWindow } = setup();
    app.emit(
      'second-instance',
      {},
      ['C:\\Spades\\Spades.exe', '--flag', `spades://auth/callback?token=${JWT}`],
      'C:\\',
    );
    expect(handleDeepLink).toHaveBeenCalledWith(`spades://auth/callback?token=${JWT}`);
    expect(focusWindow).not.toHaveBeenCalled();
  });
  it('focuses the window on a second launch without a link', () => {
    const { app, handleDeepLink, focusWindow } = setup();
    app.emit('second-instance', {}, ['C:\\Spades\\Spades.exe'], 'C:\\');
    expect(handleDeepLink).not.toHaveBeenCalled();
    expect(focusWindow).toHaveBeenCalledTimes(1);
  });
  it('still focuses the window on a second launch whose link is ignored', () => {
    const app = fakeApp();
    const focusWindow = vi.fn();
    const router = createDeepLinkRouter({ deliver: () => {}, focusWindow: () => {}, log: memoryLogger() });
    wireDeepLinkSources({ app, launchArgv: ['spades'], handleDeepLink: router.handleDeepLink, focusWindow });
    app.emit('second-instance', {}, ['spades', 'spades://evil/x'], '/');
    expect(focusWindow).toHaveBeenCalledTimes(1);
    app.emit('second-instance', {}, ['spades', 'spades://table/ok'], '/');
    expect(focusWindow).toHaveBeenCalledTimes(1); // the router focuses for a valid link
  });
  it('routes macOS open-url and prevents the default', () => {
    const { app, handleDeepLink } = setup();
    const event = { preventDefault: vi.fn() };
    app.emit('open-url', event, 'spades://table/xyz');
    expect(event.preventDefault).toHaveBeenCalled();
    expect(handleDeepLink).toHaveBeenCalledWith('spades://table/xyz');
  });

  it('end to end with the router: all three paths deliver, foreign links are dropped', () => {
    const app = fakeApp();
    const delivered: unknown[] = [];
    const log = memoryLogger();
    const router = createDeepLinkRouter({ deliver: (l) => delivered.push(l), focusWindow: () => {}, log });
    wireDeepLinkSources({
      app,
      launchArgv: ['spades', 'spades://table/launch'],
      handleDeepLink: router.handleDeepLink,
      focusWindow: () => {},
    });
    app.emit('open-url', { preventDefault() {} }, 'spades://table/mac');
    app.emit('second-instance', {}, ['spades', 'spades://table/second'], '/');
    app.emit('open-url', { preventDefault() {} }, 'spades://evil/x');
    router.rendererReady();
    expect(delivered).toEqual([
      { kind: 'table', gameId: 'launch', spectate: false, path: '/table/launch' },
      { kind: 'table', gameId: 'mac', spectate: false, path: '/table/mac' },
      { kind: 'table', gameId: 'second', spectate: false, path: '/table/second' },
    ]);
    expect(log.lines.filter((l) => l.startsWith('warn'))).toHaveLength(1);
  });
});
