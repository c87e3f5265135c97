/* eslint-disable @typescript-eslint/no-explicit-any -- raw SQL rows and loosely read HTTP bodies */
/**
 * Issue #27: a draining node hands its tournaments over. Two servers (A, B) on one PostgreSQL schema + Redis, a
 * cluster lease far longer than the test (so nothing is taken over because A looks dead). A drives a running
 * sit-and-go and holds the scheduler lease; A shuts down (SIGTERM = `app.close()`: the drain). The moment it is
 * down, B owns the tournament with a higher fencing epoch and drives it (adopted over the cluster bus), A's lease is
 * gone and B takes it at its next tick; B plays the tournament to FINISHED (nobody sits: walkovers at the seat
 * deadlines) and pays once; the ledger balances.
 */
import type { TournamentView } from '@spades/common';
import { ClusterNodes } from '../src/cluster/cluster.nodes';
import { CoinsService } from '../src/coins/coins.service';
import { TournamentsDriver } from '../src/tournaments/tournaments.driver';
import { SCHEDULER_LEASE, TournamentsScheduler } from '../src/tournaments/tournaments.scheduler';
import { escrowOf } from '../src/tournaments/tournaments.service';
import { api, createTestApp, registerUser, type RegisteredUser, type TestApp } from './support/test-app';

const REDIS_URL = process.env.REDIS_URL;
const PG = process.env.TEST_DATABASE_URL;
const d = PG && REDIS_URL ? describe : describe.skip;
if (!PG || !REDIS_URL) console.warn('[tournaments-drain.spec] needs TEST_DATABASE_URL and REDIS_URL: skipped');

const BUY_IN = 100_000;

async function waitUntil(pred: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    if (await pred()) return;
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

d('a draining node hands its tournaments over (issue #27)', () => {
  let a: TestApp;
  let b: TestApp;
  let aClosed = false;

  beforeAll(async () => {
    const cluster = { REDIS_URL, CLUSTER_LEASE_MS: '120000' };
    a = await createTestApp({ env: { ...cluster, NODE_ID: 'tdrain-a' } });
    b = await createTestApp({
      env: {
        ...cluster,
        NODE_ID: 'tdrain-b',
        DATABASE_SCHEMA: a.config.databaseSchema,
        JWT_SECRET: a.config.jwtSecret,
      },
    });
    // each sees the other live (B registered after A's first heartbeat round)
    await waitUntil(
      async () =>
        a.app.get(ClusterNodes).live().includes('tdrain-b') && b.app.get(ClusterNodes).live().includes('tdrain-a'),
      60_000,
      'both nodes live',
    );
  }, 120_000);

  afterAll(async () => {
    await b?.close();
    // A's Nest app is closed by the test; this drops the shared schema
    await a?.close().catch(() => undefined);
  }, 60_000);

  it('on shutdown A gives its running tournament and the scheduler lease up at once; B drives it to FINISHED and pays once', async () => {
    const sql = (text: string, params?: unknown[]) => b.dataSource.query(text, params);
    const users: RegisteredUser[] = [];
    for (let i = 0; i < 8; i++) users.push(await registerUser(a.url));
    const balance = async (userId: string) => Number(await b.app.get(CoinsService).balanceOf({ userId }));
    const start = new Map<string, number>();
    for (const u of users) start.set(u.user.id, await balance(u.user.id));

    const created = await api(a.url, 'POST', '/api/tournaments', {
      token: users[0].token,
      body: { name: 'Drain cup', mode: 'SOLO', size: 8, buyIn: BUY_IN, noShowMs: 30_000 },
    });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    for (const u of users)
      expect((await api(a.url, 'POST', `/api/tournaments/${id}/register`, { token: u.token, body: {} })).status).toBe(
        200,
      );
    const owner = async () => (await sql(`SELECT owner_node, owner_epoch FROM tournaments WHERE id = $1`, [id]))[0];
    const before = await owner();
    expect(before.owner_node).toBe('tdrain-a');
    // A drives it (round 1's tables are opened) and holds the scheduler lease
    await waitUntil(
      async () =>
        (
          await sql(
            `SELECT count(*)::int AS n FROM tournament_events WHERE tournament_id = $1 AND event->>'type' = 'match_opened'`,
            [id],
          )
        )[0].n === 2,
      30_000,
      'round 1 opened',
    );
    expect(a.app.get(TournamentsDriver).ownedIds()).toContain(id);
    await waitUntil(async () => a.app.get(TournamentsScheduler).holding, 10_000, 'A holds the lease');
    expect(await sql(`SELECT holder FROM scheduler_leases WHERE name = $1`, [SCHEDULER_LEASE])).toEqual([
      { holder: 'tdrain-a' },
    ]);

    // SIGTERM on A: the drain
    await a.app.close();
    aClosed = true;

    // at once: B owns it under a higher epoch and drives it; A holds no lease
    const after = await owner();
    expect(after.owner_node).toBe('tdrain-b');
    expect(after.owner_epoch).toBeGreaterThan(before.owner_epoch);
    expect(b.app.get(TournamentsDriver).ownedIds()).toContain(id);
    const leases = await sql(`SELECT holder FROM scheduler_leases WHERE name = $1`, [SCHEDULER_LEASE]);
    expect(leases.filter((l: any) => l.holder === 'tdrain-a')).toEqual([]);
    await waitUntil(async () => b.app.get(TournamentsScheduler).holding, 10_000, 'B takes the lease');

    // B plays it on: nobody sits, walkovers at the seat deadlines, the final decides, the prizes are paid once
    const view = async (): Promise<TournamentView> =>
      (await api(b.url, 'GET', `/api/tournaments/${id}`, { token: users[0].token })).body;
    await waitUntil(async () => (await view()).status === 'FINISHED', 150_000, 'FINISHED');
    const done = await view();
    expect(done.rounds.flatMap((r) => r.matches).every((m) => m.status === 'DONE')).toBe(true);
    const paid = done.payouts.filter((p) => p.amount > 0);
    expect(paid.length).toBeGreaterThan(0);
    const prizes = await sql(
      `SELECT count(*)::int AS n, coalesce(sum(amount), 0)::text AS total FROM coin_entries
        WHERE reason = 'tournament_prize' AND ref_id = $1 AND amount > 0`,
      [id],
    );
    expect(prizes[0].n).toBe(paid.length);
    expect(Number(prizes[0].total)).toBe(paid.reduce((s, p) => s + p.amount, 0));
    for (const u of users) {
      const prize = done.payouts.find((p) => p.userId === u.user.id)?.amount ?? 0;
      expect(await balance(u.user.id)).toBe(start.get(u.user.id)! - BUY_IN + prize);
    }
    expect(Number(await b.app.get(CoinsService).balanceOf(escrowOf(id)))).toBe(0);
    expect(Number(await b.app.get(CoinsService).totalSupplyCheck())).toBe(0);
    // every event after the hand-over was written by B: one `started`, each match opened once
    const events: any[] = (
      await sql(`SELECT event FROM tournament_events WHERE tournament_id = $1 ORDER BY seq`, [id])
    ).map((r: any) => r.event);
    expect(events.filter((e) => e.type === 'started')).toHaveLength(1);
    const opened = events.filter((e) => e.type === 'match_opened').map((e) => e.matchId);
    expect(new Set(opened).size).toBe(opened.length);
    expect(aClosed).toBe(true);
  }, 300_000);
});
