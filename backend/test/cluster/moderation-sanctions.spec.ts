/**
 * Issue #25: a sanction made on one node is in force on the other at once. Two real backend PROCESSES share one
 * PostgreSQL schema and Redis; each node caches a player's active mute/ban for a few seconds, and a change clears
 * that cache on every node (Redis pub/sub). The player's node has the player's state cached (a chat line and a
 * sign-in went through it) before a moderator on the other node mutes, then bans them.
 */
import { banMessage, muteMessage } from '@spades/common';
import { ChildDb, childDb, ChildServer, startChild, withDatabase } from '../games/support/child';
import { api, connectSocket, registerUser, TestSocket, waitForEvent } from '../support/test-app';

const PG = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const d = PG && REDIS_URL ? describe : describe.skip;
if (!PG || !REDIS_URL) {
  console.warn('[cluster/moderation-sanctions.spec] needs TEST_DATABASE_URL and REDIS_URL: skipped');
}

/** Sends a lobby chat line: the refusal message, or null when it went out. */
function lobbyChat(s: TestSocket, text: string): Promise<string | null> {
  const sock = s as unknown as {
    on(e: string, f: (p: { event?: string; message?: string }) => void): void;
    off(e: string, f: unknown): void;
    emit(e: string, p: unknown): void;
  };
  return new Promise((resolve, reject) => {
    const done = (v: string | null) => {
      clearTimeout(timer);
      sock.off('error', onError);
      sock.off('lobby_chat_message', onMessage);
      resolve(v);
    };
    const onError = (e: { event?: string; message?: string }) => e?.event === 'lobby_chat_message' && done(e.message!);
    const onMessage = (m: { message?: string }) => m?.message === text && done(null);
    const timer = setTimeout(() => reject(new Error(`no answer to lobby chat "${text}"`)), 10_000);
    sock.on('error', onError);
    sock.on('lobby_chat_message', onMessage);
    sock.emit('lobby_chat_message', { message: text });
  });
}

d('sanctions across nodes (2 processes, PostgreSQL + Redis)', () => {
  let db: ChildDb;
  let a: ChildServer;
  let b: ChildServer;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    db = childDb();
    a = await startChild(db, { REDIS_URL: REDIS_URL!, NODE_ID: 'mod-a', CLUSTER_LEASE_MS: '1500' });
    b = await startChild(db, { REDIS_URL: REDIS_URL!, NODE_ID: 'mod-b', CLUSTER_LEASE_MS: '1500' });
  }, 120_000);

  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.all([a, b].filter(Boolean).map((n) => n.kill()));
    await db?.cleanup();
  }, 60_000);

  it('a mute and a ban made on node A are enforced at once by node B, whose cache held the player', async () => {
    const mod = await registerUser(a.url);
    await withDatabase(db, (q) => q(`UPDATE users SET role = 'moderator' WHERE id = $1`, [mod.user.id]));
    const player = await registerUser(b.url);
    const login = await api(b.url, 'POST', '/api/auth/login', {
      body: { email: player.email, password: player.password },
    });
    expect(login.status).toBe(200);
    const s = await connectSocket(b.url, login.body.token);
    sockets.push(s);
    expect(await lobbyChat(s, 'hello from b')).toBeNull(); // B now caches "no mute"

    const noticeOnB = waitForEvent(s, 'sanction_notice', (n) => n.kind === 'mute', 10_000);
    const mute = await api(a.url, 'POST', `/api/admin/players/${player.user.id}/sanctions`, {
      token: mod.token,
      body: { kind: 'mute', minutes: 30, reason: 'flooding' },
    });
    expect(mute.status).toBe(200);
    await noticeOnB;
    expect(await lobbyChat(s, 'still here')).toBe(
      muteMessage({ reason: 'flooding', endsAt: mute.body.endsAt, scope: 'all' }),
    );

    const closed = new Promise<void>((resolve) => s.once('disconnect', () => resolve()));
    const ban = await api(a.url, 'POST', `/api/admin/players/${player.user.id}/sanctions`, {
      token: mod.token,
      body: { kind: 'ban', minutes: 60, reason: 'ban evasion' },
    });
    expect(ban.status).toBe(200);
    await closed; // B's socket of the player, closed from A
    const refused = await api(b.url, 'POST', '/api/auth/login', {
      body: { email: player.email, password: player.password },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(banMessage({ reason: 'ban evasion', endsAt: ban.body.endsAt }));
  }, 60_000);
});
