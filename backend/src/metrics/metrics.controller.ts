import { Controller, Get, Header, Headers, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { Registry } from 'prom-client';
import { AppConfig } from '../config/config.schema';
import { bearerMatches, METRICS_ERRORS } from './metrics.access';
import { MetricsService } from './metrics.service';

/**
 * `GET /metrics` on the public port: Prometheus text format, only with `Authorization: Bearer <METRICS_TOKEN>`
 * (401 without or with a wrong one). Without METRICS_TOKEN it is not served here (404): scrape the separate
 * listener on METRICS_HOST:METRICS_PORT (metrics.server.ts) instead.
 */
@ApiExcludeController()
@Controller('metrics')
export class MetricsController {
  constructor(
    private readonly metrics: MetricsService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  @Header('Content-Type', Registry.PROMETHEUS_CONTENT_TYPE)
  scrape(@Headers('authorization') authorization?: string): Promise<string> {
    const token = this.config.metricsToken;
    if (!token) throw new NotFoundException(METRICS_ERRORS.notServed);
    if (!bearerMatches(authorization, token)) throw new UnauthorizedException(METRICS_ERRORS.unauthorized);
    return this.metrics.render();
  }
}
