/**
 * Leaver penalties (issue #11), read from the environment when the app boots (tests set the variables before
 * booting, like games.config.ts). Admins are roles stored on accounts (src/admin).
 */
import { z } from 'zod';
import { envIntAtLeast, parseEnvOrThrow } from '../config/config.schema';

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

/** The leaver-penalty environment variables (zod, with the app config's helpers). */
export const ratingsEnvSchema = z.object({
  RATING_BAN_ABANDONMENTS: envIntAtLeast('RATING_BAN_ABANDONMENTS', 3, 1).describe('abandonments that trigger a ban'),
  RATING_BAN_WINDOW_HOURS: envIntAtLeast('RATING_BAN_WINDOW_HOURS', 24, 1).describe('window for those, hours'),
  RATING_BAN_BASE_MINUTES: envIntAtLeast('RATING_BAN_BASE_MINUTES', 15, 1).describe('first ban, minutes'),
  RATING_BAN_MAX_MINUTES: envIntAtLeast('RATING_BAN_MAX_MINUTES', 7 * 24 * 60, 1).describe('longest ban, minutes'),
  RATING_BAN_FORGIVE_DAYS: envIntAtLeast('RATING_BAN_FORGIVE_DAYS', 7, 0).describe(
    'ban-free days that reset the length',
  ),
});

export function loadRatingsConfig(env: NodeJS.ProcessEnv = process.env): RatingsConfig {
  const e = parseEnvOrThrow(ratingsEnvSchema, env);
  return {
    banAbandonments: e.RATING_BAN_ABANDONMENTS,
    banWindowHours: e.RATING_BAN_WINDOW_HOURS,
    banBaseMinutes: e.RATING_BAN_BASE_MINUTES,
    banMaxMinutes: e.RATING_BAN_MAX_MINUTES,
    banForgiveDays: e.RATING_BAN_FORGIVE_DAYS,
  };
}

export const RATINGS_CONFIG = Symbol('RATINGS_CONFIG');

/** Ban length for the n-th ban inside the forgiveness period (1-based): base · 2^(n−1), at most max. */
export function banMinutes(cfg: RatingsConfig, level: number): number {
  return Math.min(cfg.banMaxMinutes, cfg.banBaseMinutes * 2 ** Math.min(30, Math.max(0, level - 1)));
}
