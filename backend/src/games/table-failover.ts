/**
 * Tables changing node (issue #13): joining the cluster (this node's tables of a previous run and those of dead
 * nodes are taken over), the failover round after each heartbeat, loading tables this node now owns (`adopt`: one
 * load per table) and the drain at shutdown (every table handed over to the least-loaded other node). Ownership is
 * a compare-and-set on `games.owner_node` + `owner_epoch` (table.ownership.ts); the epoch fences the writes of a
 * node that lost a table (table.store.ts).
 */
import { Injectable, Logger, Optional } from '@nestjs/common';
import { BotPool } from '../bots/bot-pool';
import { RemoteError } from '../cluster/cluster.bus';
import { MetricsService } from '../metrics/metrics.service';
import { ClusterPeers } from './cluster-peers';
import { LocalTables } from './local-tables.service';
import { TableStore } from './table.store';

/** Tables one failover round takes over (the other survivors take the rest in the same round). */
const CLAIM_PER_ROUND = 50;

@Injectable()
export class TableFailover {
  private readonly log = new Logger('Games');
  /** Tables being loaded here after a take-over (one load per table). */
  private readonly adopting = new Map<string, Promise<void>>();
  private failoverRunning = false;
  private drained: Promise<void> | null = null;

  constructor(
    private readonly local: LocalTables,
    private readonly store: TableStore,
    private readonly peers: ClusterPeers,
    @Optional() private readonly bots?: BotPool,
    @Optional() private readonly metrics?: MetricsService,
  ) {}

  /**
   * Joins the cluster (the caller registered the answers to forwarded calls first): registers (heartbeat with its
   * load), takes over the tables a previous run of this node owned and those of dead nodes, then keeps looking for
   * dead nodes' tables after every heartbeat round.
   */
  async join(): Promise<void> {
    const nodes = this.peers.nodes!;
    await this.peers.bus!.start();
    nodes.setLoadProvider(() => ({
      liveTables: this.local.tables.size,
      botQueue: this.bots?.stats().queueDepth ?? 0,
    }));
    await nodes.start();
    const claimed = await this.peers.ownership!.claimOrphans(nodes.nodeId, nodes.live(), 1_000_000, true);
    await this.adopt(
      claimed.map((c) => c.id),
      'restart',
    );
    if (claimed.length) this.log.log(`Took over ${claimed.length} table(s)`);
    nodes.onRound(() => void this.failoverRound());
  }

  /** Tables a draining node handed over to this one (bus `adopt`). */
  async handedOver(ids: string[]): Promise<true> {
    // a node that is itself going away does not load tables (its own drain or the others' failover moves them)
    if (this.local.isStopping || this.peers.nodes!.isDraining) throw new RemoteError('This node is draining', 503);
    await this.adopt(ids, 'handover');
    return true;
  }

  /** After a heartbeat round: the tables of nodes that stopped beating (or of none) are taken over here. */
  private async failoverRound(): Promise<void> {
    const nodes = this.peers.nodes!;
    if (this.failoverRunning || this.local.isStopping || nodes.isDraining) return;
    this.failoverRunning = true;
    try {
      const claimed = await this.peers.ownership!.claimOrphans(nodes.nodeId, nodes.live(), CLAIM_PER_ROUND);
      if (!claimed.length) return;
      this.log.log(`Taking over ${claimed.length} table(s) of a node that stopped`);
      await this.adopt(
        claimed.map((c) => c.id),
        'failover',
      );
    } catch (e) {
      this.log.warn(`failover round: ${(e as Error).message}`);
    } finally {
      this.failoverRunning = false;
    }
  }

  /** Loads tables this node now owns (take-over, hand-over) and drives them; one load per table at a time. */
  async adopt(ids: string[], reason: 'restart' | 'failover' | 'handover' | 'owner' = 'owner'): Promise<void> {
    const tables = this.local.tables;
    const todo = ids.filter((id) => !tables.get(id));
    const waits = todo.map((id) => this.adopting.get(id)).filter((p): p is Promise<void> => !!p);
    const fresh = todo.filter((id) => !this.adopting.has(id));
    if (fresh.length) {
      const load = (async () => {
        for (const t of await this.store.loadOpen(this.local.cfg.chatHistory, fresh)) {
          this.peers.owners.delete(t.rec.id);
          await this.local.install(t);
          this.metrics?.takeovers.inc({ reason });
        }
      })();
      for (const id of fresh) this.adopting.set(id, load);
      load.finally(() => fresh.forEach((id) => this.adopting.delete(id))).catch(() => undefined);
      waits.push(load);
    }
    await Promise.all(waits);
  }

  /**
   * Drain (SIGTERM on a node of several): stop taking new tables, hand every table over to the least-loaded
   * other node (in its queue: the commands already queued run first, later ones are forwarded), then leave the
   * registry. A table that cannot be handed over (no other node) stays owned by this node id: a restart of this
   * replica, or the others after the lease, take it over.
   */
  drain(): Promise<void> {
    if (!this.peers.enabled) return Promise.resolve();
    this.drained ??= this.doDrain();
    return this.drained;
  }

  private async doDrain(): Promise<void> {
    const nodes = this.peers.nodes!;
    await nodes.drain();
    await nodes.beat();
    const actors = [...this.local.tables.all()];
    let moved = 0;
    const counts = new Map(nodes.accepting().map((n) => [n.id, n.liveTables]));
    counts.delete(nodes.nodeId);
    for (const actor of actors) {
      if (!counts.size) break;
      const [to] = [...counts.entries()].sort((x, y) => x[1] - y[1])[0];
      const handed = this.local.handOver(actor, async () => {
        const ok = actor.epoch !== null && (await this.peers.ownership!.handOver(actor.rec.id, actor.epoch, to));
        if (ok) this.peers.owners.set(actor.rec.id, to);
        return ok;
      });
      if (await handed.catch(() => false)) {
        moved++;
        counts.set(to, (counts.get(to) ?? 0) + 1);
        // the new owner loads it now (else at the first command for it, or its failover round once this node is gone)
        await this.peers
          .call(to, 'adopt', [[actor.rec.id]], 3000)
          .catch((e) => this.log.warn(`${to} did not load ${actor.rec.id}: ${(e as Error).message}`));
      }
    }
    this.log.log(`Drained: handed ${moved} of ${actors.length} table(s) over`);
    await nodes.leave();
  }
}
