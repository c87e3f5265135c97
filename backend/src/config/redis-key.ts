import { createHash } from 'node:crypto';
import type { AppConfig } from './config.schema';

/**
 * The Redis pub/sub channel prefix: servers on the same database (and schema) share it, so they reach each other's
 * sockets; servers on other databases that happen to share the Redis never see each other's broadcasts.
 */
export function redisChannelKey(config: AppConfig): string {
  const db = config.databaseUrl ? `${config.databaseUrl}#${config.databaseSchema ?? ''}` : `embedded:${config.dataDir}`;
  return `spades:${createHash('sha256').update(db).digest('hex').slice(0, 16)}`;
}
