/**
 * Issue #28: quick play across three real backend PROCESSES sharing PostgreSQL + Redis. 40 players (8 teams whose
 * partners sit on another node) queue at once, spread over the three nodes: every table formed has four distinct players and
 * starts. A player queued on a node that dies re-queues from the other node when its socket reconnects, and is
 * matched there.
 */
import type { QuickPlayMatched, TableView } from '@spades/common';
import { ChildDb, childDb, ChildServer, startChild } from '../games/support/child';
import { api, connectSocket, registerUser, TestSocket, waitForEvent } from '../support/test-app';

const PG = process.env.TEST_DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const d = PG && REDIS_URL ? describe : describe.skip;
if (!PG || !REDIS_URL) console.warn('[cluster/matchmaking.spec] needs TEST_DATABASE_URL and REDIS_URL: skipped');

type Ack = { ok: boolean; message?: string; [k: string]: unknown };
const emit = (s: TestSocket, event: string, payload?: unknown) =>
  new Promise<Ack>((resolve) =>
    (s as unknown as { emit: (e: string, p: unknown, cb: (r: Ack) => void) => void }).emit(
      event,
      payload ?? {},
      resolve,
    ),
  );
const queue = { mode: 'PARTNERS', stake: 'low', pace: 'normal' };

d('quick play across nodes (3 processes, PostgreSQL + Redis)', () => {
  let db: ChildDb;
  let a: ChildServer;
  let b: ChildServer;
  let c: ChildServer;
  const sockets: TestSocket[] = [];
  const env = (id: string) => ({
    REDIS_URL: REDIS_URL!,
    NODE_ID: id,
    CLUSTER_LEASE_MS: '1500',
    MATCHMAKING_TICK_MS: '100',
    BOT_DELAY_MIN_MS: '60000',
    BOT_DELAY_MAX_MS: '60000',
  });

  beforeAll(async () => {
    db = childDb();
    a = await startChild(db, env('mm-a'));
    b = await startChild(db, env('mm-b'));
    c = await startChild(db, env('mm-c'));
  }, 120_000);

  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.all([a, b, c].filter(Boolean).map((n) => n.kill()));
    await db?.cleanup();
  }, 60_000);

  const player = async (node: ChildServer) => {
    const u = await registerUser(node.url);
    const s = await connectSocket(node.url, u.token, { timeoutMs: 15000 });
    sockets.push(s);
    return { u, s, node };
  };

  it('40 players on three nodes (teams split across them) get 10 started tables of four distinct players', async () => {
    const nodes = [a, b, c];
    const players = [];
    for (let i = 0; i < 40; i++) players.push(await player(nodes[i % 3]!));
    const teams: [(typeof players)[number], (typeof players)[number]][] = [];
    for (let i = 0; i < 8; i++) {
      const x = players[2 * i]!;
      const y = players[2 * i + 1]!; // always on another node than x
      expect(
        (
          await api(y.node.url, 'POST', '/api/social/friends/add', {
            token: y.u.token,
            body: { friendId: x.u.user.id },
          })
        ).status,
      ).toBe(200);
      const invited = waitForEvent(y.s, 'partner_invitation', () => true, 10000);
      expect(await emit(x.s, 'partner_invite', { userId: y.u.user.id, ...queue })).toMatchObject({ ok: true });
      await invited;
      teams.push([x, y]);
    }
    const matched = players.map((p) => waitForEvent(p.s, 'quickplay_matched', () => true, 45000));
    const acks = await Promise.all([
      ...teams.map(([x, y]) => emit(y.s, 'partner_accept', { fromId: x.u.user.id })),
      ...players.slice(16).map((p) => emit(p.s, 'quickplay_join', queue)),
    ]);
    for (const r of acks) expect(r).toMatchObject({ ok: true, queued: true });
    const results: QuickPlayMatched[] = await Promise.all(matched);
    const games = new Set(results.map((r) => r.gameId));
    expect(games.size).toBe(10);
    const seated = new Set<string>();
    for (const gameId of games) {
      const i = results.findIndex((r) => r.gameId === gameId);
      // asked on the other node than the player's: routed to the table's owner
      const p = players[i]!;
      const v = (
        await api<TableView>(nodes[(nodes.indexOf(p.node) + 1) % 3]!.url, 'GET', `/api/games/${gameId}`, {
          token: p.u.token,
        })
      ).body;
      const ids = v.players.map((x) => x!.id);
      expect(new Set(ids).size).toBe(4);
      for (const id of ids) {
        expect(seated.has(id)).toBe(false);
        seated.add(id);
      }
      expect(v.status).toBe('BIDDING');
      expect(v.rated).toBe(true);
      for (const [x, y] of teams)
        if (ids.includes(x.u.user.id)) expect(ids.indexOf(y.u.user.id)).toBe((ids.indexOf(x.u.user.id) + 2) % 4);
    }
    expect(seated.size).toBe(40);
  }, 180_000);

  it('a player queued on a node that dies re-queues from the other node when its socket reconnects, and is matched', async () => {
    const lost = await player(b);
    expect(await emit(lost.s, 'quickplay_join', { ...queue, stake: 'mid' })).toMatchObject({ ok: true, queued: true });
    await b.kill();
    // the client's socket reconnects to the surviving node and sends its queue choice again
    const back = await connectSocket(a.url, lost.u.token, { timeoutMs: 15000 });
    sockets.push(back);
    expect(await emit(back, 'quickplay_join', { ...queue, stake: 'mid' })).toMatchObject({ ok: true, queued: true });
    const matched = waitForEvent(back, 'quickplay_matched', () => true, 30000);
    const others = [await player(a), await player(a), await player(a)];
    for (const o of others)
      expect(await emit(o.s, 'quickplay_join', { ...queue, stake: 'mid' })).toMatchObject({ ok: true });
    const m = await matched;
    const v = (await api<TableView>(a.url, 'GET', `/api/games/${m.gameId}`, { token: lost.u.token })).body;
    expect(v.players.map((x) => x!.id).sort()).toEqual([lost.u.user.id, ...others.map((o) => o.u.user.id)].sort());
    expect(v.status).toBe('BIDDING');
  }, 90_000);
});
