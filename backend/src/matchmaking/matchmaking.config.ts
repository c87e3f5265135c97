import { z } from 'zod';
import { DEFAULT_MATCHMAKING_CONFIG, MatchmakingConfig } from '@spades/common';

/** Issue #28: the queue's settings (environment; a bad value falls back to the default). */
export interface QueueConfig extends MatchmakingConfig {
  /** How often the matcher runs. */
  tickMs: number;
}

export const MATCHMAKING_CONFIG = Symbol('MATCHMAKING_CONFIG');

/** A number in [min, max]; unset, empty or out of range → `def` (the queue keeps running on a typo). */
const lenientNumber = (name: string, def: number, min: number, max: number) => {
  const error = `${name} must be a number from ${min} to ${max}`;
  return z
    .preprocess(
      (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : def),
      z.number({ error }).min(min, { error }).max(max, { error }),
    )
    .catch(def);
};

const d = DEFAULT_MATCHMAKING_CONFIG;

/** The quick-play queue's environment variables (zod). */
export const matchmakingEnvSchema = z.object({
  MATCHMAKING_TICK_MS: lenientNumber('MATCHMAKING_TICK_MS', 1000, 50, 60_000).describe(
    'how often the matcher runs, ms',
  ),
  MATCHMAKING_BOT_OFFER_MS: lenientNumber('MATCHMAKING_BOT_OFFER_MS', d.botOfferAfterMs, 0, 3_600_000).describe(
    'wait before offering bots, ms',
  ),
  MATCHMAKING_BASE_SPREAD: lenientNumber('MATCHMAKING_BASE_SPREAD', d.baseSpread, 0, 10_000).describe(
    'rating spread at once',
  ),
  MATCHMAKING_SPREAD_PER_SECOND: lenientNumber('MATCHMAKING_SPREAD_PER_SECOND', d.spreadPerSecond, 0, 10_000).describe(
    'spread added per second',
  ),
  MATCHMAKING_MAX_SPREAD: lenientNumber('MATCHMAKING_MAX_SPREAD', d.maxSpread, 0, 100_000).describe(
    'largest rating spread',
  ),
});

export function loadQueueConfig(env: NodeJS.ProcessEnv): QueueConfig {
  const e = matchmakingEnvSchema.parse(env);
  return {
    tickMs: e.MATCHMAKING_TICK_MS,
    botOfferAfterMs: e.MATCHMAKING_BOT_OFFER_MS,
    baseSpread: e.MATCHMAKING_BASE_SPREAD,
    spreadPerSecond: e.MATCHMAKING_SPREAD_PER_SECOND,
    maxSpread: e.MATCHMAKING_MAX_SPREAD,
  };
}
