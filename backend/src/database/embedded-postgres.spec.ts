import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from './embedded-postgres';

/** The `pg` driver (no type declarations installed): the part used here. */
interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Client } = require('pg') as { Client: new (o: { connectionString: string }) => PgClient };

describe('embedded PostgreSQL (PGlite)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spades-embedded-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs in a thread of its own: a slow query does not hold up the event loop; stop releases the data directory', async () => {
    const db = await startEmbeddedPostgres(dir);
    const client = new Client({ connectionString: db.url });
    try {
      await client.connect();
      expect((await client.query('SELECT 1 + 1 AS two')).rows).toEqual([{ two: 2 }]);
      // PGlite runs a query synchronously: on the server's own thread this would stall every timer for 400 ms
      let last = performance.now();
      let longestGap = 0;
      const tick = setInterval(() => {
        const now = performance.now();
        longestGap = Math.max(longestGap, now - last);
        last = now;
      }, 5);
      const slept = performance.now();
      await client.query('SELECT pg_sleep(0.4)');
      clearInterval(tick);
      longestGap = Math.max(longestGap, performance.now() - last); // a loop blocked throughout never ticked at all
      expect(performance.now() - slept).toBeGreaterThanOrEqual(390);
      expect(longestGap).toBeLessThan(150);
    } finally {
      await client.end();
      await db.stop();
    }
    expect(existsSync(join(dir, 'pgdata.lock'))).toBe(false);
    // the same directory opens again with what was stored
    const again = await startEmbeddedPostgres(dir);
    const c2 = new Client({ connectionString: again.url });
    try {
      await c2.connect();
      await c2.query('CREATE TABLE kept (n int)');
    } finally {
      await c2.end();
      await again.stop();
    }
  });
});
