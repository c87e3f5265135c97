import { Logger as NestLogger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';

/** A query's SQL: a named (prepared) statement reaches the logger as pg's `{ name, text }`. */
function queryText(query: string | { text?: string }): string {
  return typeof query === 'string' ? query : String(query?.text ?? '');
}

/**
 * Routes TypeORM's messages to the application logger (pino) instead of console. Failed queries are logged at
 * debug level WITHOUT their parameters (they may hold personal data); the error reaches the caller anyway and
 * unexpected ones are logged by the HTTP exception filter.
 */
export class AppTypeOrmLogger implements TypeOrmLogger {
  private readonly logger = new NestLogger('TypeORM');

  logQuery(): void {}

  logQueryError(error: string | Error, query: string): void {
    this.logger.debug(
      `query failed: ${queryText(query).slice(0, 200)} — ${error instanceof Error ? error.message : error}`,
    );
  }

  logQuerySlow(time: number, query: string): void {
    this.logger.warn(`slow query (${time} ms): ${queryText(query).slice(0, 200)}`);
  }

  logSchemaBuild(): void {}

  logMigration(message: string): void {
    this.logger.log(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
    else this.logger.debug(String(message));
  }
}
