import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ChatMessage } from '@spades/common';
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
    await sleep(200);
    expect(presence.some((ids) => ids.includes(u.user.id))).toBe(true);
    expect(chats).toEqual([]);
  });

  it('a bad handshake token is answered with authenticated {success:false}', async () => {
    await expect(connectSocket(t.url, 'nope')).rejects.toThrow(/authentication failed/);
  });

  it('presence: online_users on every change; several tabs count once', async () => {
    const watcher = await registerUser(t.url);
    const u = await registerUser(t.url);
    const w = track(await connectSocket(t.url, watcher.token));
    const comesOnline = waitForEvent(w, 'online_users', (ids) => ids.includes(u.user.id));
    const tab1 = track(await connectSocket(t.url, u.token));
    const ids = await comesOnline;
    expect(ids.filter((id) => id === u.user.id)).toHaveLength(1);
    const updates = recordEvents(w, 'online_users');
    const tab2 = track(await connectSocket(t.url, u.token));
    await sleep(150);
    expect(updates).toEqual([]); // second tab: no change, no broadcast
    tab1.close();
    await sleep(150);
    expect(updates).toEqual([]); // still online through tab2
    const goesOffline = waitForEvent(w, 'online_users', (ids2) => !ids2.includes(u.user.id));
    tab2.close();
    const after = await goesOffline;
    expect(after).toContain(watcher.user.id);
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
});
