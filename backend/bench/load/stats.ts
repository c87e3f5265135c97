/**
 * Pure parts of the load harness (unit-tested in stats.spec.ts): command-line options, percentiles, the per-seat
 * rate scheduler, Prometheus text parsing, /proc/<pid>/stat parsing and the shape of the result line.
 */

export type DbKind = 'pglite' | 'postgres';
export type BotLevel = 'strong' | 'heuristic' | 'basic';

export interface LoadOptions {
  tables: number;
  /** Human seats per table: 1 (plus three bots) or 4. */
  humans: 1 | 4;
  /** Target game actions per second over all tables (bids + cards, humans and bots); 0 = as fast as the server goes. */
  rate: number;
  /** Measured seconds (after every table is created and playing). */
  seconds: number;
  /** undefined = the server's default (DATABASE_URL unset → embedded PGlite). */
  db?: DbKind;
  /** undefined = the server's default BOT_LEVEL. */
  bots?: BotLevel;
  storm: boolean;
  /** Extra spectator sockets per table (one account per table watching from that many sockets). */
  spectators: number;
  /** Client processes that share the sockets. */
  clients: number;
  /** Seconds of the bare socket.io echo baseline (same rate and socket count). */
  baselineSeconds: number;
  /**
   * `--durable-baseline`: also run the echo answering each act only once a row for it is committed in the same
   * kind of database (`durableBaselineP99Ms`, `durableP99Ratio`): the floor of an ack that waits for a durable write.
   */
  durableBaseline: boolean;
  /** Seconds of play before the measured window. */
  warmupSeconds: number;
  /** Tables created at once. */
  batch: number;
  /** Print progress lines to stderr. */
  verbose: boolean;
  /** Server processes sharing one PostgreSQL schema and Redis (issue #13); > 1 needs `db: 'postgres'`. */
  nodes: number;
  /** Cluster mode (DATABASE_URL + REDIS_URL, node registry, forwarding): always with nodes > 1, or --cluster. */
  cluster: boolean;
  /** Where HTTP requests go with several nodes: the user's socket node (sticky, default) or any node (random). */
  http: 'sticky' | 'random';
}

export class UsageError extends Error {}

const FLAGS = new Set([
  'tables',
  'humans',
  'rate',
  'seconds',
  'db',
  'bots',
  'spectators',
  'clients',
  'baseline-seconds',
  'warmup',
  'batch',
  'nodes',
  'http',
]);

const SWITCHES = new Set(['storm', 'quiet', 'cluster', 'durable-baseline']);

/**
 * The command line of a bench script: `--name value` or `--name=value` for the options in `known`, `--name` alone
 * for the `switches` (read as 'true'). Anything else is a UsageError.
 */
export function readOptions(
  argv: readonly string[],
  known: ReadonlySet<string>,
  switches: ReadonlySet<string> = new Set(),
): Map<string, string> {
  const raw = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new UsageError(`unexpected argument ${a}`);
    const eq = a.indexOf('=');
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    if (!known.has(name) && !switches.has(name)) throw new UsageError(`unknown option --${name}`);
    if (switches.has(name)) {
      raw.set(name, 'true');
      continue;
    }
    const value = eq > 0 ? a.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    raw.set(name, value);
  }
  return raw;
}

/** A number option of `readOptions`' map: `def` when absent, else a number in [min, max] (an integer unless `int` is false). */
export function numberOption(
  raw: ReadonlyMap<string, string>,
  name: string,
  def: number,
  min: number,
  max: number,
  int = true,
): number {
  const v = raw.get(name);
  if (v === undefined) return def;
  const n = Number(v);
  if (!Number.isFinite(n) || (int && !Number.isInteger(n)) || n < min || n > max) {
    throw new UsageError(`--${name} must be ${int ? 'an integer' : 'a number'} between ${min} and ${max}`);
  }
  return n;
}

/** `--tables 100 --humans 4 --rate 50 --seconds 60 --db pglite --bots heuristic --storm …` → options. */
export function parseArgs(argv: readonly string[]): LoadOptions {
  const raw = readOptions(argv, FLAGS, SWITCHES);
  const num = (name: string, def: number, min: number, max: number, int = true): number =>
    numberOption(raw, name, def, min, max, int);
  const tables = num('tables', 20, 1, 20000);
  const humans = num('humans', 1, 1, 4);
  if (humans !== 1 && humans !== 4) throw new UsageError('--humans must be 1 or 4');
  let db = raw.get('db');
  if (db !== undefined && db !== 'pglite' && db !== 'postgres') throw new UsageError('--db must be pglite or postgres');
  const nodes = num('nodes', 1, 1, 16);
  // --cluster: cluster mode (PostgreSQL + Redis) even with one node, the baseline for the per-node cost
  const cluster = nodes > 1 || raw.has('cluster');
  if (cluster) {
    // the nodes share their tables through one PostgreSQL (cluster mode: DATABASE_URL + REDIS_URL)
    if (db === 'pglite')
      throw new UsageError('--nodes > 1 and --cluster need --db postgres (the nodes share one PostgreSQL database)');
    db = 'postgres';
  }
  const http = raw.get('http') ?? 'sticky';
  if (http !== 'sticky' && http !== 'random') throw new UsageError('--http must be sticky or random');
  const bots = raw.get('bots');
  if (bots !== undefined && bots !== 'strong' && bots !== 'heuristic' && bots !== 'basic') {
    throw new UsageError('--bots must be strong, heuristic or basic');
  }
  const seconds = num('seconds', 30, 1, 86400);
  const spectators = num('spectators', 0, 0, 100);
  const sockets = tables * (humans + spectators);
  return {
    tables,
    humans,
    // the goal ratio: 2,000 tables at 1,000 actions/s
    rate: num('rate', tables / 2, 0, 1e6, false),
    seconds,
    db: db as DbKind | undefined,
    bots: bots as BotLevel | undefined,
    storm: raw.has('storm'),
    spectators,
    clients: num('clients', Math.min(4, Math.max(1, Math.ceil(sockets / 1500))), 1, 16),
    baselineSeconds: num('baseline-seconds', Math.min(seconds, 20), 1, 3600),
    durableBaseline: raw.has('durable-baseline'),
    warmupSeconds: num('warmup', 3, 0, 600),
    batch: num('batch', 50, 1, 1000),
    verbose: !raw.has('quiet'),
    nodes,
    cluster,
    http,
  };
}

/** Nearest-rank percentile (p in 0..100) of unsorted samples; null when there are none. */
export function percentile(samples: ArrayLike<number>, p: number): number | null {
  const n = samples.length;
  if (n === 0) return null;
  const sorted = Float64Array.from(samples as ArrayLike<number>).sort();
  const rank = Math.ceil((p / 100) * n);
  return sorted[Math.min(n - 1, Math.max(0, rank - 1))];
}

/** Rounds to 0.1 (ms figures) keeping null. */
export function round1(x: number | null): number | null {
  return x === null || !Number.isFinite(x) ? null : Math.round(x * 10) / 10;
}

/**
 * When the human seats of one table act (one scheduler per table, shared by its humans). Of every four actions at a
 * table `humans` are human, so humans that act every `interval = 4 · tables / (rate · humans)` seconds give the
 * table its share `rate / tables` of the target (the bots fill the rest at their own pace). A turn that arrives
 * early waits until the next slot; a late one acts at once and the schedule restarts from it (no debt is carried:
 * a slow server gets a lower rate, not a burst).
 */
export class SeatScheduler {
  private last: number | null = null;

  constructor(
    /** Milliseconds between two actions of this seat; 0 = act at once. */
    readonly intervalMs: number,
    /** Offset of the first slot (spreads the tables' slots over one interval). */
    readonly phaseMs = 0,
  ) {}

  static intervalFor(rate: number, tables: number, humans = 1): number {
    return rate > 0 ? (4 * tables * 1000) / (rate * humans) : 0;
  }

  /** The time (same clock as `now`) at which to act on a turn that arrived at `now`; records it as taken. */
  next(now: number): number {
    const slot = this.last === null ? now + this.phaseMs : this.last + this.intervalMs;
    const at = Math.max(slot, now);
    this.last = at;
    return at;
  }
}

/** One sample of a Prometheus text exposition: name, labels, value. */
export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses Prometheus text format 0.0.4 (comments skipped; timestamps ignored). */
export function parsePrometheus(text: string): PromSample[] {
  const out: PromSample[] = [];
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    if (!line || line.startsWith('#')) continue;
    let name: string;
    const labels: Record<string, string> = {};
    let rest: string;
    const brace = line.indexOf('{');
    const space = line.indexOf(' ');
    if (brace >= 0 && (space < 0 || brace < space)) {
      name = line.slice(0, brace);
      let i = brace + 1;
      while (i < line.length && line[i] !== '}') {
        const eq = line.indexOf('=', i);
        if (eq < 0) break;
        const key = line.slice(i, eq).trim().replace(/^,/, '').trim();
        if (line[eq + 1] !== '"') break;
        let j = eq + 2;
        let val = '';
        while (j < line.length && line[j] !== '"') {
          if (line[j] === '\\' && j + 1 < line.length) {
            const c = line[j + 1];
            val += c === 'n' ? '\n' : c;
            j += 2;
          } else val += line[j++];
        }
        labels[key] = val;
        i = j + 1;
        while (i < line.length && (line[i] === ',' || line[i] === ' ')) i++;
      }
      rest = line.slice(line.indexOf('}', i) + 1).trim();
    } else {
      if (space < 0) continue;
      name = line.slice(0, space);
      rest = line.slice(space + 1).trim();
    }
    const valueText = rest.split(/\s+/)[0];
    const value = valueText === '+Inf' ? Infinity : valueText === '-Inf' ? -Infinity : Number(valueText);
    if (name && !Number.isNaN(value)) out.push({ name, labels, value });
  }
  return out;
}

/** Sum of every sample called `name` whose labels include `match` (null when there is none). */
export function promValue(
  samples: readonly PromSample[],
  name: string,
  match: Record<string, string> = {},
): number | null {
  let found = false;
  let sum = 0;
  for (const s of samples) {
    if (s.name !== name) continue;
    if (!Object.entries(match).every(([k, v]) => s.labels[k] === v)) continue;
    found = true;
    sum += s.value;
  }
  return found ? sum : null;
}

/**
 * Cumulative histogram buckets `<name>_bucket{le}` summed over other labels (those in `match` must equal its
 * values), sorted by bound.
 */
export function promBuckets(samples: readonly PromSample[], name: string, match: Record<string, string> = {}): Buckets {
  const by = new Map<number, number>();
  for (const s of samples) {
    if (s.name !== `${name}_bucket` || s.labels.le === undefined) continue;
    if (!Object.entries(match).every(([k, v]) => s.labels[k] === v)) continue;
    const le = s.labels.le === '+Inf' ? Infinity : Number(s.labels.le);
    by.set(le, (by.get(le) ?? 0) + s.value);
  }
  return [...by.entries()].sort((a, b) => a[0] - b[0]).map(([le, count]) => ({ le, count }));
}

/**
 * Quantile q (0..1) of a histogram's observations between two scrapes (`before` may be empty: since start),
 * linear inside the bucket like PromQL's histogram_quantile. null without observations.
 */
export function histogramQuantile(before: Readonly<Buckets>, after: Readonly<Buckets>, q: number): number | null {
  const delta = bucketsDelta(before, after);
  const total = delta.length ? delta[delta.length - 1].count : 0;
  if (total <= 0) return null;
  const target = q * total;
  let lowerLe = 0;
  let lowerCount = 0;
  for (const b of delta) {
    if (b.count >= target) {
      if (b.le === Infinity) return lowerLe;
      const inBucket = b.count - lowerCount;
      return inBucket > 0 ? lowerLe + ((b.le - lowerLe) * (target - lowerCount)) / inBucket : b.le;
    }
    lowerLe = b.le;
    lowerCount = b.count;
  }
  return lowerLe;
}

/** What the harness reads from `GET /metrics` at one moment (every field null when the server has no such metric). */
export interface MetricsSnapshot {
  at: number;
  /** prom-client default metric (seconds), as of this scrape. */
  eventLoopP99Seconds: number | null;
  botDecisions: number | null;
  botMsBuckets: Buckets;
  /** Summary quantile 0.5 when the bot time is a summary. */
  botMsSummaryP50: number | null;
  /** `spades_action_ack_ms{kind="human"}`: a human command inside the server, from its table's queue to its answer. */
  commandMsBuckets: Buckets;
  /** `spades_db_write_ms`: one group commit of the table store. */
  dbWriteMsBuckets: Buckets;
  /** `spades_db_wait_ms{kind="human"}`: a human command's write, from its queueing in the store to its commit. */
  dbWaitMsBuckets: Buckets;
}

/** Cumulative histogram buckets (`le` = upper bound, Infinity last). */
export type Buckets = { le: number; count: number }[];

/** The observations between two scrapes of a cumulative histogram (`before` may be empty: since start). */
export function bucketsDelta(before: Readonly<Buckets>, after: Readonly<Buckets>): Buckets {
  const prev = new Map(before.map((b) => [b.le, b.count]));
  return after.map((b) => ({ le: b.le, count: b.count - (prev.get(b.le) ?? 0) }));
}

/** The buckets of several histograms added up (several nodes), sorted by bound. */
export function mergeBuckets(all: readonly Buckets[]): Buckets {
  const merged = new Map<number, number>();
  for (const buckets of all) for (const b of buckets) merged.set(b.le, (merged.get(b.le) ?? 0) + b.count);
  return [...merged.entries()].sort((a, b) => a[0] - b[0]).map(([le, count]) => ({ le, count }));
}

export function readMetrics(text: string, at: number): MetricsSnapshot {
  const s = parsePrometheus(text);
  return {
    at,
    eventLoopP99Seconds: promValue(s, 'nodejs_eventloop_lag_p99_seconds'),
    botDecisions: promValue(s, 'spades_bot_decisions_total'),
    botMsBuckets: promBuckets(s, 'spades_bot_decision_ms'),
    // a summary quantile, else the pool's own median gauge (spades_bot_decision_ms_p50)
    botMsSummaryP50:
      promValue(s, 'spades_bot_decision_ms', { quantile: '0.5' }) ?? promValue(s, 'spades_bot_decision_ms_p50'),
    commandMsBuckets: promBuckets(s, 'spades_action_ack_ms', { kind: 'human' }),
    dbWriteMsBuckets: promBuckets(s, 'spades_db_write_ms'),
    dbWaitMsBuckets: promBuckets(s, 'spades_db_wait_ms', { kind: 'human' }),
  };
}

/** utime + stime (clock ticks) and RSS (pages) from the text of /proc/<pid>/stat. */
export function parseProcStat(text: string): { cpuTicks: number; rssPages: number } {
  // the command name (field 2) is in parentheses and may contain spaces: split after the last ')'
  const fields = text
    .slice(text.lastIndexOf(')') + 2)
    .trim()
    .split(/\s+/);
  // fields[0] is field 3 (state): utime = field 14, stime = field 15, rss = field 24
  return { cpuTicks: Number(fields[11]) + Number(fields[12]), rssPages: Number(fields[21]) };
}

/**
 * A thread's /proc/<pid>/task/<tid>/schedstat ("<ns on a CPU> <ns waiting on a run queue> <timeslices>"): the time
 * it was runnable but had no core, in nanoseconds since it started.
 */
export function parseSchedstat(text: string): { waitNs: number } {
  const fields = text.trim().split(/\s+/).map(Number);
  if (fields.length < 2 || !fields.every(Number.isFinite)) throw new Error(`not a schedstat line: ${text}`);
  return { waitNs: fields[1] };
}

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

/** What a reconnected client must get back exactly (storm): its hand, the bids, the trick on the table, the turn. */
export interface ViewKey {
  handNumber: number;
  /** Own cards as sorted codes ("S14"); [] for spectators. */
  hand: string[];
  bids: (number | null)[];
  /** Cards of the trick in play as "seat:code" ([] while a completed trick is on display). */
  trick: string[];
  turn: number | null;
}

type WireCard = { suit: string; rank: number };
const cardCode = (c: WireCard) => `${c.suit}${c.rank}`;

/** The ViewKey of a `game_update` TableView as seen from `seat` (null: spectator). */
export function viewKeyOf(
  v: {
    handNumber: number;
    hands?: WireCard[][];
    bidding?: { bids: (number | null)[] };
    play?: { trickPending?: boolean; currentTrick?: (WireCard & { playerIndex: number })[] };
    currentPlayerIndex?: number | null;
  },
  seat: number | null,
): ViewKey {
  return {
    handNumber: v.handNumber,
    hand: seat === null ? [] : (v.hands?.[seat] ?? []).map(cardCode).sort(),
    bids: (v.bidding?.bids ?? []).slice(),
    trick: (v.play?.trickPending ? [] : (v.play?.currentTrick ?? [])).map((c) => `${c.playerIndex}:${cardCode(c)}`),
    turn: v.currentPlayerIndex ?? null,
  };
}

/** The legal bid closest to a quick count of likely tricks (aces, side kings, high spades); never nil unless forced. */
export function chooseBid(hand: readonly WireCard[], legal: readonly number[]): number {
  let est = 0;
  for (const c of hand)
    if (c.rank === 14 || (c.rank === 13 && c.suit !== 'S') || (c.suit === 'S' && c.rank >= 11)) est++;
  est = Math.max(1, est);
  const nonNil = legal.filter((b) => b > 0);
  const pool = nonNil.length ? nonNil : legal;
  let best = pool[0];
  for (const b of pool) if (Math.abs(b - est) < Math.abs(best - est)) best = b;
  return best;
}
