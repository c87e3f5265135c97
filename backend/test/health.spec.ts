import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { api, createTestApp, registerUser, TestApp } from './support/test-app';

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

  it('serves the OpenAPI document at /api/docs', async () => {
    const r = await api(t.url, 'GET', '/api/docs-json');
    expect(r.status).toBe(200);
    expect(Object.keys((r.body as { paths: object }).paths)).toEqual(expect.arrayContaining(['/health']));
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
  });
});
