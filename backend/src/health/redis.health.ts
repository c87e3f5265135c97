import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import Redis from 'ioredis';

/**
 * Terminus indicator for the Redis of REDIS_URL (socket.io broadcasts between servers): a fresh connection that
 * must answer PING within the timeout, then closes (no client left reconnecting in the background).
 */
@Injectable()
export class RedisHealthIndicator {
  constructor(private readonly health: HealthIndicatorService) {}

  async pingCheck<const Key extends string>(
    key: Key,
    url: string,
    timeoutMs: number,
  ): Promise<HealthIndicatorResult<Key>> {
    const check = this.health.check(key);
    const client = new Redis(url, {
      lazyConnect: true,
      connectTimeout: timeoutMs,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    let lastError: Error | undefined; // the cause (e.g. ECONNREFUSED), reported below as `down`
    client.on('error', (e: Error) => (lastError = e));
    let timer: NodeJS.Timeout | undefined;
    try {
      const pong = await Promise.race([
        client.connect().then(() => client.ping()),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`timeout of ${timeoutMs}ms exceeded`)), timeoutMs);
        }),
      ]);
      return pong === 'PONG' ? check.up() : check.down({ message: `unexpected answer to PING: ${String(pong)}` });
    } catch (e) {
      return check.down({ message: lastError?.message || (e as Error).message || 'unreachable' });
    } finally {
      clearTimeout(timer);
      if (client.status !== 'end') client.disconnect(); // (on an ended client it would leave a 2 s timer behind)
    }
  }
}
