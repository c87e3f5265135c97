/**
 * What the replay viewer shows and does, derived from the replay document: pure functions, no React, no I/O.
 * The timeline itself (positions, stops, frames) is `replay-model.ts`.
 */
import type { GameReplay, ReplayHand } from '@spades/common';
import { bidLabel } from '../table/model';
import { nextStop, nextTrick, prevStop, prevTrick, type ReplayTimeline } from './replay-model';

export const REPLAY_SPEEDS = [0.5, 1, 2, 4] as const;
/** One step per second at 1×. */
export const STEP_MS = 1000;

/** Where the replay document comes from: a share link (issue #24) opens that one replay, signed in or not. */
export function replayUrl(id: string, game: string | null, share: string | null): string {
  return share
    ? `/api/shared-replays/${encodeURIComponent(id)}?share=${encodeURIComponent(share)}`
    : `/api/games/${encodeURIComponent(id)}/replay${game ? `?game=${encodeURIComponent(game)}` : ''}`;
}

export const replayDownloadUrl = (doc: Pick<GameReplay, 'gameId' | 'gameNumber'>): string =>
  `/api/games/${encodeURIComponent(doc.gameId)}/replay?game=${doc.gameNumber}&download=1`;

export const replayFileName = (doc: Pick<GameReplay, 'gameId' | 'gameNumber'>): string =>
  `spades-replay-${doc.gameId}-${doc.gameNumber}.json`;

export type ReplayStepper = (t: ReplayTimeline, p: number) => number;

/**
 * The replay's keyboard: ← → card, Shift+← → or ↑ ↓ trick, Space play/pause; nothing while typing in a field.
 * Returns the stepper to apply, 'toggle' for play/pause, or null for a key the viewer leaves alone.
 */
export function replayKeyAction(
  e: { key: string; code?: string; shiftKey?: boolean },
  target: { tagName?: string; isContentEditable?: boolean } | null,
): ReplayStepper | 'toggle' | null {
  if (
    target &&
    (target.tagName === 'INPUT' ||
      target.tagName === 'SELECT' ||
      target.tagName === 'TEXTAREA' ||
      target.isContentEditable)
  )
    return null;
  if (e.key === 'ArrowRight') return e.shiftKey ? nextTrick : nextStop;
  if (e.key === 'ArrowLeft') return e.shiftKey ? prevTrick : prevStop;
  if (e.key === 'ArrowDown') return nextTrick;
  if (e.key === 'ArrowUp') return prevTrick;
  if (e.key === ' ' || e.code === 'Space') return 'toggle';
  return null;
}

export const playerName = (doc: Pick<GameReplay, 'players'>, seat: number): string =>
  doc.players[seat]?.username ?? `Seat ${seat + 1}`;

/** A player of a private game, signed in and not on a share link, may share it. */
export const mayShareReplay = (
  doc: Pick<GameReplay, 'private' | 'players'>,
  me: string | null,
  shared: boolean,
): boolean => !shared && doc.private && me !== null && doc.players.some((p) => p.userId === me);

/** The seats that won: a team's two seats (PARTNERS) or the one winner (SOLO); none for no winner. */
export function replayWinners(doc: Pick<GameReplay, 'settings' | 'result'>): number[] {
  if (doc.settings.gameMode === 'PARTNERS')
    return doc.result.winnerTeam === 0 ? [0, 2] : doc.result.winnerTeam === 1 ? [1, 3] : [];
  return doc.result.winnerSeat !== null ? [doc.result.winnerSeat] : [];
}

/** A side's bid in a hand: the partners' two bids joined with '+', or the one player's. */
export function sideBid(h: Pick<ReplayHand, 'score'>, side: number, partners: boolean): string {
  const seats = partners ? [side, side + 2] : [side];
  return seats.map((s) => bidLabel(h.score.bids[s], h.score.blind[s])).join('+');
}

/** A hand's score change as shown: "+12", "+0" or "-40". */
export const deltaText = (delta: number | undefined): string => ((delta ?? 0) >= 0 ? `+${delta ?? 0}` : String(delta));
