export interface StrongOptions {
  /** Time box per decision in ms (default 40: p99 well under 100 ms on one core). */
  maxMs?: number;
  /** Maximum number of sampled deals per decision (default 4000). */
  maxSamples?: number;
  /** Minimum number of sampled deals, even past the time box (default 4; keeps cold-JIT first moves inside the p99 budget). */
  minSamples?: number;
  /** Clock (default performance.now or Date.now); tests pass a fake clock or a large maxMs with maxSamples. */
  now?: () => number;
  /** Bid by Monte Carlo (default true); false = the heuristic's bid. */
  searchBids?: boolean;
}

const perf = (globalThis as { performance?: { now(): number } }).performance;
export const defaultNow: () => number = perf ? () => perf.now() : () => Date.now();
