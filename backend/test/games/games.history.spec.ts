/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw wire payloads */
/**
 * Issue #12: game history and replays with a real server, database and socket.io clients. A finished game's
 * replay applied action by action through common's `apply` ends at the stored final state; a game in progress
 * has no replay (403) and nothing of it leaks; the history lists the game with its players and result.
 */
import { apply, createGame, GameState, REPLAY_SCHEMA, seedCommitment, verifyDeal } from '@spades/common';
import type { TestApp } from '../support/test-app';
import { gamesSuite, privateCards, SETTINGS, storedTable } from './helpers';

describe('game history and replays (integration)', () => {
  let t: TestApp;
  // a long result dialog: the finished game stays on the table (its snapshot is the final state)
  const { client } = gamesSuite((app) => (t = app), { RESULT_MS: '600000' });

  it('a finished game replays through apply to the stored final state; refused while in progress; listed in the history', async () => {
    const host = await client();
    const other = await client();
    const gameId = (await host.http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    for (const s of [1, 2, 3])
      expect((await host.http(t.url, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex: s })).status).toBe(200);
    expect((await host.emit('join_game', { gameId })).ok).toBe(true);

    // before the start (WAITING): no replay
    const waiting = await other.http(t.url, 'GET', `/api/games/${gameId}/replay`);
    expect(waiting.status).toBe(404);

    expect((await host.emit('start_game', { gameId })).ok).toBe(true);
    await host.waitFor(() => host.view?.status === 'BIDDING' || host.view?.status === 'PLAYING', 10000, 'game running');
    // in progress: refused, and the refusal carries no card
    for (const path of [
      `/api/games/${gameId}/replay`,
      `/api/games/${gameId}/replay?game=1`,
      `/api/games/${gameId}/replay?download=1`,
    ]) {
      const r = await other.http(t.url, 'GET', path);
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ message: expect.stringMatching(/in progress/) });
      expect(privateCards(r.body)).toEqual([]);
    }
    expect((await other.http(t.url, 'GET', `/api/games/00000000-0000-4000-8000-000000000000/replay`)).status).toBe(404);
    expect((await other.http(t.url, 'GET', `/api/games/not-a-uuid/replay`)).status).toBe(404);

    host.auto = true;
    host.maybeAct();
    await host.waitFor(() => host.events('game_over').length > 0, 90000, 'game_over');
    const stored = (await storedTable(t, gameId)).snapshot;
    expect(stored.status).toBe('COMPLETED');

    const res = await other.http(t.url, 'GET', `/api/games/${gameId}/replay`);
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc).toMatchObject({
      schema: REPLAY_SCHEMA,
      version: 1,
      gameId,
      gameNumber: 1,
      rated: false,
      private: false,
    });
    expect(doc.players.map((p: any) => p.kind)).toEqual(['human', 'bot', 'bot', 'bot']);
    expect(doc.players[0]).toMatchObject({ seat: 0, userId: host.id, username: host.user.user.username });

    // step by step through common's apply, from createGame(settings): every action legal, the end is the stored state
    let state: GameState = createGame(doc.settings);
    let plays = 0;
    for (const [i, a] of doc.actions.entries()) {
      const r = apply(state, a.action);
      if (!r.ok) throw new Error(`action ${i} refused: ${r.error}`);
      state = r.state;
      if (a.action.type === 'play') plays++;
    }
    expect(state).toEqual(stored.engine);
    expect(doc.result).toEqual(stored.engine.result);
    expect(plays).toBe(52 * stored.engine.history.length);

    // every hand: seed + commitment as stored in game_hands, the deal recomputes, the tricks are complete
    const rows = await t.dataSource.query(
      `SELECT hand_number, seed, commitment FROM game_hands WHERE game_id = $1 ORDER BY hand_number`,
      [gameId],
    );
    expect(doc.hands).toHaveLength(rows.length);
    doc.hands.forEach((h: any, i: number) => {
      expect(h.seed).toBe(rows[i].seed.trim());
      expect(h.commitment).toBe(rows[i].commitment.trim());
      expect(seedCommitment(h.seed)).toBe(h.commitment);
      expect(verifyDeal(h).ok).toBe(true);
      expect(h.tricks).toHaveLength(13);
      expect(h.bids).toHaveLength(4);
      expect(h.score).toEqual(stored.engine.history[i]);
      // the host's own cards as received during the game are the replay's cards of seat 0
      const own = host.ownHands.get(h.handNumber);
      if (own) expect(h.cards[0]).toEqual(own);
    });

    // the downloadable document
    const dl = await other.http(t.url, 'GET', `/api/games/${gameId}/replay?download=1`);
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-disposition')).toMatch(/attachment; filename="spades-replay-.*\.json"/);
    expect(dl.body).toEqual(doc);
    expect((await other.http(t.url, 'GET', `/api/games/${gameId}/replay?game=2`)).status).toBe(404);
    expect((await other.http(t.url, 'GET', `/api/games/${gameId}/replay?game=x`)).status).toBe(400);

    // the history of the host
    const hist = await other.http(t.url, 'GET', `/api/users/${host.id}/games`);
    expect(hist.status).toBe(200);
    expect(hist.body).toMatchObject({ page: 1, total: 1 });
    const item = hist.body.items[0];
    const won = stored.engine.result.winnerTeam === 0;
    expect(item).toMatchObject({
      gameId,
      gameNumber: 1,
      mode: 'PARTNERS',
      variant: 'REG',
      rated: false,
      seat: 0,
      result: won ? 'won' : 'lost',
      place: stored.engine.result.places[0],
      score: stored.engine.result.finalScores[0],
      coins: 0,
      ratingChange: null,
    });
    expect(item.partners.map((p: any) => p.seat)).toEqual([2]);
    expect(item.opponents.map((p: any) => p.seat)).toEqual([1, 3]);
    // another player has no games; paging and bad input
    expect((await other.http(t.url, 'GET', `/api/users/${other.id}/games`)).body).toMatchObject({
      items: [],
      total: 0,
    });
    expect((await other.http(t.url, 'GET', `/api/users/${host.id}/games?page=2&pageSize=1`)).body).toMatchObject({
      items: [],
      page: 2,
      pageSize: 1,
      total: 1,
    });
    expect((await other.http(t.url, 'GET', `/api/users/${host.id}/games?pageSize=1000`)).status).toBe(400);
    expect((await other.http(t.url, 'GET', `/api/users/00000000-0000-4000-8000-000000000000/games`)).status).toBe(404);
    expect((await other.http(t.url, 'GET', `/api/users/${host.id}/games`, undefined)).status).toBe(200);
    const anon = await fetch(`${t.url}/api/users/${host.id}/games`);
    expect(anon.status).toBe(401);
    await host.emit('leave_game', { gameId });
  });
});
