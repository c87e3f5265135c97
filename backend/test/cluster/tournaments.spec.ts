/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw wire payloads and SQL rows */
/**
 * Issue #27 in a cluster: three real backend PROCESSES sharing PostgreSQL + Redis. A SOLO sit-and-go of 8 is created
 * on node A (its owner); the players are on nodes B and C. Once round 1's tables are open, A is SIGKILLed: a live node
 * takes the tournament over with a higher fencing epoch, the tournament plays on to FINISHED, every payout happens
 * once and the ledger balances. The scheduler lease has exactly one holder, a live node. Lobby watchers on B and C
 * hear `tournaments_changed` for the creation on A and the start committed on another node.
 */
import { api } from '../support/test-app';
import { Client, useFastTimers } from '../games/helpers';
import { ChildDb, childDb, ChildServer, startChild, withDatabase } from '../games/support/child';

const PG = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const LEASE_MS = 1500;
const BUY_IN = 100_000;
const RULES = {
  biddingOption: 'REG',
  gamePlayOption: 'REG',
  minPoints: -100,
  maxPoints: 100,
  specialRules: { allowNil: true, allowBlindNil: false, screamer: false, assassin: false },
};
const d = PG && REDIS_URL ? describe : describe.skip;
if (!PG || !REDIS_URL) console.warn('[cluster/tournaments.spec] needs TEST_DATABASE_URL and REDIS_URL: skipped');

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

async function until<T>(fn: () => Promise<T | null | undefined | false>, timeoutMs: number, what: string): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timeout waiting for ${what}`);
    await sleep(150);
  }
}

d('tournaments across nodes (3 processes, PostgreSQL + Redis)', () => {
  let db: ChildDb;
  let nodes: ChildServer[] = [];
  const ids = ['tour-a', 'tour-b', 'tour-c'];
  const clients: Client[] = [];
  const env = (id: string) => ({ REDIS_URL: REDIS_URL!, NODE_ID: id, CLUSTER_LEASE_MS: String(LEASE_MS) });

  beforeAll(async () => {
    useFastTimers({ TURN_TIMEOUT_MS: '4000', SEAT_REPLACEMENT_MS: '600000' });
    db = childDb();
    nodes = [await startChild(db, env(ids[0]))];
    nodes.push(...(await Promise.all(ids.slice(1).map((id) => startChild(db, env(id))))));
    await sleep(LEASE_MS);
  }, 120_000);

  afterAll(async () => {
    for (const c of clients.splice(0)) c.close();
    await Promise.all(nodes.map((n) => n.kill()));
    await db?.cleanup();
  }, 60_000);

  const sql = (text: string, params?: unknown[]) => withDatabase(db, (q) => q(text, params));

  it('the owner node is killed mid-round: a live node takes over (higher epoch), the tournament finishes and pays once', async () => {
    const [a, b, c] = nodes;
    const creator = await Client.create(a.url);
    clients.push(creator);
    // lobby watchers on the other nodes: the list change committed on A reaches them (socket.io's Redis adapter)
    const lobbies = [await Client.create(b.url), await Client.create(c.url)];
    clients.push(...lobbies);
    for (const l of lobbies) expect(await l.emit('watch_lobby', {})).toMatchObject({ ok: true });
    const listChanges = (l: Client, status: string) =>
      l.events('tournaments_changed').filter((e) => e.tournaments.some((x: any) => x.id === id && x.status === status));
    const created = await creator.http(a.url, 'POST', '/api/tournaments', {
      name: 'Cluster cup',
      mode: 'SOLO',
      size: 8,
      buyIn: BUY_IN,
      rules: RULES,
    });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    const owner = async () => (await sql(`SELECT owner_node, owner_epoch FROM tournaments WHERE id = $1`, [id]))[0];
    expect(await owner()).toMatchObject({ owner_node: 'tour-a', owner_epoch: 1 });
    await until(
      async () => lobbies.every((l) => listChanges(l, 'REGISTERING').length > 0),
      5000,
      'list change on B, C',
    );

    const players: { c: Client; url: string }[] = [];
    for (let i = 0; i < 8; i++) {
      const url = i % 2 ? b.url : c.url;
      const p = await Client.create(url);
      clients.push(p);
      (p.socket as any).on('tournament_match_ready', (m: any) => {
        (p as any).acted.clear();
        p.auto = true;
        void p.emit('join_game', { gameId: m.gameId });
      });
      players.push({ c: p, url });
    }
    for (const { c: p, url } of players) {
      expect((await p.http(url, 'POST', `/api/tournaments/${id}/register`, {})).status).toBe(200);
    }
    // it filled and started (committed on B or C): every node's lobby hears it
    await until(async () => lobbies.every((l) => listChanges(l, 'RUNNING').length > 0), 5000, 'started on B, C');
    // round 1's two tables are open (the players were told)
    await until(
      async () => players.every(({ c: p }) => p.events('tournament_match_ready').length > 0),
      30_000,
      'round 1 tables',
    );
    await a.kill();
    const taken = await until(
      async () => {
        const o = await owner();
        return o.owner_node !== 'tour-a' ? o : null;
      },
      20_000,
      'take-over',
    );
    expect(['tour-b', 'tour-c']).toContain(taken.owner_node);
    expect(taken.owner_epoch).toBeGreaterThan(1);

    const view = async () =>
      (await api(b.url, 'GET', `/api/tournaments/${id}`, { token: players[0].c.user.token })).body;
    await until(async () => (await view()).status === 'FINISHED', 240_000, 'FINISHED');
    const done = await view();
    const prizes = await sql(
      `SELECT count(*)::int AS n, coalesce(sum(amount), 0)::text AS total FROM coin_entries
        WHERE reason = 'tournament_prize' AND ref_id = $1 AND amount > 0`,
      [id],
    );
    const paid = done.payouts.filter((p: any) => p.amount > 0);
    expect(prizes[0].n).toBe(paid.length);
    expect(Number(prizes[0].total)).toBe(paid.reduce((s: number, p: any) => s + p.amount, 0));
    const [escrow] = await sql(`SELECT balance::text AS b FROM coin_accounts WHERE key = $1`, [
      `escrow:tournament:${id}`,
    ]);
    expect(Number(escrow.b)).toBe(0);
    const [sum] = await sql(`SELECT coalesce(sum(balance), 0)::text AS s FROM coin_accounts`);
    expect(Number(sum.s)).toBe(0);
    // one `started`, each match opened once
    const events: any[] = (
      await sql(`SELECT event FROM tournament_events WHERE tournament_id = $1 ORDER BY seq`, [id])
    ).map((r: any) => r.event);
    expect(events.filter((e) => e.type === 'started')).toHaveLength(1);
    const opened = events.filter((e) => e.type === 'match_opened').map((e) => e.matchId);
    expect(new Set(opened).size).toBe(opened.length);

    // the scheduler lease: one row, held by a live node
    const leases = await sql(`SELECT holder FROM scheduler_leases WHERE name = 'tournaments'`);
    expect(leases).toHaveLength(1);
    expect(['tour-b', 'tour-c']).toContain(leases[0].holder);
  }, 360_000);
});
