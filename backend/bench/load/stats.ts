/**
 * Pure parts of the load harness (unit-tested in stats.spec.ts), one job a file: command-line options
 * (options.ts), percentiles (percentile.ts), how a simulated human plays (player.ts), Prometheus text
 * (prometheus.ts), /proc figures (procfs.ts), the result line (result.ts). This index keeps one import for them.
 */
export * from './options';
export * from './percentile';
export * from './player';
export * from './prometheus';
export * from './procfs';
export * from './result';
