/**
 * The durable echo's log (bench:load --durable-baseline): a row is committed before `append` resolves, rows
 * appended in one turn go out together, and a bad configuration is refused. On PostgreSQL when TEST_DATABASE_URL is
 * set (a fresh schema), else on the embedded database (PGlite in a worker thread, a temporary data directory).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DurableLog, openDurableLog } from './durable-echo';

jest.setTimeout(60_000);

const PG = process.env.TEST_DATABASE_URL;

interface Client {
  connect(): Promise<void>;
  query(sql: string): Promise<{ rows: { count: string }[] }>;
  end(): Promise<void>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Client: PgClient } = require('pg') as { Client: new (url: string) => Client };

describe(`durable echo log (${PG ? 'PostgreSQL' : 'embedded PGlite'})`, () => {
  let log: DurableLog;
  let schema = '';
  let dir = '';
  let admin: Client | null = null;

  beforeAll(async () => {
    if (PG) {
      schema = `echo_spec_${randomBytes(4).toString('hex')}`;
      admin = new PgClient(PG);
      await admin.connect();
      await admin.query(`CREATE SCHEMA "${schema}"`);
      log = (await openDurableLog({ ECHO_DB: 'postgres', ECHO_DATABASE_URL: PG, ECHO_SCHEMA: schema }))!;
    } else {
      dir = mkdtempSync(join(tmpdir(), 'echo-spec-'));
      log = (await openDurableLog({ ECHO_DB: 'pglite', ECHO_DATA_DIR: dir }))!;
    }
  });

  afterAll(async () => {
    await log?.close();
    if (admin) {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('resolves an append only once its row is committed (another connection sees it)', async () => {
    await log.append('table-1', 1);
    expect(log.committed).toBe(1);
    if (admin) {
      // a separate session: only committed rows are visible to it
      const { rows } = await admin.query(
        `SELECT count(*) AS count FROM "${schema}".echo_events WHERE room = 'table-1'`,
      );
      expect(Number(rows[0].count)).toBe(1);
    }
  });

  it('stores every row appended in one turn and answers each of them', async () => {
    const before = log.committed;
    await Promise.all(Array.from({ length: 25 }, (_x, i) => log.append(`table-${i % 5}`, i)));
    expect(log.committed).toBe(before + 25);
    if (admin) {
      const { rows } = await admin.query(`SELECT count(*) AS count FROM "${schema}".echo_events`);
      expect(Number(rows[0].count)).toBe(before + 25);
    }
  });
});

describe('durable echo configuration', () => {
  it('is off without ECHO_DB (the bare echo)', async () => {
    await expect(openDurableLog({})).resolves.toBeNull();
  });

  it('refuses an unknown database, or PostgreSQL without a URL or with an unsafe schema name', async () => {
    await expect(openDurableLog({ ECHO_DB: 'mysql' })).rejects.toThrow('ECHO_DB must be postgres or pglite, not mysql');
    await expect(openDurableLog({ ECHO_DB: 'postgres', ECHO_SCHEMA: 's' })).rejects.toThrow(
      'ECHO_DB=postgres needs ECHO_DATABASE_URL and ECHO_SCHEMA',
    );
    await expect(
      openDurableLog({ ECHO_DB: 'postgres', ECHO_DATABASE_URL: 'postgres://x@127.0.0.1/x', ECHO_SCHEMA: 'a"; DROP' }),
    ).rejects.toThrow('ECHO_DB=postgres needs ECHO_DATABASE_URL and ECHO_SCHEMA');
    await expect(openDurableLog({ ECHO_DB: 'pglite' })).rejects.toThrow('ECHO_DB=pglite needs ECHO_DATA_DIR');
  });
});
