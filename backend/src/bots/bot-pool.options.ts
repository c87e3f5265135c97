/**
 * The bot pool's settings: the options a `BotPool` takes, read from the environment (BOT_WORKERS, BOT_STRONG_MS,
 * BOT_FLOOR_MS, BOT_TIMEOUT_MS, BOT_WORKER_NICE, BOT_WORKER_SCHED, BOT_CPU_SHARE, BOT_LEVEL). Pure: no workers.
 */
import { BOT_LEVELS, type BotLevel } from './bot-protocol';
import type { CpuSampler } from './bot-budget';
import { botsEnvSchema } from './bots.config';
import { parseEnvOrThrow } from '../config/config.schema';

export { DEFAULT_WORKER_NICE } from './bots.config';

export interface BotPoolOptions {
  /** Number of worker threads (default: available cores − 1, at least 1). */
  size?: number;
  /** Largest time box of one strong decision in ms: the box when the pool is idle (default 40). */
  strongMs?: number;
  /** Smallest time box in ms, under load (default 3; at most strongMs). Below it a request gets the heuristic. */
  floorMs?: number;
  /** A worker that has not answered after this many ms is replaced and the request falls back (default 2000). */
  timeoutMs?: number;
  /** Share of the workers' CPU the budget plans for at most (default 0.9: queues stay short). */
  utilization?: number;
  /** BOT_CPU_SHARE: share (0..1) of the idle CPU (plus the bots' own) the bots may take (default 0.8). */
  cpuShare?: number;
  /**
   * BOT_WORKER_NICE: nice value of the worker threads (Linux, 0–19, default 19): the searches use the CPU that the
   * event loop, the database and other processes leave idle, and yield it to them at once. 0 leaves them as is.
   */
  workerNice?: number;
  /**
   * BOT_WORKER_SCHED: `idle` (default) also puts the worker threads in Linux's SCHED_IDLE class (bot-protocol.ts:
   * a core that only runs bots counts as idle for the processes the event loop wakes); `normal` keeps the nice
   * value only.
   */
  workerSchedIdle?: boolean;
  /** The budget never falls below this, ms of search per second (default 100, at most the maximum). */
  minBudgetMsPerSec?: number;
  /** How often the budget follows the machine, ms (default 500; 0: only when `sampleCpu()` is called). */
  sampleIntervalMs?: number;
  /** Reads the machine (default `systemCpuSampler()`); null: a fixed budget at the maximum. Tests inject one. */
  cpuSampler?: CpuSampler | null;
  /** A running request still unanswered this long after its deadline resolves with the heuristic (default 10). */
  lateGraceMs?: number;
  /** Safety margin the law keeps before each deadline, ms (default 2). */
  marginMs?: number;
  /** Clock, epoch ms (default Date.now); deadlines are read on this clock. Tests inject one. */
  now?: () => number;
  /** Tests only: a strong request with this seed crashes its worker. */
  crashOnSeed?: number;
  /** Tests only: a strong request with this seed never answers. */
  hangOnSeed?: number;
  /** Tests only: a strong request with this seed reports an illegal bot choice (common's fallback) in its worker. */
  illegalOnSeed?: number;
  /** Tests only: a strong request with this seed gets an illegal answer from its worker (caught by the pool). */
  badAnswerOnSeed?: number;
  /** Override of the module the worker loads for @spades/common. */
  commonEntry?: string;
  /** Start the workers now instead of at the first strong request (warms them up before the first table). */
  eager?: boolean;
}

/**
 * Pool options from the environment: BOT_WORKERS, BOT_STRONG_MS, BOT_FLOOR_MS, BOT_TIMEOUT_MS, BOT_WORKER_NICE,
 * BOT_WORKER_SCHED, BOT_CPU_SHARE (unset → the pool's defaults), parsed by `botsEnvSchema` (bots.config.ts).
 */
export function botPoolOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): BotPoolOptions {
  const e = parseEnvOrThrow(botsEnvSchema, env);
  return {
    size: e.BOT_WORKERS,
    strongMs: e.BOT_STRONG_MS,
    floorMs: e.BOT_FLOOR_MS,
    timeoutMs: e.BOT_TIMEOUT_MS,
    workerNice: e.BOT_WORKER_NICE,
    workerSchedIdle: e.BOT_WORKER_SCHED === undefined ? undefined : e.BOT_WORKER_SCHED === 'idle',
    cpuShare: e.BOT_CPU_SHARE,
  };
}

/** BOT_LEVEL=basic|heuristic|strong (also random); anything else → the default 'strong'. */
export function botLevelFromEnv(value: string | undefined, fallback: BotLevel = 'strong'): BotLevel {
  const v = (value ?? '').trim().toLowerCase();
  return (BOT_LEVELS as readonly string[]).includes(v) ? (v as BotLevel) : fallback;
}
