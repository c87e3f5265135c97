/**
 * Issue #24: when the server ends the socket because its token expired (`session_expired`), the client signs out
 * like on an HTTP 401 (ruling 6): the stored session is cleared, the login page is shown with the server's message.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import { KEYS } from '../lib/storage';

type Listener = (...a: unknown[]) => void;
const sockets: FakeIo[] = [];
class FakeIo {
  handlers = new Map<string, Set<Listener>>();
  io = { on: vi.fn(), removeAllListeners: vi.fn() };
  connected = false;
  active = true;
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
  emit() {
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

const PROFILE = {
  id: 'u9',
  username: 'Dee',
  email: 'dee@x.test',
  avatar: null,
  coins: 1_000_000,
  stats: { gamesPlayed: 3 },
};

beforeEach(() => {
  sockets.length = 0;
  localStorage.setItem(KEYS.sessionToken, 'tok');
  window.history.replaceState(null, '', '/');
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    const json = (b: unknown) =>
      new Response(JSON.stringify(b), { status: 200, headers: { 'Content-Type': 'application/json' } });
    if (url.endsWith('/api/auth/profile')) return json({ user: PROFILE });
    return json([]);
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('session_expired on the socket', () => {
  it('clears the session and shows the login page with the message', async () => {
    render(<Root />);
    expect(await screen.findByText('Available Games')).toBeInTheDocument();
    await waitFor(() => expect(sockets.length).toBeGreaterThan(0));
    sockets.at(-1)!.serve('session_expired', { message: 'Your session has expired. Please sign in again.' });
    await waitFor(() => expect(window.location.pathname).toBe('/login'));
    expect(localStorage.getItem(KEYS.sessionToken)).toBeNull();
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.getByText('Your session has expired. Please sign in again.')).toBeInTheDocument();
  });
});
