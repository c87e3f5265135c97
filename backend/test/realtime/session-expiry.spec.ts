// Issue #24 ("Also seen"): a socket kept its identity after its token expired (the token was checked at connect
// only). Now, at the token's `exp`, the server sends `session_expired` and disconnects the socket; the expired token
// signs nothing in again. Real app (JWT_EXPIRES_IN=2s), real socket.io clients, PostgreSQL or PGlite.
import { SESSION_EXPIRED_MESSAGE } from '@spades/common';
import {
  api,
  connectRawSocket,
  connectSocket,
  createTestApp,
  recordEvents,
  registerUser,
  sleep,
  TestApp,
  TestSocket,
  waitForEvent,
} from '../support/test-app';

describe('sockets expire with their token', () => {
  let t: TestApp;
  const open: TestSocket[] = [];
  beforeAll(async () => {
    t = await createTestApp({ env: { JWT_EXPIRES_IN: '2s' } });
  });
  afterAll(async () => {
    for (const s of open) s.close();
    await t?.close();
  });

  it('at exp: session_expired with a clear message, then disconnected; the expired token cannot act or sign in again', async () => {
    const u = await registerUser(t.url);
    const exp = JSON.parse(Buffer.from(u.token.split('.')[1], 'base64url').toString()).exp * 1000;
    const s = await connectSocket(t.url, u.token);
    open.push(s);
    const expired = recordEvents(s, 'session_expired');
    const expiredNotice = new Promise((r) =>
      (s as unknown as { once(e: string, f: (p: unknown) => void): void }).once('session_expired', r),
    );
    const reason = new Promise<string>((r) => s.once('disconnect', (why) => r(why)));
    // while the token is valid the socket acts as the user
    const ack = await new Promise<{ ok: boolean }>((r) => s.emit('watch_lobby', {}, r as never));
    expect(ack.ok).toBe(true);

    expect(await within(expiredNotice, 8000, 'session_expired')).toEqual({ message: SESSION_EXPIRED_MESSAGE });
    expect(Date.now()).toBeGreaterThanOrEqual(exp);
    expect(await reason).toBe('io server disconnect'); // the server ended it; the client does not reconnect by itself
    expect(s.connected).toBe(false);
    expect(expired).toHaveLength(1);

    // the same token: refused on a new socket (sign-in and every other event) and over HTTP
    const raw = await connectRawSocket(t.url);
    open.push(raw);
    const answer = waitForEvent(raw, 'authenticated');
    (raw.emit as (...a: unknown[]) => void)('authenticate', { token: u.token });
    expect(await answer).toMatchObject({ success: false });
    const refused = waitForEvent(raw, 'error', (e) => e.event === 'chat_message');
    (raw.emit as (...a: unknown[]) => void)('chat_message', {
      gameId: '00000000-0000-4000-8000-000000000000',
      message: 'still me?',
    });
    expect((await refused).message).toBe('Not authenticated');
    expect((await api(t.url, 'GET', '/api/auth/profile', { token: u.token })).status).toBe(401);
  });

  it('a socket of a fresh login is not cut by another socket expiring, and is cut at its own exp', async () => {
    const u = await registerUser(t.url);
    const first = await connectSocket(t.url, u.token);
    open.push(first);
    // listen from the start: on a loaded machine the login below may take longer than the first token lives
    const firstExpired = stamped(first, 'session_expired');
    await sleep(1100);
    const login = await api<{ token: string }>(t.url, 'POST', '/api/auth/login', {
      body: { email: u.email, password: u.password },
    });
    expect(login.status).toBe(200);
    const second = await connectSocket(t.url, login.body.token);
    open.push(second);
    const secondExpired = stamped(second, 'session_expired');
    const secondGone = stamped(second, 'disconnect');
    const secondExp = JSON.parse(Buffer.from(login.body.token.split('.')[1], 'base64url').toString()).exp * 1000;
    const firstAt = await within(firstExpired, 8000, 'the first socket expiring');
    const secondAt = await within(secondExpired, 8000, 'the second socket expiring');
    // the first socket's expiry came first and did not touch the second: it lived until its own exp
    expect(firstAt).toBeLessThan(secondExp);
    expect(secondAt).toBeGreaterThanOrEqual(secondExp);
    expect(await within(secondGone, 8000, 'the second socket closing')).toBeGreaterThanOrEqual(secondExp);
  });

  /** When `event` first reaches `socket` (Date.now()), listened for from now on. */
  function stamped(socket: TestSocket, event: 'session_expired' | 'disconnect'): Promise<number> {
    return new Promise((r) =>
      (socket as unknown as { once(e: string, f: () => void): void }).once(event, () => r(Date.now())),
    );
  }

  async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timeout waiting for ${what}`)), ms);
    });
    try {
      return await Promise.race([p, late]);
    } finally {
      clearTimeout(timer);
    }
  }
});
