import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { contentSecurityPolicy, resolveAppRequest, serveAppRequest } from './app-protocol';

const ROOT = '/opt/Spades/resources/app.asar/out/renderer';
const files = new Set([join(ROOT, 'index.html'), join(ROOT, 'assets/index-abc.js'), join(ROOT, 'assets/cards/AS.svg')]);
const exists = (p: string) => files.has(p);

describe('resolveAppRequest', () => {
  it('serves index.html at the root', () => {
    expect(resolveAppRequest('app://spades/', ROOT, exists)).toEqual({
      kind: 'file',
      path: join(ROOT, 'index.html'),
      spaFallback: false,
    });
  });
  it('serves existing assets', () => {
    expect(resolveAppRequest('app://spades/assets/index-abc.js', ROOT, exists)).toMatchObject({
      path: join(ROOT, 'assets/index-abc.js'),
    });
    expect(resolveAppRequest('app://spades/assets/cards/AS.svg?v=1', ROOT, exists)).toMatchObject({ kind: 'file' });
  });
  it('falls back to index.html for client routes (history routing survives reloads)', () => {
    expect(resolveAppRequest('app://spades/table/abc?spectate=1', ROOT, exists)).toEqual({
      kind: 'file',
      path: join(ROOT, 'index.html'),
      spaFallback: true,
    });
  });
  it.each([
    'app://spades/assets/missing.js',
    'app://spades/a%00b',
    'app://spades/%5c..%5cx',
    'app://spades/%E0%A4%A',
    'app://spades/x.json',
    'app://other/index.html',
    'https://spades/index.html',
  ])('answers not-found for %s', (url) => {
    expect(resolveAppRequest(url, ROOT, exists)).toEqual({ kind: 'not-found' });
  });
  it('never resolves outside the renderer directory, even if such files exist', () => {
    for (const url of [
      'app://spades/../../x.js',
      'app://spades/%2e%2e/%2e%2e/x.js',
      'app://spades/assets/%2e%2e%2f%2e%2e%2fx.js',
    ]) {
      const r = resolveAppRequest(url, ROOT, () => true);
      expect(r.kind === 'not-found' || r.path.startsWith(ROOT + '/')).toBe(true);
    }
    expect(resolveAppRequest('app://spades/assets/missing.js', ROOT, exists)).toEqual({ kind: 'not-found' });
    expect(resolveAppRequest('app://other/index.html', ROOT, exists)).toEqual({ kind: 'not-found' });
  });
});

describe('serveAppRequest', () => {
  const deps = {
    rendererDir: ROOT,
    apiBase: 'https://play.example.org',
    exists,
    readFile: async (p: string) => new TextEncoder().encode(`content of ${p}`),
  };
  it('adds the CSP and content type to HTML', async () => {
    const r = await serveAppRequest('app://spades/table/1', deps);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(r.headers['content-security-policy']).toContain("script-src 'self'");
  });
  it('serves JS with its type and no CSP header', async () => {
    const r = await serveAppRequest('app://spades/assets/index-abc.js', deps);
    expect(r.headers['content-type']).toMatch(/^text\/javascript/);
    expect(r.headers['content-security-policy']).toBeUndefined();
  });
  it('answers 404 for unknown files and read errors', async () => {
    expect((await serveAppRequest('app://spades/nope.png', deps)).status).toBe(404);
    expect(
      (await serveAppRequest('app://spades/', { ...deps, readFile: async () => Promise.reject(new Error('EIO')) }))
        .status,
    ).toBe(404);
  });
});

describe('contentSecurityPolicy', () => {
  it('lets the renderer reach only the API (HTTP and websocket)', () => {
    const csp = contentSecurityPolicy('https://play.example.org');
    expect(csp).toContain("connect-src 'self' https://play.example.org wss://play.example.org");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('unsafe-eval');
    expect(contentSecurityPolicy('http://localhost:3000')).toContain('ws://localhost:3000');
  });
});
