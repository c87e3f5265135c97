import { createHash, timingSafeEqual } from 'node:crypto';

/** Refusals of `GET /metrics` on the public port (issue #24: not for players). */
export const METRICS_ERRORS = {
  /** METRICS_TOKEN is not set: the public port does not serve /metrics at all (scrape METRICS_PORT instead). */
  notServed: 'Cannot GET /metrics',
  unauthorized: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>',
} as const;

/**
 * Whether an Authorization header carries `Bearer <token>`, compared in constant time (both sides hashed first,
 * so neither the token's content nor its length leaks through timing).
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header?.trim() ?? '');
  const given = createHash('sha256')
    .update(m ? m[1] : '')
    .digest();
  const expected = createHash('sha256').update(token).digest();
  return timingSafeEqual(given, expected) && !!m;
}
