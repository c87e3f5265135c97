/* eslint-disable @typescript-eslint/no-explicit-any -- raw SQL rows and loosely read HTTP bodies */
/**
 * Issue #27: tournaments against a real server, PostgreSQL and socket.io clients. Registration moves the buy-in into
 * the escrow `tournament:<id>` through the ledger and unregistering refunds it; a team registers with a friend (both
 * pay); a refusal (no coins, not a friend) changes nothing; console routes are staff only and audited; a scheduled
 * tournament below its minimum is cancelled by the scheduler with refunds; the scheduler lease has one holder; a
 * SOLO sit-and-go of 8 fills, starts in the registering transaction, plays its matches at real tables (the players sit
 * when `tournament_match_ready` arrives and play) to FINISHED, and pays exactly once, also when the finishing step
 * is retried. The ledger balances after every test (gamesSuite).
 */
import type { TournamentView } from '@spades/common';
import { replayTournament, createTournament, TOURNAMENTS_CHANGED_MS } from '@spades/common';
import { CoinsService } from '../src/coins/coins.service';
import { TournamentsDriver } from '../src/tournaments/tournaments.driver';
import { SCHEDULER_LEASE } from '../src/tournaments/tournaments.scheduler';
import { TournamentsService, escrowOf } from '../src/tournaments/tournaments.service';
import { TournamentFencedError, TournamentsStore } from '../src/tournaments/tournaments.store';
import { Client, gamesSuite, moveCoins } from './games/helpers';
import { TestApp } from './support/test-app';

let t: TestApp;
const suite = gamesSuite((app) => (t = app));

const BUY_IN = 100_000;
const RULES = {
  biddingOption: 'REG',
  gamePlayOption: 'REG',
  minPoints: -100,
  maxPoints: 100,
  specialRules: { allowNil: true, allowBlindNil: false, screamer: false, assassin: false },
};

const balance = async (userId: string) => Number(await t.app.get(CoinsService).balanceOf({ userId }));
const escrow = async (id: string) => Number(await t.app.get(CoinsService).balanceOf(escrowOf(id)));
const eventCount = async (id: string) =>
  Number(
    (await t.dataSource.query(`SELECT count(*)::int AS n FROM tournament_events WHERE tournament_id = $1`, [id]))[0].n,
  );

async function sitAndGo(c: Client, over: Record<string, unknown> = {}): Promise<TournamentView> {
  const res = await c.http(t.url, 'POST', '/api/tournaments', {
    name: 'Friday knock-out',
    mode: 'SOLO',
    size: 8,
    buyIn: BUY_IN,
    rules: RULES,
    ...over,
  });
  expect(res.status).toBe(201);
  return res.body;
}

async function staff(role: 'admin' | 'moderator' = 'moderator'): Promise<Client> {
  const c = await suite.client();
  await t.dataSource.query(`UPDATE users SET role = $2 WHERE id = $1`, [c.id, role]);
  return c;
}

describe('tournaments (issue #27)', () => {
  it('registering moves the buy-in into the escrow, unregistering refunds it; the view shows me', async () => {
    const a = await suite.client();
    const tour = await sitAndGo(a);
    expect(tour).toMatchObject({ status: 'REGISTERING', kind: 'sit_and_go', registered: 0, buyIn: BUY_IN });
    const before = await balance(a.id);

    const reg = await a.http(t.url, 'POST', `/api/tournaments/${tour.id}/register`, {});
    expect(reg.status).toBe(200);
    expect(reg.body.me).toMatchObject({ registered: true });
    expect(await balance(a.id)).toBe(before - BUY_IN);
    expect(await escrow(tour.id)).toBe(BUY_IN);
    expect((await a.http(t.url, 'POST', `/api/tournaments/${tour.id}/register`, {})).status).toBe(409);
    expect(await balance(a.id)).toBe(before - BUY_IN);

    const list = await a.http(t.url, 'GET', '/api/tournaments?status=open');
    expect(list.body.find((s: any) => s.id === tour.id)).toMatchObject({ registered: 1 });

    const un = await a.http(t.url, 'POST', `/api/tournaments/${tour.id}/unregister`);
    expect(un.status).toBe(200);
    expect(un.body.me?.registered ?? false).toBe(false);
    expect(await balance(a.id)).toBe(before);
    expect(await escrow(tour.id)).toBe(0);
    expect((await a.http(t.url, 'POST', `/api/tournaments/${tour.id}/unregister`)).status).toBe(409);
    expect(Number(await t.app.get(CoinsService).totalSupplyCheck())).toBe(0);
  });

  it('a team registers with a friend (both pay, both refunded together); a stranger or a poor player is refused and nothing changes', async () => {
    const [a, b, c] = [await suite.client(), await suite.client(), await suite.client()];
    const tour = await sitAndGo(a, { mode: 'PARTNERS' });
    const balances = async () => [await balance(a.id), await balance(b.id), await balance(c.id)];
    const start = await balances();

    // b is not a friend of a yet
    const stranger = await a.http(t.url, 'POST', `/api/tournaments/${tour.id}/register`, { partnerId: b.id });
    expect(stranger.status).toBe(403);
    expect(stranger.body.message).toMatch(/friend/);
    expect(await balances()).toEqual(start);
    expect(await eventCount(tour.id)).toBe(0);

    expect((await a.http(t.url, 'POST', '/api/social/friends/add', { friendId: b.id })).status).toBe(200);
    // the partner cannot afford it: refused, nobody paid
    await moveCoins(t, { userId: b.id }, 'house', start[1] - 1000);
    const poor = await a.http(t.url, 'POST', `/api/tournaments/${tour.id}/register`, { partnerId: b.id });
    expect(poor.status).toBe(400);
    expect(poor.body.message).toMatch(/enough coins/);
    expect(await balance(a.id)).toBe(start[0]);
    expect(await balance(b.id)).toBe(1000);
    expect(await escrow(tour.id)).toBe(0);
    expect(await eventCount(tour.id)).toBe(0);
    await moveCoins(t, 'house', { userId: b.id }, start[1] - 1000);

    const team = await a.http(t.url, 'POST', `/api/tournaments/${tour.id}/register`, { partnerId: b.id });
    expect(team.status).toBe(200);
    expect(team.body.registrations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ userId: a.id, partnerId: b.id }),
        expect.objectContaining({ userId: b.id, partnerId: a.id }),
      ]),
    );
    expect(await balance(a.id)).toBe(start[0] - BUY_IN);
    expect(await balance(b.id)).toBe(start[1] - BUY_IN);
    expect(await escrow(tour.id)).toBe(2 * BUY_IN);

    // b is registered already: c cannot take b as a partner (c befriends b first)
    expect((await c.http(t.url, 'POST', '/api/social/friends/add', { friendId: b.id })).status).toBe(200);
    expect((await c.http(t.url, 'POST', `/api/tournaments/${tour.id}/register`, { partnerId: b.id })).status).toBe(409);
    expect(await balance(c.id)).toBe(start[2]);

    // the team unregisters together
    expect((await b.http(t.url, 'POST', `/api/tournaments/${tour.id}/unregister`)).status).toBe(200);
    expect(await balances()).toEqual(start);
    expect(await escrow(tour.id)).toBe(0);
  });

  it('console routes are staff only; a moderator schedules and cancels (refunds, audited)', async () => {
    const player = await suite.client();
    const mod = await staff();
    const scheduled = {
      name: 'Sunday cup',
      mode: 'SOLO',
      size: 8,
      buyIn: BUY_IN,
      rules: RULES,
      startsAt: Date.now() + 3_600_000,
      minEntrants: 4,
    };
    expect((await player.http(t.url, 'POST', '/api/admin/tournaments', scheduled)).status).toBe(403);
    const created = await mod.http(t.url, 'POST', '/api/admin/tournaments', scheduled);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ kind: 'scheduled', minEntrants: 4 });
    const id = created.body.id;
    const before = await balance(player.id);
    expect((await player.http(t.url, 'POST', `/api/tournaments/${id}/register`, {})).status).toBe(200);
    expect(await balance(player.id)).toBe(before - BUY_IN);

    // registration not open yet: refused, nothing paid
    const later = await mod.http(t.url, 'POST', '/api/admin/tournaments', {
      ...scheduled,
      registrationOpensAt: Date.now() + 1_800_000,
    });
    expect(later.status).toBe(201);
    const early = await player.http(t.url, 'POST', `/api/tournaments/${later.body.id}/register`, {});
    expect(early.status).toBe(409);
    expect(early.body.message).toMatch(/not opened/);
    expect(await balance(player.id)).toBe(before - BUY_IN);

    expect((await player.http(t.url, 'POST', `/api/admin/tournaments/${id}/cancel`, { reason: 'no' })).status).toBe(
      403,
    );
    expect((await mod.http(t.url, 'POST', `/api/admin/tournaments/${id}/cancel`, {})).status).toBe(400);
    const cancelled = await mod.http(t.url, 'POST', `/api/admin/tournaments/${id}/cancel`, {
      reason: 'Server maintenance',
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ status: 'CANCELLED', cancelReason: 'Server maintenance' });
    expect(await balance(player.id)).toBe(before);
    expect(await escrow(id)).toBe(0);
    expect((await mod.http(t.url, 'POST', `/api/admin/tournaments/${id}/cancel`, { reason: 'again' })).status).toBe(
      409,
    );
    const audit = await t.dataSource.query(
      `SELECT action, actor_id, reason FROM audit_log WHERE target_ref = $1 ORDER BY id`,
      [`tournament:${id}`],
    );
    expect(audit).toEqual([
      { action: 'tournament.create', actor_id: mod.id, reason: null },
      { action: 'tournament.cancel', actor_id: mod.id, reason: 'Server maintenance' },
    ]);
    // a player may not schedule with the player route either: kind comes from the route
    const asPlayer = await sitAndGo(player, { startsAt: Date.now() + 60_000 });
    expect(asPlayer.kind).toBe('sit_and_go');
  });

  it('a scheduled tournament below its minimum at its start time is cancelled by the scheduler and refunded', async () => {
    const mod = await staff();
    const [a, b] = [await suite.client(), await suite.client()];
    const res = await mod.http(t.url, 'POST', '/api/admin/tournaments', {
      name: 'Too early cup',
      mode: 'SOLO',
      size: 8,
      buyIn: BUY_IN,
      rules: RULES,
      startsAt: Date.now() + 1500,
      minEntrants: 4,
    });
    expect(res.status).toBe(201);
    const id = res.body.id;
    const before = [await balance(a.id), await balance(b.id)];
    for (const c of [a, b])
      expect((await c.http(t.url, 'POST', `/api/tournaments/${id}/register`, {})).status).toBe(200);
    expect(await escrow(id)).toBe(2 * BUY_IN);
    await waitUntil(
      async () => (await a.http(t.url, 'GET', `/api/tournaments/${id}`)).body.status === 'CANCELLED',
      15000,
    );
    expect([await balance(a.id), await balance(b.id)]).toEqual(before);
    expect(await escrow(id)).toBe(0);
    expect((await a.http(t.url, 'POST', `/api/tournaments/${id}/register`, {})).status).toBe(409);
  });

  it('a scheduled tournament at its minimum starts at its time (scheduler); staff cancel it running: refunds, tables closed', async () => {
    const mod = await staff();
    const players: Client[] = [];
    for (let i = 0; i < 4; i++) players.push(await suite.client());
    const res = await mod.http(t.url, 'POST', '/api/admin/tournaments', {
      name: 'On time cup',
      mode: 'SOLO',
      size: 8,
      buyIn: BUY_IN,
      rules: RULES,
      startsAt: Date.now() + 1500,
      minEntrants: 4,
    });
    expect(res.status).toBe(201);
    const id = res.body.id;
    const before = new Map<string, number>();
    for (const p of players) {
      before.set(p.id, await balance(p.id));
      expect((await p.http(t.url, 'POST', `/api/tournaments/${id}/register`, {})).status).toBe(200);
    }
    await players[0].waitFor(() => players[0].events('tournament_match_ready').length > 0, 15_000, 'match ready');
    const running: TournamentView = (await players[0].http(t.url, 'GET', `/api/tournaments/${id}`)).body;
    expect(running.status).toBe('RUNNING');
    expect(running.nextMatch).toMatchObject({ gameId: expect.any(String) });
    // 4 of 8: round 1's tables of two resolve at the start without a game; the final's table is open
    const gameIds = running.rounds
      .flatMap((r) => r.matches)
      .map((m) => m.gameId)
      .filter((g): g is string => !!g);
    expect(gameIds.length).toBeGreaterThan(0);
    const cancelled = await mod.http(t.url, 'POST', `/api/admin/tournaments/${id}/cancel`, { reason: 'Storm' });
    expect(cancelled.status).toBe(200);
    for (const p of players) expect(await balance(p.id)).toBe(before.get(p.id));
    expect(await escrow(id)).toBe(0);
    await waitUntil(async () => {
      const rows = await t.dataSource.query(`SELECT status FROM games WHERE id = ANY($1::uuid[])`, [gameIds]);
      return rows.every((r: any) => r.status === 'CLOSED');
    }, 10_000);
  });

  it('the scheduler lease: one holder at a time; another takes it once it runs out or is released', async () => {
    const store = t.app.get(TournamentsStore);
    const name = `${SCHEDULER_LEASE}-test`;
    expect(await store.lease(name, 'node-a', 60_000)).toBe(true);
    expect(await store.lease(name, 'node-b', 60_000)).toBe(false);
    expect(await store.lease(name, 'node-a', 60_000)).toBe(true); // renewed
    const both = await Promise.all([store.lease(name, 'node-b', 60_000), store.lease(name, 'node-c', 60_000)]);
    expect(both).toEqual([false, false]);
    await store.releaseLease(name, 'node-a');
    const race = await Promise.all([store.lease(name, 'node-b', 60_000), store.lease(name, 'node-c', 60_000)]);
    expect(race.filter(Boolean)).toHaveLength(1);
    // a lease that ran out goes to the next caller
    await t.dataSource.query(`UPDATE scheduler_leases SET expires_at = now() - interval '1 second' WHERE name = $1`, [
      name,
    ]);
    expect(await store.lease(name, 'node-d', 60_000)).toBe(true);
  });

  it('a SOLO sit-and-go of 8 starts when full, plays at real tables to FINISHED and pays exactly once', async () => {
    const players: Client[] = [];
    for (let i = 0; i < 8; i++) players.push(await suite.client());
    const tour = await sitAndGo(players[0]);
    const watcher = players[0];
    expect(await watcher.emit('watch_tournament', { tournamentId: tour.id })).toMatchObject({
      ok: true,
      tournament: { id: tour.id },
    });
    const start = new Map<string, number>();
    for (const p of players) start.set(p.id, await balance(p.id));
    // every player sits down when their match is ready and plays
    for (const p of players)
      (p.socket as any).on('tournament_match_ready', (m: any) => {
        // a new table: the helper's "already acted" keys (game number, hand, trick) start over
        (p as any).acted.clear();
        p.auto = true;
        void p.emit('join_game', { gameId: m.gameId });
      });
    for (const p of players.slice(0, 7))
      expect((await p.http(t.url, 'POST', `/api/tournaments/${tour.id}/register`, {})).status).toBe(200);
    const last = await players[7].http(t.url, 'POST', `/api/tournaments/${tour.id}/register`, {});
    expect(last.status).toBe(200);
    // full: started in the same transaction
    expect(last.body.status).toBe('RUNNING');
    expect(last.body.nextMatch).toMatchObject({ matchId: expect.stringMatching(/^r1m/) });

    // while a game is played, the page shows its live score per entrant
    const live: any[] = [];
    await waitUntil(async () => {
      const v: TournamentView = (await watcher.http(t.url, 'GET', `/api/tournaments/${tour.id}`)).body;
      for (const m of v.rounds.flatMap((r) => r.matches)) if (m.status === 'PLAYING') live.push(m);
      return v.status === 'FINISHED';
    }, 180_000);
    const done: TournamentView = (await watcher.http(t.url, 'GET', `/api/tournaments/${tour.id}`)).body;
    expect(done.rounds).toHaveLength(2);
    for (const r of done.rounds)
      for (const m of r.matches) expect(m).toMatchObject({ status: 'DONE', walkover: false });
    const pool = Math.floor((8 * BUY_IN * 9) / 10);
    const paid = done.payouts.reduce((a, p) => a + p.amount, 0);
    expect(paid).toBeLessThanOrEqual(pool);
    // places 1..3 paid (tied places share)
    expect(done.payouts[0].place).toBe(1);
    expect(done.payouts.every((p) => p.place >= 1 && p.place <= 3)).toBe(true);
    const winners = done.payouts.filter((p) => p.amount > 0).length;
    expect(await escrow(tour.id)).toBe(0);
    for (const p of players) {
      const prize = done.payouts.find((x) => x.userId === p.id)?.amount ?? 0;
      expect(await balance(p.id)).toBe(start.get(p.id)! - BUY_IN + prize);
    }
    const prizes = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM coin_entries WHERE reason = 'tournament_prize' AND ref_id = $1 AND amount > 0`,
      [tour.id],
    );
    expect(prizes[0].n).toBe(winners);
    for (const m of live) expect(Object.keys(m.scores ?? {}).sort()).toEqual([...m.entrantIds].sort());
    // the watcher saw it finish
    await watcher.waitFor(() => watcher.events('tournament_updated').some((v) => v.status === 'FINISHED'), 10000);
    // the snapshot is the events replayed
    const store = t.app.get(TournamentsStore);
    const stored = (await store.get(tour.id))!;
    const replayed = replayTournament(
      createTournament(tour.id, stored.state.config, stored.state.createdAt),
      await store.events(tour.id),
    );
    expect(replayed).toEqual(stored.state);
    // history of a player, with the games
    const hist = await watcher.http(t.url, 'GET', `/api/users/${players[0].id}/tournaments`);
    expect(hist.status).toBe(200);
    expect(hist.body[0]).toMatchObject({ tournamentId: tour.id, status: 'FINISHED' });
    expect(hist.body[0].games.length).toBeGreaterThanOrEqual(1);

    // the finishing step retried (a driver pass replaying the final result): refused by the engine, nothing paid twice
    const service = t.app.get(TournamentsService);
    const final = done.rounds[1].matches[0];
    const retry = () =>
      service.drive(tour.id, stored.ownerEpoch, () => [
        { type: 'match_played', at: Date.now(), matchId: final.id, places: final.places!, scores: final.scores! },
      ]);
    await expect(retry()).rejects.toMatchObject({ code: 'NOT_RUNNING' });
    // an old owner's write is fenced
    await expect(
      service.drive(tour.id, stored.ownerEpoch - 1, () => [{ type: 'cancelled', at: Date.now(), reason: 'late' }]),
    ).rejects.toBeInstanceOf(TournamentFencedError);
    const again = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM coin_entries WHERE reason = 'tournament_prize' AND ref_id = $1 AND amount > 0`,
      [tour.id],
    );
    expect(again[0].n).toBe(winners);
    for (const p of players) {
      const prize = done.payouts.find((x) => x.userId === p.id)?.amount ?? 0;
      expect(await balance(p.id)).toBe(start.get(p.id)! - BUY_IN + prize);
    }
    expect(t.app.get(TournamentsDriver).ownedIds()).not.toContain(tour.id);
  }, 240_000);

  it('staff close a match table mid-game: the score then decides (ties by seed), recorded as closed; the bracket goes on and pays once', async () => {
    const players: Client[] = [];
    for (let i = 0; i < 8; i++) players.push(await suite.client());
    const mod = await staff();
    // games to 500 points: the table is still playing after its first hand, when staff close it
    const rules = { ...RULES, maxPoints: 500, minPoints: -250 };
    const tour = await sitAndGo(players[0], { rules });
    const start = new Map<string, number>();
    for (const p of players) start.set(p.id, await balance(p.id));
    for (const p of players)
      (p.socket as any).on('tournament_match_ready', (m: any) => {
        (p as any).acted.clear();
        p.auto = true;
        void p.emit('join_game', { gameId: m.gameId });
      });
    for (const p of players)
      expect((await p.http(t.url, 'POST', `/api/tournaments/${tour.id}/register`, {})).status).toBe(200);

    // the players of r1m0 stop playing after its first hand (the game waits for them): staff close that table
    const running: TournamentView = (await mod.http(t.url, 'GET', `/api/tournaments/${tour.id}`)).body;
    expect(running.status).toBe('RUNNING');
    const matchId = 'r1m0';
    const atTable = running.rounds[0].matches[0].entrantIds.map(
      (e) => running.entrants.find((x) => x.id === e)!.players[0].userId,
    );
    const stalled = new Set<string>();
    for (const p of players.filter((x) => atTable.includes(x.id)))
      (p.socket as any).on('hand_completed', () => {
        if (stalled.has(p.id)) return;
        stalled.add(p.id);
        p.auto = false;
      });
    await waitUntil(async () => stalled.size === 4, 120_000);
    const playing: TournamentView = (await mod.http(t.url, 'GET', `/api/tournaments/${tour.id}`)).body;
    const target = playing.rounds[0].matches[0];
    expect(target).toMatchObject({ id: matchId, status: 'PLAYING' });
    const gameId = target.gameId!;
    const closed = await mod.http(t.url, 'POST', `/api/admin/tables/${gameId}/close`, { reason: 'Stuck table' });
    expect(closed.status).toBe(200);

    await waitUntil(
      async () => (await mod.http(t.url, 'GET', `/api/tournaments/${tour.id}`)).body.status === 'FINISHED',
      180_000,
    );
    const done: TournamentView = (await mod.http(t.url, 'GET', `/api/tournaments/${tour.id}`)).body;
    const match = done.rounds[0].matches.find((m) => m.id === matchId)!;
    expect(match).toMatchObject({ status: 'DONE', closed: true, walkover: false });
    // the scores are the closed table's (entrant i sat at seat i) and the top two by score went on, ties by seed
    const [table] = await t.dataSource.query(
      `SELECT status, snapshot->'engine'->'scores' AS scores, snapshot->'engine'->'result' AS result FROM games WHERE id = $1`,
      [gameId],
    );
    expect(table).toMatchObject({ status: 'CLOSED', result: null });
    expect(match.scores).toEqual(Object.fromEntries(match.entrantIds.map((e, i) => [e, table.scores[i]])));
    const seed = (id: string) => done.entrants.find((e) => e.id === id)!.seed;
    const order = [...match.entrantIds].sort((a, b) => match.scores![b] - match.scores![a] || seed(a) - seed(b));
    expect(match.advanced).toEqual(order.slice(0, 2));
    expect(done.rounds[1].matches[0].entrantIds).toEqual(expect.arrayContaining(order.slice(0, 2)));
    expect(done.rounds[0].matches.filter((m) => m.closed)).toHaveLength(1);
    const events = await t.app.get(TournamentsStore).events(tour.id);
    expect(events.filter((e) => e.type === 'match_closed')).toHaveLength(1);

    // prizes: paid once, the escrow is empty, every balance is start − buy-in + prize
    const winners = done.payouts.filter((p) => p.amount > 0).length;
    const prizes = await t.dataSource.query(
      `SELECT count(*)::int AS n FROM coin_entries WHERE reason = 'tournament_prize' AND ref_id = $1 AND amount > 0`,
      [tour.id],
    );
    expect(prizes[0].n).toBe(winners);
    expect(done.payouts.reduce((a, p) => a + p.amount, 0)).toBeLessThanOrEqual(Math.floor((8 * BUY_IN * 9) / 10));
    expect(await escrow(tour.id)).toBe(0);
    for (const p of players) {
      const prize = done.payouts.find((x) => x.userId === p.id)?.amount ?? 0;
      expect(await balance(p.id)).toBe(start.get(p.id)! - BUY_IN + prize);
    }
    expect(Number(await t.app.get(CoinsService).totalSupplyCheck())).toBe(0);
  }, 360_000);

  it('20 players register for a sit-and-go of 16 at once: 16 are in, 4 hear 409 "full", the escrow holds 16 buy-ins, it starts once', async () => {
    const players: Client[] = [];
    for (let i = 0; i < 20; i++) players.push(await suite.client());
    const tour = await sitAndGo(players[0], { size: 16 });
    const start = new Map<string, number>();
    for (const p of players) start.set(p.id, await balance(p.id));
    const results = await Promise.all(
      players.map((p) => p.http(t.url, 'POST', `/api/tournaments/${tour.id}/register`, {})),
    );
    const accepted = players.filter((_, i) => results[i].status === 200);
    const refused = results.filter((r) => r.status !== 200);
    expect(accepted).toHaveLength(16);
    expect(refused).toHaveLength(4);
    for (const r of refused) expect(r).toMatchObject({ status: 409, body: { message: 'The tournament is full' } });
    expect(await escrow(tour.id)).toBe(16 * BUY_IN);
    const buyIns = await t.dataSource.query(
      `SELECT count(*)::int AS n, coalesce(sum(amount), 0)::text AS total FROM coin_entries
        WHERE reason = 'tournament_buyin' AND ref_id = $1 AND amount > 0`,
      [tour.id],
    );
    expect(buyIns[0]).toEqual({ n: 16, total: String(16 * BUY_IN) });
    for (const p of players) expect(await balance(p.id)).toBe(start.get(p.id)! - (accepted.includes(p) ? BUY_IN : 0));
    const events = await t.app.get(TournamentsStore).events(tour.id);
    expect(events.filter((e) => e.type === 'started')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'registered')).toHaveLength(16);
    const view: TournamentView = (await players[0].http(t.url, 'GET', `/api/tournaments/${tour.id}`)).body;
    expect(view).toMatchObject({ status: 'RUNNING', registered: 16 });
    expect(new Set(view.registrations.map((r) => r.userId))).toEqual(new Set(accepted.map((p) => p.id)));
    // staff cancel it: every accepted player gets the buy-in back
    const mod = await staff();
    expect(
      (await mod.http(t.url, 'POST', `/api/admin/tournaments/${tour.id}/cancel`, { reason: 'Test over' })).status,
    ).toBe(200);
    for (const p of players) expect(await balance(p.id)).toBe(start.get(p.id));
    expect(await escrow(tour.id)).toBe(0);
  }, 120_000);

  it('a player banned from rated tables (or a banned partner) cannot register: 403, nothing moves; once lifted they can', async () => {
    const [a, b, c] = [await suite.client(), await suite.client(), await suite.client()];
    const solo = await sitAndGo(a);
    const team = await sitAndGo(a, { mode: 'PARTNERS' });
    const before = [await balance(a.id), await balance(b.id), await balance(c.id)];
    await t.dataSource.query(
      `INSERT INTO rating_bans (user_id, game_key, level, abandonments, issued_at, banned_until)
       VALUES ($1, 'test-ban', 1, 3, now(), now() + interval '1 hour')`,
      [b.id],
    );
    const self = await b.http(t.url, 'POST', `/api/tournaments/${solo.id}/register`, {});
    expect(self.status).toBe(403);
    expect(self.body.message).toMatch(/^You are banned from rated tables until .* tournament games are rated$/);
    // a team with b: refused too, naming b; nobody paid
    expect((await a.http(t.url, 'POST', '/api/social/friends/add', { friendId: b.id })).status).toBe(200);
    const withB = await a.http(t.url, 'POST', `/api/tournaments/${team.id}/register`, { partnerId: b.id });
    expect(withB.status).toBe(403);
    expect(withB.body.message).toContain(`${b.user.user.username} is banned from rated tables`);
    // an account ban of the partner (they could not sign in to play): refused
    expect((await a.http(t.url, 'POST', '/api/social/friends/add', { friendId: c.id })).status).toBe(200);
    await t.dataSource.query(`INSERT INTO sanctions (user_id, kind, reason) VALUES ($1, 'ban', 'cheating')`, [c.id]);
    const withC = await a.http(t.url, 'POST', `/api/tournaments/${team.id}/register`, { partnerId: c.id });
    expect(withC).toMatchObject({
      status: 403,
      body: { message: `${c.user.user.username} is banned from this server` },
    });
    expect([await balance(a.id), await balance(b.id), await balance(c.id)]).toEqual(before);
    expect(await eventCount(solo.id)).toBe(0);
    expect(await eventCount(team.id)).toBe(0);
    // the rated ban over: b registers
    await t.dataSource.query(`UPDATE rating_bans SET banned_until = now() - interval '1 second' WHERE user_id = $1`, [
      b.id,
    ]);
    expect((await b.http(t.url, 'POST', `/api/tournaments/${solo.id}/register`, {})).status).toBe(200);
    expect(await balance(b.id)).toBe(before[1] - BUY_IN);
    expect((await b.http(t.url, 'POST', `/api/tournaments/${solo.id}/unregister`)).status).toBe(200);
  });

  it('the lobby list carries the caller’s part (me) in every row', async () => {
    const [a, b] = [await suite.client(), await suite.client()];
    const tour = await sitAndGo(a);
    expect((await a.http(t.url, 'POST', `/api/tournaments/${tour.id}/register`, {})).status).toBe(200);
    const rowOf = async (c: Client) =>
      ((await c.http(t.url, 'GET', '/api/tournaments?status=open')).body as any[]).find((r) => r.id === tour.id);
    expect((await rowOf(a)).me).toEqual({ registered: true, partnerId: null, eliminated: false });
    expect((await rowOf(b)).me).toEqual({ registered: false, partnerId: null, eliminated: false });
    expect((await a.http(t.url, 'POST', `/api/tournaments/${tour.id}/unregister`)).status).toBe(200);
    expect((await rowOf(a)).me.registered).toBe(false);
  });

  it('lobby watchers get tournaments_changed (coalesced, no per-player part) on create, register and unregister', async () => {
    const [a, lobby, away] = [await suite.client(), await suite.client(), await suite.client()];
    expect(await lobby.emit('watch_lobby', {})).toMatchObject({ ok: true });
    // a socket that left the lobby view (sat at a table) gets no list traffic
    expect(await away.emit('watch_lobby', {})).toMatchObject({ ok: true });
    expect(await away.emit('unwatch_lobby', {})).toMatchObject({ ok: true });
    const changesOf = (c: Client, id: string) =>
      c.events('tournaments_changed').filter((p) => p.tournaments.some((x: any) => x.id === id));
    const quiet = () => new Promise((r) => setTimeout(r, TOURNAMENTS_CHANGED_MS + 300));

    const tour = await sitAndGo(a);
    await lobby.waitFor(() => changesOf(lobby, tour.id).length === 1, 5000, 'tournaments_changed on create');
    // other tournaments' changes of the same window may ride along; this one's row is public fields only
    expect(changesOf(lobby, tour.id)[0].tournaments).toContainEqual({ id: tour.id, status: 'REGISTERING' });

    // two registrations at once: coalesced (one event, two if they straddle a window)
    const b = await suite.client();
    await Promise.all(
      [a, b].map(async (c) =>
        expect((await c.http(t.url, 'POST', `/api/tournaments/${tour.id}/register`, {})).status).toBe(200),
      ),
    );
    await lobby.waitFor(() => changesOf(lobby, tour.id).length >= 2, 5000, 'tournaments_changed on register');
    await quiet();
    const afterRegister = changesOf(lobby, tour.id).length;
    expect(afterRegister).toBeLessThanOrEqual(3);
    for (const e of lobby.events('tournaments_changed'))
      for (const x of e.tournaments) expect(Object.keys(x).sort()).toEqual(['id', 'status']);
    const row = ((await lobby.http(t.url, 'GET', '/api/tournaments?status=open')).body as any[]).find(
      (r) => r.id === tour.id,
    );
    expect(row).toMatchObject({ registered: 2 });

    expect((await b.http(t.url, 'POST', `/api/tournaments/${tour.id}/unregister`)).status).toBe(200);
    await lobby.waitFor(
      () => changesOf(lobby, tour.id).length === afterRegister + 1,
      5000,
      'tournaments_changed on unregister',
    );
    await quiet();
    expect(changesOf(lobby, tour.id)).toHaveLength(afterRegister + 1);
    expect(changesOf(away, tour.id)).toEqual([]);
  });

  it('the host can switch player sit-and-gos off (403; the console still creates them) and set the no-show time', async () => {
    const admin = await staff('admin');
    const player = await suite.client();
    const put = (tournaments: unknown) =>
      admin.http(t.url, 'PUT', '/api/admin/settings', { changes: { tournaments }, reason: 'tournament night' });
    expect((await put({ playerSitAndGo: false, noShowSeconds: 5 })).status).toBe(400);
    expect((await put({ playerSitAndGo: false, noShowSeconds: 45 })).status).toBe(200);
    const refused = await player.http(t.url, 'POST', '/api/tournaments', {
      name: 'Not allowed',
      mode: 'SOLO',
      size: 8,
      buyIn: 0,
    });
    expect(refused.status).toBe(403);
    const byStaff = await admin.http(t.url, 'POST', '/api/admin/tournaments', {
      name: 'Staff sit-and-go',
      kind: 'sit_and_go',
      mode: 'SOLO',
      size: 8,
      buyIn: 0,
    });
    expect(byStaff.status).toBe(201);
    expect(byStaff.body).toMatchObject({ kind: 'sit_and_go', noShowMs: 45_000 });
    expect((await put({ playerSitAndGo: true, noShowSeconds: 120 })).status).toBe(200);
    expect((await sitAndGo(player, { buyIn: 0 })).noShowMs).toBe(120_000);
  });

  it('PARTNERS: a team with a player who never sits forfeits at the seat deadline (walkover); the rest plays to FINISHED', async () => {
    const players: Client[] = [];
    for (let i = 0; i < 8; i++) players.push(await suite.client());
    const tour = await sitAndGo(players[0], { mode: 'PARTNERS', buyIn: 0, noShowMs: 30_000 });
    const absent = players[7];
    for (const p of players)
      if (p !== absent)
        (p.socket as any).on('tournament_match_ready', (m: any) => {
          (p as any).acted.clear();
          p.auto = true;
          void p.emit('join_game', { gameId: m.gameId });
        });
    for (const p of players)
      expect((await p.http(t.url, 'POST', `/api/tournaments/${tour.id}/register`, {})).status).toBe(200);
    await absent.waitFor(() => absent.events('tournament_match_ready').length > 0, 10_000, 'match ready');
    await waitUntil(
      async () => (await players[0].http(t.url, 'GET', `/api/tournaments/${tour.id}`)).body.status === 'FINISHED',
      150_000,
    );
    const done: TournamentView = (await players[0].http(t.url, 'GET', `/api/tournaments/${tour.id}`)).body;
    const absentTeam = done.entrants.find((e) => e.players.some((p) => p.userId === absent.id))!;
    const forfeited = done.rounds[0].matches.find((m) => m.entrantIds.includes(absentTeam.id))!;
    expect(forfeited.walkover).toBe(true);
    expect(forfeited.advanced).not.toContain(absentTeam.id);
    expect(done.rounds[0].matches.filter((m) => m.walkover)).toHaveLength(1);
    expect(done.rounds[1].matches[0]).toMatchObject({ status: 'DONE', walkover: false });
    // a free tournament moves no coins
    const entries = await t.dataSource.query(`SELECT count(*)::int AS n FROM coin_entries WHERE ref_id = $1`, [
      tour.id,
    ]);
    expect(entries[0].n).toBe(0);
    // the walkover's table was closed without a game
    const [table] = await t.dataSource.query(`SELECT status FROM games WHERE id = $1`, [forfeited.gameId]);
    expect(table?.status).toBe('CLOSED');
  }, 200_000);

  it('SOLO: a player who never sits is replaced by a bot at the seat deadline and ranked last; the others play on', async () => {
    const players: Client[] = [];
    for (let i = 0; i < 8; i++) players.push(await suite.client());
    const tour = await sitAndGo(players[0], { buyIn: 0, noShowMs: 30_000 });
    const absent = players[5];
    for (const p of players)
      if (p !== absent)
        (p.socket as any).on('tournament_match_ready', (m: any) => {
          (p as any).acted.clear();
          p.auto = true;
          void p.emit('join_game', { gameId: m.gameId });
        });
    for (const p of players)
      expect((await p.http(t.url, 'POST', `/api/tournaments/${tour.id}/register`, {})).status).toBe(200);
    await waitUntil(
      async () => (await players[0].http(t.url, 'GET', `/api/tournaments/${tour.id}`)).body.status === 'FINISHED',
      150_000,
    );
    const done: TournamentView = (await players[0].http(t.url, 'GET', `/api/tournaments/${tour.id}`)).body;
    const gone = done.entrants.find((e) => e.players[0].userId === absent.id)!;
    const match = done.rounds[0].matches.find((m) => m.entrantIds.includes(gone.id))!;
    // played with a bot in the empty seat, not a walkover: 3 humans > the 2 who go on
    expect(match.walkover).toBe(false);
    expect(match.advanced).toHaveLength(2);
    expect(match.advanced).not.toContain(gone.id);
    expect(match.places![gone.id]).toBe(Math.max(...Object.values(match.places!)));
    expect(done.rounds[1].matches[0].status).toBe('DONE');
  }, 200_000);

  it('another node takes the tournament over (epoch): this driver stops; claimed back, it resumes from the stored state', async () => {
    const players: Client[] = [];
    for (let i = 0; i < 8; i++) players.push(await suite.client());
    const tour = await sitAndGo(players[0], { buyIn: 0 });
    for (const p of players)
      expect((await p.http(t.url, 'POST', `/api/tournaments/${tour.id}/register`, {})).status).toBe(200);
    const store = t.app.get(TournamentsStore);
    const driver = t.app.get(TournamentsDriver);
    await players[0].waitFor(() => players[0].events('tournament_match_ready').length > 0, 10_000, 'match ready');
    const opened = async () =>
      (await store.events(tour.id)).filter((e) => e.type === 'match_opened').map((e) => (e as any).gameId);
    const round1 = await opened();
    expect(round1).toHaveLength(2);
    // another node that believes this one dead claims it: the epoch goes up, this driver is fenced out at its next pass
    const taken = (await store.claimOrphans('node-elsewhere', ['node-elsewhere'], false)).find(
      (c) => c.id === tour.id,
    )!;
    expect(taken).toBeDefined();
    const me = t.app.get(TournamentsService).nodeId;
    // this driver stops driving it at its next pass — unless (cluster mode: REDIS_URL set) this node, holding the
    // scheduler lease, already took it back from the "dead" node with a higher epoch
    await waitUntil(async () => {
      const o = (await store.ownerOf(tour.id))!;
      return !driver.ownedIds().includes(tour.id) || (o.node === me && o.epoch > taken.epoch);
    }, 10_000);
    // claimed back (as at a restart: the owner is not among the live nodes), it drives on
    await driver.claimOrphans(true);
    const back = (await store.ownerOf(tour.id))!;
    expect(back.node).toBe(me);
    expect(back.epoch).toBeGreaterThan(taken.epoch);
    await waitUntil(async () => driver.ownedIds().includes(tour.id), 10_000);
    for (const p of players) {
      const next = (await p.http(t.url, 'GET', `/api/tournaments/${tour.id}`)).body.nextMatch;
      (p.socket as any).on('tournament_match_ready', (m: any) => {
        (p as any).acted.clear();
        p.auto = true;
        void p.emit('join_game', { gameId: m.gameId });
      });
      p.auto = true;
      expect((await p.emit('join_game', { gameId: next.gameId })).ok).toBe(true);
    }
    await waitUntil(
      async () => (await players[0].http(t.url, 'GET', `/api/tournaments/${tour.id}`)).body.status === 'FINISHED',
      120_000,
    );
    // the round's tables were the same ones: no match opened twice
    const all = await opened();
    expect(all.slice(0, 2)).toEqual(round1);
    expect(all).toHaveLength(3);
  }, 180_000);
});

async function waitUntil(pred: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    if (await pred()) return;
    if (Date.now() - t0 > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}
