/**
 * Issue #28: where the queue lives. One node: in memory. Cluster mode (DATABASE_URL + REDIS_URL): in Redis — the
 * state is one JSON key, joins and leaves are appended to a list by any node, and the node that takes the short
 * matching lock (SET NX PX) on its tick applies them through the pure matcher and forms the tables. Tickets carry
 * the node their player's socket was on; a ticket of a node that is no longer live is dropped (its player's client
 * re-sends `quickplay_join` when its socket reconnects). Partner invitations are kept the same way.
 */
import { Injectable, Optional } from '@nestjs/common';
import { EMPTY_QUEUE, QueueState } from '@spades/common';
import type Redis from 'ioredis';
import { randomBytes } from 'node:crypto';
import { ClusterRedis } from '../realtime/cluster-redis';
import type { QueueOp, StoredInvite } from './matchmaking.types';

const LOCK_MS = 5000;

@Injectable()
export class QueueStore {
  private state: QueueState = EMPTY_QUEUE;
  private ops: QueueOp[] = [];
  private readonly invites = new Map<string, StoredInvite>();
  private readonly redis: Redis | null = null;
  private readonly prefix: string = '';
  private readonly lockId = randomBytes(8).toString('hex');

  constructor(@Optional() cluster?: ClusterRedis) {
    if (!cluster?.enabled) return;
    this.redis = cluster.command;
    this.prefix = `${cluster.prefix}:mm:`;
  }

  get shared(): boolean {
    return this.redis !== null;
  }

  async push(op: QueueOp): Promise<void> {
    if (this.redis) await this.redis.rpush(this.prefix + 'ops', JSON.stringify(op));
    else this.ops.push(op);
  }

  async snapshot(): Promise<{ state: QueueState; pending: QueueOp[] }> {
    if (!this.redis) return { state: this.state, pending: this.ops };
    const [raw, ops] = await Promise.all([
      this.redis.get(this.prefix + 'state'),
      this.redis.lrange(this.prefix + 'ops', 0, -1),
    ]);
    return {
      state: raw ? (JSON.parse(raw) as QueueState) : EMPTY_QUEUE,
      pending: ops.map((o) => JSON.parse(o) as QueueOp),
    };
  }

  /**
   * Runs one matching round with the pending operations, if this node gets the lock (always on one node); `step`
   * returns the new state, which is stored before the lock is released. False: another node runs this round.
   */
  async round(step: (state: QueueState, ops: QueueOp[]) => Promise<QueueState> | QueueState): Promise<boolean> {
    // Redis down: no round (its commands would wait in ioredis's offline queue, and shutdown behind them)
    if (this.redis && this.redis.status !== 'ready') return false;
    if (!this.redis) {
      const ops = this.ops;
      this.ops = [];
      this.state = await step(this.state, ops);
      return true;
    }
    const r = this.redis;
    const got = await r.set(this.prefix + 'lock', this.lockId, 'PX', LOCK_MS, 'NX');
    if (got !== 'OK') return false;
    try {
      const res = await r
        .multi()
        .get(this.prefix + 'state')
        .lrange(this.prefix + 'ops', 0, -1)
        .del(this.prefix + 'ops')
        .exec();
      const raw = res?.[0]?.[1] as string | null;
      const ops = ((res?.[1]?.[1] as string[] | undefined) ?? []).map((o) => JSON.parse(o) as QueueOp);
      const next = await step(raw ? (JSON.parse(raw) as QueueState) : EMPTY_QUEUE, ops);
      await r.set(this.prefix + 'state', JSON.stringify(next));
    } finally {
      const held = await r.get(this.prefix + 'lock');
      if (held === this.lockId) await r.del(this.prefix + 'lock');
    }
    return true;
  }

  async setInvite(toId: string, inv: StoredInvite): Promise<void> {
    if (this.redis)
      await this.redis.set(`${this.prefix}invite:${toId}:${inv.fromId}`, JSON.stringify(inv), 'PX', 120_000);
    else this.invites.set(`${toId}:${inv.fromId}`, inv);
  }

  /** Takes (removes) the invitation of `fromId` to `toId`. */
  async takeInvite(toId: string, fromId: string): Promise<StoredInvite | null> {
    if (this.redis) {
      const key = `${this.prefix}invite:${toId}:${fromId}`;
      const res = await this.redis.multi().get(key).del(key).exec();
      const raw = res?.[0]?.[1] as string | null;
      return raw ? (JSON.parse(raw) as StoredInvite) : null;
    }
    const inv = this.invites.get(`${toId}:${fromId}`) ?? null;
    this.invites.delete(`${toId}:${fromId}`);
    return inv && Date.now() - inv.at < 120_000 ? inv : null;
  }
}
