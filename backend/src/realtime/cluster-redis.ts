import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import { closeRedis, createRedisClient } from '../common/redis';
import { redisChannelKey } from '../config/redis-key';
import { AppConfig } from '../config/config.schema';

/**
 * The Redis connections of cluster mode (DATABASE_URL + REDIS_URL, `config.cluster.enabled`) for the realtime
 * module's shared state: presence (presence.store.ts) and the lobby chat rate limit. Created on first use (never on
 * a single node: no Redis call there), closed when the application shuts down — after every onModuleDestroy hook,
 * so the presence store has stopped using them.
 */
@Injectable()
export class ClusterRedis implements OnApplicationShutdown {
  private readonly log = new Logger('ClusterRedis');
  readonly enabled: boolean;
  /** redisChannelKey(config): the prefix of every key and channel of this deployment. */
  readonly prefix: string;
  /** This process among the nodes: NODE_ID (or host:port) + a random suffix, so a restarted replica is a new one. */
  readonly instance: string;
  private commandClient: Redis | null = null;
  private subscriberClient: Redis | null = null;
  private closed = false;

  constructor(private readonly config: AppConfig) {
    this.enabled = config.cluster.enabled;
    this.prefix = redisChannelKey(config);
    this.instance = `${config.cluster.nodeId}/${randomBytes(4).toString('hex')}`;
  }

  /** Commands and scripts (one connection: they run in call order). */
  get command(): Redis {
    return (this.commandClient ??= this.connect());
  }

  /** Subscriptions only. */
  get subscriber(): Redis {
    return (this.subscriberClient ??= this.connect());
  }

  private connect(): Redis {
    if (!this.enabled || !this.config.redisUrl) throw new Error('cluster mode is off: no Redis connection');
    if (this.closed) throw new Error('the cluster Redis connections are closed');
    const c = createRedisClient(this.config.redisUrl);
    c.on('error', (e: Error) => this.log.warn(`Redis: ${e.message}`));
    return c;
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    const clients = [this.commandClient, this.subscriberClient].filter((c): c is Redis => !!c);
    this.commandClient = this.subscriberClient = null;
    await Promise.all(clients.map(closeRedis));
  }
}
