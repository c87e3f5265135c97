// Migrations at boot run under a PostgreSQL advisory lock, schema creation included: several servers starting at
// once on a fresh database (or schema) must all come up, and every migration must be applied exactly once.
// Needs a real PostgreSQL (TEST_DATABASE_URL): the embedded PGlite is ONE session behind every connection, so two
// runs cannot race there. Without it the suite says why and skips.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { loadAppConfig } from '../src/config/config.schema';
import { resolveDatabaseTarget, runMigrationsLocked } from '../src/database/data-source';
import { MIGRATIONS } from '../src/database/migrations';

const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;
if (!TEST_DATABASE_URL) {
  console.warn(
    '[migrations.spec] TEST_DATABASE_URL not set: skipping the concurrent-migration test ' +
      '(it needs a real PostgreSQL; the embedded PGlite is one session, so two runs cannot race)',
  );
}
const describeWithPostgres = TEST_DATABASE_URL ? describe : describe.skip;

const migrationNames = MIGRATIONS.map((M) => new M().name ?? M.name).sort();

describeWithPostgres('migrations under the advisory lock (PostgreSQL)', () => {
  let dataDir: string;
  let admin: DataSource;
  const schemas: string[] = [];
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'spades-migrations-'));
    admin = await new DataSource({ type: 'postgres', url: TEST_DATABASE_URL, poolSize: 1 }).initialize();
  });
  afterAll(async () => {
    for (const s of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
    await admin?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** One server's database set-up (what openDataSource does), stopped before it runs the migrations. */
  async function server(schema: string): Promise<DataSource> {
    const config = loadAppConfig({
      DATABASE_URL: TEST_DATABASE_URL,
      DATABASE_SCHEMA: schema,
      DATA_DIR: dataDir,
      JWT_SECRET: 's'.repeat(40),
    });
    const { options } = await resolveDatabaseTarget(config);
    return new DataSource({ ...options, poolSize: 2, logging: false }).initialize();
  }

  it('two runs at once on a fresh schema both succeed; each migration is applied and recorded exactly once', async () => {
    // several rounds: each a fresh schema that both runs try to create and migrate at the same moment
    for (let round = 0; round < 4; round++) {
      const schema = `t_mig_${process.pid}_${randomBytes(4).toString('hex')}`;
      schemas.push(schema);
      const servers = await Promise.all([server(schema), server(schema)]);
      try {
        const results = await Promise.allSettled(servers.map((ds) => runMigrationsLocked(ds)));
        const failures = results.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
        expect(failures).toEqual([]);
        const applied = results.map((r) => (r as PromiseFulfilledResult<string[]>).value);
        // one run applied everything, the other found nothing left to do
        expect([...applied[0], ...applied[1]].sort()).toEqual(migrationNames);
        expect(applied.some((a) => a.length === 0)).toBe(true);
        const rows: { name: string; n: number }[] = await admin.query(
          `SELECT name, count(*)::int AS n FROM "${schema}".migrations GROUP BY name ORDER BY name`,
        );
        expect(rows).toEqual(migrationNames.map((name) => ({ name, n: 1 })));
        // and a third run later is a no-op
        expect(await runMigrationsLocked(servers[0])).toEqual([]);
      } finally {
        await Promise.all(servers.map((ds) => ds.destroy()));
      }
    }
  });
});
