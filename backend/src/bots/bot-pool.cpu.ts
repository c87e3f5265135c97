/**
 * How much worker CPU the bots may use now: the budget (ms of search per second) that follows the machine
 * (`nextCpuBudget` over the event loop's utilization and the idle cores, sampled every `sampleIntervalMs`), and
 * the admission of a search against it. The pool asks; the law itself is bot-budget.ts.
 */
import { type CpuSampler, nextCpuBudget, RateEstimator } from './bot-budget';

export interface BotCpuOptions {
  /** The ceiling: workers × 1000 × utilization, ms per second. */
  maxMsPerSec: number;
  /** The floor (at most the ceiling). */
  minMsPerSec: number;
  /** Share (0..1) of the idle CPU (plus the bots' own) the bots may take. */
  share: number;
  /** Reads the machine; null: a fixed budget at the maximum. */
  sampler: CpuSampler | null;
}

export class BotCpuBudget {
  readonly maxMsPerSec: number;
  private readonly minMsPerSec: number;
  private readonly share: number;
  private readonly sampler: CpuSampler | null;
  private budget: number;
  private lastSampleAt = 0;
  private lastSampleBusyMs = 0;
  /** Idle CPU of the machine at the last sample, in cores. */
  cpuIdleCores: number | null = null;
  /** The main thread's event loop utilization (0..1) at the last sample. */
  eventLoopUtilization: number | null = null;
  /** Strong requests that needed a search. */
  readonly demand = new RateEstimator(2000);
  /** Searches admitted within the budget. */
  readonly searched = new RateEstimator(2000);

  constructor(o: BotCpuOptions) {
    this.maxMsPerSec = o.maxMsPerSec;
    this.minMsPerSec = Math.min(o.maxMsPerSec, o.minMsPerSec);
    this.share = Math.min(1, Math.max(0, o.share));
    this.sampler = o.sampler;
    this.budget = this.maxMsPerSec;
  }

  get sampling(): boolean {
    return this.sampler !== null;
  }

  /** The budget now, ms per second. */
  get msPerSec(): number {
    return this.budget;
  }

  /** The sampling baseline (when the workers start): `busyMs` is the workers' compute time so far. */
  begin(now: number, busyMs: number): void {
    this.lastSampleAt = now;
    this.lastSampleBusyMs = busyMs;
  }

  /** Reads the machine and sets the budget; a failed reading (or no sampler) keeps it. */
  sample(now: number, busyMs: number): void {
    if (!this.sampler) return;
    let sample;
    try {
      sample = this.sampler();
    } catch {
      return;
    }
    const dt = now - this.lastSampleAt;
    const workerMsPerSec = dt > 0 ? ((busyMs - this.lastSampleBusyMs) / dt) * 1000 : 0;
    this.lastSampleAt = now;
    this.lastSampleBusyMs = busyMs;
    this.cpuIdleCores = sample.idleCores;
    this.eventLoopUtilization = sample.eventLoopUtilization;
    this.budget = nextCpuBudget({
      maxMsPerSec: this.maxMsPerSec,
      minMsPerSec: this.minMsPerSec,
      share: this.share,
      idleCores: sample.idleCores,
      eventLoopUtilization: sample.eventLoopUtilization,
      workerMsPerSec,
      previousMsPerSec: this.budget,
    });
  }

  /**
   * A search requested now, costing at least `costMs` of worker CPU (the floor box and the overhead): counted as
   * demand, and admitted while a reduced budget's rate allows it (at the ceiling the workers themselves are the
   * limit: the deadlines decide, as always).
   */
  admit(now: number, costMs: number): boolean {
    this.demand.hit(now);
    const ok = this.budget >= this.maxMsPerSec || this.searched.rate(now) * costMs < this.budget;
    if (ok) this.searched.hit(now);
    return ok;
  }
}
