import { Injectable, Logger, OnApplicationShutdown, OnModuleInit, Optional } from '@nestjs/common';
import type { SanctionNotice } from '@spades/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/config.schema';
import { ClusterRedis } from '../realtime/cluster-redis';

/** How long a player's active mute/ban is remembered without asking the database again. */
export const STANDING_CACHE_MS = 5_000;
const CACHE_MAX = 50_000;

export interface ActiveSanctions {
  mute: SanctionNotice | null;
  ban: SanctionNotice | null;
}

interface Entry extends ActiveSanctions {
  /** Date.now() after which the entry is read again (the TTL, or the earliest end of a sanction in it). */
  until: number;
}

interface ActiveRow {
  kind: 'mute' | 'ban';
  scope: 'all' | 'lobby' | null;
  reason: string;
  ends_at: Date | null;
}

/**
 * Each player's active mute and ban, read with one indexed query and kept for STANDING_CACHE_MS (or until the
 * sanction ends, whichever is first), so chat and sign-ins do not query on every message. A change on any node
 * clears the entry on every node: in process on one node, and through Redis pub/sub (`<prefix>:sanctions`, payload
 * = the user id) in a cluster; the TTL bounds a missed message.
 */
@Injectable()
export class SanctionsCache implements OnModuleInit, OnApplicationShutdown {
  private readonly log = new Logger('SanctionsCache');
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<ActiveSanctions>>();
  /** Bumped per user on every invalidation: a read that started before it is not cached. */
  private readonly generation = new Map<string, number>();
  private readonly channel: string | null;
  private onMessage: ((channel: string, message: string) => void) | null = null;
  private onReady: (() => void) | null = null;

  constructor(
    private readonly ds: DataSource,
    @Optional() config?: AppConfig,
    @Optional() private readonly redis?: ClusterRedis,
  ) {
    this.channel = config?.cluster.enabled && redis?.enabled ? `${redis.prefix}:sanctions` : null;
  }

  onModuleInit(): void {
    if (!this.channel || !this.redis) return;
    const sub = this.redis.subscriber;
    this.onMessage = (channel, message) => {
      if (channel === this.channel) this.forget(message);
    };
    sub.on('message', this.onMessage);
    // after a reconnect, what was published meanwhile is lost: forget everything
    this.onReady = () => this.entries.clear();
    sub.on('ready', this.onReady);
    void sub.subscribe(this.channel).catch((e: Error) => this.log.warn(`subscribe: ${e.message}`));
  }

  onApplicationShutdown(): void {
    if (this.onMessage && this.redis) {
      try {
        this.redis.subscriber.off('message', this.onMessage);
        if (this.onReady) this.redis.subscriber.off('ready', this.onReady);
      } catch {
        // the connection is already closed
      }
    }
    this.onMessage = null;
  }

  async get(userId: string): Promise<ActiveSanctions> {
    const e = this.entries.get(userId);
    if (e && e.until > Date.now()) return e;
    let p = this.loading.get(userId);
    if (!p) {
      const gen = this.generation.get(userId) ?? 0;
      p = this.read(userId).then(
        (v) => {
          this.loading.delete(userId);
          if ((this.generation.get(userId) ?? 0) === gen) this.remember(userId, v);
          return v;
        },
        (err: unknown) => {
          this.loading.delete(userId);
          throw err;
        },
      );
      this.loading.set(userId, p);
    }
    return p;
  }

  /** Clears the user's entry here and on every other node. */
  async invalidate(userId: string): Promise<void> {
    this.forget(userId);
    if (!this.channel || !this.redis) return;
    await this.redis.command
      .publish(this.channel, userId)
      .catch((e: Error) => this.log.warn(`announcing a sanction change failed: ${e.message}`));
  }

  private forget(userId: string): void {
    this.entries.delete(userId);
    this.loading.delete(userId);
    this.generation.set(userId, (this.generation.get(userId) ?? 0) + 1);
    if (this.generation.size > CACHE_MAX) this.generation.clear();
  }

  private remember(userId: string, v: ActiveSanctions): void {
    const ends = [v.mute?.endsAt, v.ban?.endsAt].filter((x): x is string => !!x).map((x) => Date.parse(x));
    const until = Math.min(Date.now() + STANDING_CACHE_MS, ...ends);
    if (this.entries.size >= CACHE_MAX) this.entries.clear();
    this.entries.set(userId, { ...v, until });
  }

  private async read(userId: string): Promise<ActiveSanctions> {
    const rows: ActiveRow[] = await this.ds.query(
      `SELECT kind, scope, reason, ends_at FROM sanctions
        WHERE user_id = $1 AND lifted_at IS NULL AND kind IN ('mute', 'ban') AND (ends_at IS NULL OR ends_at > now())`,
      [userId],
    );
    return {
      mute: strongest(rows.filter((r) => r.kind === 'mute')),
      ban: strongest(rows.filter((r) => r.kind === 'ban')),
    };
  }
}

/** The sanction that weighs most: a wider mute scope first, then the latest end (none = for good). */
export function strongest(rows: ActiveRow[]): SanctionNotice | null {
  let best: ActiveRow | null = null;
  const end = (r: ActiveRow) => (r.ends_at ? new Date(r.ends_at).getTime() : Infinity);
  const wide = (r: ActiveRow) => (r.scope === 'lobby' ? 0 : 1);
  for (const r of rows) {
    if (!best || wide(r) > wide(best) || (wide(r) === wide(best) && end(r) > end(best))) best = r;
  }
  if (!best) return null;
  return {
    kind: best.kind,
    reason: best.reason,
    endsAt: best.ends_at ? new Date(best.ends_at).toISOString() : null,
    scope: best.kind === 'mute' ? (best.scope ?? 'all') : null,
  };
}
