/**
 * The disk's flush latency (issue #10): how long `fdatasync` takes for a small overwrite, the same operation a
 * database's commit waits for (PostgreSQL flushes its WAL with fdatasync by default). Every ack the server sends
 * after a commit inherits this latency, so a stall here is a floor under the ack tail that no server code can
 * lower while it answers only after a durable write.
 *
 * Pure parts (options, the summary) are unit-tested in disk-probe.spec.ts; `probeDisk` does the I/O.
 */
import { closeSync, fdatasyncSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { numberOption, percentile, readOptions, round1 } from '../load/stats';

export interface DiskProbeOptions {
  /** A directory on the disk to measure (a temporary file is created and removed inside it). */
  dir: string;
  /** Flushes per second (0 = back to back). */
  rate: number;
  seconds: number;
  /** Bytes overwritten before each flush (8192: one PostgreSQL WAL page). */
  bytes: number;
}

export interface DiskProbeResult {
  dir: string;
  seconds: number;
  rate: number;
  bytes: number;
  syncs: number;
  syncP50Ms: number | null;
  syncP99Ms: number | null;
  syncP999Ms: number | null;
  syncMaxMs: number | null;
  /** Flushes that took longer than 50 / 100 ms. */
  stallsOver50Ms: number;
  stallsOver100Ms: number;
  /** stallsOver100Ms per minute of probing. */
  stallsOver100MsPerMinute: number;
}

export const DISK_DEFAULTS: DiskProbeOptions = { dir: tmpdir(), rate: 100, seconds: 30, bytes: 8192 };

/** `--dir D --rate R --seconds S --bytes B` (also `--name=value`) → options; a UsageError for anything else. */
export function parseDiskArgs(argv: readonly string[], defaults: DiskProbeOptions = DISK_DEFAULTS): DiskProbeOptions {
  const raw = readOptions(argv, new Set(['dir', 'rate', 'seconds', 'bytes']));
  return {
    dir: raw.get('dir') ?? defaults.dir,
    rate: numberOption(raw, 'rate', defaults.rate, 0, 1e6, false),
    seconds: numberOption(raw, 'seconds', defaults.seconds, 0.1, 86400, false),
    bytes: numberOption(raw, 'bytes', defaults.bytes, 1, 16 * 1024 * 1024),
  };
}

/** The result line from the flush times (ms) of one probe. */
export function summarizeSyncs(
  opts: DiskProbeOptions,
  syncMs: ArrayLike<number>,
  elapsedSeconds: number,
): DiskProbeResult {
  const all = Array.from(syncMs);
  const over = (ms: number) => all.filter((x) => x > ms).length;
  const stalls100 = over(100);
  return {
    dir: opts.dir,
    seconds: Math.round(elapsedSeconds * 10) / 10,
    rate: opts.rate,
    bytes: opts.bytes,
    syncs: all.length,
    syncP50Ms: round2(percentile(all, 50)),
    syncP99Ms: round2(percentile(all, 99)),
    syncP999Ms: round2(percentile(all, 99.9)),
    syncMaxMs: round1(all.length ? all.reduce((m, x) => (x > m ? x : m), 0) : null),
    stallsOver50Ms: over(50),
    stallsOver100Ms: stalls100,
    stallsOver100MsPerMinute: elapsedSeconds > 0 ? Math.round((stalls100 / elapsedSeconds) * 60 * 10) / 10 : 0,
  };
}

function round2(x: number | null): number | null {
  return x === null ? null : Math.round(x * 100) / 100;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Overwrites `bytes` in a 2 MB file (cycling through it, as a WAL segment is written) and fdatasyncs it, `rate`
 * times a second for `seconds`; returns every flush time in ms. The file lives in a fresh directory under `dir`.
 */
export async function probeDisk(opts: DiskProbeOptions): Promise<{ syncMs: Float64Array; elapsedSeconds: number }> {
  const work = mkdtempSync(join(opts.dir, 'spades-disk-probe-'));
  const fd = openSync(join(work, 'probe'), 'w');
  const buf = Buffer.alloc(opts.bytes, 0x5a);
  const slots = Math.max(1, Math.floor((2 * 1024 * 1024) / opts.bytes));
  const out: number[] = [];
  const t0 = performance.now();
  const end = t0 + opts.seconds * 1000;
  try {
    for (let i = 0, next = t0; performance.now() < end; i++) {
      writeSync(fd, buf, 0, buf.length, (i % slots) * buf.length);
      const s = performance.now();
      fdatasyncSync(fd);
      out.push(performance.now() - s);
      if (opts.rate > 0) {
        next += 1000 / opts.rate;
        const wait = next - performance.now();
        if (wait > 0) await sleep(wait);
      }
    }
  } finally {
    closeSync(fd);
    rmSync(work, { recursive: true, force: true });
  }
  return { syncMs: Float64Array.from(out), elapsedSeconds: (performance.now() - t0) / 1000 };
}
