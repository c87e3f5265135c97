/**
 * The sampler against a stand-in server: this very process for /proc/<pid>/stat and a small HTTP server for
 * `GET /metrics` (prom-client's text) — or one without it (404: every metric figure null).
 */
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { ServerSampler } from './server-process';

function metricsServer(
  handler: (n: number) => { status: number; body: string },
): Promise<{ url: string; server: Server }> {
  let n = 0;
  const server = createServer((req, res) => {
    const r = req.url === '/metrics' ? handler(n++) : { status: 404, body: '' };
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
    ].join('\n'),
  }));
  const sampler = new ServerSampler(process.pid, url);
  try {
    await sampler.start();
    busy(300);
    await new Promise((r) => setTimeout(r, 2300));
    const f = await sampler.stop();
    expect(f.serverRssMB).toBeGreaterThan(10);
    expect(f.serverCpuPct).toBeGreaterThan(3);
    // the start scrape (0.5 s, before the window) is not averaged in: samples are 20 then 30 ms
    expect(f.eventLoopP99Ms).toBeGreaterThanOrEqual(20);
    expect(f.eventLoopP99Ms).toBeLessThanOrEqual(30);
    expect(f.botDecisionsPerSecond).toBeGreaterThan(20);
    expect(f.botMsP50).toBeGreaterThan(5);
    expect(f.botMsP50).toBeLessThanOrEqual(10);
    expect(sampler.lifetimePeakMB).toBeGreaterThanOrEqual(f.serverRssMB! - 1);
  } finally {
    sampler.close();
    server.close();
  }
});

it('reports null for every /metrics figure when the server has no /metrics', async () => {
  const { url, server } = await metricsServer(() => ({ status: 404, body: 'Not Found' }));
  const sampler = new ServerSampler(process.pid, url);
  try {
    await sampler.start();
    const f = await sampler.stop();
    expect(f).toMatchObject({ eventLoopP99Ms: null, botDecisionsPerSecond: null, botMsP50: null });
    expect(f.serverRssMB).toBeGreaterThan(10);
  } finally {
    sampler.close();
    server.close();
  }
});
