import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createHmac } from 'node:crypto';
import passport from 'passport';
import { io } from 'socket.io-client';
import { JwtStrategy } from '../src/auth/jwt.strategy';
import {
  api,
  connectRawSocket,
  createTestApp,
  registerUser,
  TestApp,
  TestSocket,
  waitForEvent,
} from './support/test-app';

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
/** A JWT signed with HMAC-SHA256 under `secret` (the server's own secret makes expired / unknown-user tokens). */
function forge(payload: object, secret: string, header: object = { alg: 'HS256', typ: 'JWT' }): string {
  const head = b64(header);
  const body = b64(payload);
  return `${head}.${body}.${createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url')}`;
}

/**
 * One verification path: the passport `jwt` strategy refuses the same tokens over HTTP (Authorization header)
 * and over socket.io (handshake `auth.token` and the `authenticate` event), and it is the strategy that runs.
 */
describe('session tokens: one passport jwt strategy for HTTP and sockets', () => {
  let t: TestApp;
  const open: TestSocket[] = [];
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    for (const s of open) s.close();
    await t?.close();
  });

  /** authenticated {…} answered to a socket that presents `token` in its handshake, then in `authenticate`. */
  async function overSocket(token: string): Promise<[unknown, unknown]> {
    const s: TestSocket = io(t.url, {
      auth: { token },
      transports: ['websocket'],
      forceNew: true,
      reconnection: false,
      autoConnect: false,
    });
    open.push(s);
    const first = waitForEvent(s, 'authenticated');
    s.connect();
    const handshake = await first;
    const second = waitForEvent(s, 'authenticated');
    s.emit('authenticate', { token });
    const event = await second;
    s.close();
    return [handshake, event];
  }

  it('forged, expired, alg:none, other-algorithm and unknown-user tokens are refused over HTTP and socket alike', async () => {
    const u = await registerUser(t.url);
    const now = Math.floor(Date.now() / 1000);
    const secret = t.config.jwtSecret;
    const bad: [string, string][] = [
      ['forged (other secret)', forge({ sub: u.user.id, iat: now, exp: now + 600 }, 'f'.repeat(40))],
      ['expired', forge({ sub: u.user.id, iat: now - 7200, exp: now - 3600 }, secret)],
      ['alg none', `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: u.user.id, iat: now, exp: now + 600 })}.`],
      ['HS512 with the right secret', forge({ sub: u.user.id, iat: now, exp: now + 600 }, secret, { alg: 'HS512' })],
      ['unknown user', forge({ sub: '00000000-0000-4000-8000-000000000000', iat: now, exp: now + 600 }, secret)],
      ['no sub', forge({ iat: now, exp: now + 600 }, secret)],
      ['garbage', 'abc.def.ghi'],
    ];
    const refused = { success: false, message: 'Invalid or expired session' };
    for (const [name, token] of bad) {
      const http = await api(t.url, 'GET', '/api/auth/profile', { token });
      expect([name, http.status, http.body]).toEqual([name, 401, { message: 'Invalid or expired session' }]);
      expect([name, await overSocket(token)]).toEqual([name, [refused, refused]]);
    }
    // the control: the server's own HS256 token for an existing account passes both ways
    const good = forge({ sub: u.user.id, iat: now, exp: now + 600 }, secret);
    expect((await api(t.url, 'GET', '/api/auth/profile', { token: good })).status).toBe(200);
    const ok = { success: true, userId: u.user.id };
    expect(await overSocket(good)).toEqual([ok, ok]);
  });

  it('two apps in one process keep their own strategies: each accepts its own tokens only', async () => {
    const other = await createTestApp(); // another DATA_DIR: another secret (and database)
    try {
      expect(other.config.jwtSecret).not.toBe(t.config.jwtSecret);
      // registered in each app's own passport instance, not in the process-wide singleton
      expect((passport as unknown as { _strategy(name: string): unknown })._strategy('jwt')).toBeUndefined();
      const mine = await registerUser(t.url);
      const theirs = await registerUser(other.url);
      expect((await api(t.url, 'GET', '/api/auth/profile', { token: mine.token })).status).toBe(200);
      expect((await api(other.url, 'GET', '/api/auth/profile', { token: theirs.token })).status).toBe(200);
      expect((await api(t.url, 'GET', '/api/auth/profile', { token: theirs.token })).status).toBe(401);
      expect((await api(other.url, 'GET', '/api/auth/profile', { token: mine.token })).status).toBe(401);
      const ok = { success: true, userId: mine.user.id };
      expect(await overSocket(mine.token)).toEqual([ok, ok]);
    } finally {
      await other.close();
    }
  });

  it('the passport jwt strategy is what decides, for HTTP and for sockets', async () => {
    const u = await registerUser(t.url);
    const strategy = t.app.get(JwtStrategy);
    const runs = jest.spyOn(strategy, 'authenticate');
    const refuse = jest.spyOn(strategy, 'validate').mockResolvedValue(false);
    try {
      // a valid token, but the strategy's validate says no: refused on both transports
      const http = await api(t.url, 'GET', '/api/auth/profile', { token: u.token });
      expect(http.status).toBe(401);
      expect(runs).toHaveBeenCalledTimes(1);
      const s = await connectRawSocket(t.url);
      open.push(s);
      const answer = waitForEvent(s, 'authenticated');
      s.emit('authenticate', { token: u.token });
      expect(await answer).toEqual({ success: false, message: 'Invalid or expired session' });
      expect(runs).toHaveBeenCalledTimes(2);
      expect(refuse).toHaveBeenCalledTimes(2);
      expect(refuse.mock.calls.map((c) => (c[0] as { sub?: string }).sub)).toEqual([u.user.id, u.user.id]);
    } finally {
      runs.mockRestore();
      refuse.mockRestore();
    }
    expect((await api(t.url, 'GET', '/api/auth/profile', { token: u.token })).status).toBe(200);
  });
});
