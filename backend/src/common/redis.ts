import Redis from 'ioredis';

/**
 * A long-lived client of REDIS_URL: commands wait (in order) while Redis is unreachable instead of failing, and
 * closing a client that is between reconnection attempts leaves at most a 200 ms timer (disconnectTimeout).
 */
export function createRedisClient(url: string): Redis {
  return new Redis(url, { lazyConnect: false, maxRetriesPerRequest: null, disconnectTimeout: 200 });
}

/**
 * QUIT on a live connection; otherwise disconnect at once (while Redis is unreachable QUIT would wait forever
 * behind queued commands or subscriptions). ioredis rejects the commands still queued then, which nobody may await
 * (e.g. the adapter's psubscribe): they are marked handled, so shutting down never ends in an unhandled rejection.
 */
export async function closeRedis(c: Redis): Promise<void> {
  if (c.status === 'ready')
    return c.quit().then(
      () => undefined,
      () => c.disconnect(),
    );
  type Queued = { command?: { promise?: Promise<unknown> } };
  const queue = (c as unknown as { offlineQueue?: { toArray(): Queued[] } }).offlineQueue;
  for (const item of queue?.toArray() ?? []) item.command?.promise?.catch(() => undefined);
  c.disconnect();
}
