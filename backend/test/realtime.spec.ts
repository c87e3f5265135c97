import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ChatMessage, LobbyPlayer } from '@spades/common';
import { createHmac } from 'node:crypto';
import { LobbyChatService } from '../src/lobby/lobby-chat.service';
import { io } from 'socket.io-client';
import {
  api,
  connectRawSocket,
  connectSocket,
  createTestApp,
  recordEvents,
  registerUser,
  RegisteredUser,
  sleep,
  TestApp,
  TestSocket,
  waitForEvent,
} from './support/test-app';

/** An HS256 JWT signed with `secret` (to make expired tokens with the server's own secret). */
function forge(payload: object, secret: string): string {
  const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const head = b64({ alg: 'HS256', typ: 'JWT' });
  const body = b64(payload);
  return `${head}.${body}.${createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url')}`;
}

/**
 * Every event the server emitted to `s` before this call has been received once this resolves: an empty chat
 * message is answered synchronously with an `error`, and one socket's packets arrive in order.
 */
async function flush(s: TestSocket): Promise<void> {
  const answered = waitForEvent(s, 'error', (e) => e.event === 'lobby_chat_message');
  s.emit('lobby_chat_message', '');
  await answered;
}

describe('realtime: authentication, presence, lobby chat', () => {
  let t: TestApp;
  const open: TestSocket[] = [];
  const track = (s: TestSocket) => (open.push(s), s);
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    for (const s of open) s.close();
    await t?.close();
  });

  it('unauthenticated sockets can only authenticate; the authenticate event works', async () => {
    const u = await registerUser(t.url);
    const s = track(await connectRawSocket(t.url));
    const errors = recordEvents(s, 'error');
    const chats = recordEvents(s, 'lobby_chat_message');
    const presence = recordEvents(s, 'online_users');
    s.emit('lobby_chat_message', 'hello?');
    await waitForEvent(s, 'error', (e) => e.event === 'lobby_chat_message');
    expect(errors[0]).toEqual({ message: 'Not authenticated', event: 'lobby_chat_message' });
    const stored = await t.dataSource.query(`SELECT count(*)::int AS n FROM lobby_chat_messages`);
    expect(stored[0].n).toBe(0);

    const bad = waitForEvent(s, 'authenticated');
    s.emit('authenticate', { token: 'forged.token.value' });
    expect(await bad).toEqual({ success: false, message: 'Invalid or expired session' });

    const good = waitForEvent(s, 'authenticated');
    s.emit('authenticate', { token: u.token, userId: 'someone-else' });
    expect(await good).toEqual({ success: true, userId: u.user.id });
    s.emit('watch_lobby', {});
    await sleep(200);
    expect(presence.some((ids) => ids.includes(u.user.id))).toBe(true);
    expect(chats).toEqual([]);
  });

  it('a bad handshake token is answered with authenticated {success:false}', async () => {
    await expect(connectSocket(t.url, 'nope')).rejects.toThrow(/authentication failed/);
  });

  it('presence: lobby watchers get online_users, then a presence_changed per change; several tabs count once', async () => {
    const watcher = await registerUser(t.url);
    const u = await registerUser(t.url);
    const w = track(await connectSocket(t.url, watcher.token));
    const initial = waitForEvent(w, 'online_users');
    w.emit('watch_lobby', {});
    expect(await initial).toContain(watcher.user.id);
    const comesOnline = waitForEvent(w, 'presence_changed', (p) => p.online.includes(u.user.id));
    const tab1 = track(await connectSocket(t.url, u.token));
    const change = await comesOnline;
    expect(change.online.filter((id: string) => id === u.user.id)).toHaveLength(1);
    const updates = recordEvents(w, 'presence_changed');
    const tab2 = track(await connectSocket(t.url, u.token));
    await sleep(600);
    expect(updates).toEqual([]); // second tab: no change, no broadcast
    tab1.close();
    await sleep(600);
    expect(updates).toEqual([]); // still online through tab2
    const goesOffline = waitForEvent(w, 'presence_changed', (p) => p.offline.includes(u.user.id));
    tab2.close();
    const after = await goesOffline;
    expect(after.online).not.toContain(u.user.id);
  });

  it('lobby chat: trimmed, stored, delivered to everyone; empty and over-long messages rejected', async () => {
    const a = await registerUser(t.url);
    const b = await registerUser(t.url);
    const sa = track(await connectSocket(t.url, a.token));
    const sb = track(await connectSocket(t.url, b.token));
    const got = waitForEvent(sb, 'lobby_chat_message', (m) => m.userId === a.user.id);
    sa.emit('lobby_chat_message', { message: '   hello lobby  ' });
    const m = await got;
    expect(m).toMatchObject({
      userId: a.user.id,
      username: a.user.username,
      userName: a.user.username,
      message: 'hello lobby',
    });
    expect(new Date(m.timestamp).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const [row] = await t.dataSource.query(`SELECT message FROM lobby_chat_messages WHERE id = $1`, [m.id]);
    expect(row.message).toBe('hello lobby');

    await sleep(1100); // fresh rate-limit window
    const bSeen = recordEvents(sb, 'lobby_chat_message');
    for (const [payload, msg] of [
      ['    ', /cannot be empty/],
      [{ message: '' }, /cannot be empty/],
      ['x'.repeat(501), /at most 500/],
      [{ text: 'wrong shape' }, /must be text/],
      [12, /must be text/],
    ] as const) {
      const err = waitForEvent(sa, 'error', (e) => e.event === 'lobby_chat_message');
      sa.emit('lobby_chat_message', payload as never);
      expect((await err).message).toMatch(msg);
    }
    const ok500 = waitForEvent(sb, 'lobby_chat_message', (x) => x.userId === a.user.id);
    sa.emit('lobby_chat_message', 'y'.repeat(500));
    expect((await ok500).message).toHaveLength(500);
    expect(bSeen).toHaveLength(1);
  });

  it('lobby chat is rate-limited to about 3 messages per second per user', async () => {
    const a = await registerUser(t.url);
    const sa = track(await connectSocket(t.url, a.token));
    const mine = recordEvents(sa, 'lobby_chat_message');
    const errors = recordEvents(sa, 'error');
    for (let i = 0; i < 5; i++) sa.emit('lobby_chat_message', `burst ${i}`);
    await sleep(600);
    expect(mine.filter((m) => m.userId === a.user.id).map((m) => m.message)).toEqual(['burst 0', 'burst 1', 'burst 2']);
    expect(errors.filter((e) => /too fast/.test(e.message))).toHaveLength(2);
    await sleep(1000);
    const again = waitForEvent(sa, 'lobby_chat_message', (m) => m.message === 'after pause');
    sa.emit('lobby_chat_message', 'after pause');
    await again;
  });

  it('never delivers chat to a user who blocked the sender (live and in the history sent on connect)', async () => {
    const sender = await registerUser(t.url);
    const blocker = await registerUser(t.url);
    const other = await registerUser(t.url);
    await api(t.url, 'POST', '/api/social/block', { token: blocker.token, body: { blockId: sender.user.id } });
    const sSender = track(await connectSocket(t.url, sender.token));
    const sBlocker = track(await connectSocket(t.url, blocker.token));
    const sOther = track(await connectSocket(t.url, other.token));
    await sleep(200); // let the history replay finish
    const blockerSeen = recordEvents(sBlocker, 'lobby_chat_message');
    const otherGot = waitForEvent(sOther, 'lobby_chat_message', (m) => m.message === 'secret from sender');
    const selfGot = waitForEvent(sSender, 'lobby_chat_message', (m) => m.message === 'secret from sender');
    sSender.emit('lobby_chat_message', 'secret from sender');
    await otherGot;
    await selfGot;
    const fromOther = waitForEvent(sBlocker, 'lobby_chat_message', (m) => m.message === 'hi from other');
    sOther.emit('lobby_chat_message', 'hi from other');
    await fromOther;
    expect(blockerSeen.map((m) => m.message)).toEqual(['hi from other']);

    // reconnecting: the history (last 100, oldest first) includes other's message but not the sender's
    const history = async (who: RegisteredUser) => {
      let seen: ChatMessage[] = [];
      const s = track(
        await connectSocket(t.url, who.token, { setup: (x) => (seen = recordEvents(x, 'lobby_chat_message')) }),
      );
      await sleep(300);
      s.close();
      return seen;
    };
    const hBlocker = await history(blocker);
    expect(hBlocker.map((m) => m.message)).toContain('hi from other');
    expect(hBlocker.map((m) => m.message)).not.toContain('secret from sender');
    const hOther = await history(other);
    const msgs = hOther.map((m) => m.message);
    expect(msgs.indexOf('secret from sender')).toBeGreaterThanOrEqual(0);
    expect(msgs.indexOf('secret from sender')).toBeLessThan(msgs.indexOf('hi from other'));
  });

  it('the history sent on connect holds at most the last 100 messages', async () => {
    const u = await registerUser(t.url);
    await t.dataSource.query(
      `INSERT INTO lobby_chat_messages (user_id, username, message, created_at)
       SELECT $1, $2, 'bulk ' || g, now() + (g || ' milliseconds')::interval FROM generate_series(1, 120) g`,
      [u.user.id, u.user.username],
    );
    let seen: ChatMessage[] = [];
    track(await connectSocket(t.url, u.token, { setup: (x) => (seen = recordEvents(x, 'lobby_chat_message')) }));
    await sleep(400);
    expect(seen).toHaveLength(100);
    expect(seen[99].message).toBe('bulk 120');
    expect(seen[0].message).toBe('bulk 21');
  });

  it('handshake token + immediate authenticate: one login, the history is replayed exactly once', async () => {
    const u = await registerUser(t.url);
    await t.dataSource.query(
      `INSERT INTO lobby_chat_messages (user_id, username, message, created_at)
       SELECT $1, $2, 'race marker ' || g, now() + (g || ' milliseconds')::interval FROM generate_series(1, 3) g`,
      [u.user.id, u.user.username],
    );
    // what the desktop client does: token in the handshake AND `authenticate` as soon as it is connected
    const s: TestSocket = track(
      io(t.url, {
        auth: { token: u.token },
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
        autoConnect: false,
      }),
    );
    const order: string[] = [];
    s.onAny((event: string) => {
      if (event !== 'online_users') order.push(event);
    });
    const auths = recordEvents(s, 'authenticated');
    const chats = recordEvents(s, 'lobby_chat_message');
    s.on('connect', () => s.emit('authenticate', { token: u.token }));
    s.connect();
    await waitForEvent(s, 'authenticated');
    // a later authenticate of the same user is answered too (without a replay); wait for it, then flush
    s.emit('authenticate', { token: u.token });
    if (auths.length < 2) await waitForEvent(s, 'authenticated', () => auths.length >= 2);
    await flush(s);

    expect(auths.every((a) => a.success && a.userId === u.user.id)).toBe(true);
    expect(order[0]).toBe('authenticated');
    const ids = chats.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(chats.filter((m) => m.userId === u.user.id).map((m) => m.message)).toEqual([
      'race marker 1',
      'race marker 2',
      'race marker 3',
    ]);
    // the replay came right after the FIRST authenticated (and online_users), before any other
    const firstChat = order.indexOf('lobby_chat_message');
    expect(order.slice(0, firstChat)).toEqual(['authenticated']);
    expect(order.filter((e) => e === 'authenticated').length).toBe(auths.length);
    // the socket is a normal lobby member: it receives live chat once
    const live = waitForEvent(s, 'lobby_chat_message', (m) => m.message === 'after the race');
    const liveSeen = recordEvents(s, 'lobby_chat_message');
    s.emit('lobby_chat_message', 'after the race');
    await live;
    await flush(s);
    expect(liveSeen.map((m) => m.message)).toEqual(['after the race']);
  });

  it('the history skips blocked senders in the query: still the last 100 messages the viewer may see', async () => {
    const chatty = await registerUser(t.url);
    const other = await registerUser(t.url);
    const viewer = await registerUser(t.url);
    // 130 messages from `other`, then 120 newer ones from `chatty` (whom the viewer blocks)
    await t.dataSource.query(
      `INSERT INTO lobby_chat_messages (user_id, username, message, created_at)
       SELECT CASE WHEN g <= 130 THEN $1::uuid ELSE $3::uuid END,
              CASE WHEN g <= 130 THEN $2 ELSE $4 END,
              CASE WHEN g <= 130 THEN 'other ' || g ELSE 'chatty ' || (g - 130) END,
              now() + (g || ' milliseconds')::interval
         FROM generate_series(1, 250) g`,
      [other.user.id, other.user.username, chatty.user.id, chatty.user.username],
    );
    expect(
      (await api(t.url, 'POST', '/api/social/block', { token: viewer.token, body: { blockId: chatty.user.id } }))
        .status,
    ).toBe(200);
    let seen: ChatMessage[] = [];
    const s = track(
      await connectSocket(t.url, viewer.token, { setup: (x) => (seen = recordEvents(x, 'lobby_chat_message')) }),
    );
    await flush(s);
    expect(seen).toHaveLength(100);
    expect(seen.filter((m) => m.userId === chatty.user.id)).toEqual([]);
    expect(seen.map((m) => m.message)).toEqual(Array.from({ length: 100 }, (_, i) => `other ${i + 31}`));

    // someone who blocks nobody gets the newest 100: all of chatty's last 100
    let seen2: ChatMessage[] = [];
    const s2 = track(
      await connectSocket(t.url, other.token, { setup: (x) => (seen2 = recordEvents(x, 'lobby_chat_message')) }),
    );
    await flush(s2);
    expect(seen2.map((m) => m.message)).toEqual(Array.from({ length: 100 }, (_, i) => `chatty ${i + 21}`));
  });

  it('chat posted while a login reads the history is delivered to that socket exactly once (not lost)', async () => {
    const poster = await registerUser(t.url);
    const joiner = await registerUser(t.url);
    const sPoster = track(await connectSocket(t.url, poster.token));
    // after the joiner's history snapshot is taken and before its login finishes, another user posts
    const chat = t.app.get(LobbyChatService);
    const original = chat.history.bind(chat);
    chat.history = async (viewerId: string) => {
      const snapshot = await original(viewerId);
      if (viewerId === joiner.user.id) {
        const echoed = waitForEvent(sPoster, 'lobby_chat_message', (m) => m.message === 'posted during the read');
        sPoster.emit('lobby_chat_message', 'posted during the read');
        await echoed; // stored and broadcast to the lobby
      }
      return snapshot;
    };
    try {
      let seen: ChatMessage[] = [];
      const s = track(
        await connectSocket(t.url, joiner.token, { setup: (x) => (seen = recordEvents(x, 'lobby_chat_message')) }),
      );
      await flush(s);
      expect(seen.filter((m) => m.message === 'posted during the read')).toHaveLength(1);
      expect(new Set(seen.map((m) => m.id)).size).toBe(seen.length);
    } finally {
      chat.history = original;
    }
  });

  it('an expired token (handshake or authenticate) is refused: authenticated {success:false}, no lobby events', async () => {
    const u = await registerUser(t.url);
    const w = await registerUser(t.url);
    const now = Math.floor(Date.now() / 1000);
    const expired = forge({ sub: u.user.id, iat: now - 7200, exp: now - 3600 }, t.config.jwtSecret);
    const sw = track(await connectSocket(t.url, w.token));
    const s: TestSocket = track(
      io(t.url, {
        auth: { token: expired },
        transports: ['websocket'],
        forceNew: true,
        reconnection: false,
        autoConnect: false,
      }),
    );
    const events: [string, unknown][] = [];
    s.onAny((event: string, payload: unknown) => events.push([event, payload]));
    const refused = waitForEvent(s, 'authenticated');
    s.connect();
    expect(await refused).toEqual({ success: false, message: 'Invalid or expired session' });
    const again = waitForEvent(s, 'authenticated');
    s.emit('authenticate', { token: expired });
    expect(await again).toEqual({ success: false, message: 'Invalid or expired session' });

    // lobby traffic while the socket is connected: chat and presence changes
    const own = waitForEvent(sw, 'lobby_chat_message', (m) => m.message === 'anyone with an expired token?');
    sw.emit('lobby_chat_message', 'anyone with an expired token?');
    await own;
    s.emit('watch_lobby', {}); // refused: not authenticated
    track(await connectSocket(t.url, (await registerUser(t.url)).token)); // a presence change
    await sleep(400);
    await flush(s);
    expect(
      events.filter(
        ([e]) =>
          e === 'lobby_chat_message' || e === 'online_users' || e === 'presence_changed' || e === 'games_updated',
      ),
    ).toEqual([]);
    expect(events.filter(([e]) => e === 'authenticated').map(([, p]) => p)).toEqual([
      { success: false, message: 'Invalid or expired session' },
      { success: false, message: 'Invalid or expired session' },
    ]);
    expect(events).toContainEqual(['error', { message: 'Not authenticated', event: 'lobby_chat_message' }]);
    const list = await api<LobbyPlayer[]>(t.url, 'GET', '/api/users', { token: w.token });
    expect(list.body.find((p) => p.id === u.user.id)?.online).toBe(false);
    expect(s.connected).toBe(true);
  });
});
