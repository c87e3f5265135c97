import { Logger } from '@nestjs/common';
import { DataSource, DataSourceOptions, MigrationExecutor } from 'typeorm';
import type { AppConfig } from '../config/config.schema';
import { EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres';
import { MIGRATIONS } from './migrations';
import { AppTypeOrmLogger } from './typeorm-logger';

/** Arbitrary constant key for pg_advisory_lock: serialises migrations between servers sharing a database. */
export const MIGRATION_LOCK_KEY = 7_300_214_551;

const logger = new Logger('Database');

type PostgresConnectionOptions = Extract<DataSourceOptions, { type: 'postgres' }>;

export interface DatabaseTarget {
  options: PostgresConnectionOptions;
  embedded?: EmbeddedPostgres;
}

/** Starts the embedded database when DATABASE_URL is unset and returns TypeORM options for either target. */
export async function resolveDatabaseTarget(config: AppConfig): Promise<DatabaseTarget> {
  let embedded: EmbeddedPostgres | undefined;
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedPostgres(config.dataDir);
    url = embedded.url;
    logger.log(`Embedded PostgreSQL (PGlite) in ${config.dataDir}/pgdata`);
  }
  const schema = config.databaseSchema;
  const options: PostgresConnectionOptions = {
    type: 'postgres',
    url,
    schema,
    synchronize: false,
    migrationsRun: false,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    installExtensions: false,
    uuidExtension: 'pgcrypto',
    // PGlite is one backend session behind one socket connection: the pool must not exceed it.
    poolSize: embedded ? 1 : config.databasePoolSize,
    extra: schema ? { options: `-c search_path=${schema}` } : undefined,
    logging: ['error', 'warn', 'migration'],
    logger: new AppTypeOrmLogger(),
    maxQueryExecutionTime: 2000,
  };
  return { options, embedded };
}

/**
 * Creates the schema (DATABASE_SCHEMA) if missing and runs pending migrations, both under pg_advisory_lock, on
 * ONE query runner (lock, migrations and unlock share the connection, so this also works with a pool of size 1).
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    // lock FIRST: concurrent `CREATE SCHEMA IF NOT EXISTS` is not race-safe in PostgreSQL (one of two servers
    // starting together on a fresh schema would fail on pg_namespace's unique index)
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      const schema = (dataSource.options as PostgresConnectionOptions).schema;
      if (schema) await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      const executor = new MigrationExecutor(dataSource, runner);
      executor.transaction = 'each';
      const done = await executor.executePendingMigrations();
      for (const m of done) logger.log(`Applied migration ${m.name}`);
      return done.map((m) => m.name);
    } finally {
      await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    await runner.release();
  }
}

/**
 * PGlite is ONE session behind its socket: what a connection prepared outlives it, while a new pooled connection
 * (after the pool closed an idle one) starts with pg's cache of prepared statements empty and would find its named
 * statements (the table store's group commit) "already exists". Every new connection first forgets them.
 */
function forgetPreparedOnConnect(dataSource: DataSource): void {
  const pool = (
    dataSource.driver as unknown as {
      master?: { on(e: 'connect', fn: (c: { query(sql: string): Promise<unknown> }) => void): void };
    }
  ).master;
  pool?.on('connect', (client) => void client.query('DEALLOCATE ALL').catch(() => undefined));
}

/** Creates, initialises and migrates the DataSource; destroying it also stops the embedded database. */
export async function openDataSource(config: AppConfig, extra?: Partial<DataSourceOptions>): Promise<DataSource> {
  const target = await resolveDatabaseTarget(config);
  const dataSource = new DataSource({ ...target.options, ...(extra ?? {}) } as DataSourceOptions);
  const stopEmbedded = async () => {
    if (target.embedded) await target.embedded.stop();
  };
  try {
    await dataSource.initialize();
    if (target.embedded) forgetPreparedOnConnect(dataSource);
    await runMigrationsLocked(dataSource);
  } catch (e) {
    if (dataSource.isInitialized) await dataSource.destroy().catch(() => undefined);
    await stopEmbedded();
    throw e;
  }
  const destroy = dataSource.destroy.bind(dataSource);
  dataSource.destroy = async () => {
    try {
      if (dataSource.isInitialized) await destroy();
    } finally {
      await stopEmbedded();
    }
  };
  return dataSource;
}
