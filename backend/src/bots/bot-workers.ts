/**
 * The bot pool's worker threads: start them, tell the pool what each one says (ready, an answer, an illegal
 * choice it caught), and replace one that crashes, exits or is stuck; after 3 consecutive workers that die before
 * becoming ready, stop trying (degraded: the pool answers strong requests inline). Which request runs where is
 * the pool's (bot-pool.ts).
 */
import type { Worker } from 'node:worker_threads';
import type { BotFallbackEvent } from '@spades/common';
import type { BotWorkerData, BotWorkerNote, BotWorkerResponse } from './bot-protocol';
import type { BotFallbackReason } from './bot-pool.types';
import { startBotWorker, type BotWorkerSetup } from './bot-worker-host';

export interface WorkerSlot<J> {
  worker: Worker;
  /** The request this worker computes, or null. */
  job: J | null;
  ready: boolean;
}

export interface BotWorkerHooks<J> {
  /** A worker finished starting up. */
  ready(): void;
  /** A worker answered (the pool checks that it is its job's answer). */
  answer(slot: WorkerSlot<J>, msg: BotWorkerResponse): void;
  /** A worker's bot made an illegal choice, replaced by common's safety net. */
  illegal(e: BotFallbackEvent): void;
  /** The running job of a worker that is gone must be answered otherwise. */
  lost(job: J, reason: BotFallbackReason): void;
  /** Workers cannot start: `none` when no worker is left ready (the queued requests must be answered inline). */
  degraded(none: boolean): void;
  /** A replacement worker was started. */
  replaced(): void;
}

export class BotWorkers<J extends { timer?: NodeJS.Timeout }> {
  readonly slots: WorkerSlot<J>[] = [];
  restarts = 0;
  degraded = false;
  private closed = false;
  /** Consecutive workers that died before becoming ready; at 3 the pool degrades to inline heuristic. */
  private startupFailures = 0;

  constructor(
    private readonly setup: BotWorkerSetup,
    private readonly data: Omit<BotWorkerData, 'commonEntry'>,
    private readonly hooks: BotWorkerHooks<J>,
  ) {}

  start(size: number): void {
    for (let i = 0; i < size; i++) this.slots.push(this.spawn());
  }

  /** The worker is done with `job` (answered, or its answer is no longer wanted). */
  free(slot: WorkerSlot<J>, job: J): void {
    if (job.timer) clearTimeout(job.timer);
    if (slot.job === job) {
      slot.job = null;
      slot.worker.unref();
    }
  }

  /** A worker died (crash, exit, or killed after a timeout): its job is lost and a new worker starts. */
  replace(slot: WorkerSlot<J>, reason: BotFallbackReason): void {
    const i = this.slots.indexOf(slot);
    if (slot.job) {
      const job = slot.job;
      this.free(slot, job);
      this.hooks.lost(job, reason);
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
      this.hooks.degraded(this.slots.every((s) => !s.ready));
      return;
    }
    this.restarts++;
    this.slots[i] = this.spawn();
    void slot.worker.terminate().catch(() => 0);
    this.hooks.replaced();
  }

  /** No more workers: returns the ones running (their jobs are the caller's), to be terminated. */
  close(): WorkerSlot<J>[] {
    this.closed = true;
    return this.slots.splice(0);
  }

  private spawn(): WorkerSlot<J> {
    const worker = startBotWorker(this.setup, this.data);
    const slot: WorkerSlot<J> = { worker, job: null, ready: false };
    worker.unref();
    worker.on('message', (msg: BotWorkerResponse | BotWorkerNote) => {
      if ('type' in msg && msg.type === 'bot-fallback') return this.hooks.illegal(msg.event);
      if ('type' in msg) {
        slot.ready = true;
        this.startupFailures = 0;
        return this.hooks.ready();
      }
      this.hooks.answer(slot, msg);
    });
    worker.on('error', () => this.replace(slot, 'crash'));
    worker.on('exit', () => this.replace(slot, 'crash'));
    return slot;
  }
}
