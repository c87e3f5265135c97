/**
 * The real server of `bench:load`: `node backend/dist/main.js` on a free port with a temporary DATA_DIR (embedded
 * PGlite) or a fresh schema in PostgreSQL, fast table timers, and a sampler that reads its RSS and CPU from
 * /proc/<pid>/stat and the event-loop delay and bot figures from `GET /metrics` when the server has it.
 * `startCluster` starts several such servers (`--nodes`, issue #13) on one fresh schema and Redis.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { join, resolve } from 'node:path';
import Redis from 'ioredis';
import { serverNodeFlags } from '../../src/config/node-flags';
import {
  BotLevel,
  Buckets,
  bucketsDelta,
  DbKind,
  histogramQuantile,
  MetricsSnapshot,
  parseProcStat,
  parseSchedstat,
  readMetrics,
  ServerFigures,
} from './stats';

export const BACKEND_DIR = resolve(__dirname, '../..');
export const MAIN_JS = join(BACKEND_DIR, 'dist/main.js');
export const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
/** The Redis of `--nodes` > 1 (the nodes forward table commands and socket.io broadcasts through it). */
export const BENCH_REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';

/** The harness cannot run here (no Redis, no PostgreSQL …): printed without a stack trace. */
export class BenchSetupError extends Error {}

/** Timers of the bench server (the probe): bots 0.3–0.5 s, trick 0.3 s, summary 0.5 s, result 1 s. */
export const BENCH_ENV: Record<string, string> = {
  BOT_DELAY_MIN_MS: '300',
  BOT_DELAY_MAX_MS: '500',
  TRICK_DISPLAY_MS: '300',
  HAND_SUMMARY_MS: '500',
  RESULT_MS: '1000',
  // paced humans (and the paused tables of --storm) must never be played for by the turn timer
  TURN_TIMEOUT_MS: '120000',
  REGISTER_MAX_PER_IP: '100000',
  LOG_LEVEL: 'warn',
};

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });
}

/** Runs one statement on the bench database (BENCH_DATABASE_URL) and returns its rows. */
export async function benchQuery<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  // pg is a backend dependency (without bundled types): the calls used here
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Client } = require('pg') as {
    Client: new (o: { connectionString: string }) => {
      connect(): Promise<void>;
      query(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
      end(): Promise<void>;
    };
  };
  const c = new Client({ connectionString: BENCH_DATABASE_URL });
  await c.connect();
  try {
    return (await c.query(sql, params)).rows;
  } finally {
    await c.end();
  }
}

async function dropSchema(schema: string): Promise<void> {
  await benchQuery(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}

/** Resolves when Redis answers PING at `url`; a BenchSetupError saying so otherwise. */
export async function checkRedis(url: string, timeoutMs = 3000): Promise<void> {
  const r = new Redis(url, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    enableOfflineQueue: false,
    // ioredis waits this long before it lets go of a failed socket (default 2 s)
    disconnectTimeout: 100,
  });
  let cause: Error | null = null;
  r.on('error', (e: Error) => (cause ??= e));
  try {
    await Promise.race([
      r.connect().then(() => r.ping()),
      new Promise((_ok, fail) => setTimeout(() => fail(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs).unref()),
    ]);
  } catch (e) {
    throw new BenchSetupError(
      `--nodes needs Redis (the nodes forward commands through it): ${url} is unreachable (${(cause ?? (e as Error)).message}); start Redis or set REDIS_URL`,
    );
  } finally {
    r.disconnect();
  }
}

export interface ServerHandle {
  url: string;
  pid: number;
  logFile: string;
  /** NODE_ID of a node of several (null: one server). */
  nodeId: string | null;
  /** The server's METRICS_TOKEN (random per server): the sampler reads `GET /metrics` with it. */
  metricsToken: string;
  /** Stops the server and removes its data; `keepLog` keeps the log file (failed runs). */
  stop(keepLog?: boolean): Promise<void>;
}

/** One node of several: its NODE_ID, the shared schema (dropped by the cluster, not by the node), Redis, JWT secret. */
export interface NodeEnv {
  nodeId: string;
  schema: string;
  redisUrl: string;
  jwtSecret: string;
}

export async function startServer(opts: { db?: DbKind; bots?: BotLevel; node?: NodeEnv }): Promise<ServerHandle> {
  if (!existsSync(MAIN_JS)) throw new Error(`${MAIN_JS} is missing: build the backend first`);
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'spades-load-'));
  const node = opts.node;
  // a node's schema belongs to its cluster (dropped once every node stopped)
  const ownSchema =
    !node && opts.db === 'postgres' ? `bench_${process.pid}_${randomBytes(4).toString('hex')}` : undefined;
  const schema = node ? node.schema : ownSchema;
  const env: NodeJS.ProcessEnv = { ...process.env, ...BENCH_ENV, PORT: String(port), DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  delete env.DATABASE_SCHEMA;
  delete env.REDIS_URL;
  delete env.JWT_SECRET;
  if (opts.db === 'postgres' || node) {
    env.DATABASE_URL = BENCH_DATABASE_URL;
    env.DATABASE_SCHEMA = schema;
  }
  if (node) {
    // cluster mode = DATABASE_URL + REDIS_URL; every node verifies the others' tokens (one JWT secret)
    env.REDIS_URL = node.redisUrl;
    env.NODE_ID = node.nodeId;
    env.JWT_SECRET = node.jwtSecret;
  }
  if (opts.bots) env.BOT_LEVEL = opts.bots;
  // /metrics needs a bearer token (issue #24): one per server, handed to the sampler
  const metricsToken = randomBytes(24).toString('hex');
  env.METRICS_TOKEN = metricsToken;
  delete env.METRICS_PORT;
  const logFile = join(tmpdir(), `spades-load-server-${port}.log`);
  const log = createWriteStream(logFile);
  // with the server's heap flags, as `npm start` and the container run it (+ BENCH_SERVER_NODE_ARGS, e.g. a CPU
  // profile: `--cpu-prof --cpu-prof-dir=/tmp/prof`, which NODE_OPTIONS does not accept)
  const extra = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, [...serverNodeFlags(env.NODE_OPTIONS), ...extra, MAIN_JS], {
    cwd: BACKEND_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? -1));
  const url = `http://127.0.0.1:${port}`;
  const stop = async (keepLog = false) => {
    if (exited === null) {
      child.kill('SIGTERM');
      const done = await Promise.race([
        new Promise<boolean>((r) => (exited !== null ? r(true) : child.once('exit', () => r(true)))),
        new Promise<boolean>((r) => setTimeout(() => r(false), 15000)),
      ]);
      if (!done) {
        child.kill('SIGKILL');
        await new Promise<void>((r) => (exited !== null ? r() : child.once('exit', () => r())));
      }
    }
    log.end();
    if (ownSchema) await dropSchema(ownSchema).catch(() => undefined);
    if (!process.env.BENCH_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
    if (!keepLog && !process.env.BENCH_KEEP_DATA) rmSync(logFile, { force: true });
  };
  const t0 = Date.now();
  try {
    for (;;) {
      if (exited !== null)
        throw new Error(`the server exited (${exited}) while starting; log: ${logFile}\n${tail(logFile)}`);
      try {
        const r = await fetch(`${url}/health`);
        if (r.status < 500) break;
      } catch {
        /* not listening yet */
      }
      if (Date.now() - t0 > 120000) throw new Error(`the server did not answer /health within 120 s; log: ${logFile}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  } catch (e) {
    // never leave a half-started server behind
    await stop(true);
    throw e;
  }
  return { url, pid: child.pid!, logFile, nodeId: node?.nodeId ?? null, metricsToken, stop };
}

/** N servers on one fresh PostgreSQL schema and Redis (cluster mode, issue #13). */
export interface ClusterHandle {
  nodes: ServerHandle[];
  schema: string;
  /** Stops every node at once (SIGTERM: they drain; SIGKILL after 15 s), then drops the schema. */
  stop(keepLog?: boolean): Promise<void>;
}

/**
 * Starts `n` nodes: the first alone (it migrates the fresh schema), the others once it answers, then waits until
 * every node's heartbeat is in the registry and one more heartbeat round (so that every node places new tables
 * knowing all the others). Redis must answer first. On any failure every started node is stopped.
 */
export async function startCluster(opts: {
  n: number;
  bots?: BotLevel;
  redisUrl?: string;
  onNode?: (h: ServerHandle) => void;
}): Promise<ClusterHandle> {
  const redisUrl = opts.redisUrl ?? BENCH_REDIS_URL;
  await checkRedis(redisUrl);
  const tag = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const schema = `bench_${tag}`;
  const jwtSecret = randomBytes(32).toString('base64url');
  const started: ServerHandle[] = [];
  let stopped = false;
  const stop = async (keepLog = false) => {
    if (stopped) return;
    stopped = true;
    await Promise.all(started.map((h) => h.stop(keepLog)));
    await dropSchema(schema).catch(() => undefined);
  };
  const env = (i: number): NodeEnv => ({ nodeId: `bench-${tag}-${i + 1}`, schema, redisUrl, jwtSecret });
  const add = (h: ServerHandle) => {
    started.push(h);
    opts.onNode?.(h);
    return h;
  };
  try {
    add(await startServer({ db: 'postgres', bots: opts.bots, node: env(0) }));
    const rest = await Promise.allSettled(
      Array.from({ length: opts.n - 1 }, (_x, i) =>
        startServer({ db: 'postgres', bots: opts.bots, node: env(i + 1) }).then(add),
      ),
    );
    const failed = rest.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    // node order = NODE_ID order (bench-…-1, -2, …) whatever order they came up in
    started.sort((a, b) => a.nodeId!.localeCompare(b.nodeId!, 'en', { numeric: true }));
    const t0 = Date.now();
    for (;;) {
      const [{ live }] = await benchQuery<{ live: string }>(
        `SELECT count(*) AS live FROM "${schema}".backend_nodes WHERE heartbeat_at > now() - interval '5 seconds'`,
      );
      if (Number(live) >= opts.n) break;
      if (Date.now() - t0 > 30000) throw new Error(`only ${live} of ${opts.n} nodes in the registry after 30 s`);
      await new Promise((r) => setTimeout(r, 200));
    }
    // one more heartbeat round (lease / 5 = 1 s by default): every node has read the whole registry
    await new Promise((r) => setTimeout(r, 1500));
  } catch (e) {
    await stop(true);
    throw e;
  }
  return { nodes: started, schema, stop };
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-20).join('\n');
  } catch {
    return '';
  }
}

const TICKS_PER_SECOND = 100; // getconf CLK_TCK on Linux
const PAGE_BYTES = 4096;

/** Samples the server process once a second (RSS, CPU) and its /metrics every two seconds. */
export class ServerSampler {
  private timer: NodeJS.Timeout | null = null;
  private metricsTimer: NodeJS.Timeout | null = null;
  private hasMetrics: boolean | null = null;
  rssMB: number[] = [];
  private cpuStart: { ticks: number; at: number } | null = null;
  private cpuEnd: { ticks: number; at: number } | null = null;
  private mainStart: { cpuTicks: number; waitNs: number; at: number } | null = null;
  metrics: MetricsSnapshot[] = [];
  private windowStart: MetricsSnapshot | null = null;
  /** Peak RSS since the sampler was made (boot and setup included), sampled once a second until `close()`. */
  lifetimePeakMB = 0;
  private lifetime: NodeJS.Timeout;

  constructor(
    readonly pid: number,
    readonly url: string,
    /** Sent as `Authorization: Bearer …` with every `GET /metrics` (the server's METRICS_TOKEN). */
    private readonly metricsToken?: string,
  ) {
    const sample = () => {
      const mb = this.currentRssMB();
      if (mb !== null && mb > this.lifetimePeakMB) this.lifetimePeakMB = mb;
    };
    sample();
    this.lifetime = setInterval(sample, 1000).unref();
  }

  close(): void {
    clearInterval(this.lifetime);
  }

  private metricsInit(): RequestInit {
    return this.metricsToken ? { headers: { authorization: `Bearer ${this.metricsToken}` } } : {};
  }

  /** The main thread's (tid = pid) CPU ticks and run-queue wait, or null where /proc has no such files. */
  private mainThread(): { cpuTicks: number; waitNs: number; at: number } | null {
    try {
      const { cpuTicks } = parseProcStat(readFileSync(`/proc/${this.pid}/task/${this.pid}/stat`, 'utf8'));
      const { waitNs } = parseSchedstat(readFileSync(`/proc/${this.pid}/task/${this.pid}/schedstat`, 'utf8'));
      return { cpuTicks, waitNs, at: performance.now() };
    } catch {
      return null;
    }
  }

  private proc(): { cpuTicks: number; rssPages: number } | null {
    try {
      return parseProcStat(readFileSync(`/proc/${this.pid}/stat`, 'utf8'));
    } catch {
      return null;
    }
  }

  async scrape(): Promise<MetricsSnapshot | null> {
    if (this.hasMetrics === false) return null;
    try {
      const r = await fetch(`${this.url}/metrics`, this.metricsInit());
      if (r.status !== 200) {
        this.hasMetrics = false;
        return null;
      }
      const text = await r.text();
      this.hasMetrics = true;
      return readMetrics(text, Date.now());
    } catch {
      return null;
    }
  }

  /** Where the server's memory is, from its /metrics (JS heap, ArrayBuffers/WebAssembly memory, RSS), or null. */
  async memoryBreakdown(): Promise<string | null> {
    try {
      const text = await (await fetch(`${this.url}/metrics`, this.metricsInit())).text();
      const v = (name: string) => {
        const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`, 'm').exec(text);
        return m ? `${(Number(m[1]) / 1048576).toFixed(0)} MB` : '?';
      };
      return `rss ${v('process_resident_memory_bytes')}, heap used ${v('nodejs_heap_size_used_bytes')} of ${v('nodejs_heap_size_total_bytes')}, external ${v('nodejs_external_memory_bytes')}`;
    } catch {
      return null;
    }
  }

  currentRssMB(): number | null {
    const p = this.proc();
    return p ? (p.rssPages * PAGE_BYTES) / 1048576 : null;
  }

  /** Starts the measured window. */
  async start(): Promise<void> {
    const p = this.proc();
    this.cpuStart = p ? { ticks: p.cpuTicks, at: Date.now() } : null;
    this.mainStart = this.mainThread();
    this.rssMB = [];
    this.metrics = [];
    this.windowStart = await this.scrape();
    this.timer = setInterval(() => {
      const q = this.proc();
      if (q) this.rssMB.push((q.rssPages * PAGE_BYTES) / 1048576);
    }, 1000);
    this.metricsTimer = setInterval(() => {
      void this.scrape().then((m) => m && this.metrics.push(m));
    }, 2000);
  }

  /** Ends the window and returns its figures. */
  async stop(): Promise<ServerFigures> {
    if (this.timer) clearInterval(this.timer);
    if (this.metricsTimer) clearInterval(this.metricsTimer);
    const p = this.proc();
    this.cpuEnd = p ? { ticks: p.cpuTicks, at: Date.now() } : null;
    const m0 = this.mainStart;
    const m1 = this.mainThread();
    const mainSeconds = m0 && m1 ? (m1.at - m0.at) / 1000 : 0;
    if (p) this.rssMB.push((p.rssPages * PAGE_BYTES) / 1048576);
    const end = await this.scrape();
    const cpu =
      this.cpuStart && this.cpuEnd && this.cpuEnd.at > this.cpuStart.at
        ? ((this.cpuEnd.ticks - this.cpuStart.ticks) /
            TICKS_PER_SECOND /
            ((this.cpuEnd.at - this.cpuStart.at) / 1000)) *
          100
        : null;
    // event loop: prom-client's p99 gauge covers the time since the previous scrape; average the window's samples
    const lags = [...this.metrics, ...(end ? [end] : [])]
      .map((m) => m.eventLoopP99Seconds)
      .filter((x): x is number => x !== null);
    const eventLoopP99Ms = lags.length ? (lags.reduce((a, b) => a + b, 0) / lags.length) * 1000 : null;
    let botDecisionsPerSecond: number | null = null;
    let botMsP50: number | null = null;
    let botMsDelta: Buckets = [];
    let commandMsDelta: Buckets = [];
    let dbWriteMsDelta: Buckets = [];
    let dbWaitMsDelta: Buckets = [];
    const s = this.windowStart;
    if (s && end && s.botDecisions !== null && end.botDecisions !== null && end.at > s.at) {
      botDecisionsPerSecond = (end.botDecisions - s.botDecisions) / ((end.at - s.at) / 1000);
    }
    if (end) {
      botMsP50 = end.botMsBuckets.length
        ? histogramQuantile(s?.botMsBuckets ?? [], end.botMsBuckets, 0.5)
        : end.botMsSummaryP50;
      botMsDelta = bucketsDelta(s?.botMsBuckets ?? [], end.botMsBuckets);
      commandMsDelta = bucketsDelta(s?.commandMsBuckets ?? [], end.commandMsBuckets);
      dbWriteMsDelta = bucketsDelta(s?.dbWriteMsBuckets ?? [], end.dbWriteMsBuckets);
      dbWaitMsDelta = bucketsDelta(s?.dbWaitMsBuckets ?? [], end.dbWaitMsBuckets);
    }
    return {
      serverRssMB: this.rssMB.length ? Math.max(...this.rssMB) : null,
      serverCpuPct: cpu,
      eventLoopP99Ms,
      botDecisionsPerSecond,
      botMsP50,
      botMsDelta,
      commandP99Ms: histogramQuantile([], commandMsDelta, 0.99),
      dbWriteP99Ms: histogramQuantile([], dbWriteMsDelta, 0.99),
      dbWaitP99Ms: histogramQuantile([], dbWaitMsDelta, 0.99),
      mainThreadCpuPct:
        m0 && m1 && mainSeconds > 0 ? ((m1.cpuTicks - m0.cpuTicks) / TICKS_PER_SECOND / mainSeconds) * 100 : null,
      mainThreadWaitMsPerS: m0 && m1 && mainSeconds > 0 ? (m1.waitNs - m0.waitNs) / 1e6 / mainSeconds : null,
      commandMsDelta,
      dbWriteMsDelta,
      dbWaitMsDelta,
    };
  }
}
