// App settings in <userData>/settings.json, and which server the app starts on (issue #30: the player's servers
// live in servers.json, see servers.ts; this only decides what to add or select at start-up).
//   development (not packaged): env SPADES_API_URL (selected), else a legacy stored apiBase, else http://localhost:3000
//   production (packaged):      `--server=<url>` on the command line (added and selected), else a legacy stored
//                               apiBase (moved into the server list once), else the build's default server
//                               (SPADES_DEFAULT_API_URL at build time: a community's own build), else nothing:
//                               the first run shows the server chooser.
import { normalizeServerAddress } from '../../../common/src/protocol/server-info';
import { isRecord, type JsonStore } from './json-store';
import type { Logger } from './logger';

export const DEV_API_BASE = 'http://localhost:3000';
export const SERVER_ARG = '--server=';

export interface Settings {
  /** Before issue #30 the one server; now only read once to seed the server list. */
  apiBase?: string;
  /** The "check for updates" setting (default on). */
  autoUpdate?: boolean;
}

/** `https://host[:port]` (optionally with a path prefix), no credentials/query/fragment, no trailing slash. */
export function normalizeApiBase(raw: unknown): string | undefined {
  // An API base must say its scheme (a typed address in the chooser may omit it: normalizeServerAddress adds https).
  if (typeof raw !== 'string' || !/^\s*https?:\/\//i.test(raw)) return undefined;
  return normalizeServerAddress(raw);
}

export function parseSettings(raw: unknown): Settings | undefined {
  if (!isRecord(raw)) return undefined;
  const out: Settings = {};
  if (raw.apiBase !== undefined) {
    const apiBase = normalizeApiBase(raw.apiBase);
    if (!apiBase) return undefined;
    out.apiBase = apiBase;
  }
  if (raw.autoUpdate !== undefined) {
    if (typeof raw.autoUpdate !== 'boolean') return undefined;
    out.autoUpdate = raw.autoUpdate;
  }
  return out;
}

export interface StartupInputs {
  packaged: boolean;
  env: Record<string, string | undefined>;
  argv: readonly string[];
  store: JsonStore<Settings>;
  /** Build-time default server ('' or undefined: none, the first run asks). */
  defaultApiBase?: string;
  log: Logger;
}

/**
 * The server to add at start-up, if any. `select`: make it current even when another one is (an explicit choice:
 * `--server=`, SPADES_API_URL); otherwise only when no server is current yet.
 */
export function startupServer(inp: StartupInputs): { address: string; select: boolean } | undefined {
  const stored = inp.store.read() ?? {};
  const legacy = stored.apiBase;
  if (legacy !== undefined) {
    // moved into the server list (the caller seeds it): drop it here so a forgotten server does not come back
    const { apiBase: _moved, ...rest } = stored;
    inp.store.write(rest);
  }
  const buildDefault = normalizeApiBase(inp.defaultApiBase);
  if (!inp.packaged) {
    const fromEnv = inp.env.SPADES_API_URL;
    if (fromEnv !== undefined && fromEnv !== '') {
      const n = normalizeApiBase(fromEnv);
      if (n) return { address: n, select: true };
      inp.log.warn('SPADES_API_URL is not an http(s) URL; ignored');
    }
    return { address: legacy ?? DEV_API_BASE, select: false };
  }
  const arg = inp.argv.find((a) => a.startsWith(SERVER_ARG));
  if (arg !== undefined) {
    const value = arg.slice(SERVER_ARG.length);
    if (value === 'default' && buildDefault) return { address: buildDefault, select: true };
    const n = normalizeApiBase(value);
    if (n) return { address: n, select: true };
    if (value !== 'default') inp.log.warn(`${SERVER_ARG} needs an http(s) URL; ignored`);
  }
  if (legacy) return { address: legacy, select: false };
  if (buildDefault) return { address: buildDefault, select: false };
  return undefined;
}
