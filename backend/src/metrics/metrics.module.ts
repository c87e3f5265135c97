import { Global, Module } from '@nestjs/common';
import { MetricsController } from './metrics.controller';
import { MetricsServer } from './metrics.server';
import { MetricsService } from './metrics.service';

/**
 * Global: every module may record metrics through MetricsService; `GET /metrics` serves them (with METRICS_TOKEN on
 * the public port, and/or without a token on METRICS_HOST:METRICS_PORT).
 */
@Global()
@Module({ controllers: [MetricsController], providers: [MetricsService, MetricsServer], exports: [MetricsService] })
export class MetricsModule {}
