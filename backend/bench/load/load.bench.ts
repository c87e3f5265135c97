/**
 * `npm run bench:load -- --tables 100 [--humans 1|4] [--rate R] [--seconds S] [--db pglite|postgres]
 *   [--bots strong|heuristic|basic] [--storm] [--spectators K] [--clients P] [--baseline-seconds B] [--warmup W]
 *   [--batch N] [--nodes N] [--quiet]`
 *
 * Load harness for one server (issue 10). It starts the real server (`node backend/dist/main.js`, built if
 * missing) on a free port with a temporary DATA_DIR (embedded PGlite, the default) or a fresh schema in
 * PostgreSQL (`--db postgres`: BENCH_DATABASE_URL, default postgres://root@127.0.0.1:5432/test), forks client
 * processes with real socket.io clients (clients.ts) that register users and create the tables in parallel
 * batches, lets them play for the warm-up, then measures `--seconds`: every human action from emit to its ack and
 * to its first update, every game action seen, the server's RSS and CPU (/proc) and, when the server serves
 * `GET /metrics`, its event-loop delay and bot figures. `--storm` then pauses every table on a human turn, drops
 * every socket at once and times until every client is back (reconnect, join_game, the same view).
 * Finally the bare socket.io echo server (echo-server.ts) runs at the measured rate with the same socket count:
 * the baseline of `p99Ratio`. Progress goes to stderr; the last stdout line is the JSON result.
 *
 * `--nodes N` (issue #13): N server processes on one fresh PostgreSQL schema and Redis (REDIS_URL, default
 * redis://127.0.0.1:6379), each with its own NODE_ID and port; the sockets are spread round-robin over them (a
 * socket whose table another node owns has its commands forwarded there); every node is sampled, and the result
 * adds `perNode` (tables owned at the end, RSS, CPU, event loop) and the forwarded share of the timed actions.
 */
import { ChildProcess, execFileSync, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Collected, Command } from './clients.protocol';
import {
  BACKEND_DIR,
  BENCH_DATABASE_URL,
  BenchSetupError,
  benchQuery,
  ClusterHandle,
  MAIN_JS,
  ServerHandle,
  ServerSampler,
  startCluster,
  startServer,
} from './server-process';
import {
  AckSample,
  aggregateNodes,
  buildResult,
  forwardedSplit,
  LoadOptions,
  parseArgs,
  PerNode,
  RawFigures,
  UsageError,
} from './stats';

const ROOT = resolve(BACKEND_DIR, '..');
const started = Date.now();

function log(msg: string, opts: LoadOptions): void {
  if (opts.verbose) process.stderr.write(`[bench:load +${((Date.now() - started) / 1000).toFixed(1)}s] ${msg}\n`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A forked client process with a request/response helper over IPC. */
class ClientProc {
  readonly child: ChildProcess;
  private waiters: { cmd: string; resolve: (m: any) => void; reject: (e: Error) => void }[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any

  constructor(readonly index: number) {
    this.child = fork(join(__dirname, 'clients.ts'), [], {
      execArgv: ['--import', 'tsx'],
      cwd: BACKEND_DIR,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.child.on('message', (m: { cmd: string; message?: string }) => {
      if (m.cmd === 'failed') {
        const w = this.waiters.shift();
        w?.reject(new Error(`client process ${this.index}: ${m.message}`));
        return;
      }
      const i = this.waiters.findIndex((w) => w.cmd === m.cmd);
      if (i >= 0) this.waiters.splice(i, 1)[0].resolve(m);
    });
    this.child.on('exit', (code) => {
      for (const w of this.waiters.splice(0)) w.reject(new Error(`client process ${this.index} exited (${code})`));
    });
  }

  request<T>(c: Command, reply: string): Promise<T> {
    return new Promise<T>((resolveFn, reject) => {
      this.waiters.push({ cmd: reply, resolve: resolveFn, reject });
      this.child.send(c);
    });
  }

  kill(): void {
    if (this.child.exitCode === null) this.child.kill('SIGTERM');
  }
}

function ensureBuilt(opts: LoadOptions): void {
  if (existsSync(MAIN_JS) && existsSync(join(ROOT, 'common/dist/index.js'))) return;
  log('backend/dist or common/dist is missing: building common and backend (nx)…', opts);
  execFileSync(
    process.platform === 'win32' ? 'npx.cmd' : 'npx',
    ['nx', 'run-many', '-t', 'build', '--projects=common,backend'],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, NX_DAEMON: 'false' },
    },
  );
}

function startEcho(env: NodeJS.ProcessEnv = {}): Promise<{ url: string; child: ChildProcess }> {
  const child = fork(join(__dirname, 'echo-server.ts'), [], {
    execArgv: ['--import', 'tsx'],
    cwd: BACKEND_DIR,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  return new Promise((ok, fail) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) ok({ url: `http://127.0.0.1:${JSON.parse(buf.slice(0, nl)).port}`, child });
    });
    child.once('exit', (code) => fail(new Error(`echo server exited (${code})`)));
  });
}

/** Stops an echo server and waits until it has exited (a durable one closes its database first). */
function stopEcho(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((ok) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(force);
      ok();
    });
    child.kill('SIGTERM');
  });
}

/** Splits the table indices 0..n-1 into `parts` contiguous slices. */
function slices(n: number, parts: number): number[][] {
  const out: number[][] = [];
  for (let p = 0; p < parts; p++) {
    const from = Math.floor((p * n) / parts);
    const to = Math.floor(((p + 1) * n) / parts);
    out.push(Array.from({ length: to - from }, (_x, i) => from + i));
  }
  return out.filter((s) => s.length > 0);
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2).filter((a) => a !== '--');
  let opts: LoadOptions;
  try {
    opts = parseArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      console.error(`bench:load: ${e.message}`);
      process.exitCode = 2;
      return;
    }
    throw e;
  }
  ensureBuilt(opts);
  const sockets = opts.tables * (opts.humans + opts.spectators);
  const parts = slices(opts.tables, Math.min(opts.clients, opts.tables));
  log(
    `${opts.tables} tables × (${opts.humans} human${opts.humans > 1 ? 's' : ''}${opts.humans === 1 ? ' + 3 bots' : ''}${opts.spectators ? ` + ${opts.spectators} spectators` : ''}) = ${sockets} sockets in ${parts.length} client process(es); target ${opts.rate || 'max'} actions/s; db ${opts.db ?? 'server default'}${opts.cluster ? ` (${opts.nodes} node${opts.nodes > 1 ? 's' : ''}, cluster mode, REDIS_URL)` : ''}; bots ${opts.bots ?? 'server default'}`,
    opts,
  );

  // one server, or the nodes of a cluster (--nodes > 1)
  let server: ServerHandle | null = null;
  let cluster: ClusterHandle | null = null;
  let servers: ServerHandle[] = [];
  const samplers: ServerSampler[] = [];
  const procs: ClientProc[] = [];
  let echoChild: ChildProcess | null = null;
  let failed = true;
  const stopServers = async (keepLog = false) => {
    for (const s of samplers.splice(0)) s.close();
    const c = cluster;
    const one = server;
    cluster = null;
    server = null;
    servers = [];
    await c?.stop(keepLog);
    await one?.stop(keepLog);
  };
  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      for (const p of procs) p.kill();
      echoChild?.kill('SIGTERM');
      if (failed)
        for (const s of servers)
          console.error(`bench:load: the log of ${s.nodeId ?? 'the server'} is kept in ${s.logFile}`);
      await stopServers(failed);
    })());
  for (const sig of ['SIGINT', 'SIGTERM'] as const)
    process.once(sig, () => void cleanup().then(() => process.exit(sig === 'SIGINT' ? 130 : 143)));
  try {
    if (opts.cluster) {
      cluster = await startCluster({
        n: opts.nodes,
        bots: opts.bots,
        // known at once: a failure later in the start stops the nodes already up
        onNode: (h) => servers.push(h),
      });
      servers = cluster.nodes;
    } else {
      server = await startServer({ db: opts.db, bots: opts.bots });
      servers = [server];
    }
    for (const s of servers) samplers.push(new ServerSampler(s.pid, s.url, s.metricsToken));
    const rss = () => samplers.map((x) => x.currentRssMB()?.toFixed(0)).join(' + ');
    for (const [i, s] of servers.entries())
      log(
        `${s.nodeId ? `node ${s.nodeId}` : 'server'} pid ${s.pid} on ${s.url}, RSS after boot ${samplers[i].currentRssMB()?.toFixed(0)} MB (log ${s.logFile})`,
        opts,
      );

    // ---- setup: users, sockets, tables (each client process in parallel, tables in batches)
    const runId = randomBytes(3).toString('hex').slice(0, 4);
    for (let i = 0; i < parts.length; i++) procs.push(new ClientProc(i));
    const tSetup = Date.now();
    const ready = await Promise.all(
      procs.map((p, i) =>
        p.request<{ registerMs: number; connectMs: number; createMs: number }>(
          {
            cmd: 'setup',
            urls: servers.map((x) => x.url),
            tables: parts[i],
            humans: opts.humans,
            spectators: opts.spectators,
            rate: opts.rate,
            totalTables: opts.tables,
            batch: Math.max(1, Math.ceil(opts.batch / parts.length)),
            runId,
            http: opts.http,
          },
          'ready',
        ),
      ),
    );
    const slowest = (k: 'registerMs' | 'connectMs' | 'createMs') => Math.max(...ready.map((r) => r[k]));
    log(
      `setup ${((Date.now() - tSetup) / 1000).toFixed(1)} s: register ${slowest('registerMs')} ms, create+start (HTTP) ${slowest('createMs')} ms, connect + join_game ${slowest('connectMs')} ms; RSS ${rss()} MB`,
      opts,
    );
    await sleep(opts.warmupSeconds * 1000);

    // ---- measured window
    await Promise.all(procs.map((p) => p.request({ cmd: 'mark' }, 'marked')));
    await Promise.all(samplers.map((x) => x.start()));
    const t0 = Date.now();
    const load0 = loadavg()[0];
    log(`measuring ${opts.seconds} s… (machine load average ${load0.toFixed(1)})`, opts);
    await sleep(opts.seconds * 1000);
    const collected = await Promise.all(procs.map((p) => p.request<Collected>({ cmd: 'collect' }, 'collected')));
    const windowSeconds = (Date.now() - t0) / 1000;
    const nodeFigures = await Promise.all(samplers.map((x) => x.stop()));
    const serverFigures = nodeFigures.length === 1 ? nodeFigures[0] : aggregateNodes(nodeFigures);
    for (const [i, x] of samplers.entries()) {
      const name = servers[i].nodeId ? `node ${servers[i].nodeId}` : 'server';
      const memory = await x.memoryBreakdown();
      if (memory) log(`${name} memory: ${memory}`, opts);
      log(
        `${name} RSS: peak ${nodeFigures[i].serverRssMB?.toFixed(0)} MB in the window, ${x.lifetimePeakMB.toFixed(0)} MB since boot; CPU ${nodeFigures[i].serverCpuPct?.toFixed(0)}% (main thread ${nodeFigures[i].mainThreadCpuPct?.toFixed(0) ?? '-'}% of a core, waited ${nodeFigures[i].mainThreadWaitMsPerS?.toFixed(0) ?? '-'} ms/s for one)`,
        opts,
      );
    }
    // who owns what at the end of the window (before the sockets close and the nodes drain)
    let clusterFigures: RawFigures['cluster'];
    if (cluster) {
      const q = (sql: string) => benchQuery<{ id: string; owner_node: string | null; n: string }>(sql);
      const counts = await q(
        `SELECT owner_node, count(*) AS n FROM "${cluster.schema}".games WHERE status <> 'CLOSED' GROUP BY 1`,
      );
      const owners = new Map(
        (await q(`SELECT id, owner_node FROM "${cluster.schema}".games WHERE status <> 'CLOSED'`)).map((r) => [
          r.id,
          r.owner_node,
        ]),
      );
      const unowned = counts.filter((r) => !servers.some((x) => x.nodeId === r.owner_node));
      for (const r of unowned) log(`${r.n} open table(s) owned by ${r.owner_node ?? 'no node'}`, opts);
      const perNode: PerNode[] = servers.map((x, i) => ({
        nodeId: x.nodeId!,
        tables: Number(counts.find((r) => r.owner_node === x.nodeId)?.n ?? 0),
        rssMB: nodeFigures[i].serverRssMB,
        cpuPct: nodeFigures[i].serverCpuPct,
        eventLoopP99Ms: nodeFigures[i].eventLoopP99Ms,
      }));
      const samples: AckSample[] = collected.flatMap((c) =>
        c.ackMs.map((ms, k) => {
          const [gameId, node] = c.where[c.ackWhere[k]];
          return { ms, gameId, node: servers[node].nodeId! };
        }),
      );
      clusterFigures = { perNode, ...forwardedSplit(samples, owners) };
      log(
        `tables per node: ${perNode.map((n) => `${n.nodeId} ${n.tables}`).join(', ')}; forwarded ${((clusterFigures.forwardedShare ?? 0) * 100).toFixed(0)}% of the timed actions (ack p99 local ${clusterFigures.ackP99LocalMs?.toFixed(1) ?? '-'} ms, forwarded ${clusterFigures.ackP99ForwardedMs?.toFixed(1) ?? '-'} ms)`,
        opts,
      );
    }
    const actions = collected.reduce((a, c) => a + c.actions, 0);
    const botActions = collected.reduce((a, c) => a + c.botActions, 0);
    const ackMs = collected.flatMap((c) => c.ackMs);
    const updateMs = collected.flatMap((c) => c.updateMs);
    const rxBytes: Record<string, number> = {};
    for (const c of collected) for (const [e, b] of Object.entries(c.rxBytes)) rxBytes[e] = (rxBytes[e] ?? 0) + b;
    log(
      `window ${windowSeconds.toFixed(1)} s: ${actions} actions (${botActions} by bots), ${ackMs.length} timed human actions, ${collected.reduce((a, c) => a + c.tablesPlaying, 0)} tables open; client processes CPU ${collected.map((c) => `${c.cpuPct}%`).join(' ')}, event loop p99 ${collected.map((c) => `${c.eventLoopP99Ms} ms`).join(' ')}; machine load average ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`,
      opts,
    );

    // ---- reconnect storm
    let stormRecoveryMs: number | null | undefined;
    let stormErrors = 0;
    if (opts.storm) {
      log('storm: pausing every table on a human turn…', opts);
      const prepared = await Promise.all(
        procs.map((p) =>
          p.request<{ ok: boolean; notQuiet?: number; sockets?: number }>(
            { cmd: 'storm-prepare', timeoutMs: 90000 },
            'storm-ready',
          ),
        ),
      );
      if (prepared.every((r) => r.ok)) {
        log(`storm: dropping ${sockets} sockets at once`, opts);
        const done = await Promise.all(
          procs.map((p) =>
            p.request<{ recoveryMs: number | null; recovered: number; sockets: number }>(
              { cmd: 'storm', timeoutMs: 120000 },
              'storm-done',
            ),
          ),
        );
        stormRecoveryMs = done.some((d) => d.recoveryMs === null)
          ? null
          : Math.max(...done.map((d) => d.recoveryMs as number));
        log(
          `storm: ${done.reduce((a, d) => a + d.recovered, 0)}/${done.reduce((a, d) => a + d.sockets, 0)} clients back with their exact view; slowest ${stormRecoveryMs ?? 'never'} ms`,
          opts,
        );
      } else {
        stormRecoveryMs = null;
        stormErrors++;
        log(
          `storm: tables never all waited for a human (${prepared.reduce((a, r) => a + (r.notQuiet ?? 0), 0)} sockets not quiet)`,
          opts,
        );
      }
    }
    const lateErrors = opts.storm
      ? await Promise.all(procs.map((p) => p.request<Collected>({ cmd: 'collect' }, 'collected')))
      : collected;
    const errors = lateErrors.reduce((a, c) => a + c.errors, 0) + stormErrors;
    const samples = [...new Set(lateErrors.flatMap((c) => c.errorSamples))];
    for (const s of samples.slice(0, 10)) log(`error: ${s}`, opts);

    await Promise.all(procs.map((p) => p.request({ cmd: 'close-game' }, 'closed')));
    const tStop = Date.now();
    await stopServers();
    log(`server(s) stopped in ${((Date.now() - tStop) / 1000).toFixed(1)} s`, opts);

    // ---- baseline: bare socket.io echo at the measured rate with the same socket count
    const rate = actions / windowSeconds || opts.rate || 1;
    type Echoed = { ackMs: number[]; errors: number; eventLoopP99Ms: number };
    const runEcho = async (what: string, env: NodeJS.ProcessEnv = {}): Promise<Echoed[]> => {
      const echo = await startEcho(env);
      echoChild = echo.child;
      log(
        `${what}: echo server at ${rate.toFixed(1)} actions/s over ${sockets} sockets for ${opts.baselineSeconds} s`,
        opts,
      );
      let offset = 0;
      const echoed = await Promise.all(
        procs.map((p, i) => {
          const n = parts[i].length * (opts.humans + opts.spectators);
          const share = n / sockets;
          const cmd: Command = {
            cmd: 'echo',
            url: echo.url,
            sockets: n,
            tableOffset: offset,
            humans: opts.humans + opts.spectators,
            rate: rate * share,
            seconds: opts.baselineSeconds,
          };
          offset += parts[i].length;
          return p.request<Echoed>(cmd, 'echo-done');
        }),
      );
      log(`${what}: client processes' event loop p99 ${echoed.map((e) => `${e.eventLoopP99Ms} ms`).join(' ')}`, opts);
      await stopEcho(echo.child);
      echoChild = null;
      return echoed;
    };
    const echoed = await runEcho('baseline');
    // ---- --durable-baseline: the same echo, answering each act once a row for it is committed
    let durableEchoed: Echoed[] | null = null;
    if (opts.durableBaseline) {
      if (opts.db === 'postgres') {
        const schema = `bench_echo_${randomBytes(4).toString('hex')}`;
        await benchQuery(`CREATE SCHEMA "${schema}"`);
        try {
          durableEchoed = await runEcho('durable baseline (PostgreSQL)', {
            ECHO_DB: 'postgres',
            ECHO_DATABASE_URL: BENCH_DATABASE_URL,
            ECHO_SCHEMA: schema,
          });
        } finally {
          await benchQuery(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
        }
      } else {
        const dir = mkdtempSync(join(tmpdir(), 'spades-echo-db-'));
        try {
          durableEchoed = await runEcho('durable baseline (embedded PGlite)', {
            ECHO_DB: 'pglite',
            ECHO_DATA_DIR: dir,
          });
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
    }
    for (const p of procs) p.kill();

    const result = buildResult({
      tables: opts.tables,
      sockets,
      actions,
      windowSeconds,
      ackMs,
      updateMs,
      baselineAckMs: echoed.flatMap((e) => e.ackMs),
      eventLoopP99Ms: serverFigures.eventLoopP99Ms,
      serverRssMB: serverFigures.serverRssMB,
      serverCpuPct: serverFigures.serverCpuPct,
      // without the server's counter: the bot moves the clients saw
      botDecisionsPerSecond: serverFigures.botDecisionsPerSecond ?? botActions / windowSeconds,
      botMsP50: serverFigures.botMsP50,
      commandP99Ms: serverFigures.commandP99Ms,
      dbWriteP99Ms: serverFigures.dbWriteP99Ms,
      dbWaitP99Ms: serverFigures.dbWaitP99Ms,
      mainThreadCpuPct: serverFigures.mainThreadCpuPct,
      mainThreadWaitMsPerS: serverFigures.mainThreadWaitMsPerS,
      errors: errors + [...echoed, ...(durableEchoed ?? [])].reduce((a, e) => a + e.errors, 0),
      rxBytes,
      ...(durableEchoed ? { durableBaselineAckMs: durableEchoed.flatMap((e) => e.ackMs) } : {}),
      ...(opts.storm ? { stormRecoveryMs: stormRecoveryMs ?? null } : {}),
      nodes: opts.nodes,
      cluster: clusterFigures,
    });
    process.stdout.write(`${JSON.stringify(result)}\n`);
    failed = false;
  } finally {
    await cleanup();
  }
}

main().catch((e: unknown) => {
  if (e instanceof BenchSetupError) console.error(`bench:load: ${e.message}`);
  else console.error(`bench:load failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  process.exitCode = 1;
  // child processes are killed by cleanup(); make sure nothing keeps the process alive
  setTimeout(() => process.exit(1), 2000).unref();
});
