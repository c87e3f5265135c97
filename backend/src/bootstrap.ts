import 'reflect-metadata';
import { INestApplication, Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { IoAdapter } from '@nestjs/platform-socket.io';
import { createAdapter, createShardedAdapter } from '@socket.io/redis-adapter';
import Redis from 'ioredis';
import type { Observable } from 'rxjs';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { ServerOptions } from 'socket.io';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { compressionMiddleware } from './common/delivery';
import { closeRedis, createRedisClient } from './common/redis';
import { HttpExceptionFilter } from './common/http-exception.filter';
import { createValidationPipe } from './common/validation';
import { AppConfig } from './config/config.schema';
import { redisChannelKey } from './config/redis-key';
import { bindMessageHandlers, HandlerSocket, MessageHandler } from './realtime/socket-handlers';

/** JSON body cap: a 512 KB avatar is ~700 KB as base64. */
export const JSON_BODY_LIMIT = '1mb';

interface Res {
  headersSent: boolean;
  status(code: number): { json(body: unknown): void };
}
type Middleware = (req: unknown, res: Res, next: (err?: unknown) => void) => void;
// body-parser ships without types here; Express would turn its errors into HTML/404 pages.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const bodyParser = require('body-parser') as { json(opts: { limit: string }): Middleware };

/** JSON body parsing whose errors are answered as `{ message }` with the right 4xx. */
function jsonBody(): Middleware {
  const parse = bodyParser.json({ limit: JSON_BODY_LIMIT });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
      const e = err as { status?: number; type?: string; message?: string };
      const status = typeof e.status === 'number' && e.status >= 400 && e.status < 500 ? e.status : 400;
      const message =
        e.type === 'entity.parse.failed'
          ? 'Malformed JSON body'
          : e.type === 'entity.too.large'
            ? 'Request body is too large'
            : e.type === 'encoding.unsupported' || e.type === 'charset.unsupported'
              ? 'Unsupported body encoding'
              : 'Invalid request body';
      res.status(status).json({ message });
    });
}

/**
 * CORS: the configured CLIENT_URL origin (+ CORS_ORIGINS) with credentials, and the desktop app, whose
 * file:// pages send `Origin: null` (or none): those are allowed too. Auth is a Bearer header, never a
 * cookie, so allowing the null origin does not expose ambient credentials.
 */
export function corsOriginCheck(config: AppConfig) {
  return (origin: string | undefined, cb: (err: Error | null, allow?: boolean) => void) => {
    if (!origin || origin === 'null' || origin.startsWith('file://') || origin.startsWith('app://'))
      return cb(null, true);
    cb(null, config.corsOrigins.includes(origin));
  };
}

export { redisChannelKey } from './config/redis-key';

/**
 * socket.io on the HTTP server with the same CORS policy as HTTP. With REDIS_URL, rooms are broadcast through
 * Redis (the socket.io Redis adapter): lobby chat, presence changes, friend notifications and table events reach
 * sockets connected to any server on the same database.
 */
class AppIoAdapter extends IoAdapter {
  private redis: Redis[] = [];
  private readonly log = new NestLogger('Socket');

  constructor(
    app: INestApplication,
    private readonly config: AppConfig,
    private readonly sharded = false,
  ) {
    super(app);
  }

  override createIOServer(port: number, options?: ServerOptions): unknown {
    const server = super.createIOServer(port, {
      ...options,
      cors: { origin: corsOriginCheck(this.config), credentials: true },
    } as ServerOptions) as { adapter(a: unknown): void };
    if (this.config.redisUrl) {
      const log = new NestLogger('Redis');
      const pub = createRedisClient(this.config.redisUrl);
      const sub = pub.duplicate();
      for (const c of [pub, sub]) c.on('error', (e: Error) => log.warn(`Redis: ${e.message}`));
      this.redis.push(pub, sub);
      if (this.sharded) {
        // Redis 7+: sharded pub/sub with a channel per room ("dynamic"): a node receives only the broadcasts for
        // rooms it has sockets in (a user's events reach the one node holding their socket), instead of every
        // node decoding every broadcast of the cluster (issue #13: the per-node cost stays flat as nodes are added)
        server.adapter(
          createShardedAdapter(pub, sub, { channelPrefix: redisChannelKey(this.config), subscriptionMode: 'dynamic' }),
        );
        log.log('socket.io broadcasts go through Redis (sharded pub/sub, a channel per room)');
      } else {
        server.adapter(createAdapter(pub, sub, { key: redisChannelKey(this.config) }));
        log.log('socket.io broadcasts go through Redis');
      }
    }
    return server;
  }

  /** Plain listeners instead of an RxJS pipeline per handler per socket (~100 KB a socket): socket-handlers.ts. */
  override bindMessageHandlers(
    socket: HandlerSocket,
    handlers: MessageHandler[],
    transform: (data: unknown) => Observable<unknown>,
  ): void {
    bindMessageHandlers(socket, handlers, transform, (event, e) =>
      this.log.error(`${event}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
    );
  }

  override async dispose(): Promise<void> {
    await super.dispose();
    const clients = this.redis;
    this.redis = [];
    await Promise.all(clients.map(closeRedis));
  }
}

/** Everything main.ts and the test app share: prefix, validation, errors, CORS, logging, OpenAPI. */
export function configureApp(app: NestExpressApplication, opts: { shardedPubSub?: boolean } = {}): AppConfig {
  const config = app.get(AppConfig);
  app.useLogger(app.get(Logger));
  app.set('trust proxy', config.trustProxy);
  app.use(compressionMiddleware());
  app.use(jsonBody());
  app.setGlobalPrefix('api', { exclude: ['health', 'health/ready', 'metrics'] });
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter());
  app.enableCors({ origin: corsOriginCheck(config), credentials: true });
  app.enableShutdownHooks();
  app.useWebSocketAdapter(new AppIoAdapter(app, config, opts.shardedPubSub === true));
  const doc = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Spades API')
      .setDescription(
        'Accounts, Discord login, profiles, social, stats, leaderboard and games. Realtime: socket.io on the same origin.',
      )
      .setVersion('1')
      .addBearerAuth()
      .build(),
  );
  SwaggerModule.setup('api/docs', app, doc, { useGlobalPrefix: false });
  if (config.jwtSecretSource === 'generated') {
    new NestLogger('Config').log(`Generated a JWT secret and stored it in ${config.dataDir}/jwt-secret`);
  }
  if (config.jwtSecretSource !== 'env' && config.databaseUrl) {
    new NestLogger('Config').warn(
      `JWT_SECRET is not set: using the secret stored in ${config.dataDir}/jwt-secret. ` +
        'Set JWT_SECRET when several servers share this database.',
    );
  }
  return config;
}

/** Creates (but does not start) the configured application. `overrides` replace environment variables. */
export async function createApp(
  overrides?: Record<string, string | undefined>,
  opts: { logStream?: NodeJS.WritableStream } = {},
): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(overrides, opts), {
    bufferLogs: true,
    bodyParser: false,
    abortOnError: false,
  });
  const config = app.get(AppConfig);
  configureApp(app, { shardedPubSub: config.redisUrl ? await supportsShardedPubSub(config.redisUrl) : false });
  return app;
}

/**
 * Whether the Redis server has sharded pub/sub (SPUBLISH / SSUBSCRIBE, Redis 7.0+). Older servers (and a Redis that
 * does not answer within 3 s) get the classic adapter, which works everywhere.
 */
export async function supportsShardedPubSub(url: string): Promise<boolean> {
  const probe = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 3000,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    const info = await probe.info('server');
    const major = Number(/redis_version:(\d+)/.exec(info)?.[1] ?? 0);
    return major >= 7;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

export type { INestApplication };
