// Issue #24 item 6: /metrics is not for players. On the public port it needs `Authorization: Bearer <METRICS_TOKEN>`
// (401 without or with a wrong one) and is not served at all without METRICS_TOKEN (404); METRICS_PORT serves it on a
// separate listener (the monitoring network) without a token. Real apps, real HTTP.
import { createServer } from 'node:net';
import { MetricsServer } from '../src/metrics/metrics.server';
import { METRICS_ERRORS } from '../src/metrics/metrics.access';
import { api, createTestApp, TestApp } from './support/test-app';

const TOKEN = 'metrics-token-0123456789abcdef';

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('/metrics access', () => {
  let plain: TestApp;
  let guarded: TestApp;
  let metricsPort: number;
  beforeAll(async () => {
    plain = await createTestApp({ env: { METRICS_TOKEN: undefined, METRICS_PORT: undefined } });
    metricsPort = await freePort();
    guarded = await createTestApp({
      env: { METRICS_TOKEN: TOKEN, METRICS_PORT: String(metricsPort), METRICS_HOST: '127.0.0.1' },
    });
  });
  afterAll(async () => {
    await plain?.close();
    await guarded?.close();
  });

  it('without METRICS_TOKEN the public port does not serve it (404), with or without a token', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }] as Record<string, string>[]) {
      const r = await api(plain.url, 'GET', '/metrics', { headers });
      expect(r.status).toBe(404);
      expect(r.body).toMatchObject({ message: METRICS_ERRORS.notServed });
      expect(String(r.body)).not.toContain('spades_');
    }
    expect(plain.app.get(MetricsServer).port).toBeNull();
  });

  it('with METRICS_TOKEN: 401 without it or with a wrong one, 200 with it', async () => {
    for (const authorization of [
      undefined,
      'Bearer wrong',
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      TOKEN,
      `Basic ${TOKEN}`,
      'Bearer ',
    ]) {
      const r = await api(guarded.url, 'GET', '/metrics', {
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ message: METRICS_ERRORS.unauthorized });
    }
    const ok = await fetch(`${guarded.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await ok.text()).toMatch(/^# HELP spades_actions_total/m);
  });

  it('METRICS_PORT serves GET /metrics (no token) on its own listener and nothing else', async () => {
    expect(guarded.app.get(MetricsServer).port).toBe(metricsPort);
    const r = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(r.status).toBe(200);
    expect(await r.text()).toMatch(/^# HELP nodejs_eventloop_lag/m);
    for (const path of ['/', '/health', '/api/users/me', '/metricsx'])
      expect((await fetch(`http://127.0.0.1:${metricsPort}${path}`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { method: 'POST' })).status).toBe(404);
  });
});
