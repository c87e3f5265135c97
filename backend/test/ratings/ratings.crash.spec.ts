/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw rows */
/**
 * Ratings crash safety with a real server PROCESS (forked): killed inside the settlement transaction right after
 * the ratings were written (RATINGS_CRASH_DURING_SETTLEMENT), restarted on the same database: the boot restore
 * settles again and the ratings, history and completion counters are recorded exactly once.
 */
import { Client, forkedServerSuite, SETTINGS } from '../games/helpers';
import { startChild, withDatabase } from '../games/support/child';

describe('ratings crash safety (forked server process)', () => {
  const f = forkedServerSuite();

  it('killed after writing the ratings inside the settlement transaction: restarted, ratings are recorded exactly once', async () => {
    f.server = await startChild(f.db, { RATINGS_CRASH_DURING_SETTLEMENT: '1' });
    const ps: Client[] = [];
    for (let i = 0; i < 4; i++) ps.push(await Client.create(f.server.url));
    f.clients.push(...ps);
    const gameId = (await ps[0].http(f.server.url, 'POST', '/api/games', SETTINGS)).body.id;
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
    expect(exit?.signal).toBe('SIGKILL');
    for (const c of f.clients.splice(0)) c.close();

    // nothing of the killed transaction is visible: no rating, no history
    await withDatabase(f.db, async (q) => {
      expect(await q(`SELECT * FROM rated_games`)).toHaveLength(0);
      expect(await q(`SELECT * FROM rating_history`)).toHaveLength(0);
      expect(await q(`SELECT * FROM user_ratings WHERE rated_games > 0`)).toHaveLength(0);
    });

    f.server = await startChild(f.db);
    let changes: any[] = [];
    for (let i = 0; i < 200 && changes.length < 4; i++) {
      changes = (await ps[0].http(f.server.url, 'GET', `/api/ratings/games/${gameId}/1`)).body.changes ?? [];
      if (changes.length < 4) await new Promise((r) => setTimeout(r, 100));
    }
    expect(changes.map((c) => Math.abs(c.delta))).toEqual([118, 118, 118, 118]);
    const view = (await ps[0].http(f.server.url, 'GET', `/api/games/${gameId}`)).body;
    const winnerTeam = view.winningTeam === 'team1' ? 0 : 1;
    expect(changes.map((c) => c.delta)).toEqual([0, 1, 2, 3].map((s) => (s % 2 === winnerTeam ? 118 : -118)));
    await f.server.kill();
    f.server = null;

    await withDatabase(f.db, async (q) => {
      expect(await q(`SELECT * FROM rated_games WHERE table_id = $1`, [gameId])).toHaveLength(1);
      expect(await q(`SELECT * FROM rating_history WHERE game_key = $1`, [`${gameId}:1`])).toHaveLength(4);
      const rows = await q(
        `SELECT rated_games, games_started, games_finished FROM user_ratings WHERE user_id = ANY($1::uuid[])`,
        [ps.map((p) => p.id)],
      );
      expect(rows.map((r: any) => [r.rated_games, r.games_started, r.games_finished])).toEqual(
        [1, 1, 1, 1].map(() => [1, 1, 1]),
      );
    });
  }, 180000);
});
