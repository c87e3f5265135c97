import { Injectable, Optional } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import { ClusterRedis } from './cluster-redis';

/** One limit: at most `max` actions per `windowMs` per user, counted in its own bucket (`scope`). */
export interface RateLimit {
  scope: string;
  max: number;
  windowMs: number;
}

/** The user-facing refusals of the limits below (one place, so lobby and table chat say the same thing). */
export const RATE_MESSAGES = {
  chatTooFast: 'You are sending messages too fast. Please wait a moment.',
  invitesTooFast: 'You are sending invitations too fast. Please wait a minute and try again.',
} as const;

/** Cluster mode: how long an action waits for the Redis count before this node's own count decides. */
const REDIS_RATE_TIMEOUT_MS = 1000;

/**
 * The sliding window of one user's actions in Redis (cluster mode: a user with sockets on two nodes shares one
 * limit): drops the entries older than the window; admits this one when fewer than the maximum remain. Server time.
 */
const RATE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window, max = tonumber(ARGV[1]), tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= max then return 0 end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return 1
`;

/**
 * Per-user sliding-window rate limits keyed by scope + user id (lobby chat, table chat, invitations): in memory on a
 * single node, in Redis in cluster mode (shared by every node); while Redis does not answer (1 s), this node's own
 * count decides, so an action is never stalled by Redis.
 */
@Injectable()
export class RateLimiter {
  private readonly local = new Map<string, { windowMs: number; times: number[] }>();
  private readonly redis: (Redis & { spadesRate?(key: string, ...args: string[]): Promise<number> }) | null = null;
  private readonly prefix: string = '';

  constructor(@Optional() cluster?: ClusterRedis) {
    if (!cluster?.enabled) return;
    this.redis = cluster.command;
    this.prefix = `${cluster.prefix}:rate:`;
    if (!this.redis.spadesRate) this.redis.defineCommand('spadesRate', { numberOfKeys: 1, lua: RATE_SCRIPT });
  }

  /** Counts this action and answers whether it is within the limit (a refused action is not counted). */
  async admit(limit: RateLimit, userId: string, now = Date.now()): Promise<boolean> {
    const key = `${limit.scope}:${userId}`;
    if (this.redis?.spadesRate) {
      const member = `${now}:${randomBytes(4).toString('hex')}`;
      let timer: NodeJS.Timeout | undefined;
      const answer = await Promise.race([
        this.redis.spadesRate(this.prefix + key, String(limit.windowMs), String(limit.max), member).catch(() => null),
        new Promise<null>((r) => (timer = setTimeout(() => r(null), REDIS_RATE_TIMEOUT_MS))),
      ]);
      clearTimeout(timer);
      if (answer !== null) return answer === 1;
    }
    return this.admitLocally(key, limit, now);
  }

  private admitLocally(key: string, limit: RateLimit, now: number): boolean {
    const times = (this.local.get(key)?.times ?? []).filter((t) => now - t < limit.windowMs);
    const admitted = times.length < limit.max;
    if (admitted) times.push(now);
    this.local.set(key, { windowMs: limit.windowMs, times });
    if (this.local.size > 50_000)
      for (const [k, v] of this.local) if (v.times.every((t) => now - t >= v.windowMs)) this.local.delete(k);
    return admitted;
  }
}
