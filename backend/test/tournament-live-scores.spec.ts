/* eslint-disable @typescript-eslint/no-explicit-any -- raw socket payloads */
/**
 * Issue #27: the tournament page's live scores. After every hand at a tournament's table, the sockets watching the
 * tournament (`watch_tournament`) get `tournament_scores` with that table's score by seat (entrant i sits at seat i,
 * a PARTNERS team's score is its seat's); a socket that does not watch gets none. The last score of each table is the
 * match's result. Real server, PostgreSQL and socket.io clients that play (gamesSuite).
 */
import type { TournamentTableScores, TournamentView } from '@spades/common';
import { Client, gamesSuite } from './games/helpers';
import { TestApp } from './support/test-app';

let t: TestApp;
const suite = gamesSuite((app) => (t = app));

const RULES = {
  biddingOption: 'REG',
  gamePlayOption: 'REG',
  minPoints: -100,
  maxPoints: 100,
  specialRules: { allowNil: true, allowBlindNil: false, screamer: false, assassin: false },
};

async function waitUntil(pred: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    if (await pred()) return;
    if (Date.now() - t0 > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('tournament live scores (issue #27)', () => {
  it('every hand at a PARTNERS table sends its score to the watchers only; the last one is the result', async () => {
    const players: Client[] = [];
    for (let i = 0; i < 8; i++) players.push(await suite.client());
    const watcher = await suite.client();
    const bystander = await suite.client();
    const created = await players[0].http(t.url, 'POST', '/api/tournaments', {
      name: 'Live cup',
      mode: 'PARTNERS',
      size: 8,
      buyIn: 0,
      rules: RULES,
    });
    expect(created.status).toBe(201);
    const id: string = created.body.id;
    expect(await watcher.emit('watch_tournament', { tournamentId: id })).toMatchObject({ ok: true });
    for (const p of players)
      (p.socket as any).on('tournament_match_ready', (m: any) => {
        (p as any).acted.clear(); // a new table: the helper's "already acted" keys start over
        p.auto = true;
        void p.emit('join_game', { gameId: m.gameId });
      });
    for (const p of players)
      expect((await p.http(t.url, 'POST', `/api/tournaments/${id}/register`, {})).status).toBe(200);

    await waitUntil(
      async () => (await watcher.http(t.url, 'GET', `/api/tournaments/${id}`)).body.status === 'FINISHED',
      180_000,
    );
    const done: TournamentView = (await watcher.http(t.url, 'GET', `/api/tournaments/${id}`)).body;
    const matches = done.rounds.flatMap((r) => r.matches);
    expect(matches).toHaveLength(3);
    // the last hand's event may still be on its way when the result is stored
    await watcher.waitFor(
      () =>
        matches.every((m) => {
          const mine = watcher.events('tournament_scores').filter((s: TournamentTableScores) => s.matchId === m.id);
          const last = mine[mine.length - 1];
          return last && m.entrantIds.every((e, i) => last.scoresBySeat[i] === m.scores![e]);
        }),
      10_000,
      'the last live score of every table',
    );
    const got: TournamentTableScores[] = watcher.events('tournament_scores');
    for (const m of matches) {
      expect(m).toMatchObject({ status: 'DONE', walkover: false });
      const mine = got.filter((s) => s.matchId === m.id);
      expect(mine.length).toBeGreaterThan(0);
      // one event per hand, in order, all of the match's table; partners share their team's score
      expect(mine.map((s) => s.handNumber)).toEqual(mine.map((_, i) => i + 1));
      for (const s of mine) {
        expect(s).toMatchObject({ tournamentId: id, gameId: m.gameId });
        expect(s.scoresBySeat).toHaveLength(4);
        expect(s.scoresBySeat[2]).toBe(s.scoresBySeat[0]);
        expect(s.scoresBySeat[3]).toBe(s.scoresBySeat[1]);
      }
      const last = mine[mine.length - 1];
      expect(Object.fromEntries(m.entrantIds.map((e, i) => [e, last.scoresBySeat[i]]))).toEqual(m.scores);
    }
    // not watching: nothing (the players too: they never asked to watch)
    expect(bystander.events('tournament_scores')).toEqual([]);
    for (const p of players) expect(p.events('tournament_scores')).toEqual([]);
  }, 240_000);
});
