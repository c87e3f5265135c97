/**
 * The table store (lean persistence, issue #10): event rows are committed before a command is answered; a
 * snapshot at a hand/status boundary is written after it, off the acknowledgement path, never moving a table's
 * snapshot backwards; a finished game's snapshot stays in the commit. Whatever snapshot is stored, the stored
 * table (snapshot + later rows) is the live one.
 */
import type { TestApp } from '../support/test-app';
import { GamesService } from '../../src/games/games.service';
import { TableStore } from '../../src/games/table.store';
import { Client, gamesSuite, SETTINGS, storedTable, waitHumanTurn } from './helpers';

describe('table store: snapshots off the acknowledgement path', () => {
  let t: TestApp;
  const { client } = gamesSuite((app) => (t = app), { BOT_DELAY_MIN_MS: '1', BOT_DELAY_MAX_MS: '2' });

  const row = async (id: string): Promise<{ seq: number; status: string; snapshot: { createdAt?: number } }> =>
    (await t.dataSource.query(`SELECT seq, status, snapshot FROM games WHERE id = $1`, [id]))[0];

  it('a bot game: the stored table equals the live one at every check; snapshots only move forward', async () => {
    const h: Client = await client();
    const gameId = (await h.http(t.url, 'POST', '/api/games', { ...SETTINGS, maxPoints: 100, minPoints: -100 })).body.id;
    for (const s of [1, 2, 3]) expect((await h.emit('invite_bot', { gameId, seatIndex: s })).ok).toBe(true);
    await h.emit('join_game', { gameId });
    expect((await h.emit('start_game', { gameId })).ok).toBe(true);
    const games = t.app.get(GamesService);
    let lastSnapshotSeq = 0;
    let checks = 0;
    let sawCompleted = false;
    const t0 = Date.now();
    while (Date.now() - t0 < 40_000 && checks < 60) {
      // the table rests on the human's turn (nothing changes until they act): compare stored and live
      const stored = await waitHumanTurn(t, gameId).catch(() => null);
      await games.idle();
      const live = await games.record(gameId);
      if (!stored || live.status === 'COMPLETED' || live.status === 'CLOSED') {
        // the game ended (and the table may have closed after the result): a finished or closed table's snapshot
        // is written in the commit that finished / closed it
        expect(['COMPLETED', 'CLOSED']).toContain(live.status);
        expect((await row(gameId)).status).toBe(live.status);
        sawCompleted = true;
        break;
      }
      expect((await storedTable(t, gameId)).snapshot).toEqual(JSON.parse(JSON.stringify(live)));
      const r = await row(gameId);
      expect(r.seq).toBeGreaterThanOrEqual(lastSnapshotSeq); // never backwards
      expect(r.seq).toBeLessThanOrEqual(stored.seq);
      lastSnapshotSeq = r.seq;
      checks++;
      h.maybeAct();
      await new Promise((r2) => setTimeout(r2, 30));
    }
    expect(checks).toBeGreaterThan(10);
    expect(lastSnapshotSeq).toBeGreaterThan(1); // boundary snapshots were written (in the background)
    expect(sawCompleted).toBe(true);
    await h.emit('leave_game', { gameId });
  }, 90_000);

  it('a late background snapshot never overwrites a newer one', async () => {
    const h = await client();
    const gameId = (await h.http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    const store = t.app.get(TableStore);
    const games = t.app.get(GamesService);
    await games.idle();
    const rec = await games.record(gameId);
    // a newer snapshot (seq 50) stored in a transaction of its own, then an older one queued (seq 40)
    await store.transaction((m) =>
      m.query(`UPDATE games SET seq = 50, snapshot = $2 WHERE id = $1`, [gameId, JSON.stringify({ ...rec, createdAt: 50 })]),
    );
    (store as unknown as { deferSnapshot(r: unknown, s: number): void }).deferSnapshot({ ...rec, createdAt: 40 }, 40);
    await store.drain();
    const r = await row(gameId);
    expect(r.seq).toBe(50);
    expect(r.snapshot.createdAt).toBe(50);
    // a newer one is written
    (store as unknown as { deferSnapshot(r: unknown, s: number): void }).deferSnapshot({ ...rec, createdAt: 60 }, 60);
    await store.drain();
    expect((await row(gameId)).snapshot.createdAt).toBe(60);
    await t.dataSource.query(`UPDATE games SET seq = 1, snapshot = $2 WHERE id = $1`, [gameId, JSON.stringify(rec)]);
    await h.emit('leave_game', { gameId });
  });
});
