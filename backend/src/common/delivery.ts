/**
 * How the web app and the API travel (issue 15): responses are compressed (Brotli when the client accepts it,
 * else gzip; small bodies and socket.io's websocket upgrade untouched), content-hashed build files under
 * /assets/ are cached for a year as immutable, and everything else the web app serves (index.html, the service
 * worker, the manifest, icons) is revalidated on every use (`no-cache` + ETag), so a deploy is seen at once.
 */
import compression from 'compression';
import type { RequestHandler, Response } from 'express';
import { constants } from 'node:zlib';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

export function compressionMiddleware(): RequestHandler {
  return compression({
    threshold: 1024,
    // quality 5: most of the gain of 11 at a small CPU cost (hashed assets are fetched once per version)
    brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } },
  }) as RequestHandler;
}

/** Cache-Control for a file of the web app (`setHeaders` of the static server, the SPA fallback included). */
export function setStaticCacheHeaders(res: Response, filePath: string): void {
  const hashed = /[\\/]assets[\\/][^\\/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/.test(filePath);
  res.setHeader('Cache-Control', hashed ? IMMUTABLE : REVALIDATE);
}
