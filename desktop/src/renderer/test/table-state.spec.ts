/** The live table's client state as a pure reducer over server events: no React, no DOM, time injected. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@spades/common';
import { normalizeTable } from '../table/model';
import {
  gameOverModel,
  initialTableState,
  tableReducer,
  type LiveTableState,
  type TableEvent,
} from '../table/table-state';
import { RESULT_MS, SUMMARY_MS } from '../table/timing';
import { c, tableView, thirteen } from './table-harness';

const view = (over: Record<string, unknown>, now = 1_000) =>
  ({
    type: 'view',
    table: normalizeTable({ ...tableView(over), serverTime: now }, 'u0')!,
    source: 'socket',
    now,
  }) as TableEvent;
const run = (events: TableEvent[], s: LiveTableState = initialTableState()) => events.reduce(tableReducer, s);
const summary = {
  handNumber: 1,
  team1Score: 50,
  team2Score: -40,
  team1Bags: 0,
  team2Bags: 0,
  team1TotalScore: 50,
  team2TotalScore: -40,
  playerScores: [],
  playerTotalScores: [],
  playerBags: [],
  tricksPerPlayer: [],
  bids: [],
  seed: null,
  commitment: null,
};

describe('tableReducer', () => {
  it('keeps the commitment per hand and the own hand as dealt (Verify deal)', () => {
    const s = run([
      view({ status: 'BIDDING', handNumber: 1, handCommitment: 'c1', hands: [thirteen(), [], [], []] }),
      view({ status: 'PLAYING', handNumber: 1, handCommitment: 'c1', hands: [thirteen().slice(1), [], [], []] }),
      { type: 'new_hand_started', handNumber: 2, commitment: 'c2' },
    ]);
    expect(s.commitments).toEqual({ 1: 'c1', 2: 'c2' });
    expect(s.dealt[1]).toHaveLength(13);
    expect(s.dealt[2]).toBeUndefined();
  });

  it('a trick on display until clear_trick; a new hand closes the summary and the trick', () => {
    let s = run([
      view({ status: 'PLAYING', handNumber: 1 }),
      { type: 'trick_complete', winner: 2, cards: [{ seat: 0, card: c('S', 14) }] },
    ]);
    expect(s.trickBanner).toEqual({ winner: 2, cards: [{ seat: 0, card: c('S', 14) }] });
    s = tableReducer(s, { type: 'clear_trick' });
    expect(s.trickBanner).toBeNull();
    s = run(
      [
        { type: 'trick_complete', winner: 1, cards: [] },
        { type: 'hand_completed', summary, now: 5_000 },
      ],
      s,
    );
    expect(s.summary).toEqual(summary);
    expect(s.summaryDeadline).toBe(5_000 + SUMMARY_MS);
    s = tableReducer(s, { type: 'new_hand_started', handNumber: 2, commitment: null });
    expect([s.summary, s.summaryDeadline, s.trickBanner]).toEqual([null, null, null]);
  });

  it('game over: the result dialog (PARTNERS: one score per team) with its deadline; WAITING resets every dialog', () => {
    let s = run([
      view({ status: 'PLAYING', handNumber: 3, team1TotalScore: 480, team2TotalScore: 120 }),
      { type: 'hand_completed', summary, now: 1 },
    ]);
    s = tableReducer(s, {
      type: 'game_over',
      payload: {
        winningTeam: 'team1',
        winningPlayer: null,
        places: [1, 2, 1, 2],
        team1TotalScore: 510,
        team2TotalScore: 130,
        rated: true,
        payouts: null,
      },
      now: 9_000,
    });
    expect(s.summary).toBeNull();
    expect(s.result).toEqual({
      winningTeam: 'team1',
      winningPlayer: null,
      places: [1, 2, 1, 2],
      finalScores: [510, 130],
      rated: true,
      payouts: null,
    });
    expect(s.resultDeadline).toBe(9_000 + RESULT_MS);
    s = run(
      [
        { type: 'play_again', text: 'Starting new game...' },
        view({ status: 'COMPLETED' }),
        view({ status: 'WAITING' }),
      ],
      s,
    );
    expect([s.result, s.resultDeadline, s.playAgainText, s.summary, s.trickBanner]).toEqual([
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('SOLO game over keeps the per-seat scores', () => {
    const t = normalizeTable(
      {
        ...tableView({ status: 'COMPLETED' }),
        gameMode: 'SOLO',
        settings: { ...DEFAULT_SETTINGS, gameMode: 'SOLO' },
        playerScores: [1, 2, 3, 4],
      },
      'u0',
    );
    expect(t?.gameMode).toBe('SOLO');
    expect(gameOverModel({ finalScores: [300, 120, -50, 80], winningPlayer: 0 }, t).finalScores).toEqual([
      300, 120, -50, 80,
    ]);
  });

  it('a table opened in the middle of a summary or after the game shows them again (only on the first state)', () => {
    const s = run([
      view({ status: 'HAND_COMPLETED', handNumber: 2, lastHandSummary: { ...summary, handNumber: 2 } }, 7_000),
    ]);
    expect(s.summary?.handNumber).toBe(2);
    expect(s.summaryDeadline).toBe(7_000 + SUMMARY_MS);
    const done = run([view({ status: 'COMPLETED', winningTeam: 'team2', places: [2, 1, 2, 1] }, 7_000)]);
    expect(done.result?.winningTeam).toBe('team2');
    // a later state does not re-open a summary the player already closed
    const later = run([
      view({ status: 'PLAYING', handNumber: 2 }),
      view({ status: 'HAND_COMPLETED', handNumber: 2, lastHandSummary: summary }),
    ]);
    expect(later.summary).toBeNull();
  });

  it('seat replacements in local time (server clock offset), chat merged without duplicates', () => {
    const msg = (id: string) => ({
      id,
      gameId: 'g1',
      userId: 'u1',
      userName: 'P1',
      username: 'P1',
      message: `m${id}`,
      timestamp: 1,
      isGameMessage: true,
    });
    let s = run([
      view({ status: 'PLAYING', seatReplacements: [{ seatIndex: 2, expiresAt: 50_000 }], chat: [msg('a')] }, 1_000),
    ]);
    const offset = s.table!.clockOffset;
    expect(s.replacements[2]).toBe(50_000 - offset);
    s = tableReducer(s, { type: 'seat_replacement_started', seatIndex: 1, expiresAt: 80_000 });
    expect(s.replacements[1]).toBe(80_000 - offset);
    s = tableReducer(s, { type: 'chat_message', message: s.chat[0] });
    expect(s.chat).toHaveLength(1);
    s = run([view({ status: 'PLAYING', chat: [msg('a'), msg('b')] })], s);
    expect(s.chat.map((m) => m.id)).toEqual(['a', 'b']);
  });
});
