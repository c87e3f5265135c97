// Cluster mode (issue #13): presence, lobby chat and the chat rate limit are the same whichever node a client is on.
// Two Nest apps in this process and one forked server process (killed with SIGKILL) on ONE PostgreSQL schema and
// one Redis, with real socket.io clients. Needs REDIS_URL and TEST_DATABASE_URL; without them it says why and skips.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ChatMessage, LobbyPlayer, PresenceChanged } from '@spades/common';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RealtimeService } from '../../src/realtime/realtime.service';
import { ChildDb, ChildServer, startChild } from '../games/support/child';
import {
  api,
  connectSocket,
  createTestApp,
  recordEvents,
  registerUser,
  RegisteredUser,
  sleep,
  TestApp,
  TestSocket,
  waitForEvent,
} from '../support/test-app';

const REDIS_URL = process.env.REDIS_URL;
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const missing = [!REDIS_URL && 'REDIS_URL', !TEST_DATABASE_URL && 'TEST_DATABASE_URL'].filter(Boolean);
if (missing.length)
  console.warn(`[presence.cluster.spec] ${missing.join(' and ')} not set: skipping the cluster presence tests`);
const describeCluster = missing.length ? describe.skip : describe;

const LEASE_MS = 1000;
/** A dead node's users are offline everywhere after the lease, a heartbeat (≤ lease / 3) and the 250 ms coalescing. */
const OFFLINE_BOUND_MS = LEASE_MS + Math.floor(LEASE_MS / 3) + 250 + 750;

async function waitUntil(what: string, pred: () => boolean, timeoutMs = 5000): Promise<void> {
  const t0 = Date.now();
  while (!pred()) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for: ${what}`);
    await sleep(10);
  }
}

/** A socket that shows the lobby: every `presence_changed` and the `online_users` it got. */
interface Watcher {
  socket: TestSocket;
  presence: PresenceChanged[];
  onlineUsers: string[][];
  count(userId: string, kind: 'online' | 'offline'): number;
}

describeCluster('cluster mode: presence and lobby chat across nodes', () => {
  let n1: TestApp;
  let n2: TestApp;
  const open: TestSocket[] = [];
  const track = (s: TestSocket) => (open.push(s), s);
  const events: Record<'n1' | 'n2', { online: string[]; offline: string[] }> = {
    n1: { online: [], offline: [] },
    n2: { online: [], offline: [] },
  };

  const clusterEnv = (nodeId: string) => ({ REDIS_URL, CLUSTER_LEASE_MS: String(LEASE_MS), NODE_ID: nodeId });

  async function watcher(url: string): Promise<Watcher> {
    const u = await registerUser(url);
    const socket = track(await connectSocket(url, u.token));
    const presence = recordEvents(socket, 'presence_changed');
    const onlineUsers = recordEvents(socket, 'online_users');
    const answered = new Promise((r) => socket.emit('watch_lobby', {}, r));
    await answered;
    await waitUntil('online_users', () => onlineUsers.length === 1);
    return {
      socket,
      presence,
      onlineUsers,
      count: (id, kind) => presence.filter((p) => p[kind].includes(id)).length,
    };
  }

  beforeAll(async () => {
    n1 = await createTestApp({ env: clusterEnv('node-1') });
    n2 = await createTestApp({
      env: { ...clusterEnv('node-2'), DATABASE_SCHEMA: n1.config.databaseSchema, JWT_SECRET: n1.config.jwtSecret },
    });
    for (const [name, t] of [
      ['n1', n1],
      ['n2', n2],
    ] as const) {
      const rt = t.app.get(RealtimeService);
      expect(rt.cluster).not.toBeNull(); // DATABASE_URL + REDIS_URL: cluster mode
      rt.events.on('online', (id) => events[name].online.push(id));
      rt.events.on('offline', (id) => events[name].offline.push(id));
    }
  }, 60_000);

  afterAll(async () => {
    for (const s of open) s.close();
    await n2?.close();
    await n1?.close();
  });

  it("B's watch_lobby on node 2 lists A on node 1; A leaving is one presence_changed and one 'offline' per node", async () => {
    const w1 = await watcher(n1.url);
    const w2 = await watcher(n2.url);
    const a = await registerUser(n1.url);
    const a1 = track(await connectSocket(n1.url, a.token));
    await waitUntil('A online for the watcher on node 2', () => w2.count(a.user.id, 'online') === 1);

    const b = await registerUser(n1.url);
    const sb = track(await connectSocket(n2.url, b.token));
    const lists = recordEvents(sb, 'online_users');
    await new Promise((r) => sb.emit('watch_lobby', {}, r));
    await waitUntil('online_users for B', () => lists.length === 1);
    expect(lists[0]).toEqual(expect.arrayContaining([a.user.id, b.user.id]));

    // a second socket of A, on the other node: no change
    const a2 = track(await connectSocket(n2.url, a.token));
    a1.close();
    await sleep(700);
    expect(n2.app.get(RealtimeService).isOnline(a.user.id)).toBe(true);
    expect(n1.app.get(RealtimeService).isOnline(a.user.id)).toBe(true);
    a2.close();
    await waitUntil(
      'A offline for both watchers',
      () => w1.count(a.user.id, 'offline') === 1 && w2.count(a.user.id, 'offline') === 1,
    );
    await sleep(700);
    for (const w of [w1, w2]) expect([w.count(a.user.id, 'online'), w.count(a.user.id, 'offline')]).toEqual([1, 1]);
    for (const name of ['n1', 'n2'] as const) {
      expect(events[name].online.filter((id) => id === a.user.id)).toHaveLength(1);
      expect(events[name].offline.filter((id) => id === a.user.id)).toHaveLength(1);
    }
    expect(n1.app.get(RealtimeService).isOnline(a.user.id)).toBe(false);
    expect(n2.app.get(RealtimeService).onlineUserIds()).not.toContain(a.user.id);
  });

  it('the players list (GET /api/users) on node 2 shows a user connected to node 1 as online', async () => {
    const viewer = await registerUser(n1.url);
    const c = await registerUser(n1.url);
    const onlineOf = async () => {
      const res = await api<LobbyPlayer[]>(n2.url, 'GET', '/api/users', { token: viewer.token });
      expect(res.status).toBe(200);
      return res.body.find((p) => p.id === c.user.id)?.online;
    };
    expect(await onlineOf()).toBe(false);
    const sc = track(await connectSocket(n1.url, c.token));
    await waitUntil('C mirrored on node 2', () => n2.app.get(RealtimeService).isOnline(c.user.id));
    expect(await onlineOf()).toBe(true);
    sc.close();
    await waitUntil('C offline on node 2', () => !n2.app.get(RealtimeService).isOnline(c.user.id));
    expect(await onlineOf()).toBe(false);
  });

  it('lobby chat crosses nodes, and the rate limit is one per user across nodes', async () => {
    const talker = await registerUser(n1.url);
    const listener = await registerUser(n1.url);
    const onN1 = track(await connectSocket(n1.url, talker.token));
    const onN2 = track(await connectSocket(n2.url, talker.token));
    const hears = track(await connectSocket(n2.url, listener.token));
    const heard = recordEvents(hears, 'lobby_chat_message');
    const errors = recordEvents(onN1, 'error');
    const errors2 = recordEvents(onN2, 'error');
    const fromN1 = waitForEvent(hears, 'lobby_chat_message', (m: ChatMessage) => m.message === 'hello from node 1');
    onN1.emit('lobby_chat_message', 'hello from node 1');
    expect(await fromN1).toMatchObject({ userId: talker.user.id });
    // two more from node 1 and two from node 2 within the second: 3 per second per user, wherever they are sent
    onN1.emit('lobby_chat_message', 'n1 second');
    onN2.emit('lobby_chat_message', 'n2 first');
    onN1.emit('lobby_chat_message', 'n1 third');
    onN2.emit('lobby_chat_message', 'n2 second');
    await sleep(800);
    const mine = heard.filter((m) => m.userId === talker.user.id).map((m) => m.message);
    expect(mine).toHaveLength(3);
    expect(mine[0]).toBe('hello from node 1');
    const tooFast = [...errors, ...errors2].filter((e) => /too fast/.test(e.message));
    expect(tooFast).toHaveLength(2);
  });

  it('a node shut down gracefully keeps its users online for the lease: one who reconnects elsewhere never flaps', async () => {
    const w = await watcher(n2.url);
    const n3 = await createTestApp({
      env: { ...clusterEnv('node-3b'), DATABASE_SCHEMA: n1.config.databaseSchema, JWT_SECRET: n1.config.jwtSecret },
    });
    let closed = false;
    try {
      const leaves = await registerUser(n1.url);
      const moves = await registerUser(n1.url);
      for (const u of [leaves, moves]) track(await connectSocket(n3.url, u.token));
      await waitUntil('both online on node 2', () => [leaves, moves].every((u) => w.count(u.user.id, 'online') === 1));
      const t0 = Date.now();
      await n3.close(); // its sockets are closed: not sent to Redis, the lease decides
      closed = true;
      track(await connectSocket(n1.url, moves.token));
      await waitUntil('the user who left goes offline', () => w.count(leaves.user.id, 'offline') === 1, 10_000);
      const elapsed = Date.now() - t0;
      expect(elapsed).toBeGreaterThanOrEqual(LEASE_MS - Math.floor(LEASE_MS / 3) - 100);
      expect(elapsed).toBeLessThanOrEqual(OFFLINE_BOUND_MS + 500);
      await sleep(500);
      expect(w.count(moves.user.id, 'offline')).toBe(0);
      expect(n2.app.get(RealtimeService).isOnline(moves.user.id)).toBe(true);
    } finally {
      if (!closed) await n3.close();
    }
  }, 60_000);

  it("a killed node's users go offline on the others within the lease; users with a socket elsewhere stay online", async () => {
    const w = await watcher(n2.url);
    const dataDir = mkdtempSync(join(tmpdir(), 'spades-node3-'));
    const db: ChildDb = {
      dataDir,
      env: {
        PORT: '0',
        DATA_DIR: dataDir,
        DATABASE_URL: TEST_DATABASE_URL,
        DATABASE_SCHEMA: n1.config.databaseSchema,
        DATABASE_POOL_SIZE: '2',
        JWT_SECRET: n1.config.jwtSecret,
        CLIENT_URL: 'http://localhost:5173',
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
        ...clusterEnv('node-3'),
      },
      cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
    let n3: ChildServer | null = null;
    try {
      n3 = await startChild(db);
      const users: Record<'gone' | 'twoNodes' | 'moves', RegisteredUser> = {
        gone: await registerUser(n1.url),
        twoNodes: await registerUser(n1.url),
        moves: await registerUser(n1.url),
      };
      for (const u of Object.values(users)) track(await connectSocket(n3.url, u.token));
      track(await connectSocket(n1.url, users.twoNodes.token));
      const ids = Object.values(users).map((u) => u.user.id);
      await waitUntil('node 3 users online on node 2', () => ids.every((id) => w.count(id, 'online') === 1));

      await n3.kill(); // SIGKILL: no shutdown hook, its keys stay in Redis until the others reap them
      const t0 = Date.now();
      track(await connectSocket(n1.url, users.moves.token)); // this client reconnected to node 1 at once
      await waitUntil(
        "the killed node's user offline on node 2",
        () => w.count(users.gone.user.id, 'offline') === 1,
        10_000,
      );
      const elapsed = Date.now() - t0;
      expect(elapsed).toBeLessThanOrEqual(OFFLINE_BOUND_MS);
      await sleep(LEASE_MS);
      expect(w.count(users.gone.user.id, 'offline')).toBe(1);
      for (const u of [users.twoNodes, users.moves]) {
        expect(w.count(u.user.id, 'offline')).toBe(0);
        for (const t of [n1, n2]) expect(t.app.get(RealtimeService).isOnline(u.user.id)).toBe(true);
      }
      for (const t of [n1, n2]) expect(t.app.get(RealtimeService).isOnline(users.gone.user.id)).toBe(false);
      expect(events.n1.offline.filter((id) => id === users.gone.user.id)).toHaveLength(1);
      expect(events.n2.offline.filter((id) => id === users.gone.user.id)).toHaveLength(1);
    } finally {
      await n3?.kill();
      await db.cleanup();
    }
  }, 120_000);
});
