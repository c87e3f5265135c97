// Issue #24 item 4 in cluster mode: the table chat limit (3 a second per user) is one limit across nodes (Redis),
// applied once per message even when the command is forwarded to the node that owns the table. Two Nest apps on ONE
// PostgreSQL schema and one Redis, real socket.io clients. Needs REDIS_URL and TEST_DATABASE_URL; else says why, skips.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CHAT_RATE_MAX } from '@spades/common';
import { RATE_MESSAGES } from '../../src/realtime/rate.limiter';
import { SETTINGS } from '../games/helpers';
import { api, connectSocket, createTestApp, registerUser, TestApp, TestSocket } from '../support/test-app';

const REDIS_URL = process.env.REDIS_URL;
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
const missing = [!REDIS_URL && 'REDIS_URL', !TEST_DATABASE_URL && 'TEST_DATABASE_URL'].filter(Boolean);
if (missing.length)
  console.warn(
    `[chat-limit.cluster.spec] ${missing.join(' and ')} not set: skipping the cluster table chat limit test`,
  );
const describeCluster = missing.length ? describe.skip : describe;

describeCluster('cluster mode: the table chat limit is shared by the nodes', () => {
  let n1: TestApp;
  let n2: TestApp;
  const open: TestSocket[] = [];
  const clusterEnv = (nodeId: string) => ({ REDIS_URL, CLUSTER_LEASE_MS: '1000', NODE_ID: nodeId });

  beforeAll(async () => {
    n1 = await createTestApp({ env: clusterEnv('chat-1') });
    n2 = await createTestApp({
      env: { ...clusterEnv('chat-2'), DATABASE_SCHEMA: n1.config.databaseSchema, JWT_SECRET: n1.config.jwtSecret },
    });
  }, 60_000);
  afterAll(async () => {
    for (const s of open) s.close();
    await n2?.close();
    await n1?.close();
  });

  const emit = (s: TestSocket, event: string, payload: unknown) =>
    new Promise<{ ok: boolean; message?: string }>((r) => (s.emit as (...a: unknown[]) => void)(event, payload, r));

  it('60 messages from one user over sockets on both nodes: 3 accepted in all, 3 stored, the rest refused', async () => {
    const u = await registerUser(n1.url);
    const created = await api(n1.url, 'POST', '/api/games', { token: u.token, body: SETTINGS });
    expect(created.status).toBe(201);
    const gameId = created.body.id as string;
    const on1 = await connectSocket(n1.url, u.token);
    const on2 = await connectSocket(n2.url, u.token);
    open.push(on1, on2);
    expect(await emit(on1, 'join_game', { gameId })).toMatchObject({ ok: true });

    const acks = await Promise.all(
      Array.from({ length: 60 }, (_, i) => emit(i % 2 ? on2 : on1, 'chat_message', { gameId, message: `both ${i}` })),
    );
    expect(acks.filter((a) => a.ok)).toHaveLength(CHAT_RATE_MAX);
    for (const a of acks.filter((x) => !x.ok)) expect(a.message).toBe(RATE_MESSAGES.chatTooFast);
    const [{ n }] = await n1.dataSource.query(
      `SELECT count(*)::int AS n FROM game_events WHERE game_id = $1 AND type = 'chat' AND actor = $2`,
      [gameId, u.user.id],
    );
    expect(n).toBe(CHAT_RATE_MAX);
  }, 30_000);
});
