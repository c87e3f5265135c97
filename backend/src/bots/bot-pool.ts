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
 *
 * Its parts: the options and env (bot-pool.options.ts), the public types (bot-pool.types.ts), the CPU budget
 * (bot-pool.cpu.ts over bot-budget.ts), the accounting (bot-pool.tally.ts), starting a worker
 * (bot-worker-host.ts) and keeping them running (bot-workers.ts), the legality check (bot-legality.ts). This
 * file schedules the requests: the EDF queue, time boxes, deadlines, fallbacks.
 */
import * as os from 'node:os';
import type { GameAction, PlayerView } from '@spades/common';
import { getBot, heuristicAct, mulberry32, onBotFallback, strongAct, strongNeedsSearch } from '@spades/common';
import type { BotLevel, BotWorkerRequest, BotWorkerResponse } from './bot-protocol';
import { canStartInTime, chooseTimebox, systemCpuSampler } from './bot-budget';
import { isLegalBotAction } from './bot-legality';
import { DEFAULT_WORKER_NICE, type BotPoolOptions } from './bot-pool.options';
import { BOT_POOL_DEFAULTS } from './bots.config';
import type { BotDecideOptions, BotDecisionEvent, BotFallbackReason, BotPoolStats } from './bot-pool.types';
import { BotCpuBudget } from './bot-pool.cpu';
import { DecisionTally } from './bot-pool.tally';
import { resolveWorkerSetup } from './bot-worker-host';
import { BotWorkers, type WorkerSlot } from './bot-workers';

export type { BotLevel } from './bot-protocol';
export { BOT_LEVELS } from './bot-protocol';
export { isLegalBotAction } from './bot-legality';
export { botLevelFromEnv, botPoolOptionsFromEnv, DEFAULT_WORKER_NICE } from './bot-pool.options';
export type { BotPoolOptions } from './bot-pool.options';
export type { BotDecideOptions, BotDecisionEvent, BotFallbackReason, BotPoolStats } from './bot-pool.types';

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

type Slot = WorkerSlot<Job>;

export class BotPool {
  private readonly workers: BotWorkers<Job>;
  /** Strong requests waiting for a worker, earliest deadline first (ties: first come). */
  private readonly queue: Job[] = [];
  private readonly strongMs: number;
  private readonly floorMs: number;
  private readonly timeoutMs: number;
  private readonly utilization: number;
  private readonly lateGraceMs: number;
  private readonly marginMs: number;
  private readonly now: () => number;
  private readonly size: number;
  private started = false;
  private nextId = 1;
  private closed = false;
  private overheadMs = 1;
  private readonly cpu: BotCpuBudget;
  private readonly sampleIntervalMs: number;
  private sampleTimer: NodeJS.Timeout | null = null;
  private readonly tally: DecisionTally;
  private queueTimer: NodeJS.Timeout | null = null;
  private readonly readyWaiters: (() => void)[] = [];
  private readonly stopFallbackLog: () => void;

  constructor(opts: BotPoolOptions = {}) {
    const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
    this.size = Math.max(1, Math.floor(opts.size ?? cores - 1));
    this.strongMs = opts.strongMs ?? BOT_POOL_DEFAULTS.strongMs;
    this.floorMs = Math.min(opts.floorMs ?? BOT_POOL_DEFAULTS.floorMs, this.strongMs);
    this.timeoutMs = opts.timeoutMs ?? BOT_POOL_DEFAULTS.timeoutMs;
    this.utilization = opts.utilization ?? 0.9;
    this.cpu = new BotCpuBudget({
      maxMsPerSec: this.size * 1000 * this.utilization,
      minMsPerSec: opts.minBudgetMsPerSec ?? 100,
      share: opts.cpuShare ?? BOT_POOL_DEFAULTS.cpuShare,
      sampler: opts.cpuSampler === undefined ? systemCpuSampler() : opts.cpuSampler,
    });
    this.sampleIntervalMs = opts.sampleIntervalMs ?? 500;
    this.lateGraceMs = opts.lateGraceMs ?? 10;
    this.marginMs = opts.marginMs ?? 2;
    this.now = opts.now ?? Date.now;
    this.tally = new DecisionTally(this.now);
    const worker = {
      nice: opts.workerNice ?? DEFAULT_WORKER_NICE,
      schedIdle: opts.workerSchedIdle ?? BOT_POOL_DEFAULTS.workerSched === 'idle',
      crashOnSeed: opts.crashOnSeed,
      hangOnSeed: opts.hangOnSeed,
      illegalOnSeed: opts.illegalOnSeed,
      badAnswerOnSeed: opts.badAnswerOnSeed,
    };
    this.workers = new BotWorkers<Job>(resolveWorkerSetup(opts.commonEntry), worker, {
      ready: () => {
        this.checkReady();
        this.pump();
      },
      answer: (slot, msg) => this.answer(slot, msg),
      illegal: (e) => this.tally.illegalChoice(e),
      lost: (job, reason) => this.fallback(job, reason),
      degraded: (none) => {
        if (none) for (const job of this.queue.splice(0)) this.fallback(job, 'degraded');
        this.checkReady();
      },
      replaced: () => this.pump(),
    });
    // the light levels run on this thread: their fallbacks are reported here, the workers' by message
    this.stopFallbackLog = onBotFallback((e) => this.tally.illegalChoice(e));
    if (opts.eager) this.start();
  }

  /** Starts the workers (done lazily by the first strong request unless `eager`). */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    this.workers.start(this.size);
    this.cpu.begin(this.now(), this.tally.busyMs);
    if (this.cpu.sampling && this.sampleIntervalMs > 0) {
      this.sampleTimer = setInterval(() => this.sampleCpu(), this.sampleIntervalMs);
      this.sampleTimer.unref();
    }
  }

  /**
   * Reads the machine and sets the budget (`nextCpuBudget`); called every `sampleIntervalMs` once the workers
   * started (tests call it directly). Returns the new budget, ms per second.
   */
  sampleCpu(): number {
    if (!this.closed) this.cpu.sample(this.now(), this.tally.busyMs);
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
    const { slots, degraded } = this.workers;
    return this.closed || degraded || (slots.length > 0 && slots.every((s) => s.ready));
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
      this.tally.aborted++;
      return Promise.resolve(null);
    }
    const requested = this.now();
    const deadline =
      opts.deadline !== undefined && Number.isFinite(opts.deadline)
        ? opts.deadline
        : requested + 2 * this.strongMs + 10;
    if (level !== 'strong') {
      const bot = getBot(level);
      const action = bot ? bot.act(view, mulberry32(seed >>> 0)) : null;
      if (isLegalBotAction(view, action))
        return Promise.resolve(this.answered(level, action, 'inline', null, requested, deadline));
      return Promise.resolve(this.answered(level, heuristicAct(view), 'illegal', null, requested, deadline));
    }
    this.start();
    if (!strongNeedsSearch(view)) {
      // a forced card, a single bid, the reveal step: the strong bot answers without searching
      const action = strongAct(view, mulberry32(seed >>> 0), { maxMs: 0 });
      if (isLegalBotAction(view, action))
        return Promise.resolve(this.answered(level, action, 'inline', null, requested, deadline));
      return Promise.resolve(this.answered(level, heuristicAct(view), 'illegal', null, requested, deadline));
    }
    if (this.workers.degraded)
      return Promise.resolve(this.answered(level, heuristicAct(view), 'degraded', null, requested, deadline));
    // a reduced budget's rate: each admitted search costs at least the floor box and the overhead of worker CPU
    if (!this.cpu.admit(requested, this.floorMs + this.overheadMs))
      return Promise.resolve(this.answered(level, heuristicAct(view), 'budget', null, requested, deadline));
    return new Promise((resolve) => {
      const job: Job = {
        id: this.nextId++,
        level,
        view,
        seed: seed >>> 0,
        deadline,
        requested,
        resolve,
        settled: false,
      };
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
    return this.tally.onDecision(listener);
  }

  stats(): BotPoolStats {
    const now = this.now();
    const front = this.queue[0];
    const cpu = this.cpu;
    return {
      degraded: this.workers.degraded,
      workers: this.workers.slots.length,
      queueDepth: this.queue.length,
      inFlight: this.workers.slots.reduce((a, s) => a + (s.job ? 1 : 0), 0),
      timeboxMs: this.timebox(
        now,
        front ? front.deadline : now + 2 * this.strongMs + 10,
        front ? this.queue.slice(1) : [],
      ),
      floorMs: this.floorMs,
      maxMs: this.strongMs,
      budgetMsPerSec: this.budgetMsPerSec(),
      maxBudgetMsPerSec: cpu.maxMsPerSec,
      cpuIdleCores: cpu.cpuIdleCores === null ? null : Math.round(cpu.cpuIdleCores * 100) / 100,
      eventLoopUtilization:
        cpu.eventLoopUtilization === null ? null : Math.round(cpu.eventLoopUtilization * 1000) / 1000,
      searchedPerSec: Math.round(cpu.searched.rate(now) * 100) / 100,
      demandPerSec: Math.round(cpu.demand.rate(now) * 100) / 100,
      overheadMs: Math.round(this.overheadMs * 100) / 100,
      restarts: this.workers.restarts,
      ...this.tally.stats(),
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
    const slots = this.workers.close();
    for (const s of slots) {
      const job = s.job;
      if (!job) continue;
      this.workers.free(s, job);
      this.fallback(job, 'closed');
    }
    this.checkReady();
    await Promise.all(slots.map((s) => s.worker.terminate().catch(() => 0)));
  }

  // ------------------------------------------------------------------ budget

  private budgetMsPerSec(): number {
    return this.workers.degraded ? 0 : this.cpu.msPerSec;
  }

  private readyWorkers(): number {
    let n = 0;
    for (const s of this.workers.slots) if (s.ready) n++;
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
      demandPerSec: this.cpu.demand.rate(now),
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
    for (const s of this.workers.slots) {
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
    for (const slot of this.workers.slots) {
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
    const req: BotWorkerRequest = {
      type: 'decide',
      id: job.id,
      level: job.level,
      view: job.view,
      seed: job.seed,
      ms: boxMs,
    };
    try {
      slot.worker.postMessage(req);
    } catch {
      this.workers.replace(slot, 'crash');
    }
  }

  /** A running request: answered by the heuristic once late; its worker replaced once stuck (timeoutMs). */
  private armJobTimer(slot: Slot, job: Job, now: number): void {
    const stuckAt = (job.sentAt as number) + this.timeoutMs;
    const lateAt = job.deadline + this.lateGraceMs;
    const at = job.settled ? stuckAt : Math.min(lateAt, stuckAt);
    job.timer = setTimeout(
      () => {
        if (slot.job !== job) return;
        const t = this.now();
        if (t >= stuckAt) return this.workers.replace(slot, 'timeout');
        if (!job.settled && t >= lateAt) this.fallback(job, 'late');
        this.armJobTimer(slot, job, t);
      },
      Math.max(0, at - now),
    );
  }

  // ------------------------------------------------------------------ answers

  private answered(
    level: BotLevel,
    action: GameAction | null,
    outcome: BotDecisionEvent['outcome'],
    boxMs: number | null,
    requested: number,
    deadline: number,
  ): GameAction | null {
    return this.tally.answered(level, action, outcome, boxMs, requested, deadline);
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
    this.tally.aborted++;
    job.resolve(null); // a running request keeps its worker until the answer, which is dropped
  }

  // ------------------------------------------------------------------ workers

  /** A worker's answer: its job's action if legal, else the heuristic; then the next request. */
  private answer(slot: Slot, msg: BotWorkerResponse): void {
    const job = slot.job;
    if (!job || job.id !== msg.id) return;
    this.workers.free(slot, job);
    if (msg.ok) {
      this.tally.searched(msg.ms);
      const wall = this.now() - (job.sentAt as number);
      this.overheadMs = Math.min(20, Math.max(0.2, 0.9 * this.overheadMs + 0.1 * (wall - (job.boxMs as number))));
      if (isLegalBotAction(job.view, msg.action)) this.settle(job, msg.action, 'worker');
      else this.fallback(job, 'illegal');
    } else {
      this.fallback(job, 'error');
    }
    this.pump();
  }
}
