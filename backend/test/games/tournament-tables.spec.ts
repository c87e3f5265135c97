/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw wire payloads */
/**
 * Issue #27: a tournament match's table with a real server, database and socket.io clients. Seats are reserved
 * (anyone else: 403), null seats hold bots from the opening, the game starts by itself once every reserved player
 * sits, four humans are rated with a buy-in of 0 (no coin moves), a leaver is replaced by a bot, the outcome is read
 * from `game_records`, opening is idempotent, and an unstarted table can be started with bots or closed.
 */
import { randomUUID } from 'node:crypto';
import { GamesService } from '../../src/games/games.service';
import { TOURNAMENT_TABLE_ERRORS } from '../../src/games/tournament-tables';
import type { TestApp } from '../support/test-app';
import { Client, gamesSuite, SETTINGS, storedTable } from './helpers';

describe('tournament tables (integration)', () => {
  let t: TestApp;
  // the result dialog stays 3 s (not the suites' 400 ms): Play Again must be refused as such, not as a closed table
  const { client } = gamesSuite((app) => (t = app), { RESULT_MS: '3000' });
  const games = () => t.app.get(GamesService);
  const q = (sql: string, params?: unknown[]) => t.dataSource.query(sql, params);
  const finished: { tournamentId: string; matchId: string; gameId: string }[] = [];

  beforeAll(() => games().setTournamentResults({ gameFinished: (e) => void finished.push(e) }));
  afterAll(() => games().setTournamentResults(undefined));

  const participant = (c: Client) => ({ userId: c.id, username: c.user.user.username, avatar: null });

  async function open(players: (Client | null)[], mode: 'PARTNERS' | 'SOLO' = 'PARTNERS') {
    const gameId = randomUUID();
    const link = { tournamentId: randomUUID(), matchId: 'r1m0' };
    const state = await games().openTournamentTable({
      gameId,
      link,
      settings: { ...(SETTINGS as any), gameMode: mode, buyIn: 0 },
      seats: players.map((c) => (c ? participant(c) : null)),
      name: 'Friday Cup',
    });
    expect(state).toEqual({ gameId, status: 'WAITING', seatedUserIds: [], started: false });
    return { gameId, link };
  }

  /** The players' balances and the escrow of the table (none should ever exist). */
  async function balances(gameId: string, users: Client[]): Promise<unknown[]> {
    return q(`SELECT key, balance::text AS balance FROM coin_accounts WHERE key = ANY($1) ORDER BY key`, [
      [...users.map((u) => `user:${u.id}`), `escrow:${gameId}`],
    ]);
  }

  it('opens once per game id: public, listed with its tournament link, bots in the null seats, restart-exact record', async () => {
    const [a, b, outsider] = [await client(), await client(), await client()];
    const { gameId, link } = await open([a, null, b, null]);
    // a second open (a retry, a restarted driver) answers the same table
    const again = await games().openTournamentTable({
      gameId,
      link,
      settings: { ...(SETTINGS as any), buyIn: 0 },
      seats: [participant(a), null, participant(b), null],
      name: 'Friday Cup',
    });
    expect(again).toEqual({ gameId, status: 'WAITING', seatedUserIds: [], started: false });
    expect(await q(`SELECT count(*)::int AS n FROM games WHERE id = $1`, [gameId])).toEqual([{ n: 1 }]);

    const list = await outsider.http(t.url, 'GET', '/api/games');
    const item = list.body.find((g: any) => g.id === gameId);
    expect(item).toMatchObject({
      private: false,
      buyIn: 0,
      tournament: { ...link, name: 'Friday Cup', reserved: [a.id, null, b.id, null] },
    });
    expect(item.players.map((p: any) => p?.type ?? null)).toEqual([null, 'bot', null, 'bot']);
    // spectators welcome
    const view = await outsider.http(t.url, 'GET', `/api/games/${gameId}`);
    expect(view.status).toBe(200);
    expect(view.body.tournament).toMatchObject(link);

    // the stored record (snapshot + events, as a restart rebuilds it) carries the link and the reservations
    const stored = (await storedTable(t, gameId)).snapshot;
    expect(stored.tournament).toEqual({ ...link, name: 'Friday Cup', reserved: [a.id, null, b.id, null] });
    expect(stored.settings.buyIn).toBe(0);
    await games().closeTournamentTable(gameId);
  });

  it('reserved seats: others are refused (403), each player sits in their own seat, the game starts by itself', async () => {
    const [a, b, outsider] = [await client(), await client(), await client()];
    const { gameId } = await open([a, null, b, null]);

    // anybody else: a clear 403 on every way to a seat; a socket join_game without a seat watches
    for (const body of [{}, { seat: 0 }, { seat: 1 }]) {
      const r = await outsider.http(t.url, 'POST', `/api/games/${gameId}/join`, body);
      expect(r.status).toBe(403);
      expect(r.body.message).toBe(TOURNAMENT_TABLE_ERRORS.NOT_A_PLAYER);
    }
    expect(await outsider.emit('join_game', { gameId, seat: 0 })).toMatchObject({
      ok: false,
      message: TOURNAMENT_TABLE_ERRORS.NOT_A_PLAYER,
    });
    expect(await outsider.emit('join_game', { gameId })).toMatchObject({ ok: true, seat: null });
    // a player of the match: not another's seat
    const wrong = await a.http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: 2 });
    expect(wrong.status).toBe(403);
    expect(wrong.body.message).toBe(TOURNAMENT_TABLE_ERRORS.NOT_YOUR_SEAT);

    // a sits by socket without a seat: their reserved seat 0; the host cannot touch the seats or start
    expect(await a.emit('join_game', { gameId })).toMatchObject({ ok: true, seat: 0 });
    for (const [path, body] of [
      ['invite-bot', { seatIndex: 2 }],
      ['remove-bot', { seatIndex: 1 }],
      ['remove-player', { userId: outsider.id }],
      ['start', {}],
    ] as const) {
      const r = await a.http(t.url, 'POST', `/api/games/${gameId}/${path}`, body);
      expect(r.status).toBe(403);
    }
    expect(await games().tournamentTableState(gameId)).toEqual({
      status: 'WAITING',
      seatedUserIds: [a.id],
      started: false,
    });

    // b (watching first) joins by HTTP without a seat: seat 2, every reserved seat is taken → the game starts
    expect((await b.emit('join_game_as_spectator', { gameId })).ok).toBe(true);
    const sat = await b.http(t.url, 'POST', `/api/games/${gameId}/join`, {});
    expect(sat.status).toBe(200);
    expect(sat.body.mySeat).toBe(2);
    const state = await games().tournamentTableState(gameId);
    expect(state?.started).toBe(true);
    expect(state?.seatedUserIds.sort()).toEqual([a.id, b.id].sort());
    const stored = (await storedTable(t, gameId)).snapshot;
    expect(stored.rated).toBe(false); // two humans and two bots
    expect(stored.engine.handNumber).toBe(1);

    // mid-game: a leaves; the open seat is a's alone, and a's socket join_game takes it back
    expect((await a.emit('leave_game', { gameId })).ok).toBe(true);
    const taken = await outsider.http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: 0 });
    expect(taken.status).toBe(403);
    expect(await a.emit('join_game', { gameId })).toMatchObject({ ok: true, seat: 0 });

    // every human gone: the bots play the game to the end (a tournament match needs its result)
    for (const c of [a, b, outsider]) await c.emit('leave_game', { gameId });
    const t0 = Date.now();
    let outcome = await games().tournamentOutcome(gameId);
    while (!outcome && Date.now() - t0 < 60000) {
      await new Promise((r) => setTimeout(r, 50));
      outcome = await games().tournamentOutcome(gameId);
    }
    expect(outcome).not.toBeNull();
    expect(outcome!.placesBySeat.slice().sort()).toEqual([1, 1, 2, 2]);
    expect(outcome!.scoresBySeat[0]).toBe(outcome!.scoresBySeat[2]);
  });

  it('four humans: rated, no coin moves; a leaver is replaced by a bot; outcome from game_records; no Play Again', async () => {
    const ps = [await client(), await client(), await client(), await client()];
    const { gameId, link } = await open(ps);
    const before = await balances(gameId, ps);
    const entriesBefore = await q(`SELECT count(*)::int AS n FROM coin_entries`);
    const ratedBefore = await q(`SELECT count(*)::int AS n FROM rated_games WHERE table_id = $1`, [gameId]);
    expect(ratedBefore).toEqual([{ n: 0 }]);
    for (const [i, c] of ps.entries()) {
      c.auto = true;
      expect(await c.emit('join_game', { gameId })).toMatchObject({ ok: true, seat: i });
    }
    for (const c of ps) c.maybeAct();
    await ps[0].waitFor(() => ps[0].view?.status === 'BIDDING' || ps[0].view?.status === 'PLAYING', 10000, 'start');
    expect((await storedTable(t, gameId)).snapshot.rated).toBe(true);

    // seat 3 leaves mid-game: the bot logic plays it, the others play on
    expect((await ps[3].emit('leave_game', { gameId })).ok).toBe(true);
    for (const c of ps.slice(0, 3)) await c.waitFor(() => c.events('game_over').length > 0, 90000, 'game_over');
    await ps[0].waitFor(() => ps[0].view?.payouts !== null && ps[0].view?.payouts !== undefined, 10000, 'settled');
    expect(ps[0].view.payouts).toEqual([0, 0, 0, 0]);
    expect(ps[0].events('game_over')[0].rated).toBe(true);

    // Play Again is not offered
    expect(await ps[0].emit('play_again', { gameId })).toMatchObject({
      ok: false,
      message: TOURNAMENT_TABLE_ERRORS.NO_PLAY_AGAIN,
    });

    // ratings updated for the four (the leaver as a leaver), no coin moved
    expect(await q(`SELECT buy_in::int AS b FROM rated_games WHERE table_id = $1`, [gameId])).toEqual([{ b: 0 }]);
    const hist: { user_id: string; left_game: boolean }[] = await q(
      `SELECT user_id, left_game FROM rating_history WHERE game_key = $1`,
      [`${gameId}:1`],
    );
    expect(hist).toHaveLength(4);
    expect(hist.filter((h) => h.left_game).map((h) => h.user_id)).toEqual([ps[3].id]);
    expect(await q(`SELECT count(*)::int AS n FROM coin_entries`)).toEqual(entriesBefore);
    expect(await balances(gameId, ps)).toEqual(before);
    expect(before).toHaveLength(4); // no escrow account for the table

    // the outcome, durable in game_records, matches the game's result; the sink was told once
    const outcome = await games().tournamentOutcome(gameId);
    const over = ps[0].events('game_over')[0];
    expect(outcome).toEqual({
      placesBySeat: over.places,
      scoresBySeat: [0, 1, 2, 3].map((s) => (s % 2 === 0 ? over.team1TotalScore : over.team2TotalScore)),
    });
    expect(finished.filter((f) => f.gameId === gameId)).toEqual([{ ...link, gameId }]);

    // after the result dialog everybody leaves and the table closes
    await ps[0].waitFor(() => ps[0].events('game_closed').length > 0, 10000, 'game_closed');
    expect((await games().tournamentTableState(gameId))?.status).toBe('CLOSED');
    expect(await games().tournamentOutcome(gameId)).toEqual(outcome);
  });

  it('the seat deadline: bots take the empty seats and the game starts; a late player is refused', async () => {
    const [a, b, c] = [await client(), await client(), await client()];
    const { gameId } = await open([a, b, c, null], 'SOLO');
    expect(await a.emit('join_game', { gameId })).toMatchObject({ ok: true, seat: 0 });
    const started = await games().startTournamentTableWithBots(gameId);
    expect(started).toEqual({ status: expect.any(String), seatedUserIds: [a.id], started: true });
    expect(await games().startTournamentTableWithBots(gameId)).toMatchObject({ started: true });
    const stored = (await storedTable(t, gameId)).snapshot;
    expect(stored.seats.map((s: any) => s.kind)).toEqual(['human', 'bot', 'bot', 'bot']);
    expect(stored.rated).toBe(false);
    // b's seat holds a bot now: b watches instead (socket) or is told (HTTP)
    expect(await b.emit('join_game', { gameId })).toMatchObject({ ok: true, seat: null });
    expect((await c.http(t.url, 'POST', `/api/games/${gameId}/join`, {})).status).toBe(400);
    // a started table cannot be closed as a walkover
    await expect(games().closeTournamentTable(gameId)).rejects.toThrow(TOURNAMENT_TABLE_ERRORS.ALREADY_STARTED);
    for (const x of [a, b]) await x.emit('leave_game', { gameId });
  });

  it('closes an unstarted table (walkover): no coins, the seated player is told; idempotent; no start after', async () => {
    const [a, b] = [await client(), await client()];
    const { gameId } = await open([a, null, b, null]);
    expect(await a.emit('join_game', { gameId })).toMatchObject({ ok: true, seat: 0 });
    const entriesBefore = await q(`SELECT count(*)::int AS n FROM coin_entries`);
    expect(await games().closeTournamentTable(gameId)).toEqual({
      status: 'CLOSED',
      seatedUserIds: [a.id],
      started: false,
    });
    await a.waitFor(() => a.events('game_closed').length > 0, 5000, 'game_closed');
    expect(await games().closeTournamentTable(gameId)).toMatchObject({ status: 'CLOSED', started: false });
    await expect(games().startTournamentTableWithBots(gameId)).rejects.toThrow(TOURNAMENT_TABLE_ERRORS.CLOSED);
    // closed without a game: the outcome says so (no places, every score 0: the tournament's seeds decide)
    expect(await games().tournamentOutcome(gameId)).toEqual({
      placesBySeat: [],
      scoresBySeat: [0, 0, 0, 0],
      closed: true,
    });
    expect(await q(`SELECT count(*)::int AS n FROM coin_entries`)).toEqual(entriesBefore);
    expect((await b.http(t.url, 'POST', `/api/games/${gameId}/join`, {})).body).toEqual({
      message: 'This game is closed',
    });
    expect(await games().tournamentTableState(randomUUID())).toBeNull();
  });
});
