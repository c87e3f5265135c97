import type { SsoProviderInfo } from './identities';

/**
 * The public server-info endpoint (issue #30): what a community server says about itself before a player adds
 * it in the desktop app. `GET /api/server-info`, no sign-in, cacheable. The app refuses a server whose
 * `protocolVersion` differs from its own `PROTOCOL_VERSION`, with a clear message instead of broken screens.
 */

/** The HTTP path of the server-info endpoint (relative to the server's base address). */
export const SERVER_INFO_PATH = '/api/server-info';

/**
 * The wire protocol this build of client and server speak. Bump it when an old client can no longer talk to a
 * new server (or the reverse): an incompatible change of HTTP DTOs or socket events.
 */
export const PROTOCOL_VERSION = 1;

/**
 * How a player may sign in on the server: e-mail and password, Discord, GitHub, or OpenID Connect (one entry for
 * any number of OIDC issuers; `providers` names them). 'github' and 'oidc' were added with issue #26: an older app
 * ignores the values it does not know, so the protocol version did not change.
 */
export type SignInMethod = 'password' | 'discord' | 'github' | 'oidc';

export const SIGN_IN_METHODS: readonly SignInMethod[] = ['password', 'discord', 'github', 'oidc'];

/** Who may create an account: anyone, only with an invitation, or nobody (existing accounts only). */
export type RegistrationMode = 'open' | 'invite' | 'closed';

export const REGISTRATION_MODES: readonly RegistrationMode[] = ['open', 'invite', 'closed'];

export interface ServerInfo {
  /** Always 'spades': tells a Spades server from any other web server. */
  kind: 'spades';
  /** The community's name (1..80 characters). */
  name: string;
  /** An absolute http(s) URL of a square icon, or null (the app shows the first letter of the name). */
  icon: string | null;
  /** A short description (0..500 characters). */
  description: string;
  /** The server's software version (package version). */
  version: string;
  /** See PROTOCOL_VERSION. */
  protocolVersion: number;
  /** The ways to sign in offered now (configured, and not switched off in the host's console), 'password' first. */
  signIn: SignInMethod[];
  /**
   * Every sign-in offered now besides e-mail and password, one per button: Discord (`{ id: 'discord', label:
   * 'Discord', kind: 'discord' }`), then each OpenID Connect issuer and GitHub with the host's label (ids and
   * labels as GET /api/auth/providers). The app shows "Sign in with <label>". Absent from servers older than
   * issue #26 (read as an empty list).
   */
  providers: SsoProviderInfo[];
  registration: RegistrationMode;
}

/** Limits the app applies to a server-info answer (a foreign server's text is shown to the player). */
export const SERVER_INFO_LIMITS = {
  name: 80,
  description: 500,
  icon: 2048,
  version: 64,
  /** `providers`: at most this many entries, each label at most `providerLabel` characters. */
  providers: 32,
  providerLabel: 40,
} as const;

/** A deep link of the desktop app into a table: join (invite), watch (spectate) or just open it. */
export interface DesktopTableLinkInput {
  /** The server's base address as the player's browser reaches it, e.g. `https://spades.example.org`. */
  server: string;
  gameId: string;
  /** An invite token (`?invite=`): seats the player. Never combined with spectate. */
  invite?: string;
  spectate?: boolean;
}

/**
 * `spades://table/<id>?server=<base>[&invite=<token>|&spectate=1]`: the link the desktop app opens for a table of
 * a given server (the web invite page's "open in the app", the invite dialog's desktop link). The server's
 * address is normalized (no trailing slash, no query or fragment), so the app can tell whether the link is for
 * the server it is connected to.
 */
export function desktopTableLink(input: DesktopTableLinkInput): string {
  const server = normalizeServerAddress(input.server);
  if (!server) throw new Error('desktopTableLink: server must be an http(s) address');
  const params = [`server=${encodeURIComponent(server)}`];
  if (input.invite) params.push(`invite=${encodeURIComponent(input.invite)}`);
  else if (input.spectate) params.push('spectate=1');
  return `spades://table/${encodeURIComponent(input.gameId)}?${params.join('&')}`;
}

/**
 * `https://host[:port][/prefix]` without credentials, query, fragment or trailing slash; undefined when the
 * input is not an http(s) address. What the player types ("spades.example.org") gets `https://` first.
 */
export function normalizeServerAddress(raw: unknown): string | undefined {
  if (typeof raw !== 'string') return undefined;
  let text = raw.trim();
  if (text.length === 0 || text.length > 512) return undefined;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) text = `https://${text}`;
  // common has no URL class (no DOM, no Node): a strict pattern instead. No credentials ('@'), query or fragment.
  const m = /^(https?):\/\/([^/?#@\s\\]+)(\/[^?#\s\\]*)?$/i.exec(text);
  if (!m) return undefined;
  const scheme = m[1].toLowerCase();
  const authority = /^(\[[0-9a-f:.]+\]|[a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::(\d{1,5}))?$/.exec(m[2].toLowerCase());
  if (!authority) return undefined;
  const port = authority[2] === undefined ? undefined : Number(authority[2]);
  if (port !== undefined && (port < 1 || port > 65535)) return undefined;
  const defaultPort = scheme === 'https' ? 443 : 80;
  const host = port === undefined || port === defaultPort ? authority[1] : `${authority[1]}:${port}`;
  const path = (m[3] ?? '').replace(/\/+$/, '');
  if (path.split('/').some((seg) => seg === '.' || seg === '..')) return undefined;
  return `${scheme}://${host}${path}`;
}
