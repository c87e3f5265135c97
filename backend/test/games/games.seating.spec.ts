/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw wire payloads */
/**
 * Seating rules with a real server, database and socket.io clients: a re-sent `join_game` never changes
 * seating, '{name} joined the game.' once per game, idempotent actions (bids, cards, chat) keyed by action
 * id AND payload, and "Not enough coins" only where coins can move.
 */
import type { TestApp } from '../support/test-app';
import { Client, gamesSuite, joinedMessages, moveCoins, SETTINGS, storedTable, waitHumanTurn } from './helpers';

describe('games seating, announcements and idempotency (integration)', () => {
  let t: TestApp;
  // a long result dialog: Play Again is never raced by the result timer
  const { client } = gamesSuite((app) => (t = app), { RESULT_MS: '600000' });

  const name = (c: Client) => c.user.user.username;

  async function tableWithBots(
    host: Client,
    bots: number[],
    settings: Record<string, unknown> = SETTINGS,
  ): Promise<string> {
    const gameId = (await host.http(t.url, 'POST', '/api/games', settings)).body.id;
    for (const s of bots)
      expect((await host.http(t.url, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex: s })).status).toBe(200);
    expect((await host.emit('join_game', { gameId })).ok).toBe(true);
    return gameId;
  }

  describe('socket join_game never changes seating for a spectator, a leaver or a reconnect', () => {
    it('a spectator who sends join_game (with or without a seat) keeps watching while seats are free', async () => {
      const host = await client();
      const spec = await client();
      const gameId = await tableWithBots(host, []);
      expect((await spec.emit('join_game_as_spectator', { gameId })).ok).toBe(true);
      const before = await storedTable(t, gameId);
      for (const payload of [{ gameId }, { gameId, seat: 2 }, { gameId, userId: spec.id, timestamp: Date.now() }]) {
        const ack = await spec.emit('join_game', payload);
        expect(ack).toMatchObject({ ok: true, gameId, seat: null });
      }
      const after = await storedTable(t, gameId);
      expect(after.seq).toBe(before.seq);
      expect(after.snapshot.seats.map((s: any) => s?.userId ?? null)).toEqual([host.id, null, null, null]);
      expect(after.snapshot.spectators.map((s: any) => s.userId)).toEqual([spec.id]);
      // it got its (spectator) view again
      await spec.waitFor(() => spec.view?.id === gameId && spec.view.mySeat === null, 3000, 'spectator view');
      // a spectator is announced as watching, once (issue 15), not as joining the game
      expect(joinedMessages(host, name(spec))).toHaveLength(0);
      expect(
        host.events('chat_message').filter((m) => m.message.message === `${name(spec)} is watching.`),
      ).toHaveLength(1);
      // the explicit join (the table's Join button: HTTP POST /join) seats a spectator, who now joins the game
      const sat = await spec.http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: 2 });
      expect(sat.status).toBe(200);
      expect(sat.body.mySeat).toBe(2);
      await host.waitFor(() => joinedMessages(host, name(spec)).length === 1, 3000, 'joined');
      for (const c of [host, spec]) await c.emit('leave_game', { gameId });
    });

    it('a spectator coming back (join_game_as_spectator again, socket or HTTP) gets its view: nothing stored, nothing sent to the table', async () => {
      const host = await client();
      const spec = await client();
      const gameId = await tableWithBots(host, [1, 2, 3]);
      expect((await host.emit('start_game', { gameId })).ok).toBe(true);
      expect((await spec.emit('join_game_as_spectator', { gameId })).ok).toBe(true);
      const watching = (c: Client) =>
        c.events('chat_message').filter((m) => m.message.message === `${name(spec)} is watching.`);
      await host.waitFor(() => watching(host).length === 1, 3000, 'watching');
      // the table rests on the host's turn (bots act within ms): nothing else changes it meanwhile
      const rest = await waitHumanTurn(t, gameId);
      await new Promise((r) => setTimeout(r, 200)); // the last bot move's updates are delivered
      const hostUpdates = host.events('game_update').length;
      await spec.reconnect(t.url);
      for (let i = 0; i < 2; i++)
        expect(await spec.emit('join_game_as_spectator', { gameId })).toMatchObject({ ok: true, gameId });
      expect((await spec.http(t.url, 'POST', `/api/games/${gameId}/spectate`, {})).body).toMatchObject({
        id: gameId,
        mySeat: null,
      });
      // its exact view, on the new socket
      await spec.waitFor(
        () => spec.view?.id === gameId && spec.view.mySeat === null && spec.view.status === rest.snapshot.status,
        3000,
        'view',
      );
      expect(spec.view.hands.every((h: any[]) => h.length === 0)).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
      const after = await storedTable(t, gameId);
      expect(after.seq).toBe(rest.seq);
      expect(after.snapshot.spectators.map((s: any) => s.userId)).toEqual([spec.id]);
      expect(host.events('game_update')).toHaveLength(hostUpdates);
      expect(watching(host)).toHaveLength(1);
      await host.emit('leave_game', { gameId });
      await spec.emit('leave_game', { gameId });
    });

    it('a player who left (rated: forfeit) and re-sends join_game after a reconnect is not seated again', async () => {
      const ps = [await client(), await client(), await client(), await client()];
      const gameId = (await ps[0].http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
      for (let i = 1; i < 4; i++)
        expect((await ps[i].http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: i })).status).toBe(200);
      for (const p of ps) await p.emit('join_game', { gameId });
      expect((await ps[0].emit('start_game', { gameId })).ok).toBe(true);
      await waitHumanTurn(t, gameId);
      expect((await ps[1].emit('leave_game', { gameId })).ok).toBe(true);
      const left = await waitHumanTurn(t, gameId);
      const expiresAt = left.snapshot.replacements[1];
      expect(expiresAt).toEqual(expect.any(Number));
      expect(left.snapshot.forfeited).toEqual([ps[1].id]);

      await ps[1].reconnect(t.url);
      for (let i = 0; i < 2; i++) {
        const ack = await ps[1].emit('join_game', { gameId, userId: ps[1].id, timestamp: Date.now() });
        expect(ack).toMatchObject({ ok: true, seat: null });
      }
      const after = await storedTable(t, gameId);
      expect(after.snapshot.seats[1]).toBeNull();
      expect(after.snapshot.replacements[1]).toBe(expiresAt);
      // it watches (the view it is entitled to: no hand)
      expect(after.snapshot.spectators.map((s: any) => s.userId)).toEqual([ps[1].id]);
      await ps[1].waitFor(() => ps[1].view?.id === gameId && ps[1].view.mySeat === null, 3000, 'spectator view');
      expect(ps[1].view.hands.every((h: any[]) => h.length === 0)).toBe(true);
      // an explicit join takes the seat back (still forfeited)
      const back = await ps[1].http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: 1 });
      expect(back.status).toBe(200);
      expect(back.body.mySeat).toBe(1);
      for (const p of ps) await p.emit('leave_game', { gameId });
    });

    it('a player who left a WAITING table and re-sends join_game watches; a seated player re-sending it keeps the seat', async () => {
      const host = await client();
      const p = await client();
      const gameId = await tableWithBots(host, []);
      // a newcomer's join_game takes a free seat (no explicit seat given)
      expect(await p.emit('join_game', { gameId })).toMatchObject({ ok: true, seat: 1 });
      const seated = await storedTable(t, gameId);
      // reconnect + re-send: nothing changes
      await host.reconnect(t.url);
      for (let i = 0; i < 2; i++)
        expect(await host.emit('join_game', { gameId, seat: 3 })).toMatchObject({ ok: true, seat: 0 });
      expect(await p.emit('join_game', { gameId })).toMatchObject({ ok: true, seat: 1 });
      expect((await storedTable(t, gameId)).seq).toBe(seated.seq);
      expect(joinedMessages(host, name(p))).toHaveLength(1);

      expect((await p.emit('leave_game', { gameId })).ok).toBe(true);
      await p.reconnect(t.url);
      expect(await p.emit('join_game', { gameId })).toMatchObject({ ok: true, seat: null });
      const after = await storedTable(t, gameId);
      expect(after.snapshot.seats.map((s: any) => s?.userId ?? null)).toEqual([host.id, null, null, null]);
      await host.emit('leave_game', { gameId });
    });
  });

  it("'{name} joined the game.' is posted once per game: after Play Again a joining player is announced again, once", async () => {
    const host = await client();
    const p = await client();
    const gameId = await tableWithBots(host, [2, 3]);
    expect((await p.http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: 1 })).status).toBe(200);
    await p.emit('join_game', { gameId });
    await host.waitFor(() => joinedMessages(host, name(p)).length === 1, 3000, 'announcement');
    for (const c of [host, p]) c.auto = true;
    expect((await host.emit('start_game', { gameId })).ok).toBe(true);
    await host.waitFor(() => host.view?.status === 'COMPLETED', 60000, 'game over');
    for (const c of [host, p]) c.auto = false;
    // p leaves after the game; the host plays again: back to WAITING (seat 1 is free)
    expect((await p.emit('leave_game', { gameId })).ok).toBe(true);
    expect((await host.emit('play_again', { gameId })).ok).toBe(true);
    await host.waitFor(() => host.view?.gameNumber === 2 && host.view.status === 'WAITING', 3000, 'game 2');
    expect(joinedMessages(host, name(p))).toHaveLength(1);
    // p comes back for game 2: announced again, exactly once (a re-sent join_game adds nothing)
    expect((await p.http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: 1 })).status).toBe(200);
    await p.emit('join_game', { gameId });
    await p.emit('join_game', { gameId });
    const view = (await host.http(t.url, 'GET', `/api/games/${gameId}`)).body;
    expect(view.chat.filter((m: any) => m.message === `${name(p)} joined the game.`)).toHaveLength(2);
    await host.waitFor(() => joinedMessages(host, name(p)).length === 2, 3000, 'second announcement');
    const stored = await storedTable(t, gameId);
    expect(stored.snapshot.announced).toEqual([p.id]);
    for (const c of [host, p]) await c.emit('leave_game', { gameId });
  });

  describe('idempotency: the action id is bound to the action', () => {
    it('chat_message with an action id is posted once; the same id with another text is refused', async () => {
      const host = await client();
      const gameId = await tableWithBots(host, []);
      const first = await host.emit('chat_message', { gameId, message: 'hello', actionId: 'c-1' });
      expect(first).toEqual({ ok: true });
      expect(await host.emit('chat_message', { gameId, message: 'hello', actionId: 'c-1' })).toEqual(first);
      const seq = (await storedTable(t, gameId)).seq;
      const errorsBefore = host.errors.length;
      expect(await host.emit('chat_message', { gameId, message: 'bye', actionId: 'c-1' })).toEqual({
        ok: false,
        message: 'Duplicate action id',
      });
      await host.waitFor(() => host.errors.length === errorsBefore + 1, 3000, 'error event');
      expect(host.errors.at(-1)).toBe('Duplicate action id');
      const stored = await storedTable(t, gameId);
      expect(stored.seq).toBe(seq);
      expect(stored.snapshot.chat.filter((m: any) => m.userId === host.id).map((m: any) => m.message)).toEqual([
        'hello',
      ]);
      // without an id every message is posted
      await host.emit('chat_message', { gameId, message: 'hello' });
      expect((await storedTable(t, gameId)).snapshot.chat.filter((m: any) => m.userId === host.id)).toHaveLength(2);
      await host.emit('leave_game', { gameId });
    });

    it('a bid retried with the same id but another payload (or reused for a card) is refused and changes nothing', async () => {
      const h = await client();
      const gameId = await tableWithBots(h, [1, 2, 3]);
      expect((await h.emit('start_game', { gameId })).ok).toBe(true);
      await waitHumanTurn(t, gameId);
      await h.waitFor(
        () => h.view?.status === 'BIDDING' && h.view.currentPlayerIndex === 0 && !h.view.handHidden,
        5000,
        'my bid',
      );
      const first = await h.emit('make_bid', { gameId, bid: 3, actionId: 'a-1' });
      expect(first.ok).toBe(true);
      const after = await storedTable(t, gameId);
      expect(after.snapshot.engine.bids[0]).toBe(3);
      const seq = after.seq;
      expect(await h.emit('make_bid', { gameId, bid: 3, actionId: 'a-1' })).toEqual(first);
      for (const [event, payload] of [
        ['make_bid', { gameId, bid: 4, actionId: 'a-1' }],
        ['make_bid', { gameId, bid: 3, blind: true, actionId: 'a-1' }],
        ['play_card', { gameId, card: { suit: 'S', rank: 14 }, actionId: 'a-1' }],
        ['chat_message', { gameId, message: 'x', actionId: 'a-1' }],
      ] as const) {
        expect(await h.emit(event, payload)).toEqual({ ok: false, message: 'Duplicate action id' });
      }
      // the bots may have moved on meanwhile, but not because of the refused retries
      const now = await storedTable(t, gameId);
      expect(now.snapshot.engine.bids[0]).toBe(3);
      const rows = await t.dataSource.query(
        `SELECT type, payload FROM game_events WHERE game_id = $1 AND action_id = 'a-1'`,
        [gameId],
      );
      expect(rows).toEqual([{ type: 'bid', payload: { bid: 3 } }]);
      const humanRows = await t.dataSource.query(
        `SELECT count(*)::int AS n FROM game_events WHERE game_id = $1 AND seq > $2 AND actor = $3`,
        [gameId, seq, h.id],
      );
      expect(humanRows[0].n).toBe(0);
      await h.emit('leave_game', { gameId });
    });
  });

  describe("'Not enough coins' only where coins can move", () => {
    it('taking a vacated seat mid-game needs no coins; sitting at a WAITING table does', async () => {
      const host = await client();
      const poor = await client();
      const gameId = await tableWithBots(host, [1, 2, 3], { ...SETTINGS, buyIn: 1_000_000 });
      await moveCoins(t, { userId: poor.id }, 'house', 4_500_000);
      // WAITING (the table may become rated): refused
      const waiting = await tableWithBots(await client(), [], { ...SETTINGS, buyIn: 1_000_000 });
      const refused = await poor.http(t.url, 'POST', `/api/games/${waiting}/join`, {});
      expect(refused.status).toBe(400);
      expect(refused.body.message).toBe('Not enough coins');
      expect(await poor.emit('join_game', { gameId: waiting, seat: 1 })).toEqual({
        ok: false,
        message: 'Not enough coins',
      });

      expect((await host.emit('start_game', { gameId })).ok).toBe(true);
      await waitHumanTurn(t, gameId);
      // the host removes the bot in seat 1 (opposite seat 3 is a bot too): a replacement countdown starts
      expect((await host.http(t.url, 'POST', `/api/games/${gameId}/remove-bot-midgame`, { seatIndex: 1 })).status).toBe(
        200,
      );
      const sat = await poor.http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: 1 });
      expect(sat.status).toBe(200);
      expect(sat.body.mySeat).toBe(1);
      expect(sat.body.rated).toBe(false);
      expect((await poor.http(t.url, 'GET', '/api/auth/profile')).body.coins).toBe(500_000);
      await poor.emit('join_game', { gameId });
      for (const c of [host, poor]) await c.emit('leave_game', { gameId });
    });

    it('a newcomer takes a vacated seat of a rated game over the socket without coins and plays for none', async () => {
      const ps = [await client(), await client(), await client(), await client()];
      const poor = await client();
      await moveCoins(t, { userId: poor.id }, 'house', 4_950_000);
      const gameId = (await ps[0].http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
      for (let i = 1; i < 4; i++)
        expect((await ps[i].http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: i })).status).toBe(200);
      for (const p of ps) await p.emit('join_game', { gameId });
      expect((await ps[0].emit('start_game', { gameId })).ok).toBe(true);
      await waitHumanTurn(t, gameId);
      expect((await ps[3].emit('leave_game', { gameId })).ok).toBe(true);
      expect(await poor.emit('join_game', { gameId })).toMatchObject({ ok: true, seat: 3 });
      const stored = await storedTable(t, gameId);
      expect(stored.snapshot.rated).toBe(true);
      expect(stored.snapshot.participants.map((p: any) => p.userId)).toEqual(ps.map((p) => p.id));
      expect((await poor.http(t.url, 'GET', '/api/auth/profile')).body.coins).toBe(50_000);
      for (const p of [...ps, poor]) await p.emit('leave_game', { gameId });
    });
  });
});
