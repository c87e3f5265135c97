/** Percentiles of the harness's samples (perf_hooks createHistogram) and the rounding of its ms figures. */
import { createHistogram } from 'node:perf_hooks';

/**
 * Percentile (p in 0..100) of unsorted millisecond samples (or any non-negative figure, to 0.001), in the samples'
 * unit; null when there are none. The samples go into a
 * node:perf_hooks HDR histogram in microseconds with 5 significant figures (exact below 262 ms, within 0.001 %
 * above); its percentile is the sample at rank round(p/100 · n) (at least 1), so p50/p90/p99 equal the nearest rank
 * for the usual sample counts. p = 0 answers the smallest sample.
 */
export function percentile(samples: ArrayLike<number>, p: number): number | null {
  const n = samples.length;
  if (n === 0) return null;
  const h = createHistogram({ lowest: 1, highest: 1e12, figures: 5 });
  for (let i = 0; i < n; i++) h.record(Math.min(1e12, Math.max(1, Math.round(samples[i] * 1000))));
  const us = p <= 0 ? h.min : h.percentile(Math.min(100, p));
  return us / 1000;
}

/** Rounds to 0.1 (ms figures) keeping null. */
export function round1(x: number | null): number | null {
  return x === null || !Number.isFinite(x) ? null : Math.round(x * 10) / 10;
}
