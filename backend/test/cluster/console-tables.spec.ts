/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw payloads and SQL rows */
/**
 * Issue #25 across nodes: two backend nodes sharing one PostgreSQL schema and Redis — node-b a real child process,
 * node-a in this process (so the test can call ConsoleTablesService as the sanctions module does). A moderator on
 * node-a lists node-b's private table, removes a player from it and closes it (the command runs on the owner
 * node, its audit entry commits with it); the dashboard lists both nodes; evictEverywhere on node-a empties the
 * banned player's seat on node-b and their watching place on node-a.
 */
import { ConsoleTablesService } from '../../src/admin/tables.service';
import { api, createTestApp, TestApp } from '../support/test-app';
import { Client, SETTINGS, useFastTimers } from '../games/helpers';
import { ChildDb, childDb, ChildServer, startChild, withDatabase } from '../games/support/child';

const PG = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const LEASE_MS = 1500;
const BUY_IN = 100_000;
const d = PG && REDIS_URL ? describe : describe.skip;
if (!PG || !REDIS_URL) console.warn('[console-tables cluster] needs TEST_DATABASE_URL and REDIS_URL: skipped');

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

d('console tables and dashboard on two nodes', () => {
  let db: ChildDb;
  let child: ChildServer | undefined;
  let here: TestApp | undefined;
  let nodes: { url: string }[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    useFastTimers({ TURN_TIMEOUT_MS: '600000', SEAT_REPLACEMENT_MS: '600000' });
    db = childDb();
    // node-b migrates the schema; node-a (this process) joins it with the same secret, Redis and lease
    child = await startChild(db, { REDIS_URL: REDIS_URL!, NODE_ID: 'node-b', CLUSTER_LEASE_MS: String(LEASE_MS) });
    here = await createTestApp({
      env: {
        DATABASE_SCHEMA: db.schema,
        JWT_SECRET: db.env.JWT_SECRET,
        REDIS_URL: REDIS_URL!,
        NODE_ID: 'node-a',
        CLUSTER_LEASE_MS: String(LEASE_MS),
      },
    });
    nodes = [{ url: here.url }, { url: child.url }];
    await sleep(LEASE_MS / 2); // one heartbeat round: each node sees the other
  }, 120_000);

  afterAll(async () => {
    for (const c of clients.splice(0)) c.close();
    await here?.close();
    await child?.kill();
    await db?.cleanup();
  }, 60_000);

  const sql = (text: string, params?: unknown[]) => withDatabase(db, (q) => q(text, params));

  it('a moderator on node-a lists, empties and closes a private rated table driven by node-b', async () => {
    const [a, b] = nodes.map((n) => n.url);
    const mod = await Client.create(a);
    const ps: Client[] = [];
    for (let i = 0; i < 4; i++) ps.push(await Client.create(b));
    clients.push(mod, ...ps);
    await sql(`UPDATE users SET role = 'moderator' WHERE id = $1`, [mod.id]);

    const gameId = (await ps[0].http(b, 'POST', '/api/games', { ...SETTINGS, private: true })).body.id;
    const token = (await ps[0].http(b, 'GET', `/api/games/${gameId}/invite-link`)).body.token;
    for (let i = 1; i < 4; i++)
      expect((await ps[i].http(b, 'POST', `/api/games/${gameId}/join`, { seat: i, invite: token })).status).toBe(200);
    for (const p of ps) await p.emit('join_game', { gameId });
    expect((await ps[0].emit('start_game', { gameId })).ok).toBe(true);
    await ps[0].waitFor(() => ps[0].view?.status === 'BIDDING', 10000, 'BIDDING');
    const [owner] = await sql(`SELECT owner_node FROM games WHERE id = $1`, [gameId]);
    expect(owner.owner_node).toBe('node-b');

    // node-a lists node-b's private table (a player there would not see it in the lobby)
    const list = await mod.http(a, 'GET', '/api/admin/tables?status=playing');
    expect(list.status).toBe(200);
    expect(list.body.tables.find((x: any) => x.id === gameId)).toMatchObject({
      node: 'node-b',
      private: true,
      rated: true,
      status: 'BIDDING',
    });

    // the dashboard on node-a: both nodes, both reachable; the table is counted once
    const dash = (await mod.http(a, 'GET', '/api/admin/dashboard')).body;
    expect(dash.cluster).toBe(true);
    expect(dash.nodes.map((n: any) => n.id)).toEqual(['node-a', 'node-b']);
    expect(dash.nodes.every((n: any) => n.reachable)).toBe(true);
    expect(dash.playingTables).toBe(1);
    expect(dash.ratedTables).toBe(1);
    expect(dash.onlineUsers).toBeGreaterThanOrEqual(5);

    // node-b's refusal reaches the moderator on node-a as is
    const notThere = await mod.http(a, 'POST', `/api/admin/tables/${gameId}/remove-player`, {
      userId: mod.id,
      reason: 'x',
    });
    expect(notThere.status).toBe(404);
    expect(notThere.body.message).toBe('This player is not seated or watching at this table');
    // removal through node-a runs on node-b: a bot in the seat at once, the player told why
    const removed = await mod.http(a, 'POST', `/api/admin/tables/${gameId}/remove-player`, {
      userId: ps[2].id,
      reason: 'Abusive chat',
    });
    expect(removed.status).toBe(200);
    expect(removed.body.table.seats[2]).toMatchObject({ kind: 'bot', userId: null });
    await ps[0].waitFor(() => ps[0].view?.players?.[2]?.type === 'bot', 5000, 'bot in seat 3');
    await ps[2].waitFor(() => ps[2].events('removed_from_table').length > 0, 5000, 'removed_from_table');
    expect(ps[2].events('removed_from_table')[0]).toEqual({ gameId, reason: 'Abusive chat' });

    // closing through node-a: everybody is told, the escrow goes to the house once
    const closed = await mod.http(a, 'POST', `/api/admin/tables/${gameId}/close`, { reason: 'Stuck' });
    expect(closed.status).toBe(200);
    expect(closed.body.table.status).toBe('CLOSED');
    await ps[0].waitFor(() => ps[0].events('game_closed').length > 0, 5000, 'game_closed');
    const settlements = await sql(`SELECT reason, house_amount FROM game_settlements WHERE game_id = $1`, [gameId]);
    expect(settlements).toHaveLength(1);
    expect(Number(settlements[0].house_amount)).toBe(4 * BUY_IN);
    const [escrow] = await sql(`SELECT COALESCE(SUM(balance),0)::text AS s FROM coin_accounts WHERE kind = 'escrow'`);
    expect(Number(escrow.s)).toBe(0);
    const audit = await sql(
      `SELECT action, actor_id, target_user_id, reason FROM audit_log WHERE target_ref = $1 ORDER BY id`,
      [`game:${gameId}`],
    );
    expect(audit).toEqual([
      { action: 'table.remove_player', actor_id: mod.id, target_user_id: ps[2].id, reason: 'Abusive chat' },
      { action: 'table.close', actor_id: mod.id, target_user_id: null, reason: 'Stuck' },
    ]);
    const again = await api(b, 'POST', `/api/admin/tables/${gameId}/close`, {
      token: mod.user.token,
      body: { reason: 'again' },
    });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('This table is already closed');
  });

  it('evictEverywhere on node-a frees the banned player’s seat on node-b and their place watching on node-a', async () => {
    const [a, b] = nodes.map((n) => n.url);
    const [banned, host, watched] = [await Client.create(b), await Client.create(b), await Client.create(a)];
    clients.push(banned, host, watched);
    const seatedAt = (await host.http(b, 'POST', '/api/games', SETTINGS)).body.id;
    expect((await banned.http(b, 'POST', `/api/games/${seatedAt}/join`, { seat: 2 })).status).toBe(200);
    const watchedAt = (await watched.http(a, 'POST', '/api/games', SETTINGS)).body.id;
    expect((await banned.http(a, 'POST', `/api/games/${watchedAt}/spectate`, {})).status).toBe(200);
    const owners = await sql(`SELECT id, owner_node FROM games WHERE id = ANY($1::uuid[]) ORDER BY owner_node`, [
      [seatedAt, watchedAt],
    ]);
    expect(owners.map((o: any) => [o.id, o.owner_node])).toEqual([
      [watchedAt, 'node-a'],
      [seatedAt, 'node-b'],
    ]);

    // as the sanctions module does on a ban: the ban's own audit entry covers it, so no actor is passed
    const tables = here!.app.get(ConsoleTablesService);
    const ids = await tables.evictEverywhere(banned.id, 'Banned until 2030-01-01 00:00 UTC: cheating');
    expect(ids.sort()).toEqual([seatedAt, watchedAt].sort());
    const seatView = (await host.http(b, 'GET', `/api/games/${seatedAt}`)).body;
    expect(seatView.players[2]).toBeNull();
    const watchView = (await watched.http(a, 'GET', `/api/games/${watchedAt}`)).body;
    expect(watchView.spectators.map((s: any) => s.id)).not.toContain(banned.id);
    expect(
      await sql(`SELECT 1 FROM audit_log WHERE action = 'table.remove_player' AND target_user_id = $1`, [banned.id]),
    ).toEqual([]);

    // with an actor (a moderator's own call), each removal on either node writes its entry with that actor
    expect((await banned.http(b, 'POST', `/api/games/${seatedAt}/join`, { seat: 3 })).status).toBe(200);
    const again = await tables.evictEverywhere(banned.id, 'Removed again', host.id);
    expect(again).toEqual([seatedAt]);
    const audit = await sql(
      `SELECT actor_id, target_ref FROM audit_log WHERE action = 'table.remove_player' AND target_user_id = $1`,
      [banned.id],
    );
    expect(audit).toEqual([{ actor_id: host.id, target_ref: `game:${seatedAt}` }]);
  });
});
