/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw wire payloads */
/**
 * Crash safety with a real server PROCESS (forked): killed in the middle of the settlement transaction, and
 * killed in the middle of a hand. Restarted on the same database, it must neither pay twice nor lose coins,
 * and the same hand continues with the same cards and turn.
 */
import { potFor } from '@spades/common';
import { api, createTestApp } from '../support/test-app';
import { Client, forkedServerSuite, rewriteStoredTable, SETTINGS, storedTableIn, useFastTimers } from './helpers';
import { startChild, withDatabase } from './support/child';

const START = 5_000_000;
const BUY_IN = 100_000;

describe('games crash safety (forked server process)', () => {
  const f = forkedServerSuite();

  async function inspect<T>(fn: (q: (sql: string, params?: unknown[]) => Promise<any[]>) => Promise<T>): Promise<T> {
    const t = await createTestApp({ dataDir: f.db.dataDir, env: { DATABASE_SCHEMA: f.db.schema } });
    try {
      return await fn((sql, params) => t.dataSource.query(sql, params));
    } finally {
      await t.close();
    }
  }

  it('killed inside the settlement transaction, then restarted: everything paid exactly once, nothing lost', async () => {
    f.server = await startChild(f.db, { GAMES_CRASH_DURING_SETTLEMENT: '1' });
    const ps: Client[] = [];
    for (let i = 0; i < 4; i++) ps.push(await Client.create(f.server.url));
    f.clients.push(...ps);
    const created = await ps[0].http(f.server.url, 'POST', '/api/games', SETTINGS);
    const gameId = created.body.id;
    for (let i = 1; i < 4; i++)
      expect((await ps[i].http(f.server.url, 'POST', `/api/games/${gameId}/join`, { seat: i })).status).toBe(200);
    for (const p of ps) {
      await p.emit('join_game', { gameId });
      p.auto = true;
    }
    expect((await ps[0].emit('start_game', { gameId })).ok).toBe(true);
    const exit = await Promise.race([
      f.server.exited,
      new Promise<null>((r) => setTimeout(() => r(null), 60000).unref()),
    ]);
    expect(exit?.signal).toBe('SIGKILL'); // died in the middle of the settlement
    for (const c of f.clients.splice(0)) c.close();

    // restart without the crash hook: the boot restore settles the game
    f.server = await startChild(f.db);
    const a = ps[0];
    let view: any;
    for (let i = 0; i < 100; i++) {
      view = (await api(f.server.url, 'GET', `/api/games/${gameId}`, { token: a.user.token })).body;
      if (view.payouts) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(view.status).toBe('COMPLETED');
    const winnerTeam = view.winningTeam === 'team1' ? 0 : 1;
    const pot = potFor(BUY_IN);
    const expected = [0, 1, 2, 3].map((s) => (s % 2 === winnerTeam ? pot / 2 : 0));
    expect(view.payouts).toEqual(expected);
    await f.server.kill();
    f.server = null;

    await inspect(async (q) => {
      const [sum] = await q(`SELECT COALESCE(SUM(balance),0)::text AS s FROM coin_accounts`);
      expect(Number(sum.s)).toBe(0);
      const [escrow] = await q(`SELECT COALESCE(SUM(balance),0)::text AS s FROM coin_accounts WHERE kind = 'escrow'`);
      expect(Number(escrow.s)).toBe(0);
      for (const [seat, p] of ps.entries()) {
        const [row] = await q(`SELECT balance FROM coin_accounts WHERE key = $1`, [`user:${p.id}`]);
        expect(Number(row.balance)).toBe(START - BUY_IN + expected[seat]);
      }
      const payouts = await q(
        `SELECT count(*)::int AS n FROM coin_entries WHERE reason = 'payout' AND amount > 0 AND ref_id = $1`,
        [`${gameId}:1`],
      );
      expect(payouts[0].n).toBe(2);
      expect(await q(`SELECT * FROM game_settlements WHERE game_id = $1`, [gameId])).toHaveLength(1);
      const stats = await q(`SELECT sum(games_played)::int AS n FROM user_stats WHERE user_id = ANY($1::uuid[])`, [
        ps.map((p) => p.id),
      ]);
      expect(stats[0].n).toBe(4);
    });
  });

  it('restarted after downtime: a human whose turn deadline passed gets a fresh full turn; a seat countdown keeps its expiresAt', async () => {
    useFastTimers({ TURN_TIMEOUT_MS: '600000', SEAT_REPLACEMENT_MS: '900000' });
    f.server = await startChild(f.db);
    const h = await Client.create(f.server.url);
    f.clients.push(h);
    const gameId = (await h.http(f.server.url, 'POST', '/api/games', SETTINGS)).body.id;
    for (const s of [1, 2, 3]) await h.http(f.server.url, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex: s });
    await h.emit('join_game', { gameId });
    expect((await h.emit('start_game', { gameId })).ok).toBe(true);
    // the host removes the bot in seat 1 (opposite seat 3 is a bot too): a replacement countdown runs
    const removed = await h.http(f.server.url, 'POST', `/api/games/${gameId}/remove-bot-midgame`, { seatIndex: 1 });
    expect(removed.status).toBe(200);
    // then the table waits for the human's bid (the vacated seat is played by the bot logic meanwhile)
    let before: any;
    for (let i = 0; i < 400; i++) {
      before = (await h.http(f.server.url, 'GET', `/api/games/${gameId}`)).body;
      if (before.currentPlayerIndex === 0 && before.turnExpiresAt !== null) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(before.currentPlayerIndex).toBe(0);
    expect(before.players[0].timeouts).toBe(0);
    expect(before.seatReplacements).toEqual([{ seatIndex: 1, expiresAt: expect.any(Number) }]);
    const expiresAt: number = before.seatReplacements[0].expiresAt;
    await f.server.kill();
    h.close();

    // both deadlines are persisted; the downtime outlasts the turn: its stored deadline is in the past
    await withDatabase(f.db, async (q) => {
      const row = await storedTableIn(q, gameId);
      expect(row.snapshot.flow).toMatchObject({ kind: 'turn', at: before.turnExpiresAt });
      expect(row.snapshot.replacements).toEqual([null, expiresAt, null, null]);
      await rewriteStoredTable(q, gameId, (rec) => (rec.flow.at = Date.now() - 60_000));
    });

    const restartedAt = Date.now();
    f.server = await startChild(f.db);
    await h.reconnect(f.server.url);
    expect((await h.emit('join_game', { gameId })).ok).toBe(true);
    await h.waitFor(() => h.view?.id === gameId && h.view.serverTime > before.serverTime, 5000, 'view after restart');
    const after = h.view;
    // no timeout was charged: same turn, same hand, no auto-played bid, a fresh full turn
    expect(after.players[0].timeouts).toBe(0);
    expect(after.currentPlayerIndex).toBe(0);
    expect(after.bidding.bids).toEqual(before.bidding.bids);
    expect(after.hands[0]).toEqual(before.hands[0]);
    expect(after.turnExpiresAt).toBeGreaterThanOrEqual(restartedAt + 600_000);
    // the countdown survived with the same deadline
    expect(after.seatReplacements).toEqual([{ seatIndex: 1, expiresAt }]);
    expect(after.players[1]).toBeNull();
    await f.server.kill();
    f.server = null;

    // the fresh deadline was persisted (and logged), the countdown untouched
    await withDatabase(f.db, async (q) => {
      const row = await storedTableIn(q, gameId);
      expect(row.snapshot.flow).toMatchObject({ kind: 'turn', at: after.turnExpiresAt });
      expect(row.snapshot.replacements).toEqual([null, expiresAt, null, null]);
      expect(row.snapshot.timeouts[0]).toBe(0);
      const kinds = await q(
        `SELECT type, actor_kind FROM game_events WHERE game_id = $1 AND type IN ('restore_turn', 'timeout')`,
        [gameId],
      );
      expect(kinds).toEqual([{ type: 'restore_turn', actor_kind: 'server' }]);
    });
  });

  it('killed in the middle of a hand, then restarted: the same hand continues with the same cards and turn', async () => {
    useFastTimers({ TURN_TIMEOUT_MS: '600000' });
    f.server = await startChild(f.db);
    const h = await Client.create(f.server.url);
    f.clients.push(h);
    const created = await h.http(f.server.url, 'POST', '/api/games', { ...SETTINGS, maxPoints: 500 });
    const gameId = created.body.id;
    for (const s of [1, 2, 3]) await h.http(f.server.url, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex: s });
    await h.emit('join_game', { gameId });
    await h.emit('start_game', { gameId });
    // play until the middle of the first hand, then stop acting on our turn
    h.strategy = (v) => ({ bid: Math.min(...v.legalBids.bids.filter((b: number) => b > 0)) });
    h.auto = true;
    h.maybeAct();
    await h.waitFor(() => h.view?.status === 'PLAYING' && h.view.play.trickNumber >= 3, 30000, 'trick 3');
    h.auto = false;
    // poll until the table waits for us (only we can move it on: a quiescent state) — and stays so: a card the
    // auto-player emitted just before it stopped may still be on its way (the view is the last committed state)
    let before: any;
    const snap = (v: any) =>
      JSON.stringify([v.currentPlayerIndex, v.hands[0], v.play.currentTrick, v.play.trickNumber]);
    for (let i = 0; i < 200; i++) {
      before = (await h.http(f.server.url, 'GET', `/api/games/${gameId}`)).body;
      if (before.currentPlayerIndex === 0 && before.legalCards.length > 0) {
        await new Promise((r) => setTimeout(r, 400));
        const again = (await h.http(f.server.url, 'GET', `/api/games/${gameId}`)).body;
        if (snap(again) === snap(before)) break;
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(before.currentPlayerIndex).toBe(0);
    expect(before.hands[0].length).toBeGreaterThan(0);
    await f.server.kill(); // a real crash (SIGKILL)
    h.close();

    f.server = await startChild(f.db);
    await h.reconnect(f.server.url);
    const ack = await h.emit('join_game', { gameId });
    expect(ack.ok).toBe(true);
    await h.waitFor(() => h.view?.id === gameId && h.view.serverTime > before.serverTime, 5000, 'view after restart');
    const after = h.view;
    expect(after.hands[0]).toEqual(before.hands[0]);
    expect(after.currentPlayerIndex).toBe(before.currentPlayerIndex);
    expect(after.play.currentTrick).toEqual(before.play.currentTrick);
    expect(after.bidding.bids).toEqual(before.bidding.bids);
    expect(after.handCommitment).toBe(before.handCommitment);
    expect(after.handNumber).toBe(before.handNumber);
    // and the game goes on from there
    h.auto = true;
    h.maybeAct();
    await h.waitFor(
      () => h.events('hand_completed').some((x) => x.handNumber === before.handNumber),
      30000,
      'hand_completed',
    );
    const done = h.events('hand_completed').find((x) => x.handNumber === before.handNumber);
    expect(done.tricksPerPlayer.reduce((x: number, y: number) => x + y, 0)).toBe(13);
  });
});
