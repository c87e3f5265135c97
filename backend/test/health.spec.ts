import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import { api, createTestApp, registerUser, TestApp } from './support/test-app';

/** A loopback port nothing listens on (bound once, then released). */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('health, docs and errors', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { REGISTER_MAX_PER_IP: '2' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GET /health answers ok when the database is reachable', async () => {
    const r = await api(t.url, 'GET', '/health');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok', database: 'up' });
  });

  it('GET /health/ready (terminus) answers 200 with the database and, when REDIS_URL is set, Redis up', async () => {
    const r = await api(t.url, 'GET', '/health/ready');
    expect(r.status).toBe(200);
    const up = process.env.REDIS_URL
      ? { database: { status: 'up' }, redis: { status: 'up' } }
      : { database: { status: 'up' } };
    expect(r.body).toEqual({ status: 'ok', info: up, error: {}, details: up });
    // not under the API prefix, and not the web app
    expect((await api(t.url, 'GET', '/api/health/ready')).status).toBe(404);
  });

  it('serves the OpenAPI document at /api/docs', async () => {
    const r = await api(t.url, 'GET', '/api/docs-json');
    expect(r.status).toBe(200);
    expect(Object.keys((r.body as { paths: object }).paths)).toEqual(
      expect.arrayContaining(['/health', '/health/ready']),
    );
    const ui = await api(t.url, 'GET', '/api/docs');
    expect(ui.status).toBe(200);
    expect(String(ui.body)).toContain('swagger');
  });

  it('unknown API routes are a JSON 404', async () => {
    const r = await api(t.url, 'GET', '/api/nope');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ message: expect.stringContaining('Cannot GET') });
  });

  it('applied the migrations under the advisory lock', async () => {
    const rows = await t.dataSource.query(`SELECT name FROM migrations`);
    expect(rows.map((r: { name: string }) => r.name)).toContain('InitPlatform1763800000000');
  });

  it('CORS: allows CLIENT_URL with credentials and the desktop app (null origin), not other origins', async () => {
    const preflight = (origin: string) =>
      api(t.url, 'OPTIONS', '/api/auth/login', {
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type,authorization',
        },
      });
    const client = await preflight('http://localhost:5173');
    expect(client.status).toBe(204);
    expect(client.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(client.headers.get('access-control-allow-credentials')).toBe('true');
    const desktop = await preflight('null');
    expect(desktop.headers.get('access-control-allow-origin')).toBe('null');
    const evil = await preflight('https://evil.example');
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('limits account creation per IP (each new account receives coins)', async () => {
    await registerUser(t.url);
    await registerUser(t.url);
    const before = (await t.dataSource.query(`SELECT count(*)::int AS n FROM users`))[0].n;
    const third = await api<{ message: string }>(t.url, 'POST', '/api/auth/register', {
      body: { username: 'third_one', email: 'third@example.test', password: 'long enough' },
    });
    expect(third.status).toBe(429);
    expect(third.body.message).toMatch(/Too many accounts created from this address/);
    expect((await t.dataSource.query(`SELECT count(*)::int AS n FROM users`))[0].n).toBe(before);
  });

  it('GET /health answers 503 when the database is unreachable (runs last: it closes the connection)', async () => {
    await t.dataSource.destroy();
    const r = await api(t.url, 'GET', '/health');
    expect(r.status).toBe(503);
    expect(r.body).toEqual({ message: 'Database unreachable' });
    const ready = await api<{ message: string; status: string; error: object }>(t.url, 'GET', '/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ message: 'Not ready: database down', status: 'error' });
    expect(ready.body.error).toEqual({ database: expect.objectContaining({ status: 'down' }) });
  });
});

describe('readiness with an unreachable Redis', () => {
  let t: TestApp;
  let redisUrl: string;
  beforeAll(async () => {
    redisUrl = `redis://127.0.0.1:${await deadPort()}`;
    t = await createTestApp({ env: { REDIS_URL: redisUrl } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('GET /health/ready answers 503 naming Redis, with the details; liveness /health stays 200', async () => {
    const r = await api<Record<string, unknown>>(t.url, 'GET', '/health/ready');
    expect(r.status).toBe(503);
    expect(r.body).toEqual({
      message: 'Not ready: redis down',
      status: 'error',
      info: { database: { status: 'up' } },
      error: { redis: { status: 'down', message: expect.stringMatching(/ECONNREFUSED|timeout/) } },
      details: {
        database: { status: 'up' },
        redis: { status: 'down', message: expect.stringMatching(/ECONNREFUSED|timeout/) },
      },
    });
    expect(t.config.redisUrl).toBe(redisUrl);
    const live = await api(t.url, 'GET', '/health');
    expect(live.status).toBe(200);
  });
});
