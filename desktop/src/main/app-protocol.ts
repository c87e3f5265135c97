// Serving the bundled renderer from app://spades/ in the packaged app (instead of file://): a real origin for
// navigation checks and CORS, and history routing works because unknown paths fall back to index.html.
import { extname, join, normalize, sep } from 'node:path';
import { DESKTOP_APP_ORIGIN } from '../shared/bridge';

export const APP_SCHEME = new URL(DESKTOP_APP_ORIGIN).protocol.slice(0, -1); // 'app'
export const APP_HOST = new URL(DESKTOP_APP_ORIGIN).host; // 'spades'

export type AppRequestResolution = { kind: 'file'; path: string; spaFallback: boolean } | { kind: 'not-found' };

/**
 * Map `app://spades/<path>` to a file under `rendererDir`. Paths with an extension must exist as files
 * (`exists` is injected); extension-less paths are client routes and get index.html. Traversal outside
 * `rendererDir` and foreign hosts resolve to not-found.
 */
export function resolveAppRequest(
  requestUrl: string,
  rendererDir: string,
  exists: (path: string) => boolean,
): AppRequestResolution {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return { kind: 'not-found' };
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return { kind: 'not-found' };
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.pathname);
  } catch {
    return { kind: 'not-found' };
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return { kind: 'not-found' };
  const root = normalize(rendererDir);
  const index = join(root, 'index.html');
  if (pathname === '/' || pathname === '') return { kind: 'file', path: index, spaFallback: false };
  const candidate = normalize(join(root, pathname));
  if (candidate !== root && !candidate.startsWith(root.endsWith(sep) ? root : root + sep)) return { kind: 'not-found' };
  if (exists(candidate)) return { kind: 'file', path: candidate, spaFallback: false };
  if (extname(pathname) === '') return { kind: 'file', path: index, spaFallback: true };
  return { kind: 'not-found' };
}

/**
 * Content-Security-Policy for the packaged renderer's documents. The API base (HTTP + its websocket origin) is
 * the only remote endpoint the app talks to; images may come from https (avatars on identity-provider CDNs).
 */
export function contentSecurityPolicy(apiBase: string): string {
  // No server chosen yet (first run, issue #30): the chooser talks to main only, through the bridge.
  const api = apiBase ? new URL(apiBase) : undefined;
  const apiSources = api ? ` ${api.origin} ${api.protocol === 'https:' ? 'wss:' : 'ws:'}//${api.host}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: https:${api ? ` ${api.origin}` : ''}`,
    "font-src 'self' data:",
    `connect-src 'self'${apiSources}`,
    "media-src 'self' data: blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "frame-src 'none'",
  ].join('; ');
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.wav': 'audio/wav',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

export interface AppResponse {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array | string;
}

export interface ServeDeps {
  rendererDir: string;
  /** The current server's base ('' when none is chosen yet): read per document, so a switch of server applies. */
  apiBase: string;
  exists(path: string): boolean;
  readFile(path: string): Promise<Uint8Array>;
}

/** The whole app:// handler minus Electron's Request/Response wrappers. */
export async function serveAppRequest(requestUrl: string, deps: ServeDeps): Promise<AppResponse> {
  const r = resolveAppRequest(requestUrl, deps.rendererDir, deps.exists);
  if (r.kind === 'not-found') return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not found' };
  let body: Uint8Array;
  try {
    body = await deps.readFile(r.path);
  } catch {
    return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not found' };
  }
  const headers: Record<string, string> = {
    'content-type': contentTypeFor(r.path),
    'x-content-type-options': 'nosniff',
  };
  if (extname(r.path) === '.html') headers['content-security-policy'] = contentSecurityPolicy(deps.apiBase);
  return { status: 200, headers, body };
}
