/** Delivery (issue 15): compressed API responses; Cache-Control of the web app's files. */
import type { Response } from 'express';
import { IMMUTABLE, REVALIDATE, setStaticCacheHeaders } from '../src/common/delivery';
import { createTestApp, TestApp } from './support/test-app';

describe('delivery (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['br', 'br'],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
  ])('compresses API responses (Accept-Encoding: %s → %s)', async (accept, encoding) => {
    const r = await fetch(`${t.url}/api/docs-json`, { headers: { 'accept-encoding': accept } });
    expect(r.status).toBe(200);
    expect(r.headers.get('content-encoding')).toBe(encoding);
    expect(r.headers.get('vary')).toMatch(/accept-encoding/i);
    const doc = (await r.json()) as { paths: object };
    expect(Object.keys(doc.paths).length).toBeGreaterThan(5);
  });

  it('leaves a small answer and a client without compression alone', async () => {
    const small = await fetch(`${t.url}/health`, { headers: { 'accept-encoding': 'br' } });
    expect(small.headers.get('content-encoding')).toBeNull();
    const plain = await fetch(`${t.url}/api/docs-json`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
  });
});

describe('Cache-Control of the web app files', () => {
  const headerFor = (path: string) => {
    const set: Record<string, string> = {};
    setStaticCacheHeaders({ setHeader: (k: string, v: string) => (set[k] = v) } as unknown as Response, path);
    return set['Cache-Control'];
  };
  it.each([
    ['/srv/desktop/dist/web/assets/index-DLXZTmUR.js', IMMUTABLE],
    ['/srv/desktop/dist/web/assets/TablePage-rmWXFCWV.css', IMMUTABLE],
    ['/srv/desktop/dist/web/assets/workbox-window.prod.es5-Bd17z0YL.js', IMMUTABLE],
    ['/srv/desktop/dist/web/index.html', REVALIDATE],
    ['/srv/desktop/dist/web/sw.js', REVALIDATE],
    ['/srv/desktop/dist/web/manifest.webmanifest', REVALIDATE],
    ['/srv/desktop/dist/web/favicon.ico', REVALIDATE],
    ['/srv/desktop/dist/web/assets/plain.js', REVALIDATE],
  ])('%s → %s', (path, expected) => expect(headerFor(path)).toBe(expected));
});
