import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DataSourceOptions } from 'typeorm';
import { AppConfig } from '../config/config.schema';
import { openDataSource } from './data-source';

type OptionsWithConfig = DataSourceOptions & { spadesConfig: AppConfig };

/**
 * TypeORM on PostgreSQL (DATABASE_URL) or the embedded PGlite (DATA_DIR/pgdata). Migrations run at boot under
 * an advisory lock. Entities are registered by each feature module with TypeOrmModule.forFeature
 * (autoLoadEntities); inject `DataSource` / `EntityManager` / repositories as usual. Closing the app destroys
 * the DataSource, which also stops the embedded database and releases its data-dir lock.
 */
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        ({ type: 'postgres', autoLoadEntities: true, retryAttempts: 0, spadesConfig: config }) as never,
      dataSourceFactory: async (options) => {
        const { spadesConfig, ...rest } = options as OptionsWithConfig;
        return openDataSource(spadesConfig, { entities: rest.entities });
      },
    }),
  ],
})
export class DatabaseModule {}
