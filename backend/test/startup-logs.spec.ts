/** A normal start logs no warnings (issue 15: two LegacyRouteConverter warnings for /api/* on every start). */
import { Writable } from 'node:stream';
import { createTestApp, TestApp } from './support/test-app';

describe('start-up logs', () => {
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { LOG_LEVEL: 'warn', JWT_SECRET: 'a-test-secret-that-is-long-enough-1234567890' },
      logStream,
    });
    // let the socket.io Redis adapter (REDIS_URL) finish subscribing: closing in the middle rejects its commands
    await new Promise((r) => setTimeout(r, 1000));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has no warning about route syntax (NestJS 11 paths everywhere)', async () => {
    const r = await fetch(`${t.url}/api/nope`);
    expect(r.status).toBe(404);
    expect(lines.filter((l) => /LegacyRouteConverter|Unsupported route path/i.test(l))).toEqual([]);
    // and no other warning on a plain start
    const warnings = lines
      .map((l) => JSON.parse(l) as { level: number; msg?: string })
      .filter((l) => l.level >= 40 && !/\/api\/nope/.test(JSON.stringify(l)));
    expect(warnings).toEqual([]);
  });
});
