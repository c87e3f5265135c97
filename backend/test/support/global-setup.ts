/**
 * Jest globalSetup: when the suites run on the embedded database (TEST_DATABASE_URL unset), create ONE
 * migrated PGlite data directory as a template; createTestApp copies it for each suite instead of
 * initialising a new cluster every time (a fresh PGlite init takes 4–15 s on these machines, a copy < 1 s).
 * Runs outside jest's VM sandbox, so PGlite needs no special flags here.
 */
import { Logger } from '@nestjs/common';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAppConfig } from '../../src/config/config.schema';
import { openDataSource } from '../../src/database/data-source';

export default async function globalSetup(): Promise<void> {
  if (process.env.TEST_DATABASE_URL || process.env.SPADES_NO_PGLITE_TEMPLATE) return;
  Logger.overrideLogger(false); // quiet: this runs in jest's parent process
  const dir = mkdtempSync(join(tmpdir(), 'spades-pglite-template-'));
  const config = loadAppConfig({
    DATA_DIR: dir,
    JWT_SECRET: 'template-secret-template-secret-0000',
    LOG_LEVEL: 'silent',
  });
  const ds = await openDataSource(config);
  await ds.destroy();
  rmSync(join(dir, 'jwt-secret'), { force: true });
  process.env.SPADES_PGLITE_TEMPLATE = dir;
}
