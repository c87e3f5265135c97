// REDIS_URL: socket.io broadcasts go through Redis, so two servers on the same database reach each other's sockets,
// and servers on other databases sharing the same Redis never see them. Needs a real Redis (REDIS_URL) and a
// PostgreSQL both servers can share (TEST_DATABASE_URL); without them the suite says why and skips.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ChatMessage } from '@spades/common';
import {
  api,
  connectSocket,
  createTestApp,
  recordEvents,
  registerUser,
  sleep,
  TestApp,
  TestSocket,
  waitForEvent,
} from './support/test-app';

const REDIS_URL = process.env.REDIS_URL;
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const missing = [!REDIS_URL && 'REDIS_URL', !TEST_DATABASE_URL && 'TEST_DATABASE_URL'].filter(Boolean);
if (missing.length) {
  console.warn(`[redis.spec] ${missing.join(' and ')} not set: skipping the two-server Redis broadcast tests`);
}
const describeWithRedis = missing.length ? describe.skip : describe;

describeWithRedis('REDIS_URL: socket.io broadcasts across servers on one database', () => {
  let a: TestApp;
  let b: TestApp;
  let other: TestApp;
  const open: TestSocket[] = [];
  const track = (s: TestSocket) => (open.push(s), s);

  beforeAll(async () => {
    a = await createTestApp({ env: { REDIS_URL, NODE_ID: 'redis-spec-a' } });
    // a second server on the SAME schema and JWT secret (two instances of one deployment)
    b = await createTestApp({
      env: {
        REDIS_URL,
        NODE_ID: 'redis-spec-b',
        DATABASE_SCHEMA: a.config.databaseSchema,
        JWT_SECRET: a.config.jwtSecret,
      },
    });
    // an unrelated deployment (its own schema) on the same Redis
    other = await createTestApp({ env: { REDIS_URL } });
  }, 60_000);

  afterAll(async () => {
    for (const s of open) s.close();
    await other?.close();
    await b?.close();
    await a?.close();
  });

  it('lobby chat sent on one server reaches a socket on the other, not another deployment', async () => {
    const x = await registerUser(a.url);
    const y = await registerUser(a.url);
    const z = await registerUser(other.url);
    const onA = track(await connectSocket(a.url, x.token));
    const onB = track(await connectSocket(b.url, y.token));
    const onOther = track(await connectSocket(other.url, z.token));
    const elsewhere = recordEvents(onOther, 'lobby_chat_message');

    const arrived = waitForEvent(onA, 'lobby_chat_message', (m: ChatMessage) => m.message === 'from server B');
    onB.emit('lobby_chat_message', 'from server B');
    const msg = await arrived;
    expect(msg).toMatchObject({ userId: y.user.id, message: 'from server B' });
    await sleep(300);
    expect(elsewhere.filter((m: ChatMessage) => m.message === 'from server B')).toEqual([]);
  });

  it('a friend request made through server A is notified to the target connected to server B', async () => {
    const x = await registerUser(a.url);
    const y = await registerUser(a.url);
    const onB = track(await connectSocket(b.url, y.token));
    const notified = waitForEvent(onB, 'friendAdded');
    const res = await api(a.url, 'POST', '/api/social/friends/add', { token: x.token, body: { friendId: y.user.id } });
    expect(res.status).toBeLessThan(300);
    expect(await notified).toBeDefined();
  });
});
