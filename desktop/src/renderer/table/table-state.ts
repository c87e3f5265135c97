/**
 * The live table's client state as a pure reducer over server events (issue #12): the table model, the trick on
 * display, the hand summary and the result dialogs with their deadlines, seat-replacement countdowns, the chat,
 * and what "Verify deal" needs (the commitment published per hand, the own hand as dealt). No React, no timers,
 * no I/O: time comes in the events (`now`), so it is tested without a DOM (test/table-state.spec.ts).
 *
 * useLiveTable / useTableSocket dispatch socket and HTTP events into it and keep the UI mechanics (deal animation,
 * pending card, sounds, retries) beside it; the replay viewer draws the same `TableModel` (replay/replay-model.ts).
 */
import type { Card } from '@spades/common';
import type { ChatMessage } from '../lib/types';
import type { GameOverModel } from './overlays';
import type { HandScoreSummaryModel, TableModel } from './model';
import { RESULT_MS, SUMMARY_MS } from './timing';

export interface LiveTableState {
  table: TableModel | null;
  /** A completed trick on display (trick_complete until clear_trick or its timer). */
  trickBanner: { winner: number; cards: TableModel['trick'] } | null;
  summary: HandScoreSummaryModel | null;
  summaryDeadline: number | null;
  result: GameOverModel | null;
  resultDeadline: number | null;
  /** Seat replacement deadlines (local clock), by seat. */
  replacements: Record<number, number>;
  chat: ChatMessage[];
  /** Commitment published before each hand, by hand number. */
  commitments: Record<number, string>;
  /** The own 13 cards as dealt, by hand number. */
  dealt: Record<number, Card[]>;
  /** Play Again was pressed: what the result dialog says meanwhile. */
  playAgainText: string | null;
}

export type TableEvent =
  /** A full table state: GET /api/games/:id ('http') or `game_update` ('socket'). */
  | { type: 'view'; table: TableModel; source: 'http' | 'socket'; now: number }
  | { type: 'new_hand_started'; handNumber: number; commitment: string | null }
  | { type: 'trick_complete'; winner: number; cards: TableModel['trick'] }
  | { type: 'clear_trick' }
  | { type: 'hand_completed'; summary: HandScoreSummaryModel; now: number }
  | { type: 'game_over'; payload: unknown; now: number }
  | { type: 'seat_replacement_started'; seatIndex: number; expiresAt: number }
  | { type: 'chat_message'; message: ChatMessage }
  /** The summary countdown reached 0 (the next hand was asked for). */
  | { type: 'summary_closed' }
  | { type: 'play_again'; text: string };

export function initialTableState(): LiveTableState {
  return {
    table: null,
    trickBanner: null,
    summary: null,
    summaryDeadline: null,
    result: null,
    resultDeadline: null,
    replacements: {},
    chat: [],
    commitments: {},
    dealt: {},
    playAgainText: null,
  };
}

export function mergeChat(prev: ChatMessage[], add: ChatMessage[]): ChatMessage[] {
  const seen = new Set(prev.map((m) => m.id));
  const out = [...prev];
  for (const m of add) if (!seen.has(m.id)) out.push(m);
  return out.slice(-300);
}

/** The result dialog's model from a `game_over` payload (PARTNERS: one score per team; SOLO: per seat). */
export function gameOverModel(over: unknown, t: TableModel | null): GameOverModel {
  const p = (over && typeof over === 'object' ? over : {}) as {
    winningTeam?: unknown;
    winningPlayer?: unknown;
    places?: unknown;
    finalScores?: unknown;
    team1TotalScore?: unknown;
    team2TotalScore?: unknown;
    rated?: unknown;
    payouts?: unknown;
    coinsWon?: unknown;
  };
  const wt = p.winningTeam === 'team1' || p.winningTeam === 'team2' ? p.winningTeam : null;
  const finalScores =
    t?.gameMode === 'PARTNERS'
      ? [Number(p.team1TotalScore ?? t?.scores[0] ?? 0), Number(p.team2TotalScore ?? t?.scores[1] ?? 0)]
      : Array.isArray(p.finalScores)
        ? (p.finalScores as number[])
        : (t?.scores ?? []);
  return {
    winningTeam: wt,
    winningPlayer: typeof p.winningPlayer === 'number' ? p.winningPlayer : null,
    places: Array.isArray(p.places) ? (p.places as number[]) : null,
    finalScores,
    rated: p.rated === true || (p.rated === undefined && t?.rated === true),
    payouts: Array.isArray(p.payouts)
      ? (p.payouts as number[])
      : Array.isArray(p.coinsWon)
        ? (p.coinsWon as number[])
        : null,
  };
}

export function tableReducer(s: LiveTableState, e: TableEvent): LiveTableState {
  switch (e.type) {
    case 'view': {
      const t = e.table;
      const prev = s.table;
      const next: LiveTableState = { ...s, table: t };
      if (t.handCommitment && t.handNumber && s.commitments[t.handNumber] !== t.handCommitment) {
        next.commitments = { ...s.commitments, [t.handNumber]: t.handCommitment };
      }
      if (t.mySeat !== null && t.hand.length === 13 && !s.dealt[t.handNumber])
        next.dealt = { ...s.dealt, [t.handNumber]: t.hand };
      if (prev && prev.handNumber !== t.handNumber && t.status === 'BIDDING') {
        next.summary = null;
        next.summaryDeadline = null;
      }
      // §4: entering WAITING resets dialogs; so does a new game at this table (Play Again; with bots it is dealt at
      // once and WAITING never shows): the result dialog and its countdown close for everyone at the table.
      if ((t.status === 'WAITING' && prev && prev.status !== 'WAITING') || (prev && t.gameNumber !== prev.gameNumber)) {
        next.summary = null;
        next.summaryDeadline = null;
        next.result = null;
        next.resultDeadline = null;
        next.trickBanner = null;
        next.playAgainText = null;
      }
      if (t.seatReplacements.length) {
        const r = { ...s.replacements };
        for (const sr of t.seatReplacements) r[sr.seatIndex] = sr.expiresAt - t.clockOffset;
        next.replacements = r;
      }
      if (t.chat.length) next.chat = mergeChat(s.chat, t.chat);
      // Opened (or reloaded) in the middle of a summary / after the game: show them again.
      if (!prev && t.status === 'HAND_COMPLETED' && t.lastHandSummary) {
        next.summary = t.lastHandSummary;
        next.summaryDeadline = e.now + SUMMARY_MS;
      }
      if (!prev && t.status === 'COMPLETED' && (t.winningTeam || t.winningPlayer !== null)) {
        next.result = {
          winningTeam: t.winningTeam,
          winningPlayer: t.winningPlayer,
          places: t.places,
          finalScores: t.scores,
          rated: t.rated,
          payouts: t.payouts,
        };
        next.resultDeadline = e.now + RESULT_MS;
      }
      return next;
    }
    case 'new_hand_started': {
      const commitments =
        e.commitment && e.handNumber ? { ...s.commitments, [e.handNumber]: e.commitment } : s.commitments;
      return { ...s, commitments, summary: null, summaryDeadline: null, trickBanner: null };
    }
    case 'trick_complete':
      return { ...s, trickBanner: { winner: e.winner, cards: e.cards } };
    case 'clear_trick':
      return s.trickBanner ? { ...s, trickBanner: null } : s;
    case 'hand_completed':
      return { ...s, summary: e.summary, summaryDeadline: e.now + SUMMARY_MS };
    case 'game_over':
      return {
        ...s,
        summary: null,
        summaryDeadline: null,
        result: gameOverModel(e.payload, s.table),
        resultDeadline: e.now + RESULT_MS,
      };
    case 'seat_replacement_started':
      return { ...s, replacements: { ...s.replacements, [e.seatIndex]: e.expiresAt - (s.table?.clockOffset ?? 0) } };
    case 'chat_message':
      return { ...s, chat: mergeChat(s.chat, [e.message]) };
    case 'summary_closed':
      return { ...s, summary: null, summaryDeadline: null };
    case 'play_again':
      return { ...s, playAgainText: e.text };
  }
}
