/**
 * The renderer inside the desktop app (issue 6), with a test double of the typed `window.desktop` bridge:
 * API base from the bridge, Discord deep-link login, Help › Game Rules on every page, notifications raised
 * app-wide (friend request, lobby mention).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import type { DeepLink, DesktopBridge } from '../../shared/bridge';
import { getApiBase, initApiBase, setApiBase } from '../lib/platform';
import { KEYS } from '../lib/storage';

// socket.io-client double: records the URL and lets the test play the server.
type Listener = (...a: unknown[]) => void;
const sockets: FakeIo[] = [];
class FakeIo {
  handlers = new Map<string, Set<Listener>>();
  io = { on: vi.fn(), removeAllListeners: vi.fn() };
  connected = false;
  active = true;
  emitted: unknown[][] = [];
  constructor(
    readonly url: string | undefined,
    readonly opts: unknown,
  ) {}
  on(ev: string, fn: Listener) {
    if (!this.handlers.has(ev)) this.handlers.set(ev, new Set());
    this.handlers.get(ev)!.add(fn);
    return this;
  }
  off(ev: string, fn: Listener) {
    this.handlers.get(ev)?.delete(fn);
    return this;
  }
  emit(...a: unknown[]) {
    this.emitted.push(a);
    return this;
  }
  removeAllListeners() {
    this.handlers.clear();
    return this;
  }
  disconnect() {
    this.connected = false;
    return this;
  }
  serve(ev: string, ...args: unknown[]) {
    act(() => {
      for (const fn of [...(this.handlers.get(ev) ?? [])]) fn(...args);
    });
  }
}
vi.mock('socket.io-client', () => ({
  io: (url: string | undefined, opts: unknown) => {
    const s = new FakeIo(url, opts);
    sockets.push(s);
    return s;
  },
}));

const { Root } = await import('../Root');

const API = 'https://spades.example';
const PROFILE = {
  id: 'u9',
  username: 'Dee',
  email: 'dee@x.test',
  avatar: null,
  coins: 1_000_000,
  stats: { gamesPlayed: 3 },
};

function installBridge() {
  const deepLinkListeners = new Set<(l: DeepLink) => void>();
  const notify = vi.fn<DesktopBridge['notify']>().mockResolvedValue(true);
  const desktop: DesktopBridge = {
    notify,
    toggleFullScreen: vi.fn(async () => true),
    isFullScreen: vi.fn(async () => false),
    openExternal: vi.fn(async () => true),
    appInfo: vi.fn(),
    getApiBase: () => API,
    onDeepLink: (cb) => {
      deepLinkListeners.add(cb);
      return () => deepLinkListeners.delete(cb);
    },
  };
  window.desktop = desktop;
  const deliver = (link: DeepLink) =>
    act(() => {
      for (const cb of [...deepLinkListeners]) cb(link);
    });
  return { notify, deliver, deepLinkListeners };
}

function mockServer() {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    const json = (b: unknown) =>
      new Response(JSON.stringify(b), { status: 200, headers: { 'Content-Type': 'application/json' } });
    if (url.endsWith('/api/auth/profile')) return json({ user: PROFILE });
    if (url.endsWith('/api/games') || url.endsWith('/api/users')) return json([]);
    return json({});
  });
}

beforeEach(() => {
  sockets.length = 0;
  window.history.replaceState(null, '', '/login');
});
afterEach(() => {
  delete window.desktop;
  setApiBase('');
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('desktop bridge: API base and Discord deep-link login', () => {
  it('takes the API base from window.desktop.getApiBase() for HTTP and the socket', async () => {
    installBridge();
    initApiBase();
    expect(getApiBase()).toBe(API);
  });

  it('keeps same origin on the web (no bridge)', () => {
    initApiBase();
    expect(getApiBase()).toBe('');
  });

  it('completes the login from spades://auth/callback?token=… like the web /auth/callback route', async () => {
    const { deliver, deepLinkListeners } = installBridge();
    initApiBase();
    const fetch = mockServer();
    const view = render(<Root />);
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(deepLinkListeners.size).toBe(1);

    deliver({ kind: 'auth-callback', token: 'tok-123', path: '/auth/callback?token=tok-123' });

    await waitFor(() => expect(window.location.pathname).toBe('/'));
    expect(await screen.findByText('Available Games')).toBeInTheDocument();
    expect(localStorage.getItem(KEYS.sessionToken)).toBe('tok-123');
    const profileCall = fetch.mock.calls.find(([u]) => String(u) === `${API}/api/auth/profile`);
    expect(profileCall).toBeDefined();
    expect((profileCall![1]?.headers as Record<string, string>).Authorization).toBe('Bearer tok-123');
    // Every request and the socket went to the bridge's server.
    expect(fetch.mock.calls.every(([u]) => String(u).startsWith(`${API}/api/`))).toBe(true);
    expect(sockets.at(-1)?.url).toBe(API);
    expect((sockets.at(-1)?.opts as { auth: { token: string } }).auth.token).toBe('tok-123');

    view.unmount();
    expect(deepLinkListeners.size).toBe(0);
  });

  it('a failed deep-link login goes back to /login without a stored token', async () => {
    const { deliver } = installBridge();
    initApiBase();
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{"message":"Unauthorized"}', { status: 401 }));
    render(<Root />);
    await screen.findByRole('button', { name: 'Sign in' });
    deliver({ kind: 'auth-callback', token: 'bad', path: '/auth/callback?token=bad' });
    await waitFor(() => expect(localStorage.getItem(KEYS.sessionToken)).toBeNull());
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
  });
});

describe('Help › Game Rules (spades:open-rules) works on every page', () => {
  it('opens on a public page', async () => {
    const { deliver } = installBridge();
    mockServer();
    render(<Root />);
    await screen.findByRole('button', { name: 'Sign in' });
    deliver({ kind: 'rules' });
    expect(await screen.findByRole('dialog', { name: 'Game Rules' })).toBeInTheDocument();
  });

  it('opens on the table page', async () => {
    localStorage.setItem(KEYS.sessionToken, 'tok');
    const { deliver } = installBridge();
    const fetch = mockServer();
    fetch.mockImplementation(async (input) => {
      const url = String(input);
      const json = (b: unknown) =>
        new Response(JSON.stringify(b), { status: 200, headers: { 'Content-Type': 'application/json' } });
      if (url.endsWith('/api/auth/profile')) return json({ user: PROFILE });
      if (url.endsWith('/api/games/g1'))
        return json({
          id: 'g1',
          status: 'WAITING',
          hostId: 'u9',
          players: [{ id: 'u9', username: 'Dee', type: 'human' }, null, null, null],
          mySeat: 0,
        });
      return json([]);
    });
    window.history.replaceState(null, '', '/table/g1');
    render(<Root />);
    expect(await screen.findByRole('region', { name: 'Waiting for players' })).toBeInTheDocument();
    deliver({ kind: 'rules' });
    expect(await screen.findByRole('dialog', { name: 'Game Rules' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Scoring' })).toBeInTheDocument();
  });

  it('opens exactly one dialog in the lobby', async () => {
    localStorage.setItem(KEYS.sessionToken, 'tok');
    const { deliver } = installBridge();
    mockServer();
    window.history.replaceState(null, '', '/');
    render(<Root />);
    await screen.findByText('Available Games');
    deliver({ kind: 'rules' });
    await screen.findByRole('dialog', { name: 'Game Rules' });
    expect(screen.getAllByRole('dialog', { name: 'Game Rules' })).toHaveLength(1);
  });
});

describe('app-wide desktop notifications', () => {
  async function signedIn() {
    localStorage.setItem(KEYS.sessionToken, 'tok');
    const b = installBridge();
    mockServer();
    window.history.replaceState(null, '', '/');
    render(<Root />);
    await screen.findByText('Available Games');
    const s = sockets.at(-1)!;
    return { ...b, s };
  }

  it('raises a friend request from friendAdded', async () => {
    const { notify, s } = await signedIn();
    s.serve('friendAdded', { userId: 'u2', username: 'Ann' });
    expect(notify).toHaveBeenCalledWith(
      expect.objectContaining({ kind: 'friend-request', body: 'Ann added you as a friend.' }),
    );
  });

  it('raises a lobby mention for live messages naming you, not for history, your own lines or other names', async () => {
    const { notify, s } = await signedIn();
    vi.useFakeTimers({ toFake: ['Date'] });
    const msg = (id: string, userId: string, message: string) => ({
      id,
      userId,
      username: userId === 'u9' ? 'Dee' : 'Ann',
      userName: 'Ann',
      message,
      timestamp: new Date().toISOString(),
    });
    s.serve('authenticated', { success: true, userId: 'u9' });
    // History replayed right after authentication.
    s.serve('lobby_chat_message', msg('h1', 'u2', 'old: hi dee'));
    vi.advanceTimersByTime(1_500);
    s.serve('lobby_chat_message', msg('m1', 'u9', 'Dee here'));
    s.serve('lobby_chat_message', msg('m2', 'u2', 'deedee is someone else'));
    expect(notify).not.toHaveBeenCalled();
    s.serve('lobby_chat_message', msg('m3', 'u2', 'anyone seen DEE?'));
    expect(notify).toHaveBeenCalledTimes(1);
    expect(notify).toHaveBeenCalledWith(
      expect.objectContaining({ kind: 'mention', title: 'Ann mentioned you in the lobby', body: 'anyone seen DEE?' }),
    );
    expect(notify.mock.calls[0][0].gameId).toBeUndefined();
  });
});
