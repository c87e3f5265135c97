/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw wire payloads */
/**
 * The console's Tables area (issue #25) against a real database and real socket.io clients: the guard of every
 * route, the list (private tables included, filters, recent tables), staff spectating a private table without a
 * card, a staff removal (before the start: the seat is freed; mid-game: a bot takes the seat at once and a rated
 * leaver forfeits), evictEverywhere (every table of a user, as a ban does), closing a stuck rated table (escrow to
 * the house, exactly once), and the audit entry of every action.
 */
import { potFor } from '@spades/common';
import { ConsoleTablesService } from '../src/admin/tables.service';
import { GamesService } from '../src/games/games.service';
import { TableStore } from '../src/games/table.store';
import { api, connectSocket, registerUser, RegisteredUser, TestApp } from './support/test-app';
import { Client, gamesSuite, privateCards, SETTINGS } from './games/helpers';

const START = 5_000_000;
const BUY_IN = 100_000;

async function coinsOf(t: TestApp, userId: string): Promise<number> {
  const rows = await t.dataSource.query(`SELECT balance FROM coin_accounts WHERE key = $1`, [`user:${userId}`]);
  return rows.length ? Number(rows[0].balance) : 0;
}

async function escrowTotal(t: TestApp): Promise<number> {
  const [r] = await t.dataSource.query(
    `SELECT COALESCE(SUM(balance),0)::text AS s FROM coin_accounts WHERE kind = 'escrow'`,
  );
  return Number(r.s);
}

async function auditOf(t: TestApp, action: string, ref: string): Promise<any[]> {
  return t.dataSource.query(`SELECT * FROM audit_log WHERE action = $1 AND target_ref = $2 ORDER BY id`, [action, ref]);
}

describe('console tables', () => {
  let t: TestApp;
  const { client } = gamesSuite((app) => (t = app));
  let mod: RegisteredUser;
  let admin: RegisteredUser;

  beforeAll(async () => {
    [mod, admin] = await Promise.all([registerUser(t.url), registerUser(t.url)]);
    await t.dataSource.query(`UPDATE users SET role = 'moderator' WHERE id = $1`, [mod.user.id]);
    await t.dataSource.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.user.id]);
  });

  const asMod = (method: string, path: string, body?: unknown) => api(t.url, method, path, { token: mod.token, body });

  /** Four humans at a started rated table; returns the clients and the table id. */
  async function ratedGame(): Promise<{ ps: Client[]; gameId: string }> {
    const ps = [await client(), await client(), await client(), await client()];
    const gameId = (await ps[0].http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    for (let i = 1; i < 4; i++)
      expect((await ps[i].http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: i })).status).toBe(200);
    for (const p of ps) await p.emit('join_game', { gameId });
    expect((await ps[0].emit('start_game', { gameId })).ok).toBe(true);
    await ps[0].waitFor(() => ps[0].view?.status === 'BIDDING', 5000, 'BIDDING');
    return { ps, gameId };
  }

  it('every route answers 401 without a token and 403 to players; moderators may use them', async () => {
    const player = await client();
    const id = '00000000-0000-4000-8000-000000000001';
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/admin/tables'],
      ['GET', `/api/admin/tables/${id}`],
      ['POST', `/api/admin/tables/${id}/close`, { reason: 'stuck' }],
      ['POST', `/api/admin/tables/${id}/remove-player`, { userId: player.id, reason: 'abuse' }],
    ];
    for (const [method, path, body] of routes) {
      expect((await api(t.url, method, path, { body })).status).toBe(401);
      const refused = await api(t.url, method, path, { token: player.user.token, body });
      expect(refused.status).toBe(403);
      expect(refused.body.message).toBe('Moderators and admins only');
      // a moderator gets past the guard: the unknown table is a 404
      const asModerator = await api(t.url, method, path, { token: mod.token, body });
      expect(asModerator.status).toBe(path === '/api/admin/tables' ? 200 : 404);
    }
  });

  it('lists live tables of every kind, private ones included, with filters; refuses bad filters', async () => {
    const host = await client();
    const other = await client();
    const priv = (await host.http(t.url, 'POST', '/api/games', { ...SETTINGS, private: true })).body.id;
    const pub = (await other.http(t.url, 'POST', '/api/games', { ...SETTINGS, gameMode: 'SOLO' })).body.id;
    const all = await asMod('GET', '/api/admin/tables');
    expect(all.status).toBe(200);
    const ids = all.body.tables.map((x: any) => x.id);
    expect(ids).toEqual(expect.arrayContaining([priv, pub]));
    expect(all.body.liveCount).toBeGreaterThanOrEqual(2);
    const row = all.body.tables.find((x: any) => x.id === priv);
    expect(row).toMatchObject({
      status: 'WAITING',
      private: true,
      mode: 'PARTNERS',
      rated: false,
      hostId: host.id,
      closedAt: null,
    });
    expect(row.seats[0]).toEqual({
      seat: 0,
      kind: 'human',
      userId: host.id,
      username: host.user.user.username,
      vacantUntil: null,
    });
    expect(row.seats[1]).toMatchObject({ kind: 'empty', userId: null });
    expect(JSON.stringify(all.body)).not.toMatch(/"hands"|"inviteToken"/);

    const solo = await asMod('GET', '/api/admin/tables?mode=solo');
    expect(solo.body.tables.map((x: any) => x.id)).toContain(pub);
    expect(solo.body.tables.every((x: any) => x.mode === 'SOLO')).toBe(true);
    const byName = await asMod(
      'GET',
      `/api/admin/tables?player=${encodeURIComponent(host.user.user.username.toUpperCase())}`,
    );
    expect(byName.body.tables.map((x: any) => x.id)).toEqual([priv]);
    const byId = await asMod('GET', `/api/admin/tables?player=${other.id}`);
    expect(byId.body.tables.map((x: any) => x.id)).toEqual([pub]);
    expect((await asMod('GET', '/api/admin/tables?status=playing')).body.tables.map((x: any) => x.id)).not.toContain(
      priv,
    );

    for (const [q, message] of [
      ['status=stuck', 'status must be live, waiting, playing, recent or all'],
      ['mode=trios', 'mode must be PARTNERS or SOLO'],
      ['limit=0', 'limit must be 1–200'],
    ]) {
      const bad = await asMod('GET', `/api/admin/tables?${q}`);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe(message);
    }
    const one = await asMod('GET', `/api/admin/tables/${priv}`);
    expect(one.body.id).toBe(priv);
    await host.http(t.url, 'POST', `/api/games/${priv}/leave`, {});
    await other.http(t.url, 'POST', `/api/games/${pub}/leave`, {});
  });

  it('staff open a private table as spectators and see no card; a player without an invitation is refused', async () => {
    const { ps, gameId } = await (async () => {
      const ps = [await client(), await client(), await client(), await client()];
      const gameId = (await ps[0].http(t.url, 'POST', '/api/games', { ...SETTINGS, private: true })).body.id;
      const link = (await ps[0].http(t.url, 'GET', `/api/games/${gameId}/invite-link`)).body.token;
      for (let i = 1; i < 4; i++)
        expect((await ps[i].http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: i, invite: link })).status).toBe(
          200,
        );
      for (const p of ps) await p.emit('join_game', { gameId });
      expect((await ps[0].emit('start_game', { gameId })).ok).toBe(true);
      await ps[0].waitFor(() => ps[0].view?.status === 'BIDDING', 5000, 'BIDDING');
      return { ps, gameId };
    })();
    const stranger = await client();
    expect((await stranger.http(t.url, 'POST', `/api/games/${gameId}/spectate`, {})).status).toBe(403);
    const watcher = new Client(mod, await connectSocket(t.url, mod.token));
    try {
      const ack = await watcher.emit('join_game_as_spectator', { gameId });
      expect(ack.ok).toBe(true);
      await watcher.waitFor(() => watcher.view?.id === gameId, 5000, 'spectator view');
      expect(watcher.view.mySeat).toBeNull();
      for (const p of ps) {
        p.auto = true;
        p.maybeAct();
      }
      await watcher.waitFor(() => watcher.view?.status === 'PLAYING', 10000, 'PLAYING');
      // every payload the moderator received: no card outside the tricks on the table
      expect(watcher.received.flatMap((r) => privateCards(r.payload))).toEqual([]);
    } finally {
      watcher.close();
      for (const p of ps) p.auto = false;
    }
    const closed = await asMod('POST', `/api/admin/tables/${gameId}/close`, { reason: 'test over' });
    expect(closed.status).toBe(200);
  });

  it('before the start, a removal frees the seat and tells the player why; the audit log has it', async () => {
    const host = await client();
    const guest = await client();
    const gameId = (await host.http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    await guest.http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: 2 });
    await guest.emit('join_game', { gameId });
    for (const [body, message] of [
      [{ userId: guest.id }, 'A reason of 1–500 characters is required'],
      [{ userId: guest.id, reason: '   ' }, 'A reason of 1–500 characters is required'],
      [{ userId: guest.id, reason: 'x'.repeat(501) }, 'A reason of 1–500 characters is required'],
      [{ userId: 'nobody', reason: 'spam' }, 'userId must be an account id'],
    ] as const) {
      const bad = await asMod('POST', `/api/admin/tables/${gameId}/remove-player`, body);
      expect(bad.status).toBe(400);
      expect(bad.body.message).toBe(message);
    }
    const stranger = await client();
    const notThere = await asMod('POST', `/api/admin/tables/${gameId}/remove-player`, {
      userId: stranger.id,
      reason: 'spam',
    });
    expect(notThere.status).toBe(404);
    expect(notThere.body.message).toBe('This player is not seated or watching at this table');

    const r = await asMod('POST', `/api/admin/tables/${gameId}/remove-player`, {
      userId: guest.id,
      reason: 'Offensive name',
    });
    expect(r.status).toBe(200);
    expect(r.body.table.seats[2]).toMatchObject({ kind: 'empty', userId: null });
    await guest.waitFor(() => guest.events('removed_from_table').length > 0, 5000, 'removed_from_table');
    expect(guest.events('removed_from_table')[0]).toEqual({ gameId, reason: 'Offensive name' });
    const view = (await host.http(t.url, 'GET', `/api/games/${gameId}`)).body;
    expect(view.players[2]).toBeNull();
    expect(view.chat.map((m: any) => m.message)).toContain(
      `${guest.user.user.username} left the table (removed by a moderator).`,
    );
    const [entry] = await auditOf(t, 'table.remove_player', `game:${gameId}`);
    expect(entry).toMatchObject({ actor_id: mod.user.id, target_user_id: guest.id, reason: 'Offensive name' });
    expect(entry.after).toMatchObject({ gameId, seat: 2, botSeated: false, forfeited: false, closed: false });
    await host.http(t.url, 'POST', `/api/games/${gameId}/leave`, {});
  });

  it('mid-game, a bot takes the removed player’s seat at once; the rated leaver forfeits; the game plays on and settles once', async () => {
    const { ps, gameId } = await ratedGame();
    const r = await asMod('POST', `/api/admin/tables/${gameId}/remove-player`, {
      userId: ps[1].id,
      reason: 'Cheating',
    });
    expect(r.status).toBe(200);
    expect(r.body.table.seats[1]).toMatchObject({ kind: 'bot', userId: null, vacantUntil: null });
    await ps[0].waitFor(() => ps[0].view?.players?.[1]?.type === 'bot', 5000, 'bot in seat 2');
    expect(ps[0].view.seatReplacements?.[1] ?? null).toBeNull();
    expect(ps[1].events('removed_from_table')).toContainEqual({ gameId, reason: 'Cheating' });
    // restart-exact: the stored snapshot + events rebuild the same table (bot in the seat, the forfeit)
    const games = t.app.get(GamesService);
    await games.idle();
    const live = await games.record(gameId);
    const stored = await t.app.get(TableStore).load(gameId, 100);
    expect(stored!.seats).toEqual(live.seats);
    expect(stored!.forfeited).toEqual([ps[1].id]);
    expect(stored!.replacements).toEqual(live.replacements);
    // the removed player cannot take the seat back: a bot holds it
    expect((await ps[1].http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: 1 })).status).toBe(400);
    for (const p of [ps[0], ps[2], ps[3]]) {
      p.auto = true;
      p.maybeAct();
    }
    await ps[0].waitFor(() => ps[0].view?.payouts != null, 60000, 'settlement');
    const winnerTeam = ps[0].view.winningTeam === 'team1' ? 0 : 1;
    const half = potFor(BUY_IN) / 2;
    const expected = [0, 1, 2, 3].map((s) => (s % 2 === winnerTeam && s !== 1 ? half : 0));
    expect(ps[0].view.payouts).toEqual(expected);
    for (const [s, p] of ps.entries()) expect(await coinsOf(t, p.id)).toBe(START - BUY_IN + expected[s]);
    expect(await escrowTotal(t)).toBe(0);
    const [entry] = await auditOf(t, 'table.remove_player', `game:${gameId}`);
    expect(entry.after).toMatchObject({ seat: 1, botSeated: true, forfeited: true, closed: false });
    for (const p of ps) p.auto = false;
  });

  it('closing a stuck rated table: everybody is told, the escrow goes to the house once; a second close is refused', async () => {
    const { ps, gameId } = await ratedGame();
    expect(await escrowTotal(t)).toBe(4 * BUY_IN);
    const r = await api(t.url, 'POST', `/api/admin/tables/${gameId}/close`, {
      token: admin.token,
      body: { reason: 'Stuck after a crash' },
    });
    expect(r.status).toBe(200);
    expect(r.body.table).toMatchObject({ status: 'CLOSED', closedReason: 'Closed by a moderator' });
    for (const p of ps) await p.waitFor(() => p.events('game_closed').length > 0, 5000, 'game_closed');
    expect(ps[2].events('game_closed')[0].reason).toBe('Closed by a moderator');
    for (const p of ps) expect(await coinsOf(t, p.id)).toBe(START - BUY_IN);
    expect(await escrowTotal(t)).toBe(0);
    const rows = await t.dataSource.query(`SELECT reason, house_amount FROM game_settlements WHERE game_id = $1`, [
      gameId,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0].reason).toBe('abandoned');
    expect(Number(rows[0].house_amount)).toBe(4 * BUY_IN);
    const again = await asMod('POST', `/api/admin/tables/${gameId}/close`, { reason: 'again' });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('This table is already closed');
    const [entry] = await auditOf(t, 'table.close', `game:${gameId}`);
    expect(entry).toMatchObject({ actor_id: admin.user.id, reason: 'Stuck after a crash' });
    expect(entry.before).toEqual({ status: 'BIDDING', rated: true });
    expect(entry.after).toEqual({ status: 'CLOSED', escrowToHouse: true });
    // the closed table is among the recent ones
    const recent = await asMod('GET', `/api/admin/tables?status=recent&player=${ps[3].id}`);
    expect(recent.body.tables.map((x: any) => x.id)).toContain(gameId);
    expect(recent.body.tables.find((x: any) => x.id === gameId)).toMatchObject({
      status: 'CLOSED',
      rated: true,
      closedReason: 'Closed by a moderator',
    });
  });

  it('evictEverywhere removes a user from every table where they sit or watch (as a ban does)', async () => {
    const banned = await client();
    const host = await client();
    const seatedAt = (await banned.http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    await host.http(t.url, 'POST', `/api/games/${seatedAt}/join`, { seat: 1 });
    const host2 = await client();
    const tableToWatch = (await host2.http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    expect((await banned.http(t.url, 'POST', `/api/games/${tableToWatch}/spectate`, {})).status).toBe(200);
    const svc = t.app.get(ConsoleTablesService);
    const ids = await svc.evictEverywhere(banned.id, 'Banned: cheating');
    expect(ids.sort()).toEqual([seatedAt, tableToWatch].sort());
    expect((await svc.evictEverywhere(banned.id, 'Banned: cheating')).length).toBe(0);
    // the banned host's seat is freed; the other seated player becomes the host
    const view = (await host.http(t.url, 'GET', `/api/games/${seatedAt}`)).body;
    expect(view.players.some((p: any) => p?.id === banned.id)).toBe(false);
    expect(view.players[1]?.id).toBe(host.id);
    const watchedView = (await host2.http(t.url, 'GET', `/api/games/${tableToWatch}`)).body;
    expect(watchedView.spectators.some((p: any) => p.id === banned.id || p.userId === banned.id)).toBe(false);
    // without an actor the caller's own audit entry (the ban) covers it: no table entry
    expect(await auditOf(t, 'table.remove_player', `game:${seatedAt}`)).toEqual([]);
    for (const [c, g] of [
      [host, seatedAt],
      [host2, tableToWatch],
    ] as const)
      await c.http(t.url, 'POST', `/api/games/${g}/leave`, {});
  });
});
