/**
 * The bot pool's CPU budget: the control law that picks each strong decision's time box, the demand estimator
 * it reads, and the decision-time histogram the pool publishes. Pure code (no timers, no workers), so the law
 * is tested on its own. The CPU budget itself follows the machine (`nextCpuBudget`, read by `systemCpuSampler`).
 *
 * Law (earliest deadline first, EDF): when a worker takes the queued request with the earliest deadline, its
 * time box t is the largest value such that
 *   1. it answers in time:           now + t + overhead + margin ≤ its deadline;
 *   2. the queue behind it does too, if every request took the same box: the request of rank k (0 = this one)
 *      starts in round ⌊k / workers⌋, so  now + (⌊k / workers⌋ + 1) · (t + overhead) + margin ≤ deadline_k;
 *   3. the demand fits the budget:   demandPerSec · (t + overhead) ≤ budgetMsPerSec  (the workers' CPU,
 *      workers × 1000 ms per second × a target utilization below 1 so that queues stay short);
 * clamped to [floorMs, maxMs]. Idle → maxMs (BOT_STRONG_MS); under load it shrinks towards floorMs
 * (BOT_FLOOR_MS); a request that cannot even get floorMs before its deadline is answered by the heuristic.
 */

import * as os from 'node:os';
import { performance } from 'node:perf_hooks';

export interface TimeboxInput {
  /** Current time, epoch ms. */
  now: number;
  /** Deadline (epoch ms) of the request about to start. */
  deadline: number;
  /** Requests still queued behind it, earliest deadline first. */
  queue: readonly { deadline: number }[];
  /** Workers serving the queue (≥ 1). */
  workers: number;
  floorMs: number;
  maxMs: number;
  /** Measured per-decision cost besides the box (message passing, cloning, setup), ms. */
  overheadMs: number;
  /** Safety margin before a deadline, ms. */
  marginMs: number;
  /** Worker CPU the pool may spend per second, ms. */
  budgetMsPerSec: number;
  /** Requests per second that need a search (recent rate). */
  demandPerSec: number;
}

/** Queued requests the law looks at (the queue is EDF-sorted: later ones rarely bind). */
const SCAN_LIMIT = 512;

/** The time box (ms, at most one decimal) for the request about to start; see the file comment. */
export function chooseTimebox(i: TimeboxInput): number {
  const workers = Math.max(1, i.workers);
  let t = Math.min(i.maxMs, i.deadline - i.now - i.marginMs - i.overheadMs);
  const n = Math.min(i.queue.length, SCAN_LIMIT);
  for (let k = 0; k < n && t > i.floorMs; k++) {
    const rounds = Math.floor((k + 1) / workers) + 1;
    t = Math.min(t, (i.queue[k].deadline - i.now - i.marginMs) / rounds - i.overheadMs);
  }
  if (i.demandPerSec > 0) t = Math.min(t, i.budgetMsPerSec / i.demandPerSec - i.overheadMs);
  // rounded down to 0.1 ms, so that the rounding never breaks a deadline
  return Math.max(i.floorMs, Math.min(i.maxMs, Math.floor(t * 10) / 10));
}

/** Whether a request with this deadline can still get the floor box if it starts now. */
export function canStartInTime(
  deadline: number,
  now: number,
  floorMs: number,
  overheadMs: number,
  marginMs: number,
): boolean {
  return now + floorMs + overheadMs + marginMs <= deadline;
}

/** Events per second, exponentially weighted (time constant `tauMs`): each event adds 1000 / tauMs, decaying. */
export class RateEstimator {
  private value = 0;
  private at = 0;

  constructor(private readonly tauMs = 2000) {}

  hit(now: number): void {
    this.value = this.rate(now) + 1000 / this.tauMs;
    this.at = now;
  }

  rate(now: number): number {
    if (this.value === 0) return 0;
    return this.value * Math.exp(-Math.max(0, now - this.at) / this.tauMs);
  }
}

/** Upper bounds (ms) of the decision-time histogram buckets (Prometheus `le`; a last +Inf bucket is implied). */
export const DECISION_MS_BUCKETS: readonly number[] = [1, 2, 3, 5, 8, 13, 20, 30, 40, 50, 75, 100, 250, 1000];

export interface HistogramSnapshot {
  /** Upper bounds, ms. */
  buckets: number[];
  /** Cumulative counts: counts[i] = observations ≤ buckets[i] (as Prometheus buckets; `count` is +Inf). */
  counts: number[];
  sum: number;
  count: number;
}

/** A cumulative histogram plus the last `window` observations for exact recent quantiles. */
export class MsHistogram {
  private readonly counts: number[];
  private sum = 0;
  private count = 0;
  private readonly recent: Float64Array;
  private filled = 0;
  private next = 0;

  constructor(
    private readonly buckets: readonly number[] = DECISION_MS_BUCKETS,
    window = 1024,
  ) {
    this.counts = buckets.map(() => 0);
    this.recent = new Float64Array(window);
  }

  observe(ms: number): void {
    for (let i = 0; i < this.buckets.length; i++) if (ms <= this.buckets[i]) this.counts[i]++;
    this.sum += ms;
    this.count++;
    this.recent[this.next] = ms;
    this.next = (this.next + 1) % this.recent.length;
    if (this.filled < this.recent.length) this.filled++;
  }

  /** Quantile q (0..1) of the recent observations; 0 when there are none. */
  quantile(q: number): number {
    if (this.filled === 0) return 0;
    const xs = Array.from(this.recent.subarray(0, this.filled)).sort((a, b) => a - b);
    const i = Math.min(xs.length - 1, Math.max(0, Math.ceil(q * xs.length) - 1));
    return Math.round(xs[i] * 100) / 100;
  }

  snapshot(): HistogramSnapshot {
    return {
      buckets: [...this.buckets],
      counts: [...this.counts],
      sum: Math.round(this.sum * 100) / 100,
      count: this.count,
    };
  }
}

// ------------------------------------------------------------------ the budget itself: the CPU the machine can spare

/** One reading of the machine, since the previous reading. */
export interface CpuSample {
  /** Share of the time the main thread's event loop was busy (0..1; `performance.eventLoopUtilization()` delta). */
  eventLoopUtilization: number;
  /** Idle CPU over all cores, in cores (0 … number of cores; `os.cpus()` idle-time deltas). */
  idleCores: number;
}

/** Reads the machine; each call reports the interval since the previous call (or since its creation). */
export type CpuSampler = () => CpuSample;

/**
 * The real sampler: the calling thread's event loop utilization and the machine's idle cores, both as deltas
 * since the previous call. Cheap (one `os.cpus()`, i.e. one read of /proc/stat on Linux, and one ELU read).
 * Caveat: inside a container with a CPU quota `os.cpus()` still reports the host's cores.
 */
export function systemCpuSampler(): CpuSampler {
  const cpuTimes = (): { idle: number; total: number } => {
    let idle = 0;
    let total = 0;
    for (const c of os.cpus()) {
      idle += c.times.idle;
      total += c.times.idle + c.times.user + c.times.nice + c.times.sys + c.times.irq;
    }
    return { idle, total };
  };
  let elu = performance.eventLoopUtilization();
  let cpu = cpuTimes();
  return () => {
    const nextElu = performance.eventLoopUtilization();
    const d = performance.eventLoopUtilization(nextElu, elu);
    const nextCpu = cpuTimes();
    const cores = os.cpus().length;
    const dTotal = nextCpu.total - cpu.total;
    const idleCores = dTotal > 0 ? ((nextCpu.idle - cpu.idle) / dTotal) * cores : cores;
    elu = nextElu;
    cpu = nextCpu;
    return { eventLoopUtilization: Number.isFinite(d.utilization) ? d.utilization : 0, idleCores };
  };
}

export interface CpuBudgetInput {
  /** The budget's ceiling: workers × 1000 ms × utilization (what the workers can do). */
  maxMsPerSec: number;
  /** Its floor, ms per second (the bots never stop searching entirely). */
  minMsPerSec: number;
  /** BOT_CPU_SHARE: share (0..1) of the CPU that is idle or already the bots' that the bots may take. */
  share: number;
  /** From the sample. */
  idleCores: number;
  eventLoopUtilization: number;
  /** The workers' own search time over the sample interval, ms per second. */
  workerMsPerSec: number;
  /** The budget so far, ms per second. */
  previousMsPerSec: number;
}

/** ELU above which the main thread counts as saturated (the budget is scaled down towards the floor). */
export const ELU_SATURATED = 0.8;
/** The budget rises by at most this share of its ceiling per sample (falls at once). */
export const BUDGET_RISE_PER_SAMPLE = 0.5;

/**
 * The pool's CPU budget for the next interval (ms of worker search per second):
 *
 *   available = (idleCores × 1000 + workerMsPerSec) × share     — the CPU nobody else wanted, the bots' own
 *                                                                  included, of which the bots take `share`
 *   if ELU > 0.8: available × (1 − ELU) / 0.2                   — the event loop is saturated: give it room
 *   budget = clamp(available, minMsPerSec, maxMsPerSec), rising by at most maxMsPerSec / 2 per sample.
 *
 * The share applies to the bots' own use too, so on a machine with no idle CPU the budget falls geometrically
 * (× share per sample) towards the floor; it settles where idle = workers' use × (1 − share) / share, i.e. the
 * bots always leave some idle CPU (25 % of their use at the default 0.8) for the event loop, the database and
 * the other processes. On an idle machine it returns to the ceiling within two samples.
 */
export function nextCpuBudget(i: CpuBudgetInput): number {
  const share = Math.min(1, Math.max(0, i.share));
  let available = (Math.max(0, i.idleCores) * 1000 + Math.max(0, i.workerMsPerSec)) * share;
  const elu = Math.min(1, Math.max(0, i.eventLoopUtilization));
  if (elu > ELU_SATURATED) available *= (1 - elu) / (1 - ELU_SATURATED);
  const min = Math.min(i.minMsPerSec, i.maxMsPerSec);
  const ceiling = Math.min(i.maxMsPerSec, i.previousMsPerSec + i.maxMsPerSec * BUDGET_RISE_PER_SAMPLE);
  const b = Math.max(min, Math.min(ceiling, available));
  return Math.round(b * 10) / 10;
}
