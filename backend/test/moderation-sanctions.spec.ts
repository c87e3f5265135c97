/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw wire payloads */
/**
 * Sanctions (issue #25) against a real database and real socket.io clients: warn / mute / ban / forced rename from
 * the console, each audited; a mute refuses lobby and table chat at once with the reason and the end (a lobby-only
 * mute leaves table chat alone), and lifting it lets the player talk again; a ban closes the player's sockets with
 * the reason, gives their seat to a bot mid-game, refuses their password login (403 with the reason and the end) and
 * every token issued before it; an automatic mute (actor null) and a sanction applied inside the caller's
 * transaction (enforced only after it commits, nothing when it rolls back).
 */
import { banMessage, muteMessage, type Sanction } from '@spades/common';
import { DataSource } from 'typeorm';
import { SanctionsService } from '../src/moderation/sanctions.service';
import { api, connectSocket, registerUser, RegisteredUser, TestApp, waitForEvent } from './support/test-app';
import { Client, gamesSuite, SETTINGS } from './games/helpers';

async function auditFor(t: TestApp, targetId: string): Promise<any[]> {
  return t.dataSource.query(`SELECT * FROM audit_log WHERE target_user_id = $1 ORDER BY id`, [targetId]);
}

describe('sanctions', () => {
  let t: TestApp;
  const { client } = gamesSuite((app) => (t = app));
  let mod: RegisteredUser;
  let admin: RegisteredUser;
  let sanctions: SanctionsService;

  beforeAll(async () => {
    [mod, admin] = await Promise.all([registerUser(t.url), registerUser(t.url)]);
    await t.dataSource.query(`UPDATE users SET role = 'moderator' WHERE id = $1`, [mod.user.id]);
    await t.dataSource.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.user.id]);
    sanctions = t.app.get(SanctionsService);
  });

  const asMod = (method: string, path: string, body?: unknown) => api(t.url, method, path, { token: mod.token, body });
  const sanction = (userId: string, body: unknown) => asMod('POST', `/api/admin/players/${userId}/sanctions`, body);

  /** Sends a lobby chat line: the refusal message, or null when the line went out to the lobby. */
  function lobbyChat(c: Client, text: string): Promise<string | null> {
    const sock = c.socket as any;
    return new Promise((resolve, reject) => {
      const done = (v: string | null) => {
        clearTimeout(timer);
        sock.off('error', onError);
        sock.off('lobby_chat_message', onMessage);
        resolve(v);
      };
      const onError = (e: any) => e?.event === 'lobby_chat_message' && done(e.message);
      const onMessage = (m: any) => m?.message === text && done(null);
      const timer = setTimeout(() => reject(new Error(`no answer to lobby chat "${text}"`)), 3000);
      sock.on('error', onError);
      sock.on('lobby_chat_message', onMessage);
      sock.emit('lobby_chat_message', { message: text });
    });
  }

  it('every sanction route answers 401 without a token and 403 to players', async () => {
    const player = await client();
    const routes: [string, unknown][] = [
      [`/api/admin/players/${player.id}/sanctions`, { kind: 'warn', reason: 'x' }],
      ['/api/admin/sanctions/00000000-0000-4000-8000-000000000001/lift', { reason: 'x' }],
    ];
    for (const [path, body] of routes) {
      expect((await api(t.url, 'POST', path, { body })).status).toBe(401);
      const r = await api(t.url, 'POST', path, { token: player.user.token, body });
      expect(r.status).toBe(403);
      expect(r.body.message).toBe('Moderators and admins only');
    }
    expect(await t.dataSource.query(`SELECT 1 FROM sanctions WHERE user_id = $1`, [player.id])).toHaveLength(0);
  });

  it('refuses bad requests with a message and changes nothing', async () => {
    const player = await client();
    const bad: [unknown, RegExp][] = [
      [{ kind: 'warn' }, /reason/],
      [{ kind: 'warn', reason: '' }, /reason|empty/i],
      [{ kind: 'warn', reason: 'x'.repeat(501) }, /reason|long|500/i],
      [{ kind: 'slap', reason: 'x' }, /kind/],
      [{ kind: 'mute', reason: 'x' }, /minutes/],
      [{ kind: 'ban', reason: 'x', minutes: 0 }, /minutes/],
      [{ kind: 'ban', reason: 'x', minutes: 1.5 }, /minutes/],
      [{ kind: 'mute', reason: 'x', minutes: 5, scope: 'table' }, /scope/],
      [{ kind: 'rename', reason: 'x' }, /newUsername/],
      [{ kind: 'rename', reason: 'x', newUsername: 'a b<>' }, /./],
    ];
    for (const [body, msg] of bad) {
      const r = await sanction(player.id, body);
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(msg);
    }
    expect((await sanction('00000000-0000-4000-8000-000000000009', { kind: 'warn', reason: 'x' })).status).toBe(404);
    const self = await sanction(mod.user.id, { kind: 'warn', reason: 'x' });
    expect(self.status).toBe(400);
    // a moderator cannot sanction an admin
    const up = await sanction(admin.user.id, { kind: 'ban', reason: 'x', minutes: 5 });
    expect(up.status).toBe(403);
    expect(
      await t.dataSource.query(`SELECT 1 FROM sanctions WHERE user_id = ANY($1)`, [[player.id, admin.user.id]]),
    ).toHaveLength(0);
    expect(await auditFor(t, player.id)).toHaveLength(0);
  });

  it('a mute refuses lobby and table chat at once with the reason and the end; lifting it lets the player talk', async () => {
    const p = await client();
    expect(await lobbyChat(p, 'hello before')).toBeNull();
    const gameId = (await p.http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    await p.emit('join_game', { gameId });
    expect(await p.emit('chat_message', { gameId, message: 'table hello', actionId: 'c1' })).toEqual({ ok: true });

    const noticeP = waitForEvent(p.socket, 'sanction_notice');
    const r = await sanction(p.id, { kind: 'mute', reason: 'insults', minutes: 60 });
    expect(r.status).toBe(200);
    const s = r.body as Sanction;
    expect(s).toMatchObject({ userId: p.id, kind: 'mute', scope: 'all', reason: 'insults', createdBy: mod.user.id });
    expect(Date.parse(s.endsAt!) - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(await noticeP).toEqual({ kind: 'mute', reason: 'insults', endsAt: s.endsAt, scope: 'all' });

    const expected = muteMessage({ reason: 'insults', endsAt: s.endsAt, scope: 'all' });
    expect(expected).toMatch(/^You are muted until \d{4}-\d\d-\d\d \d\d:\d\d UTC: insults$/);
    expect(await lobbyChat(p, 'hello muted')).toBe(expected);
    expect(await p.emit('chat_message', { gameId, message: 'table muted', actionId: 'c2' })).toEqual({
      ok: false,
      message: expected,
    });
    const stored = await t.dataSource.query(`SELECT 1 FROM lobby_chat_messages WHERE message = 'hello muted'`);
    expect(stored).toHaveLength(0);

    // the player's own view of it
    const standing = await api(t.url, 'GET', '/api/moderation/standing', { token: p.user.token });
    expect(standing.body.mute).toEqual({ kind: 'mute', reason: 'insults', endsAt: s.endsAt, scope: 'all' });

    // a second mute replaces the first (the first is lifted as replaced)
    const r2 = await sanction(p.id, { kind: 'mute', reason: 'still insulting', minutes: null });
    expect(r2.status).toBe(200);
    const rows = await t.dataSource.query(
      `SELECT id, lifted_at, lift_reason FROM sanctions WHERE user_id = $1 ORDER BY created_at`,
      [p.id],
    );
    expect(rows[0].lifted_at).not.toBeNull();
    expect(rows[0].lift_reason).toBe('Replaced by a new mute');
    expect(await lobbyChat(p, 'again')).toBe('You are muted for good: still insulting');

    const lifted = await asMod('POST', `/api/admin/sanctions/${r2.body.id}/lift`, { reason: 'apologised' });
    expect(lifted.status).toBe(200);
    expect(lifted.body.liftedAt).toEqual(expect.any(String));
    expect(lifted.body.liftedBy).toBe(mod.user.id);
    expect(await lobbyChat(p, 'hello after')).toBeNull();
    expect(await p.emit('chat_message', { gameId, message: 'table after', actionId: 'c3' })).toEqual({ ok: true });
    // lifting twice: 409; a warning cannot be lifted: 400
    expect((await asMod('POST', `/api/admin/sanctions/${r2.body.id}/lift`, { reason: 'again' })).status).toBe(409);
    expect((await asMod('POST', `/api/admin/sanctions/${r2.body.id}/lift`, {})).status).toBe(400);

    const audit = await auditFor(t, p.id);
    expect(audit.map((a) => a.action)).toEqual(['player.mute', 'player.mute', 'player.unmute']);
    expect(audit[0]).toMatchObject({ actor_id: mod.user.id, reason: 'insults', target_ref: `sanction:${s.id}` });
    expect(audit[1].before).toEqual({ replaced: [expect.objectContaining({ id: s.id })] });
    expect(audit[2]).toMatchObject({ reason: 'apologised' });
  });

  it('an automatic lobby mute (actor null) refuses lobby chat only, until reviewed, and is audited as automod.mute', async () => {
    const p = await client();
    const gameId = (await p.http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    await p.emit('join_game', { gameId });
    const s = await sanctions.apply(null, p.id, {
      kind: 'mute',
      scope: 'lobby',
      minutes: null,
      reason: 'Muted by 3 players in 24 h — pending review',
    });
    expect(s).toMatchObject({ kind: 'mute', scope: 'lobby', endsAt: null, createdBy: null });
    expect(await lobbyChat(p, 'lobby')).toBe(
      'You are muted in lobby chat until a moderator reviews it: Muted by 3 players in 24 h — pending review',
    );
    expect(await p.emit('chat_message', { gameId, message: 'table ok', actionId: 'c1' })).toEqual({ ok: true });
    const [a] = await auditFor(t, p.id);
    expect(a).toMatchObject({ action: 'automod.mute', actor_id: null });
  });

  it('applied inside a caller transaction: enforced only after the commit, and not at all after a rollback', async () => {
    const p = await client();
    const ds = t.app.get(DataSource);
    await expect(
      ds.transaction(async (m) => {
        await sanctions.apply(mod.user.id, p.id, { kind: 'mute', minutes: 10, reason: 'rolled back' }, m);
        throw new Error('caller failed');
      }),
    ).rejects.toThrow('caller failed');
    expect(await sanctions.activeMute(p.id)).toBeNull();
    expect(await lobbyChat(p, 'still fine')).toBeNull();
    expect(await auditFor(t, p.id)).toHaveLength(0);

    let seenInside: unknown = 'unset';
    const noticeP = waitForEvent(p.socket, 'sanction_notice');
    await ds.transaction(async (m) => {
      await sanctions.apply(mod.user.id, p.id, { kind: 'mute', minutes: 10, reason: 'committed' }, m);
      seenInside = await sanctions.activeMute(p.id); // another connection: not visible yet
    });
    expect(seenInside).toBeNull();
    expect((await noticeP).reason).toBe('committed');
    expect((await sanctions.activeMute(p.id))?.reason).toBe('committed');
  });

  it('a warning and a forced rename are shown to the player (socket notice, then once on the next profile fetch)', async () => {
    const p = await client();
    const warnP = waitForEvent(p.socket, 'sanction_notice', (n) => n.kind === 'warn');
    expect((await sanction(p.id, { kind: 'warn', reason: 'mind your language' })).status).toBe(200);
    expect(await warnP).toEqual({ kind: 'warn', reason: 'mind your language', endsAt: null, scope: null });

    const newName = `Renamed${Date.now() % 100000}`;
    const renameP = waitForEvent(p.socket, 'sanction_notice', (n) => n.kind === 'rename');
    const r = await sanction(p.id, { kind: 'rename', reason: 'offensive name', newUsername: newName });
    expect(r.status).toBe(200);
    expect((await renameP).reason).toBe('offensive name');
    const profile = await api(t.url, 'GET', '/api/auth/profile', { token: p.user.token });
    expect(profile.body.username).toBe(newName);
    // the next profile fetch carries both notices, once
    expect(profile.body.standing).toEqual({
      mute: null,
      notices: [
        { kind: 'warn', reason: 'mind your language', endsAt: null, scope: null },
        { kind: 'rename', reason: 'offensive name', endsAt: null, scope: null },
      ],
    });
    expect((await api(t.url, 'GET', '/api/moderation/standing', { token: p.user.token })).body.notices).toEqual([]);
    expect((await api(t.url, 'GET', '/api/moderation/standing')).status).toBe(401);

    // a name that looks like another account's is refused (409), nothing changes
    const taken = await sanction(p.id, { kind: 'rename', reason: 'x', newUsername: mod.user.username.toUpperCase() });
    expect(taken.status).toBe(409);
    const audit = await auditFor(t, p.id);
    expect(audit.map((a) => a.action)).toEqual(['player.warn', 'player.rename']);
    expect(audit[1].before).toEqual({ username: p.user.user.username });
    expect(audit[1].after).toMatchObject({ username: newName });
  });

  it('a ban closes the sockets with the reason, a bot takes the seat mid-game, login and old tokens are refused', async () => {
    const ps = [await client(), await client(), await client(), await client()];
    const gameId = (await ps[0].http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    for (let i = 1; i < 4; i++)
      expect((await ps[i].http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: i })).status).toBe(200);
    for (const p of ps) await p.emit('join_game', { gameId });
    expect((await ps[0].emit('start_game', { gameId })).ok).toBe(true);
    await ps[0].waitFor(() => ps[0].view?.status === 'BIDDING', 5000, 'BIDDING');

    const banned = ps[2];
    const noticeP = waitForEvent(banned.socket, 'sanction_notice');
    const gone = new Promise<void>((resolve) => banned.socket.once('disconnect', () => resolve()));
    const r = await sanction(banned.id, { kind: 'ban', reason: 'cheating', minutes: 60 * 24 });
    expect(r.status).toBe(200);
    const notice = await noticeP;
    expect(notice).toMatchObject({ kind: 'ban', reason: 'cheating' });
    await gone;
    await ps[0].waitFor(() => ps[0].view?.players?.[2]?.type === 'bot', 5000, 'bot in seat 3');

    const msg = banMessage({ reason: 'cheating', endsAt: r.body.endsAt });
    expect(msg).toMatch(/^Banned until \d{4}-\d\d-\d\d \d\d:\d\d UTC: cheating$/);
    const login = await api(t.url, 'POST', '/api/auth/login', {
      body: { email: banned.user.email, password: banned.user.password },
    });
    expect(login.status).toBe(403);
    expect(login.body.message).toBe(msg);
    // a wrong password is still just a wrong password (the ban is not revealed)
    const wrong = await api(t.url, 'POST', '/api/auth/login', {
      body: { email: banned.user.email, password: 'nope nope nope' },
    });
    expect(wrong.status).toBe(401);
    // the token issued before the ban is refused, over HTTP and sockets
    expect((await api(t.url, 'GET', '/api/auth/profile', { token: banned.user.token })).status).toBe(401);
    await expect(connectSocket(t.url, banned.user.token, { timeoutMs: 2000 })).rejects.toThrow();

    const audit = await auditFor(t, banned.id);
    expect(audit.map((a) => a.action)).toContain('player.ban');

    // lifted: the player may sign in again
    expect((await asMod('POST', `/api/admin/sanctions/${r.body.id}/lift`, { reason: 'appeal accepted' })).status).toBe(
      200,
    );
    const again = await api(t.url, 'POST', '/api/auth/login', {
      body: { email: banned.user.email, password: banned.user.password },
    });
    expect(again.status).toBe(200);
    expect((await api(t.url, 'GET', '/api/auth/profile', { token: again.body.token })).status).toBe(200);
    for (const p of ps) p.close();
  });
});
