/**
 * The sampler against a stand-in server: this very process for /proc/<pid>/stat and a small HTTP server for
 * `GET /metrics` (prom-client's text) — or one without it (404: every metric figure null). And the Redis check of
 * `--nodes` against a port nobody listens on and a server that never answers.
 */
import { createServer, Server } from 'node:http';
import { AddressInfo, createServer as createTcpServer } from 'node:net';
import { BenchSetupError, checkRedis, freePort, ServerSampler } from './server-process';

const TOKEN = 'bench-metrics-token-0123456789';

function metricsServer(
  handler: (n: number) => { status: number; body: string },
): Promise<{ url: string; server: Server }> {
  let n = 0;
  const server = createServer((req, res) => {
    // like the server (issue #24): /metrics answers only the bearer token
    const r =
      req.url !== '/metrics'
        ? { status: 404, body: '' }
        : req.headers.authorization !== `Bearer ${TOKEN}`
          ? { status: 401, body: '' }
          : handler(n++);
    res.writeHead(r.status, { 'content-type': 'text/plain' });
    res.end(r.body);
  });
  return new Promise((ok) =>
    server.listen(0, '127.0.0.1', () =>
      ok({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }),
    ),
  );
}

const busy = (ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end) Math.sqrt(Math.random());
};

it('reads RSS and CPU from /proc and the event loop and bot figures from /metrics over the window', async () => {
  // each scrape: 100 more decisions, all of them between 5 and 10 ms; p99 lag 20 ms then 30 ms
  const { url, server } = await metricsServer((n) => ({
    status: 200,
    body: [
      `nodejs_eventloop_lag_p99_seconds ${n === 0 ? 0.5 : n % 2 ? 0.02 : 0.03}`,
      `spades_bot_decisions_total ${100 * n}`,
      `spades_bot_decision_ms_bucket{le="5"} 0`,
      `spades_bot_decision_ms_bucket{le="10"} ${100 * n}`,
      `spades_bot_decision_ms_bucket{le="+Inf"} ${100 * n}`,
      // human commands: 100 more per scrape, 98 of them ≤ 10 ms and 2 between 50 and 100 ms; the server's own
      // commands (timers, bots) are all slow and must not count
      `spades_action_ack_ms_bucket{kind="human",le="10"} ${98 * n}`,
      `spades_action_ack_ms_bucket{kind="human",le="50"} ${98 * n}`,
      `spades_action_ack_ms_bucket{kind="human",le="100"} ${100 * n}`,
      `spades_action_ack_ms_bucket{kind="human",le="+Inf"} ${100 * n}`,
      `spades_action_ack_ms_bucket{kind="server",le="10"} 0`,
      `spades_action_ack_ms_bucket{kind="server",le="50"} 0`,
      `spades_action_ack_ms_bucket{kind="server",le="100"} 0`,
      `spades_action_ack_ms_bucket{kind="server",le="+Inf"} ${1000 * n}`,
      // group commits: 50 more per scrape, all between 2 and 3 ms
      `spades_db_write_ms_bucket{le="2"} 0`,
      `spades_db_write_ms_bucket{le="3"} ${50 * n}`,
      `spades_db_write_ms_bucket{le="+Inf"} ${50 * n}`,
      // human commands' write waits: 100 more per scrape, all between 5 and 10 ms; the bots' are slow, left out
      `spades_db_wait_ms_bucket{kind="human",le="5"} 0`,
      `spades_db_wait_ms_bucket{kind="human",le="10"} ${100 * n}`,
      `spades_db_wait_ms_bucket{kind="human",le="+Inf"} ${100 * n}`,
      `spades_db_wait_ms_bucket{kind="bot",le="5"} 0`,
      `spades_db_wait_ms_bucket{kind="bot",le="10"} 0`,
      `spades_db_wait_ms_bucket{kind="bot",le="+Inf"} ${300 * n}`,
    ].join('\n'),
  }));
  const sampler = new ServerSampler(process.pid, url, TOKEN);
  try {
    await sampler.start();
    busy(300);
    await new Promise((r) => setTimeout(r, 2300));
    const f = await sampler.stop();
    expect(f.serverRssMB).toBeGreaterThan(10);
    expect(f.serverCpuPct).toBeGreaterThan(3);
    // the main thread (this test's own: tid = pid) ran the busy loop; its run-queue wait is a figure, not NaN
    expect(f.mainThreadCpuPct).toBeGreaterThan(3);
    expect(f.mainThreadCpuPct).toBeLessThanOrEqual(f.serverCpuPct! + 1);
    expect(f.mainThreadWaitMsPerS).toBeGreaterThanOrEqual(0);
    expect(f.mainThreadWaitMsPerS).toBeLessThan(1000);
    // the start scrape (0.5 s, before the window) is not averaged in: samples are 20 then 30 ms
    expect(f.eventLoopP99Ms).toBeGreaterThanOrEqual(20);
    expect(f.eventLoopP99Ms).toBeLessThanOrEqual(30);
    expect(f.botDecisionsPerSecond).toBeGreaterThan(20);
    expect(f.botMsP50).toBeGreaterThan(5);
    expect(f.botMsP50).toBeLessThanOrEqual(10);
    expect(sampler.lifetimePeakMB).toBeGreaterThanOrEqual(f.serverRssMB! - 1);
    // the window's histogram observations (for merging several nodes): 100 per scrape after the start one
    expect(f.botMsDelta.find((b) => b.le === 5)?.count).toBe(0);
    expect(f.botMsDelta.find((b) => b.le === 10)?.count).toBeGreaterThanOrEqual(100);
    // 2 % of the human commands took 50–100 ms: the 99th percent is half-way into that bucket; commits 2–3 ms
    expect(f.commandP99Ms).toBeCloseTo(75, 6);
    expect(f.dbWriteP99Ms).toBeCloseTo(2.99, 6);
    expect(f.dbWaitP99Ms).toBeCloseTo(9.95, 6);
    expect(f.dbWaitMsDelta.find((b) => b.le === Infinity)?.count).toBeGreaterThanOrEqual(100);
    expect(f.commandMsDelta.find((b) => b.le === Infinity)?.count).toBeGreaterThanOrEqual(100);
  } finally {
    sampler.close();
    server.close();
  }
});

it('reports null for every /metrics figure when the server has no /metrics', async () => {
  const { url, server } = await metricsServer(() => ({ status: 404, body: 'Not Found' }));
  const sampler = new ServerSampler(process.pid, url, TOKEN);
  try {
    await sampler.start();
    const f = await sampler.stop();
    expect(f).toMatchObject({
      eventLoopP99Ms: null,
      botDecisionsPerSecond: null,
      botMsP50: null,
      commandP99Ms: null,
      dbWriteP99Ms: null,
      dbWaitP99Ms: null,
    });
    expect(f.serverRssMB).toBeGreaterThan(10);
    // /proc figures do not need /metrics
    expect(f.mainThreadCpuPct).not.toBeNull();
  } finally {
    sampler.close();
    server.close();
  }
});

describe('checkRedis (--nodes)', () => {
  it('says clearly that Redis is unreachable when nothing listens', async () => {
    const port = await freePort();
    const url = `redis://127.0.0.1:${port}`;
    const e = await checkRedis(url, 2000).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BenchSetupError);
    expect((e as Error).message).toContain(
      `--nodes needs Redis (the nodes forward commands through it): ${url} is unreachable`,
    );
  });

  it('gives up after its timeout on a server that never answers', async () => {
    const silent = createTcpServer(() => undefined);
    await new Promise<void>((ok) => silent.listen(0, '127.0.0.1', ok));
    const port = (silent.address() as AddressInfo).port;
    try {
      const t0 = Date.now();
      const e = await checkRedis(`redis://127.0.0.1:${port}`, 500).catch((x: unknown) => x);
      expect(e).toBeInstanceOf(BenchSetupError);
      expect((e as Error).message).toContain('unreachable');
      expect(Date.now() - t0).toBeLessThan(5000);
    } finally {
      silent.close();
    }
  });
});
