import { Injectable, Optional } from '@nestjs/common';
import { CHAT_HISTORY_SIZE, CHAT_RATE_MAX, CHAT_RATE_WINDOW_MS, ChatMessage, parseChatInput } from '@spades/common';
import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { ClusterRedis } from './cluster-redis';

export class ChatRejected extends Error {}

const TOO_FAST = 'You are sending messages too fast. Please wait a moment.';
/** Cluster mode: how long a chat message waits for the Redis rate limit before this node's own count decides. */
const REDIS_RATE_TIMEOUT_MS = 1000;

/**
 * The sliding window of one user's messages in Redis (cluster mode: a user with sockets on two nodes shares one
 * limit): drops the sends older than the window; admits this one when fewer than the maximum remain. Server time.
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
 * Lobby chat: validation (trim, non-empty, ≤ 500), per-user rate limit (3 per second: in memory on a single node,
 * in Redis in cluster mode), storage, history.
 */
@Injectable()
export class LobbyChatService {
  private readonly sent = new Map<string, number[]>();
  private readonly redis: (Redis & { spadesChatRate?(key: string, ...args: string[]): Promise<number> }) | null = null;
  private readonly ratePrefix: string = '';

  constructor(
    private readonly dataSource: DataSource,
    @Optional() cluster?: ClusterRedis,
  ) {
    if (!cluster?.enabled) return;
    this.redis = cluster.command;
    this.ratePrefix = `${cluster.prefix}:chat-rate:`;
    if (!this.redis.spadesChatRate) this.redis.defineCommand('spadesChatRate', { numberOfKeys: 1, lua: RATE_SCRIPT });
  }

  /** Validates, rate-limits and stores a message; throws ChatRejected with a user-facing message. */
  async post(userId: string, input: unknown, now = Date.now()): Promise<ChatMessage> {
    const parsed = parseChatInput(input);
    if (!parsed.ok) throw new ChatRejected(parsed.message);
    if (!(await this.admit(userId, now))) throw new ChatRejected(TOO_FAST);
    const rows: { id: string; username: string; created_at: Date }[] = await this.dataSource.query(
      `INSERT INTO lobby_chat_messages (user_id, username, message)
       SELECT id, username, $2 FROM users WHERE id = $1
       RETURNING id, username, created_at`,
      [userId, parsed.text],
    );
    if (!rows.length) throw new ChatRejected('Unknown user');
    return toMessage({ ...rows[0], user_id: userId, message: parsed.text });
  }

  /** Within the rate limit? Cluster mode asks Redis; while Redis does not answer, this node's own count decides. */
  private async admit(userId: string, now: number): Promise<boolean> {
    if (this.redis?.spadesChatRate) {
      const member = `${now}:${randomBytes(4).toString('hex')}`;
      let timer: NodeJS.Timeout | undefined;
      const answer = await Promise.race([
        this.redis
          .spadesChatRate(this.ratePrefix + userId, String(CHAT_RATE_WINDOW_MS), String(CHAT_RATE_MAX), member)
          .catch(() => null),
        new Promise<null>((r) => (timer = setTimeout(() => r(null), REDIS_RATE_TIMEOUT_MS))),
      ]);
      clearTimeout(timer);
      if (answer !== null) return answer === 1;
    }
    return this.admitLocally(userId, now);
  }

  private admitLocally(userId: string, now: number): boolean {
    const recent = (this.sent.get(userId) ?? []).filter((t) => now - t < CHAT_RATE_WINDOW_MS);
    if (recent.length >= CHAT_RATE_MAX) {
      this.sent.set(userId, recent);
      return false;
    }
    recent.push(now);
    this.sent.set(userId, recent);
    if (this.sent.size > 50_000)
      for (const [k, v] of this.sent) if (v.every((t) => now - t >= CHAT_RATE_WINDOW_MS)) this.sent.delete(k);
    return true;
  }

  /**
   * The last 100 messages `viewerId` may see, oldest first: senders the viewer blocks are filtered IN the query,
   * so a viewer who blocks chatty players still gets 100 messages (when that many exist).
   */
  async history(viewerId: string): Promise<ChatMessage[]> {
    const rows: { id: string; user_id: string; username: string; message: string; created_at: Date }[] =
      await this.dataSource.query(
        `SELECT m.id, m.user_id, m.username, m.message, m.created_at FROM lobby_chat_messages m
          WHERE NOT EXISTS (SELECT 1 FROM user_relations r
                             WHERE r.user_id = $1 AND r.target_id = m.user_id AND r.kind = 'block')
          ORDER BY m.created_at DESC, m.id DESC LIMIT ${CHAT_HISTORY_SIZE}`,
        [viewerId],
      );
    return rows.reverse().map(toMessage);
  }
}

function toMessage(r: {
  id: string;
  user_id: string;
  username: string;
  message: string;
  created_at: Date;
}): ChatMessage {
  return {
    id: r.id,
    userId: r.user_id,
    username: r.username,
    userName: r.username,
    message: r.message,
    timestamp: new Date(r.created_at).toISOString(),
  };
}
