/**
 * BotPool: bot decisions for the server, with `strong` computed in worker threads so that a table full of bots
 * never blocks the event loop (and other tables), within ONE CPU budget for the whole server.
 *
 *   const pool = new BotPool({ size: 1, strongMs: 40, floorMs: 3 });
 *   // when the bot's turn begins: start thinking, answer needed by the end of its think delay
 *   const pending = pool.decide('strong', viewFor(state, seat), seed, { deadline: Date.now() + delayMs });
 *   // … when the delay ends:
 *   const action = await pending;                                     // GameAction | null
 *   await pool.close();
 *
 * - `level`: 'random' | 'basic' | 'heuristic' | 'strong' (see `botLevelFromEnv` for BOT_LEVEL). Levels other
 *   than 'strong' take microseconds and run inline, and so do strong decisions that need no search (a forced
 *   card, a single legal bid, the blind-nil reveal step: `strongNeedsSearch`); the rest go to a worker.
 * - Budget (bot-budget.ts): requests wait in one queue ordered by deadline (EDF). Each gets a time box between
 *   `floorMs` (BOT_FLOOR_MS) and `strongMs` (BOT_STRONG_MS): the full box when idle, smaller when the queue or
 *   the request rate grows, so that queued requests meet their deadlines and the workers' CPU suffices. A request
 *   that cannot get even the floor box before its deadline is answered by the heuristic bot, at that moment.
 * - The budget follows the machine (`nextCpuBudget`): every `sampleIntervalMs` the pool reads the main thread's
 *   event loop utilization and the machine's idle cores and sets the workers' CPU budget (ms of search per
 *   second) between `minBudgetMsPerSec` and workers × 1000 × `utilization`: smaller when the event loop or the
 *   other processes need the CPU, back to the maximum when the machine is idle. While the budget is below its
 *   maximum, searches beyond its rate are answered by the heuristic bot at once (reason 'budget').
 * - `deadline` (epoch ms, the Date.now() clock): when the caller needs the answer. Default now + 2 × strongMs + 10
 *   (i.e. "as soon as possible"). A running request not answered by deadline + lateGraceMs resolves with the
 *   heuristic at once (the worker's late answer is dropped).
 * - `signal`: aborting a pending request resolves it with null at once.
 * - `view` is the seat's `viewFor` (never the full state); `seed` is any 32-bit integer (the bot's rng seed:
 *   same view + seed + time box → same decision).
 * - Resolves null only when it is not the viewer's turn (or after an abort). Never rejects for a bot failure:
 *   if a worker crashes, times out, errors or answers with an illegal action, the request falls back to the
 *   heuristic bot computed inline, and a crashed / stuck worker is replaced.
 * - Works from compiled code (`node backend/dist/main.js`: the worker is dist/bots/bot-worker.js and loads
 *   common/dist) and from TypeScript sources (jest, tsx: the worker registers tsx's require hook and loads
 *   common/src).
 */
import { Worker } from 'node:worker_threads';
import * as os from 'node:os';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import type { BotFallbackEvent, GameAction, PlayerView } from '@spades/common';
import { getBot, heuristicAct, legalBids, legalCards, mulberry32, onBotFallback, strongAct, strongNeedsSearch } from '@spades/common';
import { BOT_LEVELS, BotLevel, BotWorkerData, BotWorkerNote, BotWorkerRequest, BotWorkerResponse } from './bot-protocol';
import { canStartInTime, chooseTimebox, CpuSampler, HistogramSnapshot, MsHistogram, nextCpuBudget, RateEstimator, systemCpuSampler } from './bot-budget';

export type { BotLevel } from './bot-protocol';
export { BOT_LEVELS } from './bot-protocol';

/** Nice value of the worker threads unless BOT_WORKER_NICE says otherwise: the lowest priority. */
export const DEFAULT_WORKER_NICE = 19;

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

export interface BotDecideOptions {
  /** Epoch ms (Date.now() clock) by which the answer is needed, e.g. the end of the bot's think delay. */
  deadline?: number;
  /** Aborting resolves the request with null at once (use it when the table moved on before the delay ended). */
  signal?: AbortSignal;
}

/** Why a strong request was answered by the heuristic bot instead of the search. */
export type BotFallbackReason = 'busy' | 'budget' | 'late' | 'crash' | 'timeout' | 'error' | 'illegal' | 'closed' | 'degraded';
const FALLBACK_REASONS: readonly BotFallbackReason[] = ['busy', 'budget', 'late', 'crash', 'timeout', 'error', 'illegal', 'closed', 'degraded'];

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

/**
 * Pool options from the environment: BOT_WORKERS, BOT_STRONG_MS, BOT_FLOOR_MS, BOT_TIMEOUT_MS, BOT_WORKER_NICE,
 * BOT_WORKER_SCHED, BOT_CPU_SHARE (unset → defaults).
 */
export function botPoolOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): BotPoolOptions {
  const num = (name: string): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return undefined;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number (got "${raw}")`);
    return n;
  };
  const size = num('BOT_WORKERS');
  if (size !== undefined && (!Number.isInteger(size) || size > 64)) throw new Error(`BOT_WORKERS must be an integer from 1 to 64 (got "${env.BOT_WORKERS}")`);
  const opts: BotPoolOptions = { size, strongMs: num('BOT_STRONG_MS'), floorMs: num('BOT_FLOOR_MS'), timeoutMs: num('BOT_TIMEOUT_MS') };
  const nice = env.BOT_WORKER_NICE;
  if (nice !== undefined && nice.trim() !== '') {
    const n = Number(nice);
    if (!Number.isInteger(n) || n < 0 || n > 19) throw new Error(`BOT_WORKER_NICE must be an integer from 0 to 19 (got "${nice}")`);
    opts.workerNice = n;
  }
  const sched = env.BOT_WORKER_SCHED;
  if (sched !== undefined && sched.trim() !== '') {
    if (sched !== 'idle' && sched !== 'normal') throw new Error(`BOT_WORKER_SCHED must be idle or normal (got "${sched}")`);
    opts.workerSchedIdle = sched === 'idle';
  }
  const share = env.BOT_CPU_SHARE;
  if (share !== undefined && share.trim() !== '') {
    const n = Number(share);
    if (!Number.isFinite(n) || n < 0 || n > 1) throw new Error(`BOT_CPU_SHARE must be a number from 0 to 1 (got "${share}")`);
    opts.cpuShare = n;
  }
  return opts;
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

interface Job {
  id: number;
  level: BotLevel;
  view: PlayerView;
  seed: number;
  deadline: number;
  requested: number;
  resolve: (a: GameAction | null) => void;
  settled: boolean;
  signal?: AbortSignal;
  onAbort?: () => void;
  slot?: Slot;
  boxMs?: number;
  sentAt?: number;
  timer?: NodeJS.Timeout;
}

interface Slot {
  worker: Worker;
  job: Job | null;
  ready: boolean;
}

/** BOT_LEVEL=basic|heuristic|strong (also random); anything else → the default 'strong'. */
export function botLevelFromEnv(value: string | undefined, fallback: BotLevel = 'strong'): BotLevel {
  const v = (value ?? '').trim().toLowerCase();
  return (BOT_LEVELS as readonly string[]).includes(v) ? (v as BotLevel) : fallback;
}

/** Whether `action` is one the viewer may take now (same legality functions as the engine). */
export function isLegalBotAction(view: PlayerView, action: GameAction | null | undefined): action is GameAction {
  if (!action || typeof action !== 'object' || view.viewer === 'spectator') return false;
  switch (action.type) {
    case 'reveal':
      return view.phase === 'BIDDING' && view.turn === view.viewer && action.seat === view.viewer && view.handHidden;
    case 'bid': {
      if (action.seat !== view.viewer) return false;
      const lb = legalBids(view);
      if (action.blind) return lb.blindNil && action.bid === 0;
      return lb.bids.includes(action.bid);
    }
    case 'play':
      return (
        action.seat === view.viewer &&
        legalCards(view).some((c) => c.suit === action.card?.suit && c.rank === action.card?.rank)
      );
    default:
      return false;
  }
}

function resolveWorkerSetup(commonEntry?: string): { file: string; register: string | null; commonEntry: string } {
  const compiled = __filename.endsWith('.js');
  if (compiled) {
    return {
      file: path.join(__dirname, 'bot-worker.js'),
      register: null,
      commonEntry: commonEntry ?? require.resolve('@spades/common'),
    };
  }
  return {
    file: path.join(__dirname, 'bot-worker.ts'),
    register: require.resolve('tsx/cjs'),
    commonEntry: commonEntry ?? path.resolve(__dirname, '../../../common/src/index.ts'),
  };
}

const BOOTSTRAP = `
const { workerData } = require('node:worker_threads');
if (workerData.__register) require(workerData.__register);
require(workerData.__entry);
`;

export class BotPool {
  private readonly slots: Slot[] = [];
  /** Strong requests waiting for a worker, earliest deadline first (ties: first come). */
  private readonly queue: Job[] = [];
  private readonly setup: ReturnType<typeof resolveWorkerSetup>;
  private readonly strongMs: number;
  private readonly floorMs: number;
  private readonly workerNice: number;
  private readonly workerSchedIdle: boolean;
  private readonly timeoutMs: number;
  private readonly utilization: number;
  private readonly lateGraceMs: number;
  private readonly marginMs: number;
  private readonly now: () => number;
  private readonly crashOnSeed?: number;
  private readonly hangOnSeed?: number;
  private readonly illegalOnSeed?: number;
  private readonly badAnswerOnSeed?: number;
  private readonly size: number;
  private started = false;
  private nextId = 1;
  private closed = false;
  private completed = 0;
  private inline = 0;
  private aborted = 0;
  private readonly fallbacks: Record<BotFallbackReason, number> = Object.fromEntries(FALLBACK_REASONS.map((r) => [r, 0])) as Record<BotFallbackReason, number>;
  private illegalChoices = 0;
  private busyMs = 0;
  private overheadMs = 1;
  private readonly demand = new RateEstimator(2000);
  /** Requests admitted to the search (not answered 'budget'). */
  private readonly searched = new RateEstimator(2000);
  private readonly cpuShare: number;
  private readonly minBudget: number;
  private readonly sampleIntervalMs: number;
  private readonly sampler: CpuSampler | null;
  private budget: number;
  private sampleTimer: NodeJS.Timeout | null = null;
  private lastSampleAt = 0;
  private lastSampleBusyMs = 0;
  private cpuIdleCores: number | null = null;
  private eventLoopUtilization: number | null = null;
  private readonly histogram = new MsHistogram();
  private readonly listeners = new Set<(e: BotDecisionEvent) => void>();
  private queueTimer: NodeJS.Timeout | null = null;
  private readonly readyWaiters: (() => void)[] = [];
  private readonly stopFallbackLog: () => void;
  private readonly log = new Logger('Bots');
  private restarts = 0;
  /** Consecutive workers that died before becoming ready; at 3 the pool degrades to inline heuristic. */
  private startupFailures = 0;
  private degraded = false;

  constructor(opts: BotPoolOptions = {}) {
    const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
    this.size = Math.max(1, Math.floor(opts.size ?? cores - 1));
    this.strongMs = opts.strongMs ?? 40;
    this.floorMs = Math.min(opts.floorMs ?? 3, this.strongMs);
    this.workerNice = opts.workerNice ?? DEFAULT_WORKER_NICE;
    this.workerSchedIdle = opts.workerSchedIdle ?? true;
    this.timeoutMs = opts.timeoutMs ?? 2000;
    this.utilization = opts.utilization ?? 0.9;
    this.cpuShare = Math.min(1, Math.max(0, opts.cpuShare ?? 0.8));
    this.minBudget = Math.min(this.maxBudget(), opts.minBudgetMsPerSec ?? 100);
    this.sampleIntervalMs = opts.sampleIntervalMs ?? 500;
    this.sampler = opts.cpuSampler === undefined ? systemCpuSampler() : opts.cpuSampler;
    this.budget = this.maxBudget();
    this.lateGraceMs = opts.lateGraceMs ?? 10;
    this.marginMs = opts.marginMs ?? 2;
    this.now = opts.now ?? Date.now;
    this.crashOnSeed = opts.crashOnSeed;
    this.hangOnSeed = opts.hangOnSeed;
    this.illegalOnSeed = opts.illegalOnSeed;
    this.badAnswerOnSeed = opts.badAnswerOnSeed;
    this.setup = resolveWorkerSetup(opts.commonEntry);
    // the light levels run on this thread: their fallbacks are reported here, the workers' by message
    this.stopFallbackLog = onBotFallback((e) => this.illegalChoice(e));
    if (opts.eager) this.start();
  }

  /** Starts the workers (done lazily by the first strong request unless `eager`). */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    for (let i = 0; i < this.size; i++) this.slots.push(this.spawn());
    this.lastSampleAt = this.now();
    this.lastSampleBusyMs = this.busyMs;
    if (this.sampler && this.sampleIntervalMs > 0) {
      this.sampleTimer = setInterval(() => this.sampleCpu(), this.sampleIntervalMs);
      this.sampleTimer.unref();
    }
  }

  /**
   * Reads the machine and sets the budget (`nextCpuBudget`); called every `sampleIntervalMs` once the workers
   * started (tests call it directly). Returns the new budget, ms per second.
   */
  sampleCpu(): number {
    if (!this.sampler || this.closed) return this.budgetMsPerSec();
    let sample;
    try {
      sample = this.sampler();
    } catch {
      return this.budgetMsPerSec(); // a failed reading keeps the budget
    }
    const now = this.now();
    const dt = now - this.lastSampleAt;
    const workerMsPerSec = dt > 0 ? ((this.busyMs - this.lastSampleBusyMs) / dt) * 1000 : 0;
    this.lastSampleAt = now;
    this.lastSampleBusyMs = this.busyMs;
    this.cpuIdleCores = sample.idleCores;
    this.eventLoopUtilization = sample.eventLoopUtilization;
    this.budget = nextCpuBudget({
      maxMsPerSec: this.maxBudget(),
      minMsPerSec: this.minBudget,
      share: this.cpuShare,
      idleCores: sample.idleCores,
      eventLoopUtilization: sample.eventLoopUtilization,
      workerMsPerSec,
      previousMsPerSec: this.budget,
    });
    return this.budgetMsPerSec();
  }

  /**
   * Starts the workers if needed and resolves once every one of them is ready (warmed up), or the pool is
   * degraded or closed. Requests made before that wait in the queue like any other (their deadlines hold).
   */
  ready(): Promise<void> {
    this.start();
    if (this.isReady()) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  private isReady(): boolean {
    return this.closed || this.degraded || (this.slots.length > 0 && this.slots.every((s) => s.ready));
  }

  private checkReady(): void {
    if (this.readyWaiters.length === 0 || !this.isReady()) return;
    for (const w of this.readyWaiters.splice(0)) w();
  }

  /** The decision of bot `level` for the viewer of `view` (see the file comment). */
  decide(level: BotLevel, view: PlayerView, seed: number, opts: BotDecideOptions = {}): Promise<GameAction | null> {
    if (this.closed) return Promise.reject(new Error('BotPool is closed'));
    const seat = view.viewer;
    if (seat === 'spectator' || view.turn !== seat || (view.phase !== 'BIDDING' && view.phase !== 'PLAYING')) {
      return Promise.resolve(null); // not this seat's turn: nothing to decide
    }
    if (opts.signal?.aborted) {
      this.aborted++;
      return Promise.resolve(null);
    }
    const requested = this.now();
    const deadline = opts.deadline !== undefined && Number.isFinite(opts.deadline) ? opts.deadline : requested + 2 * this.strongMs + 10;
    if (level !== 'strong') {
      const bot = getBot(level);
      const action = bot ? bot.act(view, mulberry32(seed >>> 0)) : null;
      if (isLegalBotAction(view, action)) return Promise.resolve(this.answered(level, action, 'inline', null, requested, deadline));
      return Promise.resolve(this.answered(level, heuristicAct(view), 'illegal', null, requested, deadline));
    }
    this.start();
    if (!strongNeedsSearch(view)) {
      // a forced card, a single bid, the reveal step: the strong bot answers without searching
      const action = strongAct(view, mulberry32(seed >>> 0), { maxMs: 0 });
      if (isLegalBotAction(view, action)) return Promise.resolve(this.answered(level, action, 'inline', null, requested, deadline));
      return Promise.resolve(this.answered(level, heuristicAct(view), 'illegal', null, requested, deadline));
    }
    if (this.degraded) return Promise.resolve(this.answered(level, heuristicAct(view), 'degraded', null, requested, deadline));
    this.demand.hit(requested);
    // a reduced budget's rate: each admitted search costs at least the floor box and the overhead of worker CPU
    // (at the ceiling the workers themselves are the limit: the deadlines decide, 'busy' / 'late', as always)
    const budget = this.budgetMsPerSec();
    const withinBudget = budget >= this.maxBudget() || this.searched.rate(requested) * (this.floorMs + this.overheadMs) < budget;
    if (!withinBudget) return Promise.resolve(this.answered(level, heuristicAct(view), 'budget', null, requested, deadline));
    this.searched.hit(requested);
    return new Promise((resolve) => {
      const job: Job = { id: this.nextId++, level, view, seed: seed >>> 0, deadline, requested, resolve, settled: false };
      if (opts.signal) {
        job.signal = opts.signal;
        job.onAbort = () => this.abort(job);
        opts.signal.addEventListener('abort', job.onAbort, { once: true });
      }
      if (!this.enqueue(job, requested)) return this.fallback(job, 'busy');
      this.pump();
    });
  }

  /** Calls `listener` for every answered decision (e.g. to observe a Prometheus histogram); returns the unsubscribe. */
  onDecision(listener: (e: BotDecisionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  stats(): BotPoolStats {
    const now = this.now();
    const fallbacksTotal = FALLBACK_REASONS.reduce((a, r) => a + this.fallbacks[r], 0);
    const front = this.queue[0];
    return {
      degraded: this.degraded,
      workers: this.slots.length,
      queueDepth: this.queue.length,
      inFlight: this.slots.reduce((a, s) => a + (s.job ? 1 : 0), 0),
      timeboxMs: this.timebox(now, front ? front.deadline : now + 2 * this.strongMs + 10, front ? this.queue.slice(1) : []),
      floorMs: this.floorMs,
      maxMs: this.strongMs,
      budgetMsPerSec: this.budgetMsPerSec(),
      maxBudgetMsPerSec: this.maxBudget(),
      cpuIdleCores: this.cpuIdleCores === null ? null : Math.round(this.cpuIdleCores * 100) / 100,
      eventLoopUtilization: this.eventLoopUtilization === null ? null : Math.round(this.eventLoopUtilization * 1000) / 1000,
      searchedPerSec: Math.round(this.searched.rate(now) * 100) / 100,
      demandPerSec: Math.round(this.demand.rate(now) * 100) / 100,
      overheadMs: Math.round(this.overheadMs * 100) / 100,
      decisionsTotal: this.completed + this.inline + fallbacksTotal,
      completed: this.completed,
      inlineTotal: this.inline,
      fallbacksTotal,
      fallbacksByReason: { ...this.fallbacks },
      aborted: this.aborted,
      illegalChoices: this.illegalChoices,
      restarts: this.restarts,
      busyMsTotal: Math.round(this.busyMs * 100) / 100,
      decisionMs: this.histogram.snapshot(),
      decisionMsP50: this.histogram.quantile(0.5),
      decisionMsP99: this.histogram.quantile(0.99),
    };
  }

  /** Stops the workers; queued and running requests resolve with the heuristic fallback. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopFallbackLog();
    if (this.queueTimer) clearTimeout(this.queueTimer);
    this.queueTimer = null;
    if (this.sampleTimer) clearInterval(this.sampleTimer);
    this.sampleTimer = null;
    for (const job of this.queue.splice(0)) this.fallback(job, 'closed');
    const slots = this.slots.splice(0);
    for (const s of slots) {
      const job = s.job;
      if (!job) continue;
      this.free(s, job);
      this.fallback(job, 'closed');
    }
    this.checkReady();
    await Promise.all(slots.map((s) => s.worker.terminate().catch(() => 0)));
  }

  // ------------------------------------------------------------------ budget

  private maxBudget(): number {
    return this.size * 1000 * this.utilization;
  }

  private budgetMsPerSec(): number {
    return this.degraded ? 0 : this.budget;
  }

  private readyWorkers(): number {
    let n = 0;
    for (const s of this.slots) if (s.ready) n++;
    return Math.max(1, n);
  }

  private timebox(now: number, deadline: number, queue: readonly Job[]): number {
    return chooseTimebox({
      now,
      deadline,
      queue,
      workers: this.readyWorkers(),
      floorMs: this.floorMs,
      maxMs: this.strongMs,
      overheadMs: this.overheadMs,
      marginMs: this.marginMs,
      budgetMsPerSec: this.budgetMsPerSec(),
      demandPerSec: this.demand.rate(now),
    });
  }

  private inTime(job: Job, now: number): boolean {
    return canStartInTime(job.deadline, now, this.floorMs, this.overheadMs, this.marginMs);
  }

  /**
   * Inserts by deadline (after the requests with the same deadline) if the request can get the floor box before
   * its deadline behind the requests ahead of it; false (not queued) otherwise: it is answered at once by the
   * heuristic rather than at its deadline, where a busy event loop could make the answer late.
   */
  private enqueue(job: Job, now: number): boolean {
    let lo = 0;
    let hi = this.queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.queue[mid].deadline <= job.deadline) lo = mid + 1;
      else hi = mid;
    }
    const round = this.floorMs + this.overheadMs;
    const start = this.firstFree(now) + Math.floor(lo / this.readyWorkers()) * round;
    if (start + round + this.marginMs > job.deadline) return false;
    this.queue.splice(lo, 0, job);
    return true;
  }

  /** When a worker is free next: now if one is idle (or none is ready yet), else the earliest expected answer. */
  private firstFree(now: number): number {
    let at = Infinity;
    for (const s of this.slots) {
      if (!s.ready) continue;
      if (!s.job) return now;
      at = Math.min(at, (s.job.sentAt as number) + (s.job.boxMs as number) + this.overheadMs);
    }
    return at === Infinity ? now : Math.max(now, at);
  }

  /** Gives free workers the most urgent requests; answers those that can no longer start in time. */
  private pump(): void {
    if (this.closed) return;
    const now = this.now();
    // EDF: the front has the earliest deadline, hence the earliest latest start
    while (this.queue.length > 0 && !this.inTime(this.queue[0], now)) this.fallback(this.queue.shift() as Job, 'late');
    for (const slot of this.slots) {
      if (this.queue.length === 0) break;
      if (slot.job || !slot.ready) continue;
      const job = this.queue.shift() as Job;
      this.dispatch(slot, job, this.timebox(now, job.deadline, this.queue), now);
    }
    this.armQueueTimer(now);
  }

  /** Wakes up when the front request would miss its latest start, to answer it by the heuristic. */
  private armQueueTimer(now: number): void {
    if (this.queueTimer) clearTimeout(this.queueTimer);
    this.queueTimer = null;
    if (this.queue.length === 0 || this.closed) return;
    const latestStart = this.queue[0].deadline - this.floorMs - this.overheadMs - this.marginMs;
    this.queueTimer = setTimeout(
      () => {
        this.queueTimer = null;
        this.pump();
      },
      Math.max(0, latestStart - now) + 1,
    );
    this.queueTimer.unref();
  }

  private dispatch(slot: Slot, job: Job, boxMs: number, now: number): void {
    slot.job = job;
    job.slot = slot;
    job.boxMs = boxMs;
    job.sentAt = now;
    slot.worker.ref();
    this.armJobTimer(slot, job, now);
    const req: BotWorkerRequest = { type: 'decide', id: job.id, level: job.level, view: job.view, seed: job.seed, ms: boxMs };
    try {
      slot.worker.postMessage(req);
    } catch {
      this.replace(slot, 'crash');
    }
  }

  /** A running request: answered by the heuristic once late; its worker replaced once stuck (timeoutMs). */
  private armJobTimer(slot: Slot, job: Job, now: number): void {
    const stuckAt = (job.sentAt as number) + this.timeoutMs;
    const lateAt = job.deadline + this.lateGraceMs;
    const at = job.settled ? stuckAt : Math.min(lateAt, stuckAt);
    job.timer = setTimeout(() => {
      if (slot.job !== job) return;
      const t = this.now();
      if (t >= stuckAt) return this.replace(slot, 'timeout');
      if (!job.settled && t >= lateAt) this.fallback(job, 'late');
      this.armJobTimer(slot, job, t);
    }, Math.max(0, at - now));
  }

  // ------------------------------------------------------------------ answers

  private answered(level: BotLevel, action: GameAction | null, outcome: BotDecisionEvent['outcome'], boxMs: number | null, requested: number, deadline: number): GameAction | null {
    if (outcome === 'worker') this.completed++;
    else if (outcome === 'inline') this.inline++;
    else this.fallbacks[outcome]++;
    if (this.listeners.size > 0) {
      const now = this.now();
      const e: BotDecisionEvent = { level, outcome, timeboxMs: boxMs, latencyMs: now - requested, lateMs: now - deadline };
      for (const l of this.listeners) {
        try {
          l(e);
        } catch {
          // a metrics listener must never break a decision
        }
      }
    }
    return action;
  }

  private settle(job: Job, action: GameAction | null, outcome: BotDecisionEvent['outcome']): void {
    if (job.settled) return;
    job.settled = true;
    if (job.signal && job.onAbort) job.signal.removeEventListener('abort', job.onAbort);
    job.resolve(this.answered(job.level, action, outcome, job.boxMs ?? null, job.requested, job.deadline));
  }

  private fallback(job: Job, reason: BotFallbackReason): void {
    if (job.settled) return;
    this.settle(job, heuristicAct(job.view), reason);
  }

  private abort(job: Job): void {
    if (job.settled) return;
    const i = this.queue.indexOf(job);
    if (i >= 0) this.queue.splice(i, 1);
    job.settled = true;
    this.aborted++;
    job.resolve(null); // a running request keeps its worker until the answer, which is dropped
  }

  private illegalChoice(e: BotFallbackEvent): void {
    this.illegalChoices++;
    this.log.warn(`bot ${e.bot} chose an illegal ${e.kind} (${JSON.stringify(e.chosen)}); played ${JSON.stringify(e.used)} instead`);
  }

  // ------------------------------------------------------------------ workers

  private spawn(): Slot {
    const data: BotWorkerData & { __register: string | null; __entry: string } = {
      commonEntry: this.setup.commonEntry,
      nice: this.workerNice,
      schedIdle: this.workerSchedIdle,
      crashOnSeed: this.crashOnSeed,
      hangOnSeed: this.hangOnSeed,
      illegalOnSeed: this.illegalOnSeed,
      badAnswerOnSeed: this.badAnswerOnSeed,
      __register: this.setup.register,
      __entry: this.setup.file,
    };
    const worker = new Worker(BOOTSTRAP, { eval: true, workerData: data });
    const slot: Slot = { worker, job: null, ready: false };
    worker.unref();
    worker.on('message', (msg: BotWorkerResponse | BotWorkerNote) => {
      if ('type' in msg && msg.type === 'bot-fallback') {
        this.illegalChoice(msg.event);
        return;
      }
      if ('type' in msg) {
        slot.ready = true;
        this.startupFailures = 0;
        this.checkReady();
        this.pump();
        return;
      }
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      this.free(slot, job);
      if (msg.ok) {
        this.busyMs += msg.ms;
        this.histogram.observe(msg.ms);
        const wall = this.now() - (job.sentAt as number);
        this.overheadMs = Math.min(20, Math.max(0.2, 0.9 * this.overheadMs + 0.1 * (wall - (job.boxMs as number))));
        if (isLegalBotAction(job.view, msg.action)) this.settle(job, msg.action, 'worker');
        else this.fallback(job, 'illegal');
      } else {
        this.fallback(job, 'error');
      }
      this.pump();
    });
    worker.on('error', () => this.replace(slot, 'crash'));
    worker.on('exit', () => this.replace(slot, 'crash'));
    return slot;
  }

  private free(slot: Slot, job: Job): void {
    if (job.timer) clearTimeout(job.timer);
    if (slot.job === job) {
      slot.job = null;
      slot.worker.unref();
    }
  }

  /** A worker died (crash, exit, or killed after a timeout): fall back for its job and start a new one. */
  private replace(slot: Slot, reason: BotFallbackReason): void {
    const i = this.slots.indexOf(slot);
    if (slot.job) {
      const job = slot.job;
      this.free(slot, job);
      this.fallback(job, reason);
    }
    if (i < 0) return; // already replaced, or closed
    if (this.closed) {
      this.slots.splice(i, 1);
      return;
    }
    if (!slot.ready && ++this.startupFailures >= 3) {
      // workers cannot even start (e.g. common not built): answer every strong request inline
      this.degraded = true;
      this.slots.splice(i, 1);
      void slot.worker.terminate().catch(() => 0);
      if (this.slots.every((s) => !s.ready)) {
        for (const job of this.queue.splice(0)) this.fallback(job, 'degraded');
      }
      this.checkReady();
      return;
    }
    this.restarts++;
    this.slots[i] = this.spawn();
    void slot.worker.terminate().catch(() => 0);
    this.pump();
  }
}
