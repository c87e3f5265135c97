/**
 * Leaver penalties (issue #11), read from the environment when the app boots (tests set the variables before
 * booting, like games.config.ts). Admins are roles stored on accounts (src/admin).
 */
export interface RatingsConfig {
  /** Abandoned rated games inside the window that trigger a ban (3). */
  banAbandonments: number;
  /** The window, hours (24). */
  banWindowHours: number;
  /** First ban, minutes (15); each further ban inside the forgiveness period doubles it. */
  banBaseMinutes: number;
  /** Longest ban, minutes (7 days). */
  banMaxMinutes: number;
  /** Days without a ban after which the next ban starts again at the base length (7). */
  banForgiveDays: number;
}

function int(env: NodeJS.ProcessEnv, name: string, def: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer >= ${min} (got "${raw}")`);
  return n;
}

export function loadRatingsConfig(env: NodeJS.ProcessEnv = process.env): RatingsConfig {
  return {
    banAbandonments: int(env, 'RATING_BAN_ABANDONMENTS', 3, 1),
    banWindowHours: int(env, 'RATING_BAN_WINDOW_HOURS', 24, 1),
    banBaseMinutes: int(env, 'RATING_BAN_BASE_MINUTES', 15, 1),
    banMaxMinutes: int(env, 'RATING_BAN_MAX_MINUTES', 7 * 24 * 60, 1),
    banForgiveDays: int(env, 'RATING_BAN_FORGIVE_DAYS', 7, 0),
  };
}

export const RATINGS_CONFIG = Symbol('RATINGS_CONFIG');

/** Ban length for the n-th ban inside the forgiveness period (1-based): base · 2^(n−1), at most max. */
export function banMinutes(cfg: RatingsConfig, level: number): number {
  return Math.min(cfg.banMaxMinutes, cfg.banBaseMinutes * 2 ** Math.min(30, Math.max(0, level - 1)));
}
