import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppConfig } from '../config/config.schema';
import { MetricsService } from './metrics.service';

/**
 * With METRICS_PORT: a second, minimal HTTP listener on METRICS_HOST:METRICS_PORT (default host 127.0.0.1; in a
 * container, the monitoring network's address or 0.0.0.0 on a port that is not published) that serves only
 * `GET /metrics`, without a token: whoever reaches that port is the monitoring network. Everything else is 404.
 */
@Injectable()
export class MetricsServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('Metrics');
  private server: Server | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly metrics: MetricsService,
  ) {}

  /** The listening port (null without METRICS_PORT). */
  get port(): number | null {
    return (this.server?.address() as AddressInfo | null)?.port ?? null;
  }

  async onApplicationBootstrap(): Promise<void> {
    const port = this.config.metricsPort;
    if (port === undefined) return;
    const server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (req.method !== 'GET' || path !== '/metrics') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Not found' }));
        return;
      }
      this.metrics.render().then(
        (text) =>
          res.writeHead(200, { 'content-type': this.metrics.contentType, 'cache-control': 'no-store' }).end(text),
        (e: unknown) => {
          this.log.error(`metrics: ${e instanceof Error ? e.message : String(e)}`);
          res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ message: 'Metrics failed' }));
        },
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.config.metricsHost, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.log.log(`GET /metrics served on http://${this.config.metricsHost}:${port}/metrics`);
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((r) => server.close(() => r()));
  }
}
