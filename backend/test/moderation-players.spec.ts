/* eslint-disable @typescript-eslint/no-explicit-any -- tests read JSON bodies loosely */
/**
 * The console's players area (issue #25) against a real database and real socket.io clients: the guard of every
 * route (401 without a token, 403 to players, 403 to moderators on the admin-only coin and role routes), search by
 * name / e-mail / id, a player's page, revoking sessions (earlier tokens refused, sockets told and closed), coin
 * corrections as ledger transfers with the house (balanced; no deduct below zero) and roles (admins; never the
 * last admin), each action audited once with its reason.
 */
import { COIN_CORRECTION_MAX } from '@spades/common';
import {
  api,
  connectSocket,
  createTestApp,
  registerUser,
  RegisteredUser,
  TestApp,
  waitForEvent,
} from './support/test-app';
import { expectLedgerBalanced } from './games/helpers';

const ID = '00000000-0000-4000-8000-000000000001';

describe('console players', () => {
  let t: TestApp;
  let admin: RegisteredUser;
  let mod: RegisteredUser;
  let player: RegisteredUser;

  beforeAll(async () => {
    t = await createTestApp();
    [admin, mod, player] = await Promise.all([registerUser(t.url), registerUser(t.url), registerUser(t.url)]);
    await t.dataSource.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.user.id]);
    await t.dataSource.query(`UPDATE users SET role = 'moderator' WHERE id = $1`, [mod.user.id]);
  });
  afterEach(() => expectLedgerBalanced((sql) => t.dataSource.query(sql)));
  afterAll(() => t?.close());

  const as = (who: RegisteredUser, method: string, path: string, body?: unknown) =>
    api(t.url, method, path, { token: who.token, body });
  const audit = (targetId: string, action: string) =>
    t.dataSource.query(`SELECT * FROM audit_log WHERE target_user_id = $1 AND action = $2 ORDER BY id`, [
      targetId,
      action,
    ]);

  it('every route answers 401 without a token, 403 to players, and the admin-only ones 403 to moderators', async () => {
    const routes: [string, string, unknown, boolean][] = [
      ['GET', '/api/admin/players?q=a', undefined, false],
      ['GET', `/api/admin/players/${ID}`, undefined, false],
      ['POST', `/api/admin/players/${ID}/sanctions`, { kind: 'warn', reason: 'x' }, false],
      ['POST', `/api/admin/sanctions/${ID}/lift`, { reason: 'x' }, false],
      ['POST', `/api/admin/players/${ID}/revoke-sessions`, { reason: 'x' }, false],
      ['POST', `/api/admin/players/${ID}/coins`, { direction: 'grant', amount: 1, reason: 'x' }, true],
      ['POST', `/api/admin/players/${ID}/role`, { role: 'moderator', reason: 'x' }, true],
      ['GET', '/api/admin/roles', undefined, true],
    ];
    for (const [method, path, body, adminOnly] of routes) {
      expect([path, (await api(t.url, method, path, { body })).status]).toEqual([path, 401]);
      const p = await as(player, method, path, body);
      expect([path, p.status, p.body.message]).toEqual([path, 403, 'Moderators and admins only']);
      const m = await as(mod, method, path, body);
      if (adminOnly) expect([path, m.status, m.body.message]).toEqual([path, 403, 'Admins only']);
      else expect([path, m.status]).not.toEqual([path, 403]);
    }
  });

  it('searches by name, e-mail and id, refuses bad queries', async () => {
    const target = await registerUser(t.url, { username: `Findme_${Date.now() % 100000}` });
    const byName = await as(
      mod,
      'GET',
      `/api/admin/players?q=${encodeURIComponent(target.user.username.toLowerCase())}`,
    );
    expect(byName.status).toBe(200);
    expect(byName.body.players[0]).toMatchObject({
      id: target.user.id,
      username: target.user.username,
      email: target.email,
      role: 'user',
      online: false,
      banned: false,
      muted: false,
    });
    const byEmail = await as(mod, 'GET', `/api/admin/players?q=${encodeURIComponent(target.email.toUpperCase())}`);
    expect(byEmail.body.players.map((p: any) => p.id)).toContain(target.user.id);
    const byId = await as(mod, 'GET', `/api/admin/players?q=${target.user.id}`);
    expect(byId.body.players[0].id).toBe(target.user.id);
    // LIKE wildcards match themselves only
    const wild = await as(mod, 'GET', `/api/admin/players?q=${encodeURIComponent('%')}`);
    expect(wild.body.players).toEqual([]);
    for (const bad of ['', 'q=', `q=${'x'.repeat(101)}`, 'q=a&limit=0', 'q=a&limit=51', 'q=a&limit=x']) {
      const r = await as(mod, 'GET', `/api/admin/players?${bad}`);
      expect([bad, r.status]).toEqual([bad, 400]);
      expect(r.body.message).toEqual(expect.any(String));
    }
  });

  it("shows a player's page: profile, coins and ledger, sanctions, sessions; 404 for unknown ids", async () => {
    const p = await registerUser(t.url);
    const s = await connectSocket(t.url, p.token);
    try {
      await as(mod, 'POST', `/api/admin/players/${p.user.id}/sanctions`, { kind: 'mute', minutes: 30, reason: 'spam' });
      const r = await as(mod, 'GET', `/api/admin/players/${p.user.id}`);
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({
        id: p.user.id,
        username: p.user.username,
        email: p.email,
        role: 'user',
        discordLinked: false,
        rating: null,
        games: [],
        reports: [],
        activeBan: null,
        activeMute: { kind: 'mute', reason: 'spam', scope: 'all' },
        sessions: { online: true, sockets: 1, sessionsRevokedAt: null },
      });
      expect(r.body.sessions.lastSignInAt).toBeNull(); // registered, never signed in with a password
      expect(r.body.coins.balance).toBe('5000000');
      expect(r.body.coins.ledger[0]).toMatchObject({ amount: '5000000', reason: 'registration_grant' });
      expect(r.body.sanctions).toHaveLength(1);
      expect(r.body.sanctions[0]).toMatchObject({
        kind: 'mute',
        createdBy: mod.user.id,
        createdByName: mod.user.username,
      });
      const login = await api(t.url, 'POST', '/api/auth/login', { body: { email: p.email, password: p.password } });
      expect(login.status).toBe(200);
      const after = await as(mod, 'GET', `/api/admin/players/${p.user.id}`);
      expect(after.body.sessions.lastSignInAt).toEqual(expect.any(String));
    } finally {
      s.close();
    }
    expect((await as(mod, 'GET', `/api/admin/players/${ID}`)).status).toBe(404);
    expect((await as(mod, 'GET', '/api/admin/players/not-an-id')).status).toBe(404);
  });

  it('revoking sessions refuses earlier tokens and closes the sockets with the reason', async () => {
    const p = await registerUser(t.url);
    const s = await connectSocket(t.url, p.token);
    const expired = waitForEvent(s, 'session_expired');
    const gone = new Promise<void>((resolve) => s.once('disconnect', () => resolve()));
    const r = await as(mod, 'POST', `/api/admin/players/${p.user.id}/revoke-sessions`, { reason: 'account shared' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ sessionsRevokedAt: expect.any(String), socketsClosed: 1 });
    expect((await expired).message).toBe('A moderator signed you out: account shared');
    await gone;
    expect((await api(t.url, 'GET', '/api/auth/profile', { token: p.token })).status).toBe(401);
    // signing in again right away works: the token is issued after the revocation (to the millisecond)
    const login = await api(t.url, 'POST', '/api/auth/login', { body: { email: p.email, password: p.password } });
    expect((await api(t.url, 'GET', '/api/auth/profile', { token: login.body.token })).status).toBe(200);
    const [entry] = await audit(p.user.id, 'player.sessions_revoke');
    expect(entry).toMatchObject({ actor_id: mod.user.id, reason: 'account shared' });
    // no reason, yourself, or a staff account as a moderator: refused
    expect((await as(mod, 'POST', `/api/admin/players/${p.user.id}/revoke-sessions`, {})).status).toBe(400);
    expect((await as(mod, 'POST', `/api/admin/players/${mod.user.id}/revoke-sessions`, { reason: 'x' })).status).toBe(
      400,
    );
    expect((await as(mod, 'POST', `/api/admin/players/${admin.user.id}/revoke-sessions`, { reason: 'x' })).status).toBe(
      403,
    );
    expect(await audit(p.user.id, 'player.sessions_revoke')).toHaveLength(1);
  });

  it('coin corrections are ledger transfers with the house; a deduct below zero is refused', async () => {
    const p = await registerUser(t.url);
    const url = `/api/admin/players/${p.user.id}/coins`;
    const g = await as(admin, 'POST', url, { direction: 'grant', amount: 1500, reason: 'tournament prize' });
    expect(g.status).toBe(200);
    expect(g.body).toEqual({ transferId: expect.any(String), balance: '5001500' });
    const entries = await t.dataSource.query(
      `SELECT e.amount::text AS amount, a.key, e.reason, e.ref_id FROM coin_entries e JOIN coin_accounts a ON a.id = e.account_id
        WHERE e.transfer_id = $1 ORDER BY a.key`,
      [g.body.transferId],
    );
    expect(entries).toEqual([
      { amount: '-1500', key: 'house', reason: 'staff_grant', ref_id: admin.user.id },
      { amount: '1500', key: `user:${p.user.id}`, reason: 'staff_grant', ref_id: admin.user.id },
    ]);
    const d = await as(admin, 'POST', url, { direction: 'deduct', amount: 1_000_000, reason: 'refund abuse' });
    expect(d.body.balance).toBe('4001500');
    const tooMuch = await as(admin, 'POST', url, { direction: 'deduct', amount: 4_001_501, reason: 'x' });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.message).toBe(
      'Cannot deduct 4001501 coins: the player holds 4001500 (a balance never goes below zero)',
    );
    for (const bad of [
      { direction: 'grant', amount: 0, reason: 'x' },
      { direction: 'grant', amount: 1.5, reason: 'x' },
      { direction: 'grant', amount: COIN_CORRECTION_MAX + 1, reason: 'x' },
      { direction: 'grant', amount: '5', reason: 'x' },
      { direction: 'give', amount: 5, reason: 'x' },
      { direction: 'grant', amount: 5 },
    ]) {
      const r = await as(admin, 'POST', url, bad);
      expect([bad, r.status]).toEqual([bad, 400]);
    }
    const [{ balance }] = await t.dataSource.query(
      `SELECT balance::text AS balance FROM coin_accounts WHERE user_id = $1`,
      [p.user.id],
    );
    expect(balance).toBe('4001500');
    const grants = await audit(p.user.id, 'coins.grant');
    const deducts = await audit(p.user.id, 'coins.deduct');
    expect(grants).toHaveLength(1);
    expect(deducts).toHaveLength(1);
    expect(grants[0]).toMatchObject({ reason: 'tournament prize', before: { balance: '5000000' } });
    expect(deducts[0].after).toEqual({ balance: '4001500', amount: 1_000_000 });
    expect(
      (await as(admin, 'POST', `/api/admin/players/${ID}/coins`, { direction: 'grant', amount: 1, reason: 'x' }))
        .status,
    ).toBe(404);
  });

  it('admins grant and revoke roles (audited), list the staff, and never revoke the last admin', async () => {
    const p = await registerUser(t.url);
    const url = `/api/admin/players/${p.user.id}/role`;
    const g = await as(admin, 'POST', url, { role: 'moderator', reason: 'trusted regular' });
    expect(g.status).toBe(200);
    expect(g.body).toEqual({ id: p.user.id, username: p.user.username, role: 'moderator', before: 'user' });
    expect((await as(p, 'GET', '/api/admin/me')).body.role).toBe('moderator');
    const staff = await as(admin, 'GET', '/api/admin/roles');
    expect(staff.body.staff).toEqual(
      expect.arrayContaining([
        { id: admin.user.id, username: admin.user.username, role: 'admin' },
        { id: p.user.id, username: p.user.username, role: 'moderator' },
      ]),
    );
    const r = await as(admin, 'POST', url, { role: 'user', reason: 'stepped down' });
    expect(r.body).toMatchObject({ role: 'user', before: 'moderator' });
    expect((await as(p, 'GET', '/api/admin/me')).status).toBe(403);
    expect((await audit(p.user.id, 'role.grant'))[0]).toMatchObject({
      reason: 'trusted regular',
      after: { role: 'moderator' },
    });
    expect((await audit(p.user.id, 'role.revoke'))[0]).toMatchObject({
      before: { role: 'moderator' },
      after: { role: 'user' },
    });

    const last = await as(admin, 'POST', `/api/admin/players/${admin.user.id}/role`, { role: 'user', reason: 'x' });
    expect(last.status).toBe(400);
    expect(last.body.message).toBe('Cannot revoke the last admin');
    expect((await as(admin, 'POST', url, { role: 'owner', reason: 'x' })).status).toBe(400);
    expect((await as(admin, 'POST', url, { role: 'moderator' })).status).toBe(400);
    expect(await audit(admin.user.id, 'role.revoke')).toHaveLength(0);
  });
});
