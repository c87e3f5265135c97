/**
 * The registry of live backend nodes (issue #13), in PostgreSQL (`backend_nodes`): each node writes a heartbeat
 * about every lease/5 with its load (live tables, bot queue) and whether it drains; a node whose heartbeat is older
 * than the lease (database clock) is dead. Everything is read back in the same round, so `live()` and
 * `leastLoaded()` answer from memory.
 */
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/config.schema';

export interface NodeInfo {
  id: string;
  draining: boolean;
  liveTables: number;
  botQueue: number;
}

/** A new table stays on the node that received it while that node's load is within this of the others' average. */
export const PLACEMENT_SLACK_TABLES = 10;
export const PLACEMENT_SLACK_RATIO = 0.2;

export type LoadProvider = () => { liveTables: number; botQueue: number };

@Injectable()
export class ClusterNodes implements OnApplicationShutdown {
  private readonly log = new Logger('ClusterNodes');
  readonly enabled: boolean;
  readonly nodeId: string;
  readonly leaseMs: number;
  private timer: NodeJS.Timeout | null = null;
  private nodes: NodeInfo[] = [];
  private draining = false;
  private load: LoadProvider = () => ({ liveTables: 0, botQueue: 0 });
  private readonly listeners = new Set<() => void>();
  private beating: Promise<void> | null = null;
  private rounds = 0;
  /** Tables placed on other nodes recently (not yet in their heartbeat for sure): node id → placement times. */
  private readonly placed = new Map<string, number[]>();
  private stopped = false;

  constructor(
    config: AppConfig,
    private readonly ds: DataSource,
  ) {
    this.enabled = config.cluster.enabled;
    this.nodeId = config.cluster.nodeId;
    this.leaseMs = config.cluster.leaseMs;
  }

  setLoadProvider(fn: LoadProvider): void {
    this.load = fn;
  }

  /** Called after every heartbeat round (the games service looks for dead nodes' tables then). */
  onRound(fn: () => void): void {
    this.listeners.add(fn);
  }

  /** Registers this node (first heartbeat) and keeps beating. */
  async start(): Promise<void> {
    if (!this.enabled || this.timer) return;
    await this.beat();
    const every = Math.max(200, Math.floor(this.leaseMs / 5));
    this.timer = setInterval(() => void this.beat(), every);
    this.timer.unref();
  }

  /** One heartbeat now (draining is announced at once). */
  beat(): Promise<void> {
    if (!this.enabled || this.stopped) return Promise.resolve();
    this.beating ??= this.doBeat().finally(() => (this.beating = null));
    return this.beating;
  }

  private async doBeat(): Promise<void> {
    const l = this.load();
    try {
      await this.ds.query(
        `INSERT INTO backend_nodes (id, started_at, heartbeat_at, draining, live_tables, bot_queue) VALUES ($1, now(), now(), $2, $3, $4)
         ON CONFLICT (id) DO UPDATE SET heartbeat_at = now(), draining = $2, live_tables = $3, bot_queue = $4`,
        [this.nodeId, this.draining, l.liveTables, l.botQueue],
      );
      const rows: { id: string; draining: boolean; live_tables: number; bot_queue: number }[] = await this.ds.query(
        `SELECT id, draining, live_tables, bot_queue FROM backend_nodes WHERE heartbeat_at > now() - ($1::int * interval '1 millisecond') ORDER BY id`,
        [this.leaseMs],
      );
      // nodes gone for an hour (killed, never drained) leave the registry; their tables were taken over long ago
      if (++this.rounds % 300 === 1)
        await this.ds.query(`DELETE FROM backend_nodes WHERE heartbeat_at < now() - interval '1 hour'`);
      this.nodes = rows.map((r) => ({
        id: r.id,
        draining: r.draining,
        liveTables: Number(r.live_tables),
        botQueue: Number(r.bot_queue),
      }));
    } catch (e) {
      if (!this.stopped) this.log.warn(`heartbeat failed: ${(e as Error).message}`);
      return;
    }
    for (const fn of this.listeners) fn();
  }

  /** Live node ids (this one included), as of the last heartbeat round. */
  live(): string[] {
    return this.nodes.map((n) => n.id);
  }

  isLive(id: string): boolean {
    return this.nodes.some((n) => n.id === id);
  }

  /** Live nodes that take new tables: not draining. */
  accepting(): NodeInfo[] {
    return this.nodes.filter((n) => !n.draining);
  }

  /**
   * Where a new table goes: the node that received the request, unless its load exceeds the other live nodes'
   * average by more than the slack (PLACEMENT_SLACK_TABLES + PLACEMENT_SLACK_RATIO): then the least-loaded live,
   * non-draining node (load = live tables + queued bot decisions as of the last heartbeat round, + the tables this
   * node placed there since).
   * Behind the nginx example a player's API calls and socket reach one node, so keeping the table there keeps
   * their commands local instead of forwarding each one over Redis; the slack bounds the imbalance that costs.
   */
  leastLoaded(): string {
    // every node's load as of the same heartbeat round: the others' tables created since are not seen here, so this
    // node's own are not counted either (a burst of creates spread over the nodes would otherwise look, on each
    // node, like an imbalance against the others and be placed crosswise); what this node placed elsewhere since
    // counts on top of the target's reported load
    const reported = this.nodes.find((n) => n.id === this.nodeId);
    const self = reported ?? this.load();
    const selfScore = self.liveTables + self.botQueue;
    let best: { id: string; score: number } | null = null;
    let sum = 0;
    let count = 0;
    const now = Date.now();
    for (const n of this.accepting()) {
      if (n.id === this.nodeId) continue;
      const recent = (this.placed.get(n.id) ?? []).filter((t) => now - t < this.placedWindowMs).length;
      const score = n.liveTables + n.botQueue + recent;
      sum += score;
      count += 1;
      if (!best || score < best.score) best = { id: n.id, score };
    }
    if (this.draining) return best?.id ?? this.nodeId;
    if (!best || selfScore <= (sum / count) * (1 + PLACEMENT_SLACK_RATIO) + PLACEMENT_SLACK_TABLES) return this.nodeId;
    return best.id;
  }

  /** A table was just placed on `id`: counted until its next heartbeat says so itself (placements in a burst spread). */
  notePlaced(id: string): void {
    const now = Date.now();
    const times = (this.placed.get(id) ?? []).filter((t) => now - t < this.placedWindowMs);
    times.push(now);
    this.placed.set(id, times);
  }

  /** How long a placement counts on top of the node's reported load: two of its heartbeats. */
  private get placedWindowMs(): number {
    return 2 * Math.max(200, Math.floor(this.leaseMs / 5));
  }

  /** This node stops taking new tables (announced with an immediate heartbeat). */
  async drain(): Promise<void> {
    this.draining = true;
    await this.beat();
  }

  get isDraining(): boolean {
    return this.draining;
  }

  /** Leaves the registry (a clean shutdown: the others need not wait for the lease to see it gone). */
  async leave(): Promise<void> {
    if (!this.enabled) return;
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.beating?.catch(() => undefined);
    await this.ds.query(`DELETE FROM backend_nodes WHERE id = $1`, [this.nodeId]).catch(() => undefined);
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
