// Which backend the app talks to.
//   development (not packaged): env SPADES_API_URL, else the stored setting, else http://localhost:3000
//   production (packaged):      `--server=<url>` on the command line (stored for next time; `--server=default`
//                               clears it), else the stored setting in <userData>/settings.json, else
//                               DEFAULT_API_BASE (overridable at build time with SPADES_DEFAULT_API_URL).
import { isRecord, type JsonStore } from './json-store';
import type { Logger } from './logger';

/**
 * The public server the released app talks to by default. `.example` is a reserved TLD (RFC 2606): replace it
 * with the real deployment at build time (`SPADES_DEFAULT_API_URL=https://… npm run dist:desktop`) — see
 * build/README.md.
 */
export const DEFAULT_API_BASE = 'https://play.spades.example';
export const DEV_API_BASE = 'http://localhost:3000';
export const SERVER_ARG = '--server=';

export interface Settings {
  apiBase?: string;
}

/** `https://host[:port]` (optionally with a path prefix), no credentials/query/fragment, no trailing slash. */
export function normalizeApiBase(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.length > 512) return undefined;
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return undefined;
  if (u.username || u.password || u.search || u.hash || !u.hostname) return undefined;
  const path = u.pathname.replace(/\/+$/, '');
  return `${u.origin}${path}`;
}

export function parseSettings(raw: unknown): Settings | undefined {
  if (!isRecord(raw)) return undefined;
  const out: Settings = {};
  if (raw.apiBase !== undefined) {
    const apiBase = normalizeApiBase(raw.apiBase);
    if (!apiBase) return undefined;
    out.apiBase = apiBase;
  }
  return out;
}

export interface ApiBaseInputs {
  packaged: boolean;
  env: Record<string, string | undefined>;
  argv: readonly string[];
  store: JsonStore<Settings>;
  /** Build-time default (see DEFAULT_API_BASE). */
  defaultApiBase?: string;
  log: Logger;
}

export function resolveApiBase(inp: ApiBaseInputs): string {
  const stored = inp.store.read() ?? {};
  if (!inp.packaged) {
    const fromEnv = inp.env.SPADES_API_URL;
    if (fromEnv !== undefined && fromEnv !== '') {
      const n = normalizeApiBase(fromEnv);
      if (n) return n;
      inp.log.warn('SPADES_API_URL is not an http(s) URL; ignored');
    }
    return stored.apiBase ?? DEV_API_BASE;
  }
  const arg = inp.argv.find((a) => a.startsWith(SERVER_ARG));
  if (arg !== undefined) {
    const value = arg.slice(SERVER_ARG.length);
    if (value === 'default') {
      const { apiBase: _drop, ...rest } = stored;
      inp.store.write(rest);
      return normalizeApiBase(inp.defaultApiBase) ?? DEFAULT_API_BASE;
    }
    const n = normalizeApiBase(value);
    if (n) {
      inp.store.write({ ...stored, apiBase: n });
      return n;
    }
    inp.log.warn(`${SERVER_ARG} needs an http(s) URL; ignored`);
  }
  return stored.apiBase ?? normalizeApiBase(inp.defaultApiBase) ?? DEFAULT_API_BASE;
}
