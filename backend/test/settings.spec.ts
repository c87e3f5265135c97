/* eslint-disable @typescript-eslint/no-explicit-any -- tests read raw wire payloads and SQL rows */
/**
 * The host's server settings (issue #25) on one node, against a real database and real socket.io clients: the
 * admin-only routes (401/403), validation that changes nothing, the audit entry with before/after, the public view,
 * and what each setting does — registration mode and invite codes, starting coins, Discord offered, table presets in
 * Create Game, the announcement banner on every connected client, the chat word filter in lobby and table chat.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEFAULT_SERVER_SETTINGS, REGISTRATION_MESSAGES, STARTING_COINS, TABLE_PRESETS } from '@spades/common';
import { SettingsService } from '../src/settings/settings.service';
import { SETTINGS as GAME } from './games/helpers';
import {
  api,
  connectSocket,
  createTestApp,
  registerUser,
  RegisteredUser,
  TestApp,
  TestSocket,
  uniqueName,
  waitForEvent,
} from './support/test-app';

describe('server settings (one node)', () => {
  let t: TestApp;
  let admin: RegisteredUser;
  let mod: RegisteredUser;
  let player: RegisteredUser;
  const sockets: TestSocket[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        DISCORD_CLIENT_ID: 'id',
        DISCORD_CLIENT_SECRET: 'secret',
        DISCORD_REDIRECT_URI: 'http://127.0.0.1:1/api/auth/discord/callback',
      },
    });
    [admin, mod, player] = await Promise.all([registerUser(t.url), registerUser(t.url), registerUser(t.url)]);
    await t.dataSource.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.user.id]);
    await t.dataSource.query(`UPDATE users SET role = 'moderator' WHERE id = $1`, [mod.user.id]);
  }, 60_000);
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t?.close();
  });

  const put = (changes: unknown, reason: unknown = 'testing', token = admin.token) =>
    api(t.url, 'PUT', '/api/admin/settings', { token, body: { changes, reason } });
  const register = (fields: Record<string, unknown> = {}) => {
    const username = uniqueName('r');
    return api(t.url, 'POST', '/api/auth/register', {
      body: { username, email: `${username.toLowerCase()}@example.test`, password: 'correct horse battery', ...fields },
    });
  };

  it('answers 401 without a token, 403 to players and moderators (admins only)', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/settings'],
      ['PUT', '/api/admin/settings', { changes: { startingCoins: 1 }, reason: 'x' }],
      ['GET', '/api/admin/invite-codes'],
      ['POST', '/api/admin/invite-codes', { reason: 'x' }],
      ['POST', '/api/admin/invite-codes/ABCDEFGHJKMN/revoke', { reason: 'x' }],
    ];
    for (const [method, path, body] of routes) {
      expect((await api(t.url, method, path, { body })).status).toBe(401);
      expect((await api(t.url, method, path, { body, token: player.token })).status).toBe(403);
      const asMod = await api(t.url, method, path, { body, token: mod.token });
      expect(asMod.status).toBe(403);
      expect(asMod.body.message).toBe('Admins only');
    }
    const got = await api(t.url, 'GET', '/api/admin/settings', { token: admin.token });
    expect(got.status).toBe(200);
    expect(got.body.settings).toEqual(DEFAULT_SERVER_SETTINGS);
    expect(got.body.signInsConfigured).toEqual({ discord: true });
    // nothing was changed by the refused calls
    expect(t.app.get(SettingsService).get().startingCoins).toBe(STARTING_COINS);
  });

  it('refuses bad changes with 400 { message } and changes nothing', async () => {
    const before = (await api(t.url, 'GET', '/api/admin/settings', { token: admin.token })).body;
    const bad: [unknown, unknown, RegExp][] = [
      [{ registration: 'sometimes' }, 'r', /registration must be/],
      [{ startingCoins: -1 }, 'r', /startingCoins/],
      [{ tablePresets: [] }, 'r', /at least one table preset/],
      [{ tablePresets: ['PARTNERS:REG', 'SOLO:SUICIDE'] }, 'r', /Unknown table preset/],
      [{ autoMuteThreshold: 1 }, 'r', /autoMuteThreshold/],
      [{ colour: 'red' }, 'r', /Unknown setting/],
      [{ announcement: { text: 'x'.repeat(301) } }, 'r', /announcement/i],
      [{}, 'r', /Nothing to change/],
      [{ startingCoins: 1 }, '', /reason/],
      [{ startingCoins: 1 }, null, /reason/],
      [{ startingCoins: 1 }, 'two\nlines', /control characters/],
    ];
    for (const [changes, reason, message] of bad) {
      const r = await put(changes, reason);
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(message);
    }
    const after = (await api(t.url, 'GET', '/api/admin/settings', { token: admin.token })).body;
    expect(after).toEqual(before);
  });

  it('applies a change at once, audits it with before/after of the changed keys, and shows it publicly', async () => {
    const r = await put({ startingCoins: 1234, serverName: 'Night Owls', autoMuteThreshold: 3 }, 'community vote');
    expect(r.status).toBe(200);
    expect(r.body.settings).toMatchObject({ startingCoins: 1234, serverName: 'Night Owls', autoMuteThreshold: 3 });
    expect(r.body.updatedBy).toEqual({ id: admin.user.id, username: admin.user.username });
    const version = r.body.version;
    const audit = await api(t.url, 'GET', '/api/admin/audit?action=settings.update', { token: admin.token });
    expect(audit.body.entries[0]).toMatchObject({
      actorId: admin.user.id,
      reason: 'community vote',
      targetRef: 'setting:startingCoins,serverName', // autoMuteThreshold did not change
      before: { startingCoins: STARTING_COINS, serverName: null },
      after: { startingCoins: 1234, serverName: 'Night Owls' },
    });
    // the same values again: answered, not written, not audited
    const same = await put({ startingCoins: 1234 });
    expect(same.body.version).toBe(version);
    const audit2 = await api(t.url, 'GET', '/api/admin/audit?action=settings.update', { token: admin.token });
    expect(audit2.body.entries).toHaveLength(audit.body.entries.length);

    const pub = await api(t.url, 'GET', '/api/settings/public');
    expect(pub.status).toBe(200);
    expect(pub.body).toMatchObject({ serverName: 'Night Owls', startingCoins: 1234, registration: 'open' });
    expect(pub.body.chatFilter).toBeUndefined();
    expect(pub.body.autoMuteThreshold).toBeUndefined();
    expect((await api(t.url, 'GET', '/api/server-info')).body.name).toBe('Night Owls');

    // starting coins: the next account gets 1234 from the house, through the ledger
    const fresh = await register();
    expect(fresh.status).toBe(201);
    expect(fresh.body.user.coins).toBe(1234);
    const [entry] = await t.dataSource.query(
      `SELECT e.amount::text AS amount FROM coin_entries e JOIN coin_accounts a ON a.id = e.account_id
        WHERE a.user_id = $1`,
      [fresh.body.user.id],
    );
    expect(entry.amount).toBe('1234');
    await put({ startingCoins: STARTING_COINS, serverName: null });
  });

  it('registration: closed refuses every new account; invite codes admit as many accounts as their uses', async () => {
    expect((await put({ registration: 'closed' })).status).toBe(200);
    const closed = await register();
    expect(closed.status).toBe(403);
    expect(closed.body.message).toBe(REGISTRATION_MESSAGES.closed);
    // existing accounts still sign in
    const login = await api(t.url, 'POST', '/api/auth/login', {
      body: { email: player.email, password: player.password },
    });
    expect(login.status).toBe(200);

    expect((await put({ registration: 'invite' })).status).toBe(200);
    expect((await api(t.url, 'GET', '/api/settings/public')).body.registration).toBe('invite');
    expect((await api(t.url, 'GET', '/api/server-info')).body.registration).toBe('invite');
    const none = await register();
    expect(none.status).toBe(403);
    expect(none.body.message).toBe(REGISTRATION_MESSAGES.inviteRequired);
    expect((await register({ inviteCode: 'nope' })).body.message).toBe(REGISTRATION_MESSAGES.inviteInvalid);

    const bad = await api(t.url, 'POST', '/api/admin/invite-codes', {
      token: admin.token,
      body: { maxUses: 0, reason: 'x' },
    });
    expect(bad.status).toBe(400);
    const noReason = await api(t.url, 'POST', '/api/admin/invite-codes', { token: admin.token, body: {} });
    expect(noReason.status).toBe(400);
    const made = await api(t.url, 'POST', '/api/admin/invite-codes', {
      token: admin.token,
      body: { maxUses: 2, note: 'for the Tuesday club', reason: 'new members' },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      maxUses: 2,
      uses: 0,
      active: true,
      note: 'for the Tuesday club',
      revokedAt: null,
    });
    const code: string = made.body.code;
    // typed loosely: lower case, groups of four
    const typed = code.toLowerCase().replace(/(.{4})(?=.)/g, '$1-');
    const [a, b, c] = [
      await register({ inviteCode: typed }),
      await register({ inviteCode: code }),
      await register({ inviteCode: code }),
    ];
    expect([a.status, b.status, c.status]).toEqual([201, 201, 403]);
    expect(c.body.message).toBe(REGISTRATION_MESSAGES.inviteInvalid);
    const listed = await api(t.url, 'GET', '/api/admin/invite-codes', { token: admin.token });
    expect(listed.body.find((x: any) => x.code === code)).toMatchObject({ uses: 2, active: false });

    const other = (
      await api(t.url, 'POST', '/api/admin/invite-codes', {
        token: admin.token,
        body: { maxUses: null, reason: 'open house' },
      })
    ).body.code as string;
    const revoked = await api(t.url, 'POST', `/api/admin/invite-codes/${other}/revoke`, {
      token: admin.token,
      body: { reason: 'leaked on a forum' },
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ active: false, uses: 0 });
    expect(revoked.body.revokedAt).toEqual(expect.any(String));
    expect((await register({ inviteCode: other })).status).toBe(403);
    expect(
      (
        await api(t.url, 'POST', `/api/admin/invite-codes/${other}/revoke`, {
          token: admin.token,
          body: { reason: 'again' },
        })
      ).status,
    ).toBe(400);
    const audit = await api(t.url, 'GET', '/api/admin/audit?actor=' + admin.user.id, { token: admin.token });
    const actions = audit.body.entries.map((e: any) => `${e.action} ${e.targetRef}`);
    expect(actions).toContain(`invite.create invite:${code}`);
    expect(actions).toContain(`invite.revoke invite:${other}`);

    expect((await put({ registration: 'open' })).status).toBe(200);
    expect((await register()).status).toBe(201);
  });

  it('Discord sign-in: a configured provider the host switches off is neither offered nor started', async () => {
    expect((await api(t.url, 'GET', '/api/auth/providers')).body).toEqual({ discord: true, sso: [] });
    expect((await put({ signIns: { discord: false } })).status).toBe(200);
    expect((await api(t.url, 'GET', '/api/auth/providers')).body).toEqual({ discord: false, sso: [] });
    expect((await api(t.url, 'GET', '/api/settings/public')).body.signIns).toEqual({ discord: false });
    expect((await api(t.url, 'GET', '/api/server-info')).body.signIn).toEqual(['password']);
    const start = await api(t.url, 'GET', '/api/auth/discord');
    expect(start.status).toBe(403);
    expect(start.body.message).toBe(REGISTRATION_MESSAGES.signInNotOffered);
    expect((await put({ signIns: { discord: true } })).status).toBe(200);
    expect((await api(t.url, 'GET', '/api/auth/discord')).status).toBe(302);
    expect((await api(t.url, 'GET', '/api/server-info')).body.signIn).toEqual(['password', 'discord']);
  });

  it('Create Game refuses a table preset the host does not offer (HTTP and socket), and creates the offered ones', async () => {
    const offered = TABLE_PRESETS.filter((p) => p !== 'PARTNERS:REG');
    expect((await put({ tablePresets: offered })).status).toBe(200);
    expect((await api(t.url, 'GET', '/api/settings/public')).body.tablePresets).toEqual(offered);
    const refused = await api(t.url, 'POST', '/api/games', { token: player.token, body: GAME });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('This server does not offer Partners · REG tables');
    const s = await connectSocket(t.url, player.token);
    sockets.push(s);
    const ack: any = await new Promise((r) => (s as any).emit('create_game', { settings: GAME }, r));
    expect(ack).toMatchObject({ ok: false, message: 'This server does not offer Partners · REG tables' });
    const whiz = await api(t.url, 'POST', '/api/games', {
      token: player.token,
      body: { ...GAME, biddingOption: 'WHIZ' },
    });
    expect(whiz.status).toBe(201);
    await api(t.url, 'POST', `/api/games/${whiz.body.id}/leave`, { token: player.token });
    expect((await put({ tablePresets: [...TABLE_PRESETS] })).status).toBe(200);
  });

  it('shows whether players may create sit-and-go tournaments (issue #27), and nothing else of that setting', async () => {
    const pub = async () => (await api(t.url, 'GET', '/api/settings/public')).body;
    expect((await pub()).tournaments).toEqual({ playerSitAndGo: true });
    expect((await put({ tournaments: { playerSitAndGo: false, noShowSeconds: 60 } })).status).toBe(200);
    expect((await pub()).tournaments).toEqual({ playerSitAndGo: false }); // the no-show time stays private
    const refused = await api(t.url, 'POST', '/api/tournaments', {
      token: player.token,
      body: { name: 'Not tonight', mode: 'SOLO', size: 8, buyIn: 0 },
    });
    expect(refused.status).toBe(403);
    expect((await put({ tournaments: { ...DEFAULT_SERVER_SETTINGS.tournaments } })).status).toBe(200);
    expect((await pub()).tournaments).toEqual({ playerSitAndGo: true });
  });

  it('pushes the announcement banner to every connected client, and to a client that connects later', async () => {
    const s1 = await connectSocket(t.url, player.token);
    sockets.push(s1);
    const got = waitForEvent(s1, 'announcement', (a) => a?.text === 'Maintenance at 22:00 UTC');
    expect((await put({ announcement: { text: 'Maintenance at 22:00 UTC', level: 'warning' } })).status).toBe(200);
    const a = await got;
    expect(a).toMatchObject({ text: 'Maintenance at 22:00 UTC', level: 'warning', id: expect.any(String) });
    expect((await api(t.url, 'GET', '/api/settings/public')).body.announcement).toEqual(a);

    let early: unknown;
    const s2 = await connectSocket(t.url, mod.token, { setup: (x) => x.on('announcement', (p) => (early = p)) });
    sockets.push(s2);
    expect(early).toEqual(a);

    const cleared = waitForEvent(s1, 'announcement', (p) => p === null);
    expect((await put({ announcement: null })).status).toBe(200);
    expect(await cleared).toBeNull();
  });

  it('masks filtered words in lobby chat and table chat', async () => {
    expect((await put({ chatFilter: ['freak', 'dumb*', 'bad word'] })).status).toBe(200);
    const s = await connectSocket(t.url, admin.token);
    sockets.push(s);
    const lobby = waitForEvent(s, 'lobby_chat_message', (m) => m.userId === admin.user.id);
    s.emit('lobby_chat_message', 'you FR3AK, dumbest bad  word ever; freaky is fine');
    expect((await lobby).message).toBe('you *****, ******* ***  **** ever; freaky is fine');
    const [stored] = await t.dataSource.query(`SELECT message FROM lobby_chat_messages WHERE user_id = $1`, [
      admin.user.id,
    ]);
    expect(stored.message).toBe('you *****, ******* ***  **** ever; freaky is fine');

    const ack: any = await new Promise((r) => (s as any).emit('create_game', { settings: GAME }, r));
    expect(ack.ok).toBe(true);
    const table = waitForEvent(s, 'chat_message', (p) => p.message.userId === admin.user.id);
    s.emit('chat_message', { gameId: ack.gameId, message: 'freak', actionId: 'c1' });
    expect((await table).message.message).toBe('*****');
    await put({ chatFilter: [] });
  });
});
