import 'reflect-metadata';
import { loadAppConfig } from './config/config.schema';
import { openDataSource } from './database/data-source';

/** `npm run migrate -w backend`: applies pending migrations (same lock and same database choice as the server). */
async function main(): Promise<void> {
  const config = loadAppConfig(process.env);
  const ds = await openDataSource(config);
  const applied = await ds.query(`SELECT name FROM migrations ORDER BY id`);
  console.log(`Database is up to date (${applied.length} migrations applied).`);
  await ds.destroy();
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
