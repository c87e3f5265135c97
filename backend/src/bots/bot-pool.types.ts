/** The bot pool's public types: a request's options, why a search fell back, an answered decision, the stats. */
import type { BotLevel } from './bot-protocol';
import type { HistogramSnapshot } from './bot-budget';

export interface BotDecideOptions {
  /** Epoch ms (Date.now() clock) by which the answer is needed, e.g. the end of the bot's think delay. */
  deadline?: number;
  /** Aborting resolves the request with null at once (use it when the table moved on before the delay ended). */
  signal?: AbortSignal;
}

/** Why a strong request was answered by the heuristic bot instead of the search. */
export type BotFallbackReason =
  'busy' | 'budget' | 'late' | 'crash' | 'timeout' | 'error' | 'illegal' | 'closed' | 'degraded';
export const FALLBACK_REASONS: readonly BotFallbackReason[] = [
  'busy',
  'budget',
  'late',
  'crash',
  'timeout',
  'error',
  'illegal',
  'closed',
  'degraded',
];

/** One answered decision (see `onDecision`). */
export interface BotDecisionEvent {
  level: BotLevel;
  /** 'worker': a worker's search; 'inline': computed on this thread (light level, or nothing to search); else the fallback's reason. */
  outcome: 'worker' | 'inline' | BotFallbackReason;
  /** The time box the request ran with (worker requests), ms. */
  timeboxMs: number | null;
  /** From `decide` to the answer, ms. */
  latencyMs: number;
  /** Answer time minus deadline, ms (≤ 0: in time). */
  lateMs: number;
}

export interface BotPoolStats {
  /** True when workers could not start (3 consecutive startup failures): strong requests answered inline by the heuristic. */
  degraded: boolean;
  workers: number;
  /** Strong requests waiting for a worker. */
  queueDepth: number;
  /** Strong requests a worker is computing. */
  inFlight: number;
  /** The time box a request starting now would get, ms (`strongMs` when idle, down to `floorMs`). */
  timeboxMs: number;
  floorMs: number;
  maxMs: number;
  /** Worker CPU the budget plans for now, ms per second (follows the machine; see `maxBudgetMsPerSec`). */
  budgetMsPerSec: number;
  /** Its ceiling: workers × 1000 × utilization. */
  maxBudgetMsPerSec: number;
  /** Idle CPU of the machine at the last sample, in cores (null before the first sample or without a sampler). */
  cpuIdleCores: number | null;
  /** The main thread's event loop utilization (0..1) at the last sample (null likewise). */
  eventLoopUtilization: number | null;
  /** Searches admitted within the budget, per second (recent, exponentially weighted). */
  searchedPerSec: number;
  /** Strong requests that needed a search, per second (recent, exponentially weighted). */
  demandPerSec: number;
  /** Measured cost of a worker decision besides its box (messages, cloning, setup), ms. */
  overheadMs: number;
  /** Decisions answered with an action: completed + inlineTotal + fallbacksTotal. */
  decisionsTotal: number;
  /** … by a worker's search. */
  completed: number;
  /** … on this thread: light levels, and strong decisions with nothing to search. */
  inlineTotal: number;
  /** … by the heuristic instead of the search (sum of `fallbacksByReason`). */
  fallbacksTotal: number;
  fallbacksByReason: Record<BotFallbackReason, number>;
  /** Requests aborted by their caller (resolved null). */
  aborted: number;
  /** Bot choices that were illegal and replaced by common's safety net (a bot bug; each one is logged). */
  illegalChoices: number;
  restarts: number;
  /** Worker compute time, ms, summed (its rate / (workers × 1000) is the workers' utilization). */
  busyMsTotal: number;
  /** Worker compute time per decision, ms (cumulative buckets, Prometheus style). */
  decisionMs: HistogramSnapshot;
  /** Median and p99 of the last 1024 worker decisions, ms. */
  decisionMsP50: number;
  decisionMsP99: number;
}
