/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw wire payloads */
/**
 * Real server + real database + real socket.io clients, short timers.
 */
import { potFor } from '@spades/common';
import { TableFanout } from '../../src/games/table.fanout';
import type { TestApp } from '../support/test-app';
import { checkFairness, checkRedaction, gamesSuite, moveCoins, seedsOf, SETTINGS, storedTable } from './helpers';

const START = 5_000_000;
const BUY_IN = 100_000;

async function coinsOf(t: TestApp, userId: string): Promise<number> {
  const rows = await t.dataSource.query(`SELECT balance FROM coin_accounts WHERE key = $1`, [`user:${userId}`]);
  return rows.length ? Number(rows[0].balance) : 0;
}

async function ledgerSum(t: TestApp): Promise<number> {
  const [r] = await t.dataSource.query(`SELECT COALESCE(SUM(balance),0)::text AS s FROM coin_accounts`);
  return Number(r.s);
}

async function escrowTotal(t: TestApp): Promise<number> {
  const [r] = await t.dataSource.query(
    `SELECT COALESCE(SUM(balance),0)::text AS s FROM coin_accounts WHERE kind = 'escrow'`,
  );
  return Number(r.s);
}

describe('games (integration)', () => {
  let t: TestApp;
  const { client } = gamesSuite((app) => (t = app));

  it('four humans play a complete rated PARTNERS game; a spectator watches; coins, stats, fairness and redaction', async () => {
    const [a, b, c, d] = [await client(), await client(), await client(), await client()];
    const spec = await client();
    const sumBefore = await ledgerSum(t);

    const created = await a.http(t.url, 'POST', '/api/games', { ...SETTINGS, creatorId: b.id, creatorName: 'mallory' });
    expect(created.status).toBe(201);
    const gameId = created.body.id;
    // the creator is the token's user, whatever the body says
    expect(created.body.players[0].id).toBe(a.id);
    expect(created.body.players[0].username).toBe(a.user.user.username);

    for (const [i, p] of [b, c, d].entries()) {
      const r = await p.http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: i + 1 });
      expect(r.status).toBe(200);
      expect(r.body.mySeat).toBe(i + 1);
    }
    for (const p of [a, b, c, d]) expect((await p.emit('join_game', { gameId })).ok).toBe(true);
    expect((await spec.emit('join_game_as_spectator', { gameId })).ok).toBe(true);

    const list = await a.http(t.url, 'GET', '/api/games');
    const item = list.body.find((g: any) => g.id === gameId);
    expect(item.status).toBe('WAITING');
    expect(item.players.map((p: any) => p?.id)).toEqual([a.id, b.id, c.id, d.id]);
    expect(JSON.stringify(list.body)).not.toMatch(/"suit"/);

    // only the host starts
    const refused = await b.emit('start_game', { gameId });
    expect(refused).toEqual({ ok: false, message: 'Only the host can start the game' });

    for (const p of [a, b, c, d]) p.auto = true;
    const ack = await a.emit('start_game', { gameId });
    expect(ack.ok).toBe(true);
    await a.waitFor(() => a.events('game_over').length > 0, 60000, 'game_over');
    for (const p of [b, c, d, spec]) await p.waitFor(() => p.events('game_over').length > 0, 5000, 'game_over');
    await a.waitFor(() => a.view?.payouts !== null && a.view?.payouts !== undefined, 5000, 'settlement');

    const over = a.events('game_over')[0];
    const winnerTeam = over.winningTeam === 'team1' ? 0 : 1;
    const pot = potFor(BUY_IN);
    const players = [a, b, c, d];
    for (const [seat, p] of players.entries()) {
      const won = seat % 2 === winnerTeam;
      expect(await coinsOf(t, p.id)).toBe(START - BUY_IN + (won ? pot / 2 : 0));
      const stats = await p.http(t.url, 'GET', `/api/users/${p.id}/stats`);
      expect(stats.body.gamesPlayed).toBe(1);
      expect(stats.body.gamesWon).toBe(won ? 1 : 0);
      expect(stats.body.regPlayed).toBe(1);
    }
    expect(a.view.payouts).toEqual(players.map((_, s) => (s % 2 === winnerTeam ? pot / 2 : 0)));
    // issue #12: every player's history has the game with its net coins and (issue #11) rating change
    for (const [seat, p] of players.entries()) {
      const hist = await spec.http(t.url, 'GET', `/api/users/${p.id}/games`);
      expect(hist.body.items[0]).toMatchObject({
        gameId,
        rated: true,
        seat,
        result: seat % 2 === winnerTeam ? 'won' : 'lost',
        coins: (seat % 2 === winnerTeam ? pot / 2 : 0) - BUY_IN,
      });
      expect(typeof hist.body.items[0].ratingChange).toBe('number');
    }
    const [house] = await t.dataSource.query(`SELECT balance FROM coin_accounts WHERE key = 'house'`);
    expect(await escrowTotal(t)).toBe(0);
    expect(await ledgerSum(t)).toBe(sumBefore);
    const settlements = await t.dataSource.query(`SELECT * FROM game_settlements WHERE game_id = $1`, [gameId]);
    expect(settlements).toHaveLength(1);
    expect(Number(settlements[0].house_amount)).toBe(4 * BUY_IN - pot);
    expect(Number(house.balance)).toBeLessThan(0);

    // the event stream clients use: every game event arrived (each bid and card comes in game_update)
    for (const e of [
      'game_update',
      'new_hand_started',
      'bidding_ready',
      'trick_complete',
      'clear_trick',
      'hand_completed',
      'game_over',
      'chat_message',
    ]) {
      expect(a.events(e).length).toBeGreaterThan(0);
    }
    // issue #29: events no client listens to are not sent
    for (const e of ['bidding_update', 'bidding_complete', 'play_start', 'play_update'])
      expect(a.events(e)).toEqual([]);
    // the game's last card went out in ONE fan-out, after the settlement: its first COMPLETED view has the payouts
    const completed = a.events('game_update').filter((v) => v.status === 'COMPLETED');
    expect(completed[0].payouts).toEqual(players.map((_, s) => (s % 2 === winnerTeam ? pot / 2 : 0)));
    expect(a.events('chat_message').map((m) => m.message.message)).toContain(
      `${b.user.user.username} joined the game.`,
    );

    // provably fair + redaction over every payload each socket received
    const seeds = seedsOf(a);
    expect(seeds.size).toBeGreaterThan(0);
    for (const [seat, p] of players.entries()) {
      expect(checkFairness(p, seat)).toBe(seeds.size);
      expect(checkRedaction(p, seat, seeds)).toBeGreaterThan(50);
    }
    expect(checkRedaction(spec, 'spectator', seeds)).toBeGreaterThan(50);
    expect(spec.events('trick_complete').length).toBe(a.events('trick_complete').length);

    // finished games keep their hand history with the seeds
    const hands = await t.dataSource.query(
      `SELECT hand_number, seed, commitment FROM game_hands WHERE game_id = $1 ORDER BY hand_number`,
      [gameId],
    );
    expect(hands.map((h: any) => h.seed)).toEqual([...seeds.values()]);

    // nobody plays again: after the result timer the table closes
    await a.waitFor(() => a.events('game_closed').length > 0, 5000, 'game_closed');
    const gone = await a.http(t.url, 'GET', '/api/games');
    expect(gone.body.find((g: any) => g.id === gameId)).toBeUndefined();
    const closed = await a.http(t.url, 'GET', `/api/games/${gameId}`);
    expect(closed.body.status).toBe('CLOSED');
    expect(closed.body.history.length).toBe(seeds.size);
  });

  it('four humans play a complete rated SOLO game: 1st gets pot - buy-in, 2nd the buy-in back, the rest to the house', async () => {
    const ps = [await client(), await client(), await client(), await client()];
    const sumBefore = await ledgerSum(t);
    const created = await ps[0].http(t.url, 'POST', '/api/games', { ...SETTINGS, gameMode: 'SOLO', buyIn: 200000 });
    expect(created.status).toBe(201);
    const gameId = created.body.id;
    for (const [i, p] of ps.slice(1).entries())
      expect((await p.http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: i + 1 })).status).toBe(200);
    for (const p of ps) {
      await p.emit('join_game', { gameId });
      p.auto = true;
    }
    expect((await ps[0].emit('start_game', { gameId })).ok).toBe(true);
    // buy-ins are in escrow while the game runs
    await ps[0].waitFor(() => ps[0].events('new_hand_started').length > 0, 5000, 'deal');
    for (const p of ps) await p.waitFor(() => p.view?.payouts != null, 60000, 'settlement');
    const over = ps[0].events('game_over')[0];
    const scores: number[] = over.finalScores;
    const top = Math.max(...scores);
    const winner = scores.indexOf(top);
    expect(over.winningPlayer).toBe(winner);
    const rest = scores.filter((_, i) => i !== winner);
    const second = Math.max(...rest);
    const seconds = scores.map((x, i) => (i !== winner && x === second ? i : -1)).filter((i) => i >= 0);
    const buyIn = 200000;
    const pot = potFor(buyIn);
    const expected = scores.map((_, i) =>
      i === winner ? pot - buyIn : seconds.includes(i) ? Math.floor(buyIn / seconds.length) : 0,
    );
    expect(ps[0].view.payouts).toEqual(expected);
    for (const [seat, p] of ps.entries()) {
      expect(await coinsOf(t, p.id)).toBe(START - buyIn + expected[seat]);
      const stats = await p.http(t.url, 'GET', `/api/users/${p.id}/stats?mode=SOLO`);
      expect(stats.body.gamesPlayed).toBe(1);
      expect(stats.body.gamesWon).toBe(seat === winner ? 1 : 0);
    }
    const [settlement] = await t.dataSource.query(`SELECT house_amount FROM game_settlements WHERE game_id = $1`, [
      gameId,
    ]);
    expect(Number(settlement.house_amount)).toBe(4 * buyIn - expected.reduce((x, y) => x + y, 0));
    expect(await escrowTotal(t)).toBe(0);
    expect(await ledgerSum(t)).toBe(sumBefore);
    const seeds = seedsOf(ps[0]);
    for (const [seat, p] of ps.entries()) checkRedaction(p, seat, seeds);
  });

  it('a rated game abandoned by every human: leavers forfeit, the escrow goes to the house, nothing is lost', async () => {
    const ps = [await client(), await client(), await client(), await client()];
    const sumBefore = await ledgerSum(t);
    const gameId = (await ps[0].http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    for (let i = 1; i < 4; i++) await ps[i].http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: i });
    for (const p of ps) await p.emit('join_game', { gameId });
    expect((await ps[0].emit('start_game', { gameId })).ok).toBe(true);
    await ps[0].waitFor(() => ps[0].view?.status === 'BIDDING', 3000, 'BIDDING');
    expect(ps[0].view.rated).toBe(true);
    expect(await escrowTotal(t)).toBe(4 * BUY_IN);
    for (const p of ps) expect((await p.http(t.url, 'POST', `/api/games/${gameId}/leave`, {})).status).toBe(200);
    // the last one to leave is told the table closed
    await ps[3].waitFor(() => ps[3].events('game_closed').length > 0, 3000, 'game_closed');
    for (const p of ps) expect(await coinsOf(t, p.id)).toBe(START - BUY_IN);
    expect(await escrowTotal(t)).toBe(0);
    expect(await ledgerSum(t)).toBe(sumBefore);
    const [row] = await t.dataSource.query(`SELECT reason, house_amount FROM game_settlements WHERE game_id = $1`, [
      gameId,
    ]);
    expect(row.reason).toBe('abandoned');
    expect(Number(row.house_amount)).toBe(4 * BUY_IN);
  });

  it('a rated leaver forfeits the buy-in even when taking the seat back', async () => {
    const ps = [await client(), await client(), await client(), await client()];
    const gameId = (await ps[0].http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    for (let i = 1; i < 4; i++) await ps[i].http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: i });
    for (const p of ps) await p.emit('join_game', { gameId });
    expect((await ps[0].emit('start_game', { gameId })).ok).toBe(true);
    await ps[0].waitFor(() => ps[0].view?.status === 'BIDDING', 3000, 'BIDDING');
    expect((await ps[1].http(t.url, 'POST', `/api/games/${gameId}/leave`, {})).status).toBe(200);
    const back = await ps[1].http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: 1 });
    expect(back.status).toBe(200);
    expect(back.body.mySeat).toBe(1);
    await ps[1].emit('join_game', { gameId });
    for (const p of ps) {
      p.auto = true;
      p.maybeAct();
    }
    await ps[0].waitFor(() => ps[0].view?.payouts != null, 60000, 'settlement');
    const winnerTeam = ps[0].view.winningTeam === 'team1' ? 0 : 1;
    const half = potFor(BUY_IN) / 2;
    const expected = [0, 1, 2, 3].map((s) => (s % 2 === winnerTeam && s !== 1 ? half : 0));
    expect(ps[0].view.payouts).toEqual(expected);
    for (const [s, p] of ps.entries()) expect(await coinsOf(t, p.id)).toBe(START - BUY_IN + expected[s]);
    const stats = await ps[1].http(t.url, 'GET', `/api/users/${ps[1].id}/stats`);
    expect(stats.body.gamesPlayed).toBe(1);
    expect(stats.body.gamesWon).toBe(0);
  });

  it('a player without enough coins cannot sit at the table', async () => {
    const host = await client();
    const poor = await client();
    const created = await host.http(t.url, 'POST', '/api/games', { ...SETTINGS, buyIn: 6_000_000 });
    expect(created.status).toBe(400);
    expect(created.body.message).toBe('Not enough coins');
    const ok = await host.http(t.url, 'POST', '/api/games', { ...SETTINGS, buyIn: 1_000_000 });
    // drain the poor player's wallet below the buy-in (through the ledger, to the house)
    await moveCoins(t, { userId: poor.id }, 'house', 4_500_000);
    const r = await poor.http(t.url, 'POST', `/api/games/${ok.body.id}/join`, {});
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('Not enough coins');
    const view = await host.http(t.url, 'GET', `/api/games/${ok.body.id}`);
    expect(view.body.players[1]).toBeNull();
    await host.emit('leave_game', { gameId: ok.body.id });
  });

  it('a rated start is refused as a whole when a player can no longer cover the buy-in', async () => {
    const ps = [await client(), await client(), await client(), await client()];
    const gameId = (await ps[0].http(t.url, 'POST', '/api/games', { ...SETTINGS, buyIn: 1_000_000 })).body.id;
    for (let i = 1; i < 4; i++)
      expect((await ps[i].http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: i })).status).toBe(200);
    for (const p of ps) await p.emit('join_game', { gameId });
    // seat 2 spends its coins elsewhere after sitting down (through the ledger, to the house)
    await moveCoins(t, { userId: ps[2].id }, 'house', 4_500_000);
    const entriesBefore = await t.dataSource.query(`SELECT count(*)::int AS n FROM coin_entries`);
    const seqBefore = (await storedTable(t, gameId)).seq;
    const errorsBefore = ps[0].errors.length;
    const refused = await ps[0].emit('start_game', { gameId });
    expect(refused).toEqual({
      ok: false,
      message: `Not enough coins: ${ps[2].user.user.username} cannot cover the buy-in`,
    });
    await ps[0].waitFor(() => ps[0].errors.length > errorsBefore, 3000, 'error event');
    expect(ps[0].errors.at(-1)).toBe(refused.message);
    const view = await ps[0].http(t.url, 'GET', `/api/games/${gameId}`);
    expect(view.body.status).toBe('WAITING');
    expect(view.body.rated).toBe(false);
    expect(await escrowTotal(t)).toBe(0);
    // nothing moved, nothing stored
    expect(await t.dataSource.query(`SELECT count(*)::int AS n FROM coin_entries`)).toEqual(entriesBefore);
    expect((await storedTable(t, gameId)).seq).toBe(seqBefore);
    for (const [i, p] of ps.entries()) expect(await coinsOf(t, p.id)).toBe(i === 2 ? START - 4_500_000 : START);
    for (const p of ps) await p.emit('leave_game', { gameId });
  });

  it('one human and three bots finish a game; no coins move for an unrated table', async () => {
    const h = await client();
    const other = await client();
    const created = await h.http(t.url, 'POST', '/api/games', { ...SETTINGS, buyIn: 150000 });
    const gameId = created.body.id;
    // requesterId must be the token's user; only the host invites while WAITING
    expect(
      (await h.http(t.url, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex: 1, requesterId: other.id })).status,
    ).toBe(403);
    await other.http(t.url, 'POST', `/api/games/${gameId}/spectate`, {});
    expect((await other.http(t.url, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex: 1 })).status).toBe(403);
    for (const s of [1, 2, 3]) {
      const r = await h.http(t.url, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex: s, requesterId: h.id });
      expect(r.status).toBe(200);
      expect(r.body.players[s].type).toBe('bot');
    }
    await h.emit('join_game', { gameId });
    h.auto = true;
    expect((await h.emit('start_game', { gameId })).ok).toBe(true);
    await h.waitFor(() => h.events('game_over').length > 0, 60000, 'game_over');
    expect(h.events('chat_message').map((m) => m.message.message)).toContain('A bot was invited to seat 2.');
    expect(h.view.rated).toBe(false);
    expect(await coinsOf(t, h.id)).toBe(START);
    const stats = await h.http(t.url, 'GET', `/api/users/${h.id}/stats`);
    expect(stats.body.gamesPlayed).toBe(0);
    // play again with bots: a new game starts right away
    expect((await h.emit('play_again', { gameId })).ok).toBe(true);
    await h.waitFor(() => h.view.gameNumber === 2 && h.view.status !== 'WAITING', 5000, 'second game');
    expect((await h.emit('leave_game', { gameId })).ok).toBe(true);
    // the spectator still watches the bots (issue 15): the table closes only when nobody is left
    expect((await h.http(t.url, 'GET', `/api/games/${gameId}`)).body.status).not.toBe('CLOSED');
    expect((await other.emit('leave_game', { gameId })).ok).toBe(true);
    await other.waitFor(() => other.events('game_closed').length > 0, 5000, 'game_closed');
  });

  it('a fan-out that fails after a command is stored: the command still succeeds and the table plays on', async () => {
    const h = await client();
    const created = await h.http(t.url, 'POST', '/api/games', SETTINGS);
    const gameId = created.body.id;
    for (const s of [1, 2, 3])
      expect((await h.http(t.url, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex: s })).status).toBe(200);
    await h.emit('join_game', { gameId });
    const fanout = t.app.get(TableFanout);
    const send = fanout.table.bind(fanout);
    let failed = 0;
    // only this table's next fan-out fails (other tables of the shared app keep theirs)
    const failing = jest.spyOn(fanout, 'table').mockImplementation(async (prev, rec, fx) => {
      if (rec.id === gameId && failed++ === 0) throw new Error('a view that cannot be built');
      return send(prev, rec, fx);
    });
    try {
      // the start is stored (the deal, the bots' first turns): its answer is ok although its updates never went out
      expect((await h.emit('start_game', { gameId })).ok).toBe(true);
      expect(failed).toBeGreaterThanOrEqual(1);
      const stored = await t.dataSource.query(`SELECT status FROM games WHERE id = $1`, [gameId]);
      expect(stored[0].status).not.toBe('WAITING');
      // its timers were armed: the bots move and the human's client catches up from the next update and plays
      h.auto = true;
      await h.waitFor(() => h.events('game_over').length > 0, 60000, 'game_over after a failed fan-out');
    } finally {
      failing.mockRestore();
    }
    expect((await h.emit('leave_game', { gameId })).ok).toBe(true);
  });

  it('lobby list, game chat and the mid-game bot rules of spec §5 over HTTP and sockets', async () => {
    const [h, o, p, lobby] = [await client(), await client(), await client(), await client()];
    // a simple lobby client: the full list, coalesced (at most once a second)
    expect((await lobby.emit('watch_lobby', { full: true })).ok).toBe(true);
    const created = await h.http(t.url, 'POST', '/api/games', SETTINGS);
    const gameId = created.body.id;
    await lobby.waitFor(
      () => lobby.events('games_updated').some((l) => l.some((g: any) => g.id === gameId)),
      3000,
      'games_updated',
    );
    expect(JSON.stringify(lobby.events('games_updated'))).not.toMatch(/"suit"/);
    await o.http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: 1 });
    await p.http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: 2 });
    expect((await o.emit('invite_bot', { gameId, seatIndex: 3 })).ok).toBe(false); // host only while WAITING
    expect((await h.emit('invite_bot', { gameId, seatIndex: 3, requesterId: h.id })).ok).toBe(true);
    for (const c of [h, o, p]) await c.emit('join_game', { gameId });
    expect((await h.emit('start_game', { gameId })).ok).toBe(true);
    await h.waitFor(() => h.view?.status === 'BIDDING', 3000, 'BIDDING');
    expect(h.view.rated).toBe(false);

    // the bot in seat 3 sits opposite o (seat 1): only o may remove it mid-game
    const byHost = await h.http(t.url, 'POST', `/api/games/${gameId}/remove-bot-midgame`, {
      seatIndex: 3,
      requesterId: h.id,
    });
    expect(byHost.status).toBe(403);
    expect(byHost.body.message).toBe('Only the player opposite that seat can do that');
    const spoofed = await o.http(t.url, 'POST', `/api/games/${gameId}/remove-bot-midgame`, {
      seatIndex: 3,
      requesterId: h.id,
    });
    expect(spoofed.status).toBe(403);
    const removed = await o.http(t.url, 'POST', `/api/games/${gameId}/remove-bot-midgame`, {
      seatIndex: 3,
      requesterId: o.id,
    });
    expect(removed.status).toBe(200);
    expect(removed.body.players[3]).toBeNull();
    await h.waitFor(() => h.events('seat_replacement_started').some((e) => e.seatIndex === 3), 3000, 'countdown');
    expect((await p.http(t.url, 'POST', `/api/games/${gameId}/invite-bot-midgame`, { seatIndex: 3 })).status).toBe(403);
    expect((await o.emit('fill_seat_with_bot', { gameId, seatIndex: 3 })).ok).toBe(true);
    await h.waitFor(() => h.view.players[3]?.type === 'bot', 3000, 'bot back');
    expect(h.view.chat.map((m: any) => m.message)).toEqual(
      expect.arrayContaining(['A bot was invited to seat 4.', 'A bot was removed from seat 4.']),
    );

    // game chat: trimmed, to everyone at the table; outsiders and empty messages refused
    expect((await p.emit('chat_message', { gameId, message: '  good luck  ' })).ok).toBe(true);
    await h.waitFor(() => h.events('chat_message').some((m) => m.message.message === 'good luck'), 3000, 'chat');
    const msg = h.events('chat_message').find((m) => m.message.message === 'good luck');
    expect(msg).toMatchObject({
      gameId,
      message: { userId: p.id, userName: p.user.user.username, isGameMessage: true },
    });
    expect(await lobby.emit('chat_message', { gameId, message: 'hi' })).toEqual({
      ok: false,
      message: 'Join or watch the game to chat',
    });
    expect((await p.emit('chat_message', { gameId, message: '   ' })).ok).toBe(false);
    for (const c of [h, o, p]) expect((await c.emit('leave_game', { gameId })).ok).toBe(true);
    await lobby.waitFor(
      () =>
        !lobby
          .events('games_updated')
          .at(-1)
          .some((g: any) => g.id === gameId),
      3000,
      'list without the game',
    );
  });

  it('refuses illegal and out-of-turn actions with an error event; duplicates return the original result', async () => {
    const h = await client();
    const created = await h.http(t.url, 'POST', '/api/games', SETTINGS);
    const gameId = created.body.id;
    for (const s of [1, 2, 3]) await h.http(t.url, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex: s });
    await h.emit('join_game', { gameId });
    await h.emit('start_game', { gameId });
    await h.waitFor(() => h.view?.status === 'BIDDING' && h.view.currentPlayerIndex === 0, 10000, 'my bid turn');
    const errorsBefore = h.errors.length;
    const bad = await h.emit('make_bid', { gameId, bid: 14, actionId: 'x1' });
    // a rules refusal carries its typed code (clients react to the code, never to the text)
    expect(bad).toEqual({ ok: false, message: 'That bid is not allowed', code: 'ILLEGAL_BID' });
    await h.waitFor(() => h.errors.length === errorsBefore + 1, 2000, 'error event');
    expect(h.errors[h.errors.length - 1]).toBe('That bid is not allowed');
    expect(h.events('error').at(-1)).toEqual({
      message: 'That bid is not allowed',
      event: 'make_bid',
      code: 'ILLEGAL_BID',
    });
    const first = await h.emit('make_bid', { gameId, bid: 3, actionId: 'bid-1' });
    expect(first.ok).toBe(true);
    const dup = await h.emit('make_bid', { gameId, bid: 3, actionId: 'bid-1' });
    expect(dup).toEqual(first);
    await h.waitFor(
      () => h.view.status === 'PLAYING' || h.view.bidding.bids.filter((b: any) => b !== null).length > 1,
      5000,
    );
    expect(h.view.bidding.bids[0]).toBe(3);
    const res = await h.http(t.url, 'GET', `/api/games/${gameId}`);
    expect(res.body.bidding.bids[0]).toBe(3);
    expect((await h.http(t.url, 'GET', `/api/games/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    await h.emit('leave_game', { gameId });
  });
});
