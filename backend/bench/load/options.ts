/** The load harness's command line: its options, their defaults and the usage errors (node:util parseArgs). */
import { parseArgs as nodeParseArgs } from 'node:util';

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
 * The command line of a bench script (node:util parseArgs, strict): `--name value` or `--name=value` for the options
 * in `known`, `--name` alone for the `switches` (read as 'true'). Anything else is a UsageError with the messages
 * the scripts always gave (`unknown option --x`, `--x needs a value`, `unexpected argument x`).
 */
export function readOptions(
  argv: readonly string[],
  known: ReadonlySet<string>,
  switches: ReadonlySet<string> = new Set(),
): Map<string, string> {
  const options: Record<string, { type: 'string' | 'boolean' }> = {};
  for (const name of known) options[name] = { type: 'string' };
  for (const name of switches) options[name] = { type: 'boolean' };
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = nodeParseArgs({ args: [...argv], options, strict: true, allowPositionals: false }));
  } catch (e) {
    throw usageErrorOf(e as Error & { code?: string });
  }
  const raw = new Map<string, string>();
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined) raw.set(name, value === true ? 'true' : String(value));
  }
  return raw;
}

/** parseArgs' error → the bench scripts' UsageError wording. */
function usageErrorOf(e: Error & { code?: string }): UsageError {
  const name = /'(?:-\w, )?--([^' ]+)/.exec(e.message)?.[1];
  if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION')
    return new UsageError(`unknown option ${name ? `--${name}` : e.message}`);
  if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
    return new UsageError(`unexpected argument ${/'([^']*)'/.exec(e.message)?.[1] ?? ''}`);
  }
  if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && name) {
    return new UsageError(
      /does not take an argument/.test(e.message) ? `--${name} takes no value` : `--${name} needs a value`,
    );
  }
  return new UsageError(e.message);
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
    // the issue's goal ratio: 2,000 tables at 1,000 actions/s
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
