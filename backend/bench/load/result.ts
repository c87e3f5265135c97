/** The result line of a run: its shape and keys, built from the raw figures; per-node aggregation; the forwarded split. */
import { percentile, round1 } from './percentile';
import { histogramQuantile, mergeBuckets, type Buckets } from './prometheus';

/** One node's figures in the result line (`perNode`, runs with `--nodes` > 1). */
export interface PerNode {
  nodeId: string;
  /** Open tables it owns at the end of the window (games.owner_node, status <> 'CLOSED'). */
  tables: number;
  rssMB: number | null;
  cpuPct: number | null;
  eventLoopP99Ms: number | null;
  /** Result line only: this node's CPU over the tables it owns (the per-node cost of a table, issue #13). */
  cpuPctPerTable?: number | null;
}

/**
 * The last output line of `bench:load`: the field list in that order, then `nodes`, `cpuPctPerTable`,
 * `commandP99Ms`, `dbWriteP99Ms`, the main thread's figures and `dbWaitP99Ms`;
 * storm runs add stormRecoveryMs, runs with several nodes the CLUSTER_KEYS.
 */
export interface LoadResult {
  tables: number;
  sockets: number;
  actionsPerSecond: number;
  ackP50Ms: number | null;
  ackP95Ms: number | null;
  ackP99Ms: number | null;
  updateP99Ms: number | null;
  baselineP99Ms: number | null;
  p99Ratio: number | null;
  eventLoopP99Ms: number | null;
  serverRssMB: number | null;
  serverCpuPct: number | null;
  botDecisionsPerSecond: number | null;
  botMsP50: number | null;
  errors: number;
  /** Server processes (issue #13). */
  nodes: number;
  /** serverCpuPct / tables: the cost of one live table (100 = one core). */
  cpuPctPerTable: number | null;
  /**
   * p99 of a human command inside the server (`spades_action_ack_ms{kind="human"}`: from its table's queue to its
   * answer: rules, the commit, the fan-out), over the window; beside ackP99Ms it tells how much of the clients' tail
   * lies outside the command (reading the socket, writing the answer, the clients themselves).
   */
  commandP99Ms: number | null;
  /** p99 of one group commit of the table store (`spades_db_write_ms`) over the window. */
  dbWriteP99Ms: number | null;
  /**
   * The server's main thread (its event loop) alone, from /proc over the window: the share of a core it ran
   * (100 = one core), and the milliseconds per second it was runnable but waited for a core (its run-queue wait,
   * /proc/<pid>/task/<pid>/schedstat). The worst node's with several nodes; null where /proc has no such files.
   */
  mainThreadCpuPct: number | null;
  mainThreadWaitMsPerS: number | null;
  /**
   * p99 of a human command's wait for its write (`spades_db_wait_ms{kind="human"}`): the queue behind the commits in
   * flight plus its own group commit. Beside commandP99Ms it tells how much of the command's tail is the database.
   */
  dbWaitP99Ms: number | null;
  /**
   * The fan-out's size: bytes of the server's events the clients received in the window (socket.io text encoding,
   * without WebSocket framing) per game action (bids and cards, humans and bots); null when not counted.
   */
  fanoutBytesPerAction: number | null;
  /** The same, by event (the largest first). */
  fanoutBytesPerActionByEvent: Record<string, number> | null;
  stormRecoveryMs?: number | null;
  // --durable-baseline only: the echo that answers once a row is committed, and ackP99Ms over its p99
  durableBaselineP99Ms?: number | null;
  durableP99Ratio?: number | null;
  // --nodes > 1 only:
  perNode?: PerNode[];
  /** Share of the timed human actions whose socket was on another node than the table's owner (forwarded). */
  forwardedShare?: number | null;
  ackP99LocalMs?: number | null;
  ackP99ForwardedMs?: number | null;
}

export const RESULT_KEYS = [
  'tables',
  'sockets',
  'actionsPerSecond',
  'ackP50Ms',
  'ackP95Ms',
  'ackP99Ms',
  'updateP99Ms',
  'baselineP99Ms',
  'p99Ratio',
  'eventLoopP99Ms',
  'serverRssMB',
  'serverCpuPct',
  'botDecisionsPerSecond',
  'botMsP50',
  'errors',
  'nodes',
  'cpuPctPerTable',
  'commandP99Ms',
  'dbWriteP99Ms',
  'mainThreadCpuPct',
  'mainThreadWaitMsPerS',
  'dbWaitP99Ms',
  'fanoutBytesPerAction',
  'fanoutBytesPerActionByEvent',
] as const;

/** Keys a `--durable-baseline` result adds after RESULT_KEYS (and stormRecoveryMs). */
export const DURABLE_KEYS = ['durableBaselineP99Ms', 'durableP99Ratio'] as const;

/** Keys a `--nodes` > 1 result adds after RESULT_KEYS (and stormRecoveryMs, DURABLE_KEYS). */
export const CLUSTER_KEYS = ['perNode', 'forwardedShare', 'ackP99LocalMs', 'ackP99ForwardedMs'] as const;

export interface RawFigures {
  tables: number;
  sockets: number;
  /** Game actions seen in the measured window (every seat). */
  actions: number;
  windowSeconds: number;
  ackMs: ArrayLike<number>;
  updateMs: ArrayLike<number>;
  baselineAckMs: ArrayLike<number>;
  eventLoopP99Ms: number | null;
  serverRssMB: number | null;
  serverCpuPct: number | null;
  botDecisionsPerSecond: number | null;
  botMsP50: number | null;
  /** Server histograms (ms) over the window: null without /metrics. */
  commandP99Ms: number | null;
  dbWriteP99Ms: number | null;
  dbWaitP99Ms: number | null;
  /** The server's main thread over the window (null without /proc): see LoadResult. */
  mainThreadCpuPct: number | null;
  mainThreadWaitMsPerS: number | null;
  errors: number;
  /** Bytes of the server's events the clients received in the window, by event (null: not counted). */
  rxBytes?: Record<string, number> | null;
  stormRecoveryMs?: number | null;
  /** --durable-baseline: the durable echo's ack times. */
  durableBaselineAckMs?: ArrayLike<number>;
  /** Defaults to 1. */
  nodes?: number;
  cluster?: {
    perNode: PerNode[];
    forwardedShare: number | null;
    ackP99LocalMs: number | null;
    ackP99ForwardedMs: number | null;
  };
}

const ratio = (a: number | null, b: number | null) =>
  a !== null && b !== null && b > 0 ? Math.round((a / b) * 100) / 100 : null;

/** Bytes per action, in total and by event (largest first), rounded to 1 byte. */
function fanout(
  rx: Record<string, number> | null,
  actions: number,
): Pick<LoadResult, 'fanoutBytesPerAction' | 'fanoutBytesPerActionByEvent'> {
  if (!rx || actions <= 0) return { fanoutBytesPerAction: null, fanoutBytesPerActionByEvent: null };
  const per = (b: number) => Math.round(b / actions);
  const byEvent = Object.entries(rx)
    .sort((a, b) => b[1] - a[1])
    .map(([e, b]) => [e, per(b)] as const);
  return {
    fanoutBytesPerAction: per(Object.values(rx).reduce((a, b) => a + b, 0)),
    fanoutBytesPerActionByEvent: Object.fromEntries(byEvent),
  };
}

export function buildResult(f: RawFigures): LoadResult {
  const ackP99 = percentile(f.ackMs, 99);
  const baseP99 = percentile(f.baselineAckMs, 99);
  const out: LoadResult = {
    tables: f.tables,
    sockets: f.sockets,
    actionsPerSecond: f.windowSeconds > 0 ? Math.round((f.actions / f.windowSeconds) * 10) / 10 : 0,
    ackP50Ms: round1(percentile(f.ackMs, 50)),
    ackP95Ms: round1(percentile(f.ackMs, 95)),
    ackP99Ms: round1(ackP99),
    updateP99Ms: round1(percentile(f.updateMs, 99)),
    baselineP99Ms: round1(baseP99),
    p99Ratio: ratio(ackP99, baseP99),
    eventLoopP99Ms: round1(f.eventLoopP99Ms),
    serverRssMB: f.serverRssMB === null ? null : Math.round(f.serverRssMB),
    serverCpuPct: f.serverCpuPct === null ? null : Math.round(f.serverCpuPct),
    botDecisionsPerSecond: f.botDecisionsPerSecond === null ? null : Math.round(f.botDecisionsPerSecond * 10) / 10,
    botMsP50: round1(f.botMsP50),
    errors: f.errors,
    nodes: f.nodes ?? 1,
    cpuPctPerTable:
      f.serverCpuPct === null || f.tables <= 0 ? null : Math.round((f.serverCpuPct / f.tables) * 1000) / 1000,
    commandP99Ms: round1(f.commandP99Ms),
    dbWriteP99Ms: round1(f.dbWriteP99Ms),
    mainThreadCpuPct: f.mainThreadCpuPct === null ? null : Math.round(f.mainThreadCpuPct),
    mainThreadWaitMsPerS: f.mainThreadWaitMsPerS === null ? null : Math.round(f.mainThreadWaitMsPerS),
    dbWaitP99Ms: round1(f.dbWaitP99Ms),
    ...fanout(f.rxBytes ?? null, f.actions),
  };
  if (f.stormRecoveryMs !== undefined)
    out.stormRecoveryMs = f.stormRecoveryMs === null ? null : Math.round(f.stormRecoveryMs);
  if (f.durableBaselineAckMs) {
    const durableP99 = percentile(f.durableBaselineAckMs, 99);
    out.durableBaselineP99Ms = round1(durableP99);
    out.durableP99Ratio = ratio(ackP99, durableP99);
  }
  if (f.cluster) {
    out.perNode = f.cluster.perNode.map((n) => ({
      nodeId: n.nodeId,
      tables: n.tables,
      rssMB: n.rssMB === null ? null : Math.round(n.rssMB),
      cpuPct: n.cpuPct === null ? null : Math.round(n.cpuPct),
      eventLoopP99Ms: round1(n.eventLoopP99Ms),
      cpuPctPerTable: n.cpuPct === null || n.tables <= 0 ? null : Math.round((n.cpuPct / n.tables) * 1000) / 1000,
    }));
    out.forwardedShare = f.cluster.forwardedShare === null ? null : Math.round(f.cluster.forwardedShare * 1000) / 1000;
    out.ackP99LocalMs = round1(f.cluster.ackP99LocalMs);
    out.ackP99ForwardedMs = round1(f.cluster.ackP99ForwardedMs);
  }
  return out;
}

/** What the sampler measured on one server process over the window. */
export interface ServerFigures {
  serverRssMB: number | null;
  serverCpuPct: number | null;
  eventLoopP99Ms: number | null;
  botDecisionsPerSecond: number | null;
  botMsP50: number | null;
  /** The bot-time histogram's observations in the window (empty without the histogram). */
  botMsDelta: Buckets;
  /**
   * p99 of a human command inside the server, of a group commit and of a human command's wait for its write, over
   * the window (null without /metrics).
   */
  commandP99Ms: number | null;
  dbWriteP99Ms: number | null;
  dbWaitP99Ms: number | null;
  /** Those histograms' observations in the window (empty without them), for merging several nodes. */
  commandMsDelta: Buckets;
  dbWriteMsDelta: Buckets;
  dbWaitMsDelta: Buckets;
  /** The main thread's share of a core and its run-queue wait (ms per second) over the window; null without /proc. */
  mainThreadCpuPct: number | null;
  mainThreadWaitMsPerS: number | null;
}

/**
 * The figures of several server processes as one: RSS = the SUM of each node's peak RSS in the window (what the
 * machine had to hold, at most), CPU and bot decisions/s = sums, event loop p99 = the worst node's, bot p50 =
 * the median of the merged histograms (else the mean of the nodes' medians), command, commit and write-wait p99 = the p99 of
 * the merged histograms, the main thread's CPU and run-queue wait = the worst node's. A sum is null when a node's
 * figure is missing.
 */
export function aggregateNodes(nodes: readonly ServerFigures[]): ServerFigures {
  const sum = (k: 'serverRssMB' | 'serverCpuPct' | 'botDecisionsPerSecond') =>
    nodes.length && nodes.every((n) => n[k] !== null) ? nodes.reduce((a, n) => a + (n[k] as number), 0) : null;
  const lags = nodes.map((n) => n.eventLoopP99Ms).filter((x): x is number => x !== null);
  const worst = (k: 'mainThreadCpuPct' | 'mainThreadWaitMsPerS') => {
    const xs = nodes.map((n) => n[k]).filter((x): x is number => x !== null);
    return xs.length ? Math.max(...xs) : null;
  };
  const buckets = mergeBuckets(nodes.map((n) => n.botMsDelta));
  const commandMsDelta = mergeBuckets(nodes.map((n) => n.commandMsDelta));
  const dbWriteMsDelta = mergeBuckets(nodes.map((n) => n.dbWriteMsDelta));
  const dbWaitMsDelta = mergeBuckets(nodes.map((n) => n.dbWaitMsDelta));
  const p50s = nodes.map((n) => n.botMsP50).filter((x): x is number => x !== null);
  const histogramP50 = nodes.every((n) => n.botMsDelta.length) ? histogramQuantile([], buckets, 0.5) : null;
  return {
    serverRssMB: sum('serverRssMB'),
    serverCpuPct: sum('serverCpuPct'),
    eventLoopP99Ms: lags.length ? Math.max(...lags) : null,
    botDecisionsPerSecond: sum('botDecisionsPerSecond'),
    botMsP50: histogramP50 ?? (p50s.length ? p50s.reduce((a, b) => a + b, 0) / p50s.length : null),
    botMsDelta: buckets,
    commandP99Ms: histogramQuantile([], commandMsDelta, 0.99),
    dbWriteP99Ms: histogramQuantile([], dbWriteMsDelta, 0.99),
    dbWaitP99Ms: histogramQuantile([], dbWaitMsDelta, 0.99),
    commandMsDelta,
    dbWriteMsDelta,
    dbWaitMsDelta,
    mainThreadCpuPct: worst('mainThreadCpuPct'),
    mainThreadWaitMsPerS: worst('mainThreadWaitMsPerS'),
  };
}

/** A timed human action: its ack time, its table and the node its socket was connected to. */
export interface AckSample {
  ms: number;
  gameId: string;
  node: string;
}

/**
 * Splits the timed actions by whether the socket's node owned the table (`owners`: gameId → owner node at the
 * end of the window) or the command was forwarded to the owner. Actions on tables without a known owner are left
 * out of both.
 */
export function forwardedSplit(
  samples: readonly AckSample[],
  owners: ReadonlyMap<string, string | null>,
): { forwardedShare: number | null; ackP99LocalMs: number | null; ackP99ForwardedMs: number | null } {
  const local: number[] = [];
  const forwarded: number[] = [];
  for (const s of samples) {
    const owner = owners.get(s.gameId);
    if (!owner) continue;
    (owner === s.node ? local : forwarded).push(s.ms);
  }
  const n = local.length + forwarded.length;
  return {
    forwardedShare: n ? forwarded.length / n : null,
    ackP99LocalMs: percentile(local, 99),
    ackP99ForwardedMs: percentile(forwarded, 99),
  };
}
