/**
 * BotPool: bot decisions for the server, with `strong` computed in worker threads so that a table full of bots
 * never blocks the event loop (and other tables).
 *
 *   const pool = new BotPool({ size: 1, strongMs: 40 });
 *   const action = await pool.decide('strong', viewFor(state, seat), seed);   // GameAction | null
 *   await pool.close();
 *
 * - `level`: 'random' | 'basic' | 'heuristic' | 'strong' (see `botLevelFromEnv` for BOT_LEVEL). Levels other
 *   than 'strong' take microseconds and run inline; 'strong' goes to a worker.
 * - `view` is the seat's `viewFor` (never the full state); `seed` is any 32-bit integer (the bot's rng seed:
 *   same view + seed → same decision).
 * - Resolves null only when it is not the viewer's turn. Never rejects for a bot failure: if a worker crashes,
 *   times out, errors or answers with an illegal action, the request falls back to the heuristic bot computed
 *   inline, and a crashed / stuck worker is replaced.
 * - Works from compiled code (`node backend/dist/main.js`: the worker is dist/bots/bot-worker.js and loads
 *   common/dist) and from TypeScript sources (jest, tsx: the worker registers tsx's require hook and loads
 *   common/src).
 */
import { Worker } from 'node:worker_threads';
import * as os from 'node:os';
import * as path from 'node:path';
import { Logger } from '@nestjs/common';
import type { BotFallbackEvent, GameAction, PlayerView } from '@spades/common';
import { getBot, heuristicAct, legalBids, legalCards, mulberry32, onBotFallback } from '@spades/common';
import { BOT_LEVELS, BotLevel, BotWorkerData, BotWorkerNote, BotWorkerRequest, BotWorkerResponse } from './bot-protocol';

export type { BotLevel } from './bot-protocol';
export { BOT_LEVELS } from './bot-protocol';

export interface BotPoolOptions {
  /** Number of worker threads (default: available cores − 1, at least 1, at most 4). */
  size?: number;
  /** Time box of one strong decision in ms (default 40). */
  strongMs?: number;
  /** A worker that has not answered after this many ms is replaced and the request falls back (default 2000). */
  timeoutMs?: number;
  /** Tests only: a strong request with this seed crashes its worker. */
  crashOnSeed?: number;
  /** Tests only: a strong request with this seed never answers. */
  hangOnSeed?: number;
  /** Tests only: a strong request with this seed reports an illegal bot choice (common's fallback) in its worker. */
  illegalOnSeed?: number;
  /** Override of the module the worker loads for @spades/common. */
  commonEntry?: string;
  /** Start the workers now instead of at the first strong request (warms them up before the first table). */
  eager?: boolean;
}

/** Pool options from the environment: BOT_WORKERS, BOT_STRONG_MS, BOT_TIMEOUT_MS (unset → defaults). */
export function botPoolOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): BotPoolOptions {
  const num = (name: string): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return undefined;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number (got "${raw}")`);
    return n;
  };
  return { size: num('BOT_WORKERS'), strongMs: num('BOT_STRONG_MS'), timeoutMs: num('BOT_TIMEOUT_MS') };
}

export interface BotPoolStats {
  /** True when workers could not start (3 consecutive startup failures): strong requests answered inline by the heuristic. */
  degraded: boolean;
  workers: number;
  completed: number;
  fallbacks: number;
  /** Bot choices that were illegal and replaced by common's safety net (a bot bug; each one is logged). */
  illegalChoices: number;
  restarts: number;
  queued: number;
}

interface Job {
  id: number;
  level: BotLevel;
  view: PlayerView;
  seed: number;
  resolve: (a: GameAction | null) => void;
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
  private readonly queue: Job[] = [];
  private readonly setup: ReturnType<typeof resolveWorkerSetup>;
  private readonly strongMs: number;
  private readonly timeoutMs: number;
  private readonly crashOnSeed?: number;
  private readonly hangOnSeed?: number;
  private readonly illegalOnSeed?: number;
  private readonly size: number;
  private started = false;
  private nextId = 1;
  private closed = false;
  private completed = 0;
  private fallbacks = 0;
  private illegalChoices = 0;
  private readonly stopFallbackLog: () => void;
  private readonly log = new Logger('Bots');
  private restarts = 0;
  /** Consecutive workers that died before becoming ready; at 3 the pool degrades to inline heuristic. */
  private startupFailures = 0;
  private degraded = false;

  constructor(opts: BotPoolOptions = {}) {
    const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
    const size = Math.max(1, Math.min(4, opts.size ?? cores - 1));
    this.strongMs = opts.strongMs ?? 40;
    this.timeoutMs = opts.timeoutMs ?? 2000;
    this.crashOnSeed = opts.crashOnSeed;
    this.hangOnSeed = opts.hangOnSeed;
    this.setup = resolveWorkerSetup(opts.commonEntry);
    this.size = size;
    this.illegalOnSeed = opts.illegalOnSeed;
    // the light levels run on this thread: their fallbacks are reported here, the workers' by message
    this.stopFallbackLog = onBotFallback((e) => this.illegalChoice(e));
    if (opts.eager) this.start();
  }

  /** Starts the workers (done lazily by the first strong request unless `eager`). */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    for (let i = 0; i < this.size; i++) this.slots.push(this.spawn());
  }

  /** The decision of bot `level` for the viewer of `view` (see the file comment). */
  decide(level: BotLevel, view: PlayerView, seed: number): Promise<GameAction | null> {
    if (this.closed) return Promise.reject(new Error('BotPool is closed'));
    const seat = view.viewer;
    if (seat === 'spectator' || view.turn !== seat || (view.phase !== 'BIDDING' && view.phase !== 'PLAYING')) {
      return Promise.resolve(null); // not this seat's turn: nothing to decide
    }
    if (level !== 'strong') {
      const bot = getBot(level);
      const action = bot ? bot.act(view, mulberry32(seed >>> 0)) : null;
      return Promise.resolve(isLegalBotAction(view, action) ? action : this.fallback(view, false));
    }
    if (this.degraded) return Promise.resolve(this.fallback(view, true));
    this.start();
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, level, view, seed: seed >>> 0, resolve });
      this.pump();
    });
  }

  stats(): BotPoolStats {
    return {
      degraded: this.degraded,
      workers: this.slots.length,
      completed: this.completed,
      fallbacks: this.fallbacks,
      illegalChoices: this.illegalChoices,
      restarts: this.restarts,
      queued: this.queue.length,
    };
  }

  private illegalChoice(e: BotFallbackEvent): void {
    this.illegalChoices++;
    this.log.warn(`bot ${e.bot} chose an illegal ${e.kind} (${JSON.stringify(e.chosen)}); played ${JSON.stringify(e.used)} instead`);
  }

  /** Stops the workers; queued and running requests resolve with the heuristic fallback. */
  async close(): Promise<void> {
    this.closed = true;
    this.stopFallbackLog();
    for (const job of this.queue.splice(0)) job.resolve(this.fallback(job.view, true));
    const slots = this.slots.splice(0);
    for (const s of slots) {
      if (s.job) this.finish(s, s.job, this.fallback(s.job.view, true));
    }
    await Promise.all(slots.map((s) => s.worker.terminate().catch(() => 0)));
  }

  private fallback(view: PlayerView, count: boolean): GameAction | null {
    if (count) this.fallbacks++;
    return heuristicAct(view);
  }

  private spawn(): Slot {
    const data: BotWorkerData & { __register: string | null; __entry: string } = {
      commonEntry: this.setup.commonEntry,
      strongMs: this.strongMs,
      crashOnSeed: this.crashOnSeed,
      hangOnSeed: this.hangOnSeed,
      illegalOnSeed: this.illegalOnSeed,
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
        this.pump();
        return;
      }
      const job = slot.job;
      if (!job || job.id !== msg.id) return;
      const action = msg.ok && isLegalBotAction(job.view, msg.action) ? msg.action : this.fallback(job.view, true);
      if (msg.ok && action === msg.action) this.completed++;
      this.finish(slot, job, action);
      this.pump();
    });
    worker.on('error', () => this.replace(slot));
    worker.on('exit', () => this.replace(slot));
    return slot;
  }

  /** A worker died (crash, exit, or killed after a timeout): fall back for its job and start a new one. */
  private replace(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (slot.job) this.finish(slot, slot.job, this.fallback(slot.job.view, true));
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
        for (const job of this.queue.splice(0)) job.resolve(this.fallback(job.view, true));
      }
      return;
    }
    this.restarts++;
    this.slots[i] = this.spawn();
    void slot.worker.terminate().catch(() => 0);
    this.pump();
  }

  private finish(slot: Slot, job: Job, action: GameAction | null): void {
    if (job.timer) clearTimeout(job.timer);
    if (slot.job === job) {
      slot.job = null;
      slot.worker.unref();
    }
    job.resolve(action);
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.job || !slot.ready) continue;
      const job = this.queue.shift() as Job;
      slot.job = job;
      slot.worker.ref();
      job.timer = setTimeout(() => this.replace(slot), this.timeoutMs);
      const req: BotWorkerRequest = { type: 'decide', id: job.id, level: job.level, view: job.view, seed: job.seed };
      try {
        slot.worker.postMessage(req);
      } catch {
        this.replace(slot);
      }
    }
  }
}
