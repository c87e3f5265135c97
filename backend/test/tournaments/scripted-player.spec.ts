/**
 * The scripted tournament player (./scripted-player.ts) checked on a normal table: four of them play a complete
 * PARTNERS game through the real socket API from their own views only — every bid and card legal by common's rules,
 * the same legal moves the server offers, nothing refused — and one who leaves mid-game is replaced by a bot.
 */
import type { GameUpdate } from '@spades/common';
import { expectLedgerBalanced, SETTINGS, useFastTimers } from '../games/helpers';
import { createTestApp, type TestApp } from '../support/test-app';
import { ScriptedPlayer } from './scripted-player';

describe('scripted tournament player on a normal table', () => {
  let t: TestApp;
  const players: ScriptedPlayer[] = [];
  beforeAll(async () => {
    useFastTimers({ SEAT_REPLACEMENT_MS: '200' });
    t = await createTestApp();
  });
  afterAll(async () => {
    for (const p of players) p.close();
    await t?.close();
  });

  async function table(opts: { leaverSeat?: number } = {}): Promise<{ gameId: string; four: ScriptedPlayer[] }> {
    const four: ScriptedPlayer[] = [];
    for (let seat = 0; seat < 4; seat++) {
      const leaver = seat === opts.leaverSeat;
      four.push(await ScriptedPlayer.create(t.url, { seed: seat + 1, ...(leaver ? { leaveAfterPlays: 2 } : {}) }));
    }
    players.push(...four);
    const created = await four[0].http<GameUpdate>('POST', '/api/games', SETTINGS);
    expect(created.status).toBe(201);
    const gameId = created.body.id;
    for (let seat = 1; seat < 4; seat++) {
      expect((await four[seat].http('POST', `/api/games/${gameId}/join`, { seat })).status).toBe(200);
    }
    for (const [seat, p] of four.entries()) {
      const g = p.track(gameId, { matchId: 'none', tournamentId: 'none', round: 1 });
      expect(await p.joinTable(g, seat)).toMatchObject({ ok: true, seat });
    }
    expect((await four[0].emit('start_game', { gameId })).ok).toBe(true);
    return { gameId, four };
  }

  it('four scripted players play a PARTNERS game to the end from their own views, every move legal', async () => {
    const { gameId, four } = await table();
    for (const p of four) await p.waitFor(() => p.games.get(gameId)?.over !== null, 30_000, 'game_over');
    for (const [seat, p] of four.entries()) {
      const g = p.games.get(gameId)!;
      expect(p.errors).toEqual([]);
      expect(g.seat).toBe(seat);
      expect(g.bids).toBeGreaterThan(0);
      expect(g.plays).toBeGreaterThanOrEqual(13);
      expect(g.over?.finalScores).toHaveLength(4);
    }
    // endFast: seats 0 and 2 bid 13 each and are set: the other side wins in one hand
    expect(four[0].games.get(gameId)!.over?.winningTeam).toBe('team2');
    await expectLedgerBalanced((sql) => t.dataSource.query(sql));
  });

  it('a leaver leaves mid-game: a bot takes the seat and the game ends for the others', async () => {
    const { gameId, four } = await table({ leaverSeat: 1 });
    const stayers = [four[0], four[2], four[3]];
    for (const p of stayers) await p.waitFor(() => p.games.get(gameId)?.over !== null, 30_000, 'game_over');
    const leaver = four[1].games.get(gameId)!;
    expect(leaver.left).toBe(true);
    expect(leaver.plays).toBe(2);
    const last = four[0].games.get(gameId)!.view!;
    expect(last.players[1]?.type).toBe('bot');
    for (const p of four) expect(p.errors).toEqual([]);
    await expectLedgerBalanced((sql) => t.dataSource.query(sql));
  });
});
