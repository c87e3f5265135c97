import type { BotFallbackEvent, GameAction, PlayerView } from '@spades/common';

export type BotLevel = 'random' | 'basic' | 'heuristic' | 'strong';
export const BOT_LEVELS: readonly BotLevel[] = ['random', 'basic', 'heuristic', 'strong'];

export interface BotWorkerData {
  /** Module to require for @spades/common inside the worker. */
  commonEntry: string;
  /**
   * Nice value the worker thread gives itself (Linux: its own thread only; 0 = unchanged). The searches then run
   * on CPU time nobody else wants: the event loop and the database preempt them at once.
   */
  nice?: number;
  /**
   * Linux: the worker thread also switches itself to SCHED_IDLE (`chrt --idle`; no privilege needed to lower one's
   * own policy). A core that runs only such threads counts as idle when the kernel places a woken task, so a client
   * or database process woken by the event loop's writes goes there instead of preempting the event loop. Without
   * `chrt` the thread keeps its nice value only.
   */
  schedIdle?: boolean;
  /** Tests only: a request with this seed crashes the worker. */
  crashOnSeed?: number;
  /** Tests only: a request with this seed never answers (busy loop), to test timeouts. */
  hangOnSeed?: number;
  /** Tests only: a request with this seed reports a bot fallback (an illegal choice) before answering. */
  illegalOnSeed?: number;
  /** Tests only: a request with this seed answers an action the viewer may not take (the pool must catch it). */
  badAnswerOnSeed?: number;
}

/** Messages a worker sends besides answers: it is ready, or a bot's own choice was illegal (common's fallback). */
export type BotWorkerNote = { type: 'ready' } | { type: 'bot-fallback'; event: BotFallbackEvent };

export interface BotWorkerRequest {
  type: 'decide';
  id: number;
  level: BotLevel;
  view: PlayerView;
  seed: number;
  /** Time box of this decision, ms (chosen by the pool's budget, see bot-budget.ts). */
  ms: number;
}

export type BotWorkerResponse =
  { id: number; ok: true; action: GameAction | null; ms: number } | { id: number; ok: false; error: string };
