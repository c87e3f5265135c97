/**
 * GET /api/admin/dashboard (issue #25): online users, live and playing tables, table commands per second and the
 * players' ack p99 over the last minutes (each node's own metrics, dashboard.sampler.ts), the nodes of a cluster
 * with their load, and the open reports. In a cluster every live node answers for itself over the cluster bus; a
 * node that does not answer in time is listed as unreachable and left out of the figures.
 */
import { Injectable, Logger, OnModuleInit, Optional } from '@nestjs/common';
import type { AdminDashboard, DashboardNode } from '@spades/common';
import { DataSource } from 'typeorm';
import { ClusterBus } from '../cluster/cluster.bus';
import { ClusterNodes } from '../cluster/cluster.nodes';
import { RealtimeService } from '../realtime/realtime.service';
import { DashboardSampler, NodeActivity, seriesOf, windowOf } from './dashboard.sampler';
import { ConsoleTablesService } from './tables.service';

const BUS_ACTIVITY = 'console.activity';
const NODE_TIMEOUT_MS = 2000;

interface NodeRow {
  id: string;
  draining: boolean;
  live_tables: number;
  bot_queue: number;
  started_at: Date;
  heartbeat_at: Date;
}

@Injectable()
export class DashboardService implements OnModuleInit {
  private readonly log = new Logger('Dashboard');
  private readonly cluster: boolean;
  private reportsFailedLogged = false;

  constructor(
    private readonly sampler: DashboardSampler,
    private readonly tables: ConsoleTablesService,
    private readonly realtime: RealtimeService,
    private readonly ds: DataSource,
    @Optional() private readonly bus?: ClusterBus,
    @Optional() private readonly nodes?: ClusterNodes,
  ) {
    this.cluster = !!(bus?.enabled && nodes?.enabled);
  }

  onModuleInit(): void {
    if (this.cluster) this.bus!.handle(BUS_ACTIVITY, () => this.sampler.activity(this.nodes!.nodeId));
  }

  async dashboard(now = Date.now()): Promise<AdminDashboard> {
    const [live, activity, rows, openReports] = await Promise.all([
      this.tables.liveItems(),
      this.activity(now),
      this.nodeRows(),
      this.openReports(),
    ]);
    const playing = live.filter((t) => t.status !== 'WAITING').length;
    const nodes = this.nodeList(rows, activity, now);
    return {
      at: new Date(now).toISOString(),
      onlineUsers: this.realtime.onlineUserIds().length,
      liveTables: live.length,
      playingTables: playing,
      waitingTables: live.length - playing,
      ratedTables: live.filter((t) => t.rated && t.status !== 'WAITING').length,
      lastMinute: windowOf(activity, 1, now),
      last5Minutes: windowOf(activity, 5, now),
      series: seriesOf(activity),
      cluster: this.cluster,
      nodes,
      openReports,
    };
  }

  /** Every reachable node's samples (this one's without a round trip). */
  private async activity(now: number): Promise<NodeActivity[]> {
    const me = this.cluster ? this.nodes!.nodeId : (this.nodes?.nodeId ?? 'local');
    const mine = this.sampler.activity(me, now);
    if (!this.cluster) return [await mine];
    const others = await Promise.allSettled(
      this.nodes!.live()
        .filter((n) => n !== me)
        .map((n) => this.bus!.call<NodeActivity>(n, BUS_ACTIVITY, [], NODE_TIMEOUT_MS)),
    );
    return [await mine, ...others.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []))];
  }

  private async nodeRows(): Promise<NodeRow[]> {
    if (!this.cluster) return [];
    return this.ds.query(
      `SELECT id, draining, live_tables, bot_queue, started_at, heartbeat_at FROM backend_nodes
        WHERE heartbeat_at > now() - ($1::int * interval '1 millisecond') ORDER BY id`,
      [this.nodes!.leaseMs],
    );
  }

  private nodeList(rows: NodeRow[], activity: NodeActivity[], now: number): DashboardNode[] {
    const byId = new Map(activity.map((a) => [a.nodeId, a]));
    const figures = (a: NodeActivity | undefined) => {
      const w = a ? windowOf([a], 1, now) : null;
      return {
        reachable: !!a,
        sockets: a?.sockets ?? null,
        actionsPerSecond: w?.actionsPerSecond ?? null,
        ackP99Ms: w?.ackP99Ms ?? null,
        eventLoopP99Ms: a?.eventLoopP99Ms ?? null,
        rssMB: a?.rssMB ?? null,
      };
    };
    if (!this.cluster) {
      const a = activity[0];
      const liveTables = this.tables.localItems().length;
      return [
        { id: a.nodeId, draining: false, liveTables, botQueue: 0, startedAt: null, heartbeatAt: null, ...figures(a) },
      ];
    }
    return rows.map((r) => ({
      id: r.id,
      draining: r.draining,
      liveTables: Number(r.live_tables),
      botQueue: Number(r.bot_queue),
      startedAt: new Date(r.started_at).toISOString(),
      heartbeatAt: new Date(r.heartbeat_at).toISOString(),
      ...figures(byId.get(r.id)),
    }));
  }

  /** Reports waiting for a moderator (table `reports`, migration 1765020000000; reports_status_idx). */
  private async openReports(): Promise<number> {
    try {
      const [r] = await this.ds.query(`SELECT count(*)::int AS n FROM reports WHERE status IN ('open', 'assigned')`);
      return Number(r?.n ?? 0);
    } catch (e) {
      if (!this.reportsFailedLogged) this.log.warn(`open reports: ${(e as Error).message}`);
      this.reportsFailedLogged = true;
      return 0;
    }
  }
}
