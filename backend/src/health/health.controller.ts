import { Controller, Get, Res, ServiceUnavailableException } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { HealthCheck, HealthCheckResult, HealthCheckService, TypeOrmHealthIndicator } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/config.schema';
import { RedisHealthIndicator } from './redis.health';

const DATABASE_TIMEOUT_MS = 3000;
const REDIS_TIMEOUT_MS = 2000;

/** What GET /health/ready answers: terminus' result, plus a one-line `message` when not ready. */
export type ReadinessBody = HealthCheckResult & { message?: string };

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly checks: HealthCheckService,
    private readonly db: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
  ) {}

  /** Liveness: 200 `{ status: 'ok', database: 'up' }` when the database answers, else 503. */
  @Get()
  @ApiOperation({ summary: 'Liveness: the process answers and its database answers' })
  async health(): Promise<{ status: string; database: string }> {
    try {
      await this.dataSource.query('SELECT 1');
      return { status: 'ok', database: 'up' };
    } catch {
      throw new ServiceUnavailableException({ message: 'Database unreachable' });
    }
  }

  /**
   * Readiness (terminus): the database and, when REDIS_URL is set, Redis. 200 `{ status: 'ok', info, error,
   * details }`; 503 with the same details and `message` naming what is down.
   */
  @Get('ready')
  @HealthCheck()
  @ApiOperation({ summary: 'Readiness: database and (when REDIS_URL is set) Redis; 503 with details otherwise' })
  async ready(@Res({ passthrough: true }) res: { status(code: number): unknown }): Promise<ReadinessBody> {
    const redisUrl = this.config.redisUrl;
    try {
      return await this.checks.check([
        () => this.db.pingCheck('database', { connection: this.dataSource, timeout: DATABASE_TIMEOUT_MS }),
        ...(redisUrl ? [() => this.redis.pingCheck('redis', redisUrl, REDIS_TIMEOUT_MS)] : []),
      ]);
    } catch (e) {
      if (!(e instanceof ServiceUnavailableException)) throw e;
      const result = e.getResponse() as HealthCheckResult;
      res.status(503);
      return { message: `Not ready: ${Object.keys(result.error ?? {}).join(', ')} down`, ...result };
    }
  }
}
