/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw HTTP payloads */
/**
 * Ratings (issue #11) with a real server, a real database and real socket.io clients: a rated game updates the
 * ratings, the history and the completion rate exactly once; leavers lose (their partner does not) and are banned
 * after repeated abandonment (RATING_BAN_ABANDONMENTS=2 here); banned players keep unrated tables; the admin
 * collusion report answers admins only.
 */
import { RATING_MU0, RatingsResponse } from '@spades/common';
import { setRole } from '../../src/admin/admin.roles';
import { RatingsService } from '../../src/ratings/ratings.service';
import { api, TestApp } from '../support/test-app';
import { Client, gamesSuite, SETTINGS } from '../games/helpers';

describe('ratings (integration)', () => {
  let t: TestApp;
  const { client } = gamesSuite((app) => (t = app), { RATING_BAN_ABANDONMENTS: '2', RATING_BAN_BASE_MINUTES: '15' });

  async function seatFour(ps: Client[], settings: object = SETTINGS): Promise<string> {
    const created = await ps[0].http(t.url, 'POST', '/api/games', settings);
    expect(created.status).toBe(201);
    const gameId = created.body.id;
    for (let i = 1; i < 4; i++)
      expect((await ps[i].http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: i })).status).toBe(200);
    for (const p of ps) expect((await p.emit('join_game', { gameId })).ok).toBe(true);
    return gameId;
  }

  /** Four humans play a rated game to the end; `leavers` (seats) leave right after the start. */
  async function playRated(ps: Client[], settings: object = SETTINGS, leavers: number[] = []): Promise<string> {
    const gameId = await seatFour(ps, settings);
    // the helper client remembers situations it acted in by game number, not table: forget the previous table's
    for (const p of ps) (p as any).acted.clear();
    for (const [i, p] of ps.entries()) p.auto = !leavers.includes(i);
    expect((await ps[0].emit('start_game', { gameId })).ok).toBe(true);
    for (const s of leavers)
      expect((await ps[s].http(t.url, 'POST', `/api/games/${gameId}/leave`, {})).status).toBe(200);
    const stayer = ps.find((_, i) => !leavers.includes(i)) as Client;
    await stayer.waitFor(() => stayer.events('game_over').some((e: any) => e.gameId === gameId), 90000, 'game_over');
    await stayer.waitFor(() => stayer.view?.id === gameId && stayer.view?.payouts != null, 10000, 'settlement');
    for (const p of ps) p.auto = false;
    // nobody plays again: the table closes after RESULT_MS (the clients follow one table at a time)
    await stayer.waitFor(
      () => stayer.events('game_closed').some((e: any) => e.gameId === gameId),
      10000,
      'game_closed',
    );
    return gameId;
  }

  const cards = async (c: Client, ids: string[]): Promise<RatingsResponse['ratings']> =>
    (await c.http(t.url, 'GET', `/api/ratings?ids=${ids.join(',')}`)).body.ratings;

  it('a rated PARTNERS game: ratings, history and completion rate, exactly once', async () => {
    const ps = [await client(), await client(), await client(), await client()];
    const before = await cards(
      ps[0],
      ps.map((p) => p.id),
    );
    expect(before.every((r) => r.rating === RATING_MU0 && r.provisional && r.completionRate === null)).toBe(true);

    const gameId = await playRated(ps);
    const winnerTeam = ps[0].events('game_over').find((e: any) => e.gameId === gameId).winningTeam === 'team1' ? 0 : 1;
    const after = new Map(
      (
        await cards(
          ps[0],
          ps.map((p) => p.id),
        )
      ).map((r) => [r.userId, r]),
    );
    for (const [seat, p] of ps.entries()) {
      const r = after.get(p.id)!;
      // four new players: ±118 (hand-computed in common/src/rating/rating.spec.ts, with tau)
      expect(r.rating).toBe(seat % 2 === winnerTeam ? 1618 : 1382);
      expect(r.provisional).toBe(true);
      expect([r.ratedGames, r.gamesStarted, r.gamesFinished, r.completionRate]).toEqual([1, 1, 1, 100]);
    }
    const changes = (await ps[1].http(t.url, 'GET', `/api/ratings/games/${gameId}/1`)).body;
    expect(changes.changes.map((c: any) => [c.userId, c.delta])).toEqual(
      ps.map((p, s) => [p.id, s % 2 === winnerTeam ? 118 : -118]),
    );
    // issue #31: "Rating 1500? → 1382? (−118)": new players are provisional before and after their first game
    expect(changes.changes.map((c: any) => [c.ratingBefore, c.provisionalBefore, c.provisionalAfter])).toEqual(
      ps.map(() => [1500, true, true]),
    );
    const hist = (await ps[2].http(t.url, 'GET', `/api/ratings/${ps[0].id}/history`)).body;
    expect(hist.history).toHaveLength(1);
    expect(hist.history[0]).toMatchObject({
      gameId,
      gameNumber: 1,
      mode: 'PARTNERS',
      delta: winnerTeam === 0 ? 118 : -118,
      left: false,
    });
    // who played with whom: one roster row per player with seat and team
    const roster = await t.dataSource.query(
      `SELECT user_id, seat, team FROM rating_history WHERE game_key = $1 ORDER BY seat`,
      [`${gameId}:1`],
    );
    expect(roster.map((r: any) => [r.user_id, r.seat, r.team])).toEqual(ps.map((p, s) => [p.id, s, s % 2]));

    // exactly once: recording the same game again (a second settlement attempt) changes nothing
    const svc = t.app.get(RatingsService);
    const again = await t.dataSource.transaction((m) =>
      svc.recordGame(m, {
        tableId: gameId,
        gameNumber: 1,
        mode: 'PARTNERS',
        buyIn: 100000,
        participants: ps.map((p, seat) => ({ seat, userId: p.id })),
        places: [1, 2, 1, 2],
        leavers: [],
        payouts: [0, 0, 0, 0],
        at: Date.now(),
      }),
    );
    expect(again).toBe(false);
    const rows = await t.dataSource.query(
      `SELECT rated_games, games_started FROM user_ratings WHERE user_id = ANY($1)`,
      [ps.map((p) => p.id)],
    );
    expect(rows.every((r: any) => r.rated_games === 1 && r.games_started === 1)).toBe(true);
    expect(await t.dataSource.query(`SELECT * FROM rating_history WHERE game_key = $1`, [`${gameId}:1`])).toHaveLength(
      4,
    );

    // provisional players are not on the rating leaderboard; the entries carry rating + provisional
    const lb = (await ps[0].http(t.url, 'GET', '/api/leaderboard?by=rating')).body;
    expect(lb.entries.some((e: any) => ps.some((p) => p.id === e.userId))).toBe(false);
    expect(lb.me).toBeNull();
    const coins = (await ps[0].http(t.url, 'GET', '/api/leaderboard?by=coins')).body;
    expect(coins.me).toMatchObject({ userId: ps[0].id, provisional: true, rating: winnerTeam === 0 ? 1618 : 1382 });
  }, 120000);

  it('a settled rating is on the leaderboard (provisional excluded), best first', async () => {
    const ps = [await client(), await client()];
    await t.dataSource.query(
      `INSERT INTO user_ratings (user_id, mu, sigma, rated_at) VALUES ($1, 2400, 150, now()), ($2, 2300, 150, now() - interval '400 days')`,
      [ps[0].id, ps[1].id],
    );
    const lb = (await ps[0].http(t.url, 'GET', '/api/leaderboard?by=rating')).body;
    expect(lb.by).toBe('rating');
    expect(lb.entries[0]).toMatchObject({ userId: ps[0].id, rating: 2400, provisional: false, rank: 1 });
    // idle for 400 days: provisional again, off the board
    expect(lb.entries.some((e: any) => e.userId === ps[1].id)).toBe(false);
    expect((await ps[0].http(t.url, 'GET', '/api/leaderboard?by=elo')).status).toBe(400);
  });

  it('leavers lose, their partner does not; abandonment lowers the completion rate and repeated abandonment bans from rated tables', async () => {
    const ps = [await client(), await client(), await client(), await client()];
    const leaver = ps[0];
    const gameId = await playRated(ps, SETTINGS, [0]);
    const ch = (await ps[1].http(t.url, 'GET', `/api/ratings/games/${gameId}/1`)).body.changes;
    const by = new Map(ch.map((c: any) => [c.userId, c]));
    expect((by.get(leaver.id) as any).delta).toBeLessThan(0);
    expect((by.get(leaver.id) as any).left).toBe(true);
    expect((by.get(ps[2].id) as any).delta).toBeGreaterThanOrEqual(0); // the partner
    const [card] = await cards(ps[1], [leaver.id]);
    expect([card.gamesStarted, card.gamesFinished, card.completionRate, card.bannedUntil]).toEqual([1, 0, 0, null]);

    // second abandonment inside 24 h (RATING_BAN_ABANDONMENTS=2): banned for 15 minutes
    const others = [await client(), await client(), await client()];
    await playRated([leaver, ...others], SETTINGS, [0]);
    const me = (await leaver.http(t.url, 'GET', '/api/ratings/me')).body;
    expect(me.completionRate).toBe(0);
    const until = Date.parse(me.bannedUntil);
    expect(until - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(until - Date.now()).toBeLessThanOrEqual(15 * 60_000);

    // a WAITING table with three humans would become rated with them: refused, with the end time
    const host = [await client(), await client(), await client()];
    const created = await host[0].http(t.url, 'POST', '/api/games', SETTINGS);
    const full = created.body.id;
    for (let i = 1; i < 3; i++)
      expect((await host[i].http(t.url, 'POST', `/api/games/${full}/join`, { seat: i })).status).toBe(200);
    const refused = await leaver.http(t.url, 'POST', `/api/games/${full}/join`, { seat: 3 });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/^You are banned from rated tables until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    const socketRefused = await leaver.emit('join_game', { gameId: full, seat: 3 });
    expect(socketRefused.ok).toBe(false);
    expect(socketRefused.message).toMatch(/banned from rated tables/);

    for (const p of host) expect((await p.http(t.url, 'POST', `/api/games/${full}/leave`, {})).status).toBe(200);

    // unrated tables stay open: their own table, and a table with a bot seat (it cannot be four humans)
    const own = await leaver.http(t.url, 'POST', '/api/games', SETTINGS);
    expect(own.status).toBe(201);
    expect((await leaver.http(t.url, 'POST', `/api/games/${own.body.id}/leave`, {})).status).toBe(200);
    const withBot = await host[0].http(t.url, 'POST', '/api/games', SETTINGS);
    const botTable = withBot.body.id;
    expect((await host[0].http(t.url, 'POST', `/api/games/${botTable}/invite-bot`, { seatIndex: 1 })).status).toBe(200);
    expect((await host[1].http(t.url, 'POST', `/api/games/${botTable}/join`, { seat: 2 })).status).toBe(200);
    expect((await leaver.http(t.url, 'POST', `/api/games/${botTable}/join`, { seat: 3 })).status).toBe(200);
    for (const p of [leaver, host[1], host[0]])
      expect((await p.http(t.url, 'POST', `/api/games/${botTable}/leave`, {})).status).toBe(200);

    // a start with four humans is refused while one of them is banned (banned after sitting down)
    const q = [await client(), await client(), await client(), await client()];
    const g = await seatFour(q);
    await t.dataSource.query(
      `INSERT INTO rating_bans (user_id, game_key, level, abandonments, issued_at, banned_until) VALUES ($1, 'x:1', 1, 3, now(), now() + interval '1 hour')`,
      [q[3].id],
    );
    const start = await q[0].emit('start_game', { gameId: g });
    expect(start.ok).toBe(false);
    expect(start.message).toContain(`${q[3].user.user.username} is banned from rated tables until`);
    expect((await q[0].http(t.url, 'GET', `/api/games/${g}`)).body.status).toBe('WAITING');
    for (const p of q) await p.http(t.url, 'POST', `/api/games/${g}/leave`, {});
  }, 240000);

  it('bans escalate (15 → 30 min) and are forgiven after a week; an abandoned game rates nobody; SOLO leavers rank last', async () => {
    const [p, a, b, c] = [await client(), await client(), await client(), await client()];
    const svc = t.app.get(RatingsService);
    const H = 3_600_000;
    const t0 = Date.UTC(2030, 0, 1);
    let n = 0;
    const game = (at: number, places: number[] | null, leavers: string[], mode: 'PARTNERS' | 'SOLO' = 'PARTNERS') =>
      t.dataSource.transaction((m) =>
        svc.recordGame(m, {
          tableId: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
          gameNumber: 1,
          mode,
          buyIn: 1000,
          participants: [p, a, b, c].map((u, seat) => ({ seat, userId: u.id })),
          places,
          leavers,
          payouts: [0, 0, 0, 0],
          at,
        }),
      );
    const bans = async (): Promise<{ level: number; minutes: number; at: number }[]> =>
      (
        await t.dataSource.query(
          `SELECT level, issued_at, banned_until FROM rating_bans WHERE user_id = $1 ORDER BY issued_at`,
          [p.id],
        )
      ).map((r: any) => ({
        level: r.level,
        minutes: (new Date(r.banned_until).getTime() - new Date(r.issued_at).getTime()) / 60_000,
        at: new Date(r.issued_at).getTime(),
      }));
    // every human abandoned: nobody's rating moves, every participant's abandonment counts (threshold 2 in this suite)
    expect(await game(t0, null, [p.id, a.id, b.id, c.id])).toBe(true);
    const [row] = await t.dataSource.query(
      `SELECT mu, rated_games, games_started, games_finished FROM user_ratings WHERE user_id = $1`,
      [p.id],
    );
    expect([row.mu, row.rated_games, row.games_started, row.games_finished]).toEqual([RATING_MU0, 0, 1, 0]);
    expect(await bans()).toEqual([]);
    await game(t0 + 1 * H, [1, 2, 1, 2], [p.id]);
    expect(await bans()).toEqual([{ level: 1, minutes: 15, at: t0 + H }]);
    // the next ban needs two more abandonments after this one, and lasts twice as long
    await game(t0 + 2 * H, [1, 2, 1, 2], [p.id]);
    expect(await bans()).toHaveLength(1);
    await game(t0 + 3 * H, [1, 2, 1, 2], [p.id]);
    expect((await bans()).map((x) => x.minutes)).toEqual([15, 30]);
    // a week later it is forgiven: back at 15 minutes
    await game(t0 + 10 * 24 * H, [1, 2, 1, 2], [p.id]);
    await game(t0 + 10 * 24 * H + H, [1, 2, 1, 2], [p.id]);
    expect((await bans()).map((x) => x.minutes)).toEqual([15, 30, 15]);
    // finishing games counts too: completion rate = finished / started
    await game(t0 + 11 * 24 * H, [1, 2, 1, 2], []);
    const [me] = await cards(p, [p.id]);
    expect([me.gamesStarted, me.gamesFinished, me.completionRate]).toEqual([7, 1, 14.3]);
    // SOLO: a leader who left is ranked last
    const before = (await cards(p, [p.id, a.id]))!;
    await game(t0 + 12 * 24 * H, [1, 2, 3, 4], [p.id], 'SOLO');
    const after = await cards(p, [p.id, a.id]);
    const get = (xs: typeof before, id: string) => xs.find((x) => x.userId === id)!.rating;
    expect(get(after, p.id)).toBeLessThan(get(before, p.id));
    expect(get(after, a.id)).toBeGreaterThan(get(before, a.id));
  });

  it('admin collusion report: admins only (the stored role of the account), pairs with the coins between them', async () => {
    const ps = [await client(), await client(), await client(), await client()];
    for (let i = 0; i < 2; i++) await playRated(ps);
    const admin = ps[0];
    expect((await api(t.url, 'GET', '/api/admin/collusion')).status).toBe(401);
    expect((await admin.http(t.url, 'GET', '/api/admin/collusion')).status).toBe(403);
    await setRole(t.dataSource, admin.id, 'admin'); // what `npm run admin -- grant` does
    // the stored role decides: the token signed before the grant works at once
    const token = admin.user.token;
    const report = await api(t.url, 'GET', '/api/admin/collusion?minGames=2&minShare=50&days=1', { token });
    expect(report.status).toBe(200);
    const pair = report.body.pairs.find(
      (p: any) => [p.userA.id, p.userB.id].sort().join() === [ps[0].id, ps[1].id].sort().join(),
    );
    expect(pair).toMatchObject({ gamesTogether: 2, gamesAsPartners: 0, gamesAsOpponents: 2, sharePercent: 100 });
    expect(typeof pair.coinFlowToA).toBe('number');
    const partners = report.body.pairs.find(
      (p: any) => [p.userA.id, p.userB.id].sort().join() === [ps[0].id, ps[2].id].sort().join(),
    );
    expect(partners).toMatchObject({ gamesAsPartners: 2, coinFlowToA: 0 });
    expect((await api(t.url, 'GET', '/api/admin/collusion?minGames=zero', { token })).status).toBe(400);
    // revoked: a token signed while admin (with the role claim) is refused at once
    const login = await api(t.url, 'POST', '/api/auth/login', {
      body: { email: admin.user.email, password: admin.user.password },
    });
    expect((await api(t.url, 'GET', '/api/admin/collusion', { token: login.body.token })).status).toBe(200);
    await setRole(t.dataSource, admin.id, 'user');
    expect((await api(t.url, 'GET', '/api/admin/collusion', { token: login.body.token })).status).toBe(403);
    expect((await api(t.url, 'GET', '/api/admin/collusion', { token })).status).toBe(403);
  }, 240000);
});
