/**
 * Issue #27: the tournaments' scheduled jobs (@nestjs/schedule). Each tick:
 * - on every node: the tournaments this node drives get a pass (results read, seat deadlines checked) — their
 *   owner's own work, fenced by the epoch;
 * - on ONE node of the cluster, the holder of the `tournaments` lease (`scheduler_leases`: holder + expiry, renewed
 *   each tick; a holder that stops renewing loses it after SCHEDULER_LEASE_MS): start the scheduled tournaments whose
 *   time came (or cancel them below their minimum, refunding every buy-in) and take over tournaments of dead nodes.
 * A single server holds the lease under a fixed name, so a restart takes it back at once. At shutdown (a drain on a
 * node of several) the node hands its tournaments over and releases the lease at once (`drain`).
 */
import { Injectable, Logger, OnApplicationShutdown, OnModuleDestroy, Optional } from '@nestjs/common';
import { Interval } from '@nestjs/schedule';
import { ClusterNodes } from '../cluster/cluster.nodes';
import { TournamentsDriver } from './tournaments.driver';
import { TournamentsService } from './tournaments.service';
import { TournamentsStore } from './tournaments.store';

export const SCHEDULER_LEASE = 'tournaments';
export const SCHEDULER_TICK_MS = 1000;
export const SCHEDULER_LEASE_MS = 5000;

@Injectable()
export class TournamentsScheduler implements OnModuleDestroy, OnApplicationShutdown {
  private readonly log = new Logger('TournamentsScheduler');
  private busy = false;
  private stopped = false;
  private draining: Promise<void> | null = null;
  /** Whether the last tick held the lease. */
  holding = false;
  readonly holder: string;

  constructor(
    private readonly store: TournamentsStore,
    private readonly service: TournamentsService,
    private readonly driver: TournamentsDriver,
    @Optional() private readonly nodes?: ClusterNodes,
  ) {
    this.holder = nodes?.enabled ? nodes.nodeId : 'single-server';
  }

  @Interval('tournaments.tick', SCHEDULER_TICK_MS)
  async tick(): Promise<boolean> {
    if (this.busy || this.stopped) return false;
    this.busy = true;
    try {
      this.driver.reconcile();
      this.holding = await this.store.lease(SCHEDULER_LEASE, this.holder, SCHEDULER_LEASE_MS);
      if (!this.holding) return false;
      await this.leaderJobs();
      return true;
    } catch (e) {
      if (!this.stopped) this.log.warn(`tick: ${(e as Error).message}`);
      return false;
    } finally {
      this.busy = false;
    }
  }

  /** The jobs that must not run twice in a cluster (only the lease holder calls this). */
  private async leaderJobs(): Promise<void> {
    for (const id of await this.store.due(Date.now())) {
      try {
        await this.service.startDue(id);
      } catch (e) {
        this.log.warn(`start ${id}: ${(e as Error).message}`);
      }
    }
    if (this.driver.cluster) await this.driver.claimOrphans(false);
  }

  /**
   * The first shutdown hook (SIGTERM; on a node of several it is a drain, like the games' tables): stop ticking,
   * hand the tournaments this node drives over to another live node (driver.handOver), and give the lease up at
   * once, so another node runs the leader jobs from its next tick instead of waiting SCHEDULER_LEASE_MS.
   */
  async onModuleDestroy(): Promise<void> {
    await this.drain();
  }

  /** Stops this node's scheduler, hands its tournaments over and releases the lease (idempotent). */
  drain(): Promise<void> {
    this.draining ??= this.doDrain();
    return this.draining;
  }

  private async doDrain(): Promise<void> {
    this.stopped = true;
    while (this.busy) await new Promise((r) => setTimeout(r, 10));
    await this.driver.handOver().catch((e: Error) => this.log.warn(`hand-over: ${e.message}`));
    await this.store.releaseLease(SCHEDULER_LEASE, this.holder).catch(() => undefined);
    this.holding = false;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.drain();
  }
}
