import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { WireError, type LobbyPlayer } from '@spades/common';
import {
  api,
  connectSocket,
  createTestApp,
  recordEvents,
  registerUser,
  RegisteredUser,
  sleep,
  TestApp,
  waitForEvent,
} from './support/test-app';

describe('social: friends, blocks and the player list', () => {
  let t: TestApp;
  let a: RegisteredUser;
  let b: RegisteredUser;
  beforeAll(async () => {
    t = await createTestApp();
    a = await registerUser(t.url);
    b = await registerUser(t.url);
  });
  afterAll(async () => {
    await t?.close();
  });

  const statusOf = async (viewer: RegisteredUser, target: RegisteredUser) => {
    const r = await api<LobbyPlayer[]>(t.url, 'GET', '/api/users', { token: viewer.token });
    expect(r.status).toBe(200);
    return r.body.find((p) => p.id === target.user.id)?.status;
  };
  const post = (who: RegisteredUser, path: string, body: unknown) =>
    api(t.url, 'POST', `/api/social/${path}`, { token: who.token, body });

  it('GET /api/users lists every player with status, online, coins and avatar', async () => {
    const r = await api<LobbyPlayer[]>(t.url, 'GET', '/api/users', { token: a.token });
    expect(r.status).toBe(200);
    const pb = r.body.find((p) => p.id === b.user.id);
    expect(pb).toEqual({
      id: b.user.id,
      username: b.user.username,
      avatar: null,
      status: 'none',
      online: false,
      coins: 5_000_000,
    });
    expect(r.body.map((p) => p.id)).toEqual(expect.arrayContaining([a.user.id, b.user.id]));
  });

  it('walks none → friend → none → blocked → none → friend → blocked (block removes the friendship) → none', async () => {
    expect(await statusOf(a, b)).toBe('none');
    expect((await post(a, 'friends/add', { friendId: b.user.id })).body).toEqual({
      success: true,
      userId: b.user.id,
      status: 'friend',
    });
    expect(await statusOf(a, b)).toBe('friend');
    expect(await statusOf(b, a)).toBe('none'); // the relation is the caller's view
    await post(a, 'friends/remove', { friendId: b.user.id });
    expect(await statusOf(a, b)).toBe('none');
    expect((await post(a, 'block', { blockId: b.user.id })).status).toBe(200);
    expect(await statusOf(a, b)).toBe('blocked');
    await post(a, 'unblock', { blockId: b.user.id });
    expect(await statusOf(a, b)).toBe('none');
    await post(a, 'friends/add', { friendId: b.user.id });
    await post(b, 'friends/add', { friendId: a.user.id });
    expect(await statusOf(b, a)).toBe('friend');
    await post(a, 'block', { blockId: b.user.id });
    expect(await statusOf(a, b)).toBe('blocked');
    expect(await statusOf(b, a)).toBe('none'); // the blocked player's friendship is gone too
    const addWhileBlocked = await post(a, 'friends/add', { friendId: b.user.id });
    expect(addWhileBlocked.status).toBe(409);
    expect(await statusOf(a, b)).toBe('blocked');
    await post(a, 'unblock', { blockId: b.user.id });
    expect(await statusOf(a, b)).toBe('none');
  });

  it('unknown ids are 404, self is 400, bad bodies are 400, and nothing changes', async () => {
    const before = await t.dataSource.query(`SELECT count(*)::int AS n FROM user_relations`);
    // the refusal is its text, and the typed code INVALID_PAYLOAD where the DTO refused the body
    const DTO = WireError.INVALID_PAYLOAD;
    const cases: [string, unknown, number, typeof DTO?][] = [
      ['friends/add', { friendId: '00000000-0000-4000-8000-000000000000' }, 404],
      ['friends/add', { friendId: 'not-a-uuid' }, 404],
      ['friends/remove', { friendId: '00000000-0000-4000-8000-000000000000' }, 404],
      ['block', { blockId: '00000000-0000-4000-8000-000000000000' }, 404],
      ['unblock', { blockId: 'nobody' }, 404],
      ['friends/add', { friendId: a.user.id }, 400],
      ['block', { blockId: a.user.id }, 400],
      ['friends/add', {}, 400, DTO],
      ['friends/add', { friendId: 42 }, 400, DTO],
      ['friends/add', { friendId: b.user.id, extra: 1 }, 400, DTO],
      ['block', { friendId: b.user.id }, 400, DTO],
      ['unblock', [b.user.id], 400, DTO],
    ];
    for (const [path, body, status, code] of cases) {
      const r = await post(a, path, body);
      expect([path, body, r.status]).toEqual([path, body, status]);
      const message = expect.any(String);
      expect([path, body, r.body]).toEqual([path, body, code ? { message, code } : { message }]);
    }
    const noToken = await api(t.url, 'POST', '/api/social/friends/add', { body: { friendId: b.user.id } });
    expect(noToken.status).toBe(401);
    const after = await t.dataSource.query(`SELECT count(*)::int AS n FROM user_relations`);
    expect(after).toEqual(before);
    expect(await statusOf(a, b)).toBe('none');
  });

  it('malformed JSON and non-JSON bodies on every social endpoint are 400 { message }, nothing changes', async () => {
    const before = await t.dataSource.query(`SELECT user_id, target_id, kind FROM user_relations ORDER BY 1, 2`);
    const bodies: [string, string, Record<string, string>?][] = [
      ['truncated', `{"friendId": "${b.user.id}"`],
      ['trailing comma', `{"friendId": "${b.user.id}",}`],
      ['single quotes', `{'blockId': '${b.user.id}'}`],
      ['bare word', 'block'],
      ['null', 'null'],
      ['string', `"${b.user.id}"`],
      [
        'form encoded',
        `friendId=${b.user.id}&blockId=${b.user.id}`,
        { 'content-type': 'application/x-www-form-urlencoded' },
      ],
    ];
    const failures: string[] = [];
    for (const path of ['friends/add', 'friends/remove', 'block', 'unblock']) {
      for (const [name, rawBody, headers] of bodies) {
        const r = await api(t.url, 'POST', `/api/social/${path}`, { token: a.token, rawBody, headers });
        const body = r.body as { message?: unknown; code?: unknown } | undefined;
        // a form-encoded body parses to {}: the DTO refuses it, with its code
        const extra = Object.keys(body ?? {}).filter((k) => k !== 'message');
        const typed = extra.length === 0 || (extra.join() === 'code' && body?.code === WireError.INVALID_PAYLOAD);
        if (r.status !== 400 || typeof body?.message !== 'string' || !typed)
          failures.push(`${path} (${name}): ${r.status} ${JSON.stringify(r.body)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await t.dataSource.query(`SELECT user_id, target_id, kind FROM user_relations ORDER BY 1, 2`)).toEqual(
      before,
    );
  });

  it('adding a friend emits friendAdded to every socket of the target, not to others', async () => {
    const c = await registerUser(t.url);
    const bTab1 = await connectSocket(t.url, b.token);
    const bTab2 = await connectSocket(t.url, b.token);
    const cSock = await connectSocket(t.url, c.token);
    const cSeen = recordEvents(cSock, 'friendAdded');
    try {
      const p1 = waitForEvent(bTab1, 'friendAdded');
      const p2 = waitForEvent(bTab2, 'friendAdded');
      await post(c, 'friends/add', { friendId: b.user.id });
      expect(await p1).toEqual({ userId: c.user.id, username: c.user.username });
      expect(await p2).toEqual({ userId: c.user.id, username: c.user.username });
      await sleep(100);
      expect(cSeen).toEqual([]);
    } finally {
      bTab1.close();
      bTab2.close();
      cSock.close();
    }
  });

  it('GET /api/users shows online players', async () => {
    const s = await connectSocket(t.url, b.token);
    try {
      const r = await api<LobbyPlayer[]>(t.url, 'GET', '/api/users', { token: a.token });
      expect(r.body.find((p) => p.id === b.user.id)?.online).toBe(true);
    } finally {
      s.close();
    }
    await sleep(150);
    const r2 = await api<LobbyPlayer[]>(t.url, 'GET', '/api/users', { token: a.token });
    expect(r2.body.find((p) => p.id === b.user.id)?.online).toBe(false);
  });
});
