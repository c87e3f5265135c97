/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw wire payloads */
/**
 * Server timers with real sockets: a player who stops acting is auto-played, removed after 3 consecutive
 * timeouts (seat_replacement_started countdown), then a bot (or a human who takes the seat first) replaces them.
 * A removed player of a rated game forfeits the buy-in.
 * Turns time out after 1 s: short enough to keep the file fast, long enough that a scripted player on a loaded
 * CI machine (server and clients share this process) never misses a turn it means to play.
 */
import { apply, createGame, potFor } from '@spades/common';
import type { TestApp } from '../support/test-app';
import { Client, gamesSuite, SETTINGS } from './helpers';

const BUY_IN = 100_000;

describe('games timers (integration)', () => {
  let t: TestApp;
  const { client } = gamesSuite((app) => (t = app), { TURN_TIMEOUT_MS: '1000', SEAT_REPLACEMENT_MS: '600' });

  async function coins(c: Client): Promise<number> {
    const r = await c.http(t.url, 'GET', '/api/auth/profile');
    return r.body.coins;
  }

  it('auto-plays an idle player, removes them after 3 timeouts with a countdown, then a bot takes the seat', async () => {
    const a = await client();
    const idle = await client();
    const gameId = (await a.http(t.url, 'POST', '/api/games', { ...SETTINGS, maxPoints: 650, minPoints: -250 })).body
      .id;
    await idle.http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: 1 });
    for (const s of [2, 3]) await a.http(t.url, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex: s });
    await a.emit('join_game', { gameId });
    await idle.emit('join_game', { gameId });
    a.strategy = (v) => ({ bid: Math.min(...v.legalBids.bids.filter((b: number) => b > 0)) });
    a.auto = true;
    expect((await a.emit('start_game', { gameId })).ok).toBe(true);
    await a.waitFor(() => a.events('seat_replacement_started').length > 0, 20000, 'seat_replacement_started');
    const ev = a.events('seat_replacement_started')[0];
    expect(ev.seatIndex).toBe(1);
    expect(ev.expiresAt).toBeGreaterThan(Date.now() - 1000);
    // the idle player was played for: its bid is in, and it was told it lost the seat. Each socket gets the
    // countdown event and the view that frees the seat as separate messages: wait for both on both sockets.
    await idle.waitFor(() => idle.events('seat_replacement_started').length > 0, 5000, 'idle told');
    expect(idle.events('seat_replacement_started')[0]).toEqual(ev);
    await idle.waitFor(() => idle.view?.mySeat === null, 5000, 'the idle player seatless in its view');
    await a.waitFor(() => a.view?.players?.[1] === null, 5000, 'seat 2 empty in the view');
    expect(idle.view.mySeat).toBeNull();
    const afterRemoval = a.view;
    expect(afterRemoval.players[1]).toBeNull();
    expect(afterRemoval.seatReplacements).toEqual([{ seatIndex: 1, expiresAt: ev.expiresAt }]);
    expect(afterRemoval.bidding.bids[1]).not.toBeNull();
    // the countdown runs out: a bot fills the seat
    await a.waitFor(() => a.view.players[1]?.type === 'bot', 5000, 'bot in seat 2');
    expect(Date.now()).toBeGreaterThanOrEqual(ev.expiresAt - 50);
    expect(a.view.chat.map((m: any) => m.message)).toContain('A bot was invited to seat 2.');
    // an idle player cannot act any more
    const refused = await idle.emit('make_bid', { gameId, bid: 3 });
    expect(refused.ok).toBe(false);
    // issue #31: the idle player alone was told each time what was done for them, and when it cost the seat
    const notices = idle.events('turn_timed_out');
    expect(notices.map((n: any) => [n.gameId, n.seatIndex, n.timeouts, n.maxTimeouts, n.seatLost])).toEqual([
      [gameId, 1, 1, 3, false],
      [gameId, 1, 2, 3, false],
      [gameId, 1, 3, 3, true],
    ]);
    // its first turn was the bid: the server's bid is the one in the table state
    expect(notices[0].action).toEqual({ type: 'bid', bid: afterRemoval.bidding.bids[1], blind: false });
    for (const n of notices.slice(1))
      expect(n.action).toEqual({ type: 'play', card: expect.stringMatching(/^(10|[2-9JQKA])[SHDC]$/) });
    expect(a.events('turn_timed_out')).toEqual([]);
    await a.emit('leave_game', { gameId });
  });

  it('the event log holds every applied action (human, bot, timeout, deal) and replays through apply to the snapshot', async () => {
    const h = await client();
    const gameId = (await h.http(t.url, 'POST', '/api/games', { ...SETTINGS, maxPoints: 650, minPoints: -250 })).body
      .id;
    for (const s of [1, 2, 3]) await h.http(t.url, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex: s });
    await h.emit('join_game', { gameId });
    // the first turn of the human runs out (the server plays for it), then the human plays itself
    expect((await h.emit('start_game', { gameId })).ok).toBe(true);
    await h.waitFor(() => h.view?.players?.[0]?.timeouts === 1, 10000, 'a timeout');
    h.strategy = (v) => ({ bid: Math.min(...v.legalBids.bids.filter((b: number) => b > 0)) });
    h.auto = true;
    h.maybeAct();
    // hand 1 (its bid timed out) and hand 2 (bid and played by the human) complete
    await h.waitFor(() => h.events('hand_completed').length >= 2, 30000, 'two complete hands');
    h.auto = false;

    // a consistent cut: the snapshot and every row up to its version
    const [row] = await t.dataSource.query(`SELECT seq, snapshot FROM games WHERE id = $1`, [gameId]);
    const events: any[] = await t.dataSource.query(
      `SELECT seq, type, actor, actor_kind, actions FROM game_events WHERE game_id = $1 AND seq <= $2 ORDER BY seq`,
      [gameId, row.seq],
    );
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: row.seq }, (_, i) => i + 1));
    expect(events.filter((e) => e.type === 'tick')).toEqual([]);
    expect(events.every((e) => ['human', 'bot', 'timeout', 'server'].includes(e.actor_kind))).toBe(true);
    const applied = events.flatMap((e) => (e.actions ?? []) as { gameNumber: number; by: string; action: any }[]);
    const by = new Set(applied.map((a) => `${a.by}:${a.action.type}`));
    for (const k of ['server:deal', 'human:bid', 'human:play', 'bot:bid', 'bot:play']) expect(by).toContain(k);
    expect([...by].some((k) => k.startsWith('timeout:'))).toBe(true);
    // a timeout row is the server playing for the human's seat
    const timeoutRow = events.find((e) => e.actor_kind === 'timeout');
    expect(timeoutRow.type).toBe('timeout');
    expect(
      timeoutRow.actions.every((a: any) => a.by === 'timeout' && (a.action.seat === 0 || a.action.type === 'deal')),
    ).toBe(true);

    // replay the current game's actions from its starting state
    const snap = row.snapshot;
    let state = createGame(snap.settings);
    for (const a of applied.filter((x) => x.gameNumber === snap.gameNumber)) {
      const r = apply(state, a.action);
      if (!r.ok) throw new Error(`replay refused ${JSON.stringify(a)}: ${r.error}`);
      state = r.state;
    }
    expect(JSON.parse(JSON.stringify(state))).toEqual(snap.engine);
    expect(state.handNumber).toBeGreaterThanOrEqual(1);
    // the deals in the log are the seeds of the hand history
    const hands = await t.dataSource.query(
      `SELECT hand_number, seed FROM game_hands WHERE game_id = $1 ORDER BY hand_number`,
      [gameId],
    );
    const deals = applied.filter((a) => a.action.type === 'deal').map((a) => a.action.seed);
    expect(hands.map((x: any) => x.seed)).toEqual(deals.slice(0, hands.length));
    await h.emit('leave_game', { gameId });
  });

  it('rated: a removed player forfeits the buy-in; a human who takes the seat first plays on; coins sum constant', async () => {
    const ps = [await client(), await client(), await client(), await client()];
    const newcomer = await client();
    const before = await Promise.all([...ps, newcomer].map(coins));
    const gameId = (await ps[0].http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    for (let i = 1; i < 4; i++) await ps[i].http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: i });
    for (const [i, p] of ps.entries()) {
      await p.emit('join_game', { gameId });
      p.auto = i !== 1; // seat 1 goes idle
    }
    expect((await ps[0].emit('start_game', { gameId })).ok).toBe(true);
    await ps[0].waitFor(() => ps[0].events('seat_replacement_started').length > 0, 20000, 'countdown');
    // a human takes the open seat before the bot does
    const r = await newcomer.http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: 1 });
    expect(r.status).toBe(200);
    expect(r.body.mySeat).toBe(1);
    await newcomer.emit('join_game', { gameId });
    newcomer.auto = true;
    newcomer.maybeAct();
    await ps[0].waitFor(() => ps[0].view?.payouts != null, 60000, 'settlement');
    const winnerTeam = ps[0].view.winningTeam === 'team1' ? 0 : 1;
    const half = potFor(BUY_IN) / 2;
    // seat 1's original player forfeited; the newcomer paid nothing and wins nothing
    const expected = [0, 1, 2, 3].map((s) => (s % 2 === winnerTeam && s !== 1 ? half : 0));
    expect(ps[0].view.payouts).toEqual(expected);
    for (const [s, p] of ps.entries()) expect(await coins(p)).toBe(before[s] - BUY_IN + expected[s]);
    expect(await coins(newcomer)).toBe(before[4]);
    const [sum] = await t.dataSource.query(`SELECT COALESCE(SUM(balance),0)::text AS s FROM coin_accounts`);
    expect(Number(sum.s)).toBe(0);
    const [settlement] = await t.dataSource.query(`SELECT house_amount FROM game_settlements WHERE game_id = $1`, [
      gameId,
    ]);
    expect(Number(settlement.house_amount)).toBe(4 * BUY_IN - expected.reduce((x, y) => x + y, 0));
  });
});
