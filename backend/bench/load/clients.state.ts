/**
 * This client process's measurement counters (reset by `mark`) and its run flags: one mutable object each, shared by
 * the tables (clients.table.ts) and the commands (clients.commands.ts).
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

export const counters = {
  measuring: false,
  actions: 0,
  botActions: 0,
  ackMs: [] as number[],
  ackWhere: [] as number[],
  updateMs: [] as number[],
  rxBytes: {} as Record<string, number>,
  errors: 0,
  errorSamples: [] as string[],
  markCpu: process.cpuUsage(),
  markAt: performance.now(),
};

export const flags = {
  /** Humans stop acting (storm preparation, close-game). */
  paused: false,
  /** Between the transports' drop and the storm's end: reconnects rejoin their table. */
  stormActive: false,
  /** close-game / stop: disconnects are expected. */
  stopping: false,
};

/** This client process's own event-loop delay: time it adds to every ack it times (reported beside the figures). */
export const loopDelay = monitorEventLoopDelay({ resolution: 5 });
export const loopDelayP99Ms = () => Math.round((loopDelay.count ? loopDelay.percentile(99) / 1e6 : 0) * 10) / 10;

/** Starts the measured window: counters from zero (the error count and samples run over the whole run). */
export function mark(): void {
  counters.measuring = true;
  counters.actions = 0;
  counters.botActions = 0;
  counters.ackMs = [];
  counters.ackWhere = [];
  counters.updateMs = [];
  counters.rxBytes = {};
  counters.markCpu = process.cpuUsage();
  counters.markAt = performance.now();
  loopDelay.reset();
  loopDelay.enable();
}

export function error(what: string): void {
  counters.errors++;
  if (counters.errorSamples.length < 20) counters.errorSamples.push(what);
}
