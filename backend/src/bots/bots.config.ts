/**
 * The strong bots' worker pool, read from the environment (zod; rendered into docs/configuration.md). Unset or
 * empty → undefined: the pool applies its own default (the `docDefault` shown in the docs).
 */
import { z } from 'zod';

/**
 * The pool's defaults for every variable left unset: read by the pool (bot-pool.ts) and shown in the docs, so the
 * two cannot drift apart. Nice 19 = the lowest priority.
 */
export const BOT_POOL_DEFAULTS = {
  strongMs: 40,
  floorMs: 3,
  timeoutMs: 2000,
  workerNice: 19,
  workerSched: 'idle',
  cpuShare: 0.8,
} as const;

/** Nice value of the worker threads unless BOT_WORKER_NICE says otherwise. */
export const DEFAULT_WORKER_NICE = BOT_POOL_DEFAULTS.workerNice;

const blank = (v: unknown) => v === undefined || (typeof v === 'string' && v.trim() === '');

/** An optional variable: unset/empty → undefined; else `check(raw)`, refused with `NAME <rule> (got "raw")`. */
const optionalEnv = <T>(name: string, rule: string, check: (raw: string) => T | undefined) =>
  z
    .preprocess((v) => (v === undefined ? '' : String(v)), z.string())
    .transform((raw, ctx): T | undefined => {
      if (blank(raw)) return undefined;
      const value = check(String(raw));
      if (value === undefined) {
        ctx.addIssue({ code: 'custom', message: `${name} ${rule} (got "${String(raw)}")` });
        return z.NEVER;
      }
      return value;
    });

const number = (raw: string, ok: (n: number) => boolean) => {
  const n = Number(raw);
  return Number.isFinite(n) && ok(n) ? n : undefined;
};
const positive = (name: string) => optionalEnv(name, 'must be a positive number', (r) => number(r, (n) => n > 0));

export const botsEnvSchema = z.object({
  BOT_WORKERS: optionalEnv('BOT_WORKERS', 'must be an integer from 1 to 64', (r) =>
    number(r, (n) => Number.isInteger(n) && n >= 1 && n <= 64),
  ).meta({ description: 'worker threads for the strong bot', docDefault: 'cores-1, at least 1' }),
  BOT_STRONG_MS: positive('BOT_STRONG_MS').meta({
    description: 'largest time box of one strong decision (the box when the pool is idle), ms',
    docDefault: BOT_POOL_DEFAULTS.strongMs,
  }),
  BOT_FLOOR_MS: positive('BOT_FLOOR_MS').meta({
    description: 'smallest time box under load (at most BOT_STRONG_MS), ms; below it a request gets the heuristic bot',
    docDefault: BOT_POOL_DEFAULTS.floorMs,
  }),
  BOT_TIMEOUT_MS: positive('BOT_TIMEOUT_MS').meta({
    description: 'a worker silent this long is replaced and the request falls back, ms',
    docDefault: BOT_POOL_DEFAULTS.timeoutMs,
  }),
  BOT_WORKER_NICE: optionalEnv('BOT_WORKER_NICE', 'must be an integer from 0 to 19', (r) =>
    number(r, (n) => Number.isInteger(n) && n >= 0 && n <= 19),
  ).meta({
    description: 'nice value of the worker threads (Linux; 0 leaves them as is): they yield the CPU to everything else',
    docDefault: DEFAULT_WORKER_NICE,
  }),
  BOT_WORKER_SCHED: optionalEnv('BOT_WORKER_SCHED', 'must be idle or normal', (r) =>
    r === 'idle' || r === 'normal' ? r : undefined,
  ).meta({
    description: "idle: the worker threads also run in Linux's SCHED_IDLE class; normal: the nice value only",
    docDefault: BOT_POOL_DEFAULTS.workerSched,
  }),
  BOT_CPU_SHARE: optionalEnv('BOT_CPU_SHARE', 'must be a number from 0 to 1', (r) =>
    number(r, (n) => n >= 0 && n <= 1),
  ).meta({
    description: 'share of the idle CPU (plus their own) the bots may take',
    docDefault: BOT_POOL_DEFAULTS.cpuShare,
  }),
});
