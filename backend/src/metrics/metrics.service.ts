/**
 * Prometheus metrics (prom-client) for the whole server: the default Node.js metrics (event-loop delay, memory,
 * CPU, GC) plus the platform's own. Modules record through the typed fields below; `GET /metrics` renders them.
 * Gauges that describe live state (tables, sockets, bot queue) are read on scrape through `collect` callbacks.
 */
import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Latency buckets (ms): fine enough in the 2–200 ms range that bench:load reads a p99 from them (issue #10). */
const MS_BUCKETS = [0.5, 1, 2, 3, 5, 7.5, 10, 15, 20, 30, 50, 75, 100, 150, 200, 300, 500, 1000, 2500, 5000];

@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  /** Table commands applied, by type (bid, play, tick, join…) and outcome (ok, refused). */
  readonly actions = new Counter({
    name: 'spades_actions_total',
    help: 'Table commands processed, by type and outcome',
    labelNames: ['type', 'outcome'] as const,
    registers: [this.registry],
  });
  /** Time from a command entering its table's queue to its answer (stored, emitted). */
  readonly ackLatency = new Histogram({
    name: 'spades_action_ack_ms',
    help: 'Table command latency from queueing to acknowledgement (ms)',
    labelNames: ['kind'] as const,
    buckets: MS_BUCKETS,
    registers: [this.registry],
  });
  /** One group commit of the table store: its duration and how many table events it carried. */
  readonly dbWrite = new Histogram({
    name: 'spades_db_write_ms',
    help: 'Duration of one table-store group commit (ms)',
    buckets: MS_BUCKETS,
    registers: [this.registry],
  });
  /**
   * One table write of the group commit from the moment its command hands it to the store to its commit: the wait
   * for a free commit (the writes queued behind the commits in flight) plus its own group commit — what the
   * command's answer waits for. By who issued the command (human, bot, timeout, server). Writes that move coins in
   * their own transaction (a rated start, settlement) are not group-committed and not counted.
   */
  readonly dbWait = new Histogram({
    name: 'spades_db_wait_ms',
    help: 'Time from a table write being queued for the group commit to its commit, including the wait for a free commit (ms)',
    labelNames: ['kind'] as const,
    buckets: MS_BUCKETS,
    registers: [this.registry],
  });
  readonly dbBatch = new Histogram({
    name: 'spades_db_write_batch_size',
    help: 'Table events per group commit',
    buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500],
    registers: [this.registry],
  });
  readonly dbEvents = new Counter({
    name: 'spades_db_events_total',
    help: 'Table events stored',
    registers: [this.registry],
  });
  readonly dbSnapshots = new Counter({
    name: 'spades_db_snapshots_total',
    help: 'Full table snapshots stored',
    registers: [this.registry],
  });
  /** Bytes of the table events sent, per recipient (sampled: a serialised size of what one recipient got for one command). */
  readonly tableEventBytes = new Histogram({
    name: 'spades_table_event_bytes',
    help: 'Bytes of table events one recipient receives for one command (sampled)',
    buckets: [256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536],
    registers: [this.registry],
  });
  readonly lobbyEvents = new Counter({
    name: 'spades_lobby_events_total',
    help: 'Lobby list events broadcast (game_added / game_changed / game_removed / games_updated)',
    labelNames: ['event'] as const,
    registers: [this.registry],
  });

  /** Several nodes (issue #13): table commands sent to the owner node, by outcome (ok, refused, unreachable). */
  readonly forwarded = new Counter({
    name: 'spades_forwarded_commands_total',
    help: 'Table commands forwarded to the node that owns the table, by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  /** Tables this node took over (a dead node's, a drained node's hand-over), by reason. */
  readonly takeovers = new Counter({
    name: 'spades_table_takeovers_total',
    help: 'Tables this node started driving after another node (failover, hand-over, restart)',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  /** Writes refused because another node owns the table now (fencing). */
  readonly fenced = new Counter({
    name: 'spades_fenced_writes_total',
    help: 'Table writes refused by the ownership epoch (fencing)',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, eventLoopMonitoringPrecision: 10 });
  }

  /** A gauge read on every scrape. */
  gauge(name: string, help: string, read: () => number): void {
    if (this.registry.getSingleMetric(name)) this.registry.removeSingleMetric(name);
    new Gauge({
      name,
      help,
      registers: [this.registry],
      collect() {
        this.set(read());
      },
    });
  }

  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
