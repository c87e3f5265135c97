/**
 * Issue #25: the host's settings are live on every node without a restart. Two real backend PROCESSES share one
 * PostgreSQL schema and Redis; an admin changes the settings on one node and the other applies them (pub/sub):
 * its public view, its registration check and the announcement banner its own sockets receive — both ways.
 */
import { REGISTRATION_MESSAGES } from '@spades/common';
import { ChildDb, childDb, ChildServer, startChild, withDatabase } from '../games/support/child';
import { api, connectSocket, registerUser, TestSocket, waitForEvent } from '../support/test-app';

const PG = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const d = PG && REDIS_URL ? describe : describe.skip;
if (!PG || !REDIS_URL) {
  console.warn(
    '[cluster/settings.spec] needs TEST_DATABASE_URL and REDIS_URL (two nodes share PostgreSQL + Redis): skipped',
  );
}

d('server settings across nodes (2 processes, PostgreSQL + Redis)', () => {
  let db: ChildDb;
  let a: ChildServer;
  let b: ChildServer;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    db = childDb();
    // the first node migrates the schema alone; the second joins it
    a = await startChild(db, { REDIS_URL: REDIS_URL!, NODE_ID: 'settings-a', CLUSTER_LEASE_MS: '1500' });
    b = await startChild(db, { REDIS_URL: REDIS_URL!, NODE_ID: 'settings-b', CLUSTER_LEASE_MS: '1500' });
  }, 120_000);

  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.all([a, b].filter(Boolean).map((n) => n.kill()));
    await db?.cleanup();
  }, 60_000);

  it('a change made on one node reaches the other: public view, registration check, banner on its sockets', async () => {
    const admin = await registerUser(a.url);
    await withDatabase(db, (q) => q(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.user.id]));
    const onB = await registerUser(b.url);
    const onA = await registerUser(a.url);
    const sb = await connectSocket(b.url, onB.token);
    const sa = await connectSocket(a.url, onA.token);
    sockets.push(sa, sb);

    // changed on A …
    const bannerOnB = waitForEvent(sb, 'announcement', (x) => x?.text === 'Closed for the night', 15_000);
    const put = await api(a.url, 'PUT', '/api/admin/settings', {
      token: admin.token,
      body: {
        changes: { registration: 'closed', announcement: { text: 'Closed for the night' }, serverName: 'Owls' },
        reason: 'night',
      },
    });
    expect(put.status).toBe(200);
    // … pushed by B to its own socket, and applied by B
    expect(await bannerOnB).toMatchObject({ text: 'Closed for the night', level: 'info' });
    const pubB = await api(b.url, 'GET', '/api/settings/public');
    expect(pubB.body).toMatchObject({
      registration: 'closed',
      serverName: 'Owls',
      announcement: put.body.settings.announcement,
    });
    const refused = await api(b.url, 'POST', '/api/auth/register', {
      body: { username: 'lateowl', email: 'lateowl@example.test', password: 'correct horse battery' },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(REGISTRATION_MESSAGES.closed);
    expect((await api(b.url, 'GET', '/api/server-info')).body).toMatchObject({ name: 'Owls', registration: 'closed' });

    // … and back: changed on B, applied by A
    const clearedOnA = waitForEvent(sa, 'announcement', (x) => x === null, 15_000);
    const back = await api(b.url, 'PUT', '/api/admin/settings', {
      token: admin.token,
      body: { changes: { registration: 'open', announcement: null }, reason: 'morning' },
    });
    expect(back.status).toBe(200);
    expect(await clearedOnA).toBeNull();
    const pubA = await api(a.url, 'GET', '/api/settings/public');
    expect(pubA.body).toMatchObject({ registration: 'open', announcement: null, serverName: 'Owls' });
    expect((await api(a.url, 'GET', '/api/admin/settings', { token: admin.token })).body.version).toBe(
      back.body.version,
    );
    expect((await registerUser(a.url)).user.id).toEqual(expect.any(String));

    // a node that starts later reads the stored settings at boot
    const c = await startChild(db, { REDIS_URL: REDIS_URL!, NODE_ID: 'settings-c', CLUSTER_LEASE_MS: '1500' });
    try {
      expect((await api(c.url, 'GET', '/api/settings/public')).body).toMatchObject({
        serverName: 'Owls',
        registration: 'open',
      });
    } finally {
      await c.kill();
    }
  }, 90_000);
});
