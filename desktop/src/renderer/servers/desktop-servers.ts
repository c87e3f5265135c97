/**
 * The desktop app's servers in the renderer (issue #30). The main process owns the list and the sessions; the
 * page starts on one server (its API base and token come from the bridge) and a switch reloads the page on the
 * other. On the web there is no bridge and none of this applies.
 */
import type { DesktopBridge } from '../../shared/bridge';
import { bridge } from '../lib/platform';
import { KEYS } from '../lib/storage';

export const SERVERS_PATH = '/servers';
/** Which server the cached user (localStorage userData) belongs to. */
const SERVER_KEY = 'spades.serverId';

export type ServersBridge = NonNullable<DesktopBridge['servers']>;

export function serversBridge(): ServersBridge | undefined {
  return bridge()?.servers;
}

/**
 * Before the first render: on first run (no server yet) the chooser is the only page; the cached user of another
 * server is dropped; a token an older version kept in localStorage moves into the current server's session.
 * Returns whether the page was redirected to the chooser.
 */
export function initDesktopServer(): boolean {
  const b = bridge();
  const servers = b?.servers;
  if (!b || !servers) return false;
  const current = servers.current();
  try {
    if (localStorage.getItem(SERVER_KEY) !== (current?.id ?? '')) {
      localStorage.removeItem(KEYS.userData);
      localStorage.setItem(SERVER_KEY, current?.id ?? '');
    }
    const legacy = localStorage.getItem(KEYS.sessionToken) ?? localStorage.getItem(KEYS.token);
    if (legacy) {
      if (current && b.session && !b.session.get()) b.session.set(legacy);
      localStorage.removeItem(KEYS.sessionToken);
      localStorage.removeItem(KEYS.token);
    }
  } catch {
    /* storage unavailable */
  }
  if (!current && window.location.pathname !== SERVERS_PATH) {
    window.history.replaceState(null, '', SERVERS_PATH);
    return true;
  }
  return false;
}

/** What the server-info's `signIn` values are called when the server does not name its providers (before #26). */
const METHOD_NAMES: Record<string, string> = {
  password: 'password',
  discord: 'Discord',
  github: 'GitHub',
  oidc: 'single sign-on',
};

/** "a", "a or b", "a, b or c". */
const orList = (words: string[]) =>
  words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;

/**
 * How a player signs in on the server, for its card: password (when offered), then the server's buttons by label
 * ("Discord", "GitHub", "Company SSO"); from the bare `signIn` kinds when the server sends no `providers`.
 */
export function signInWays(info: { signIn?: string[]; providers?: { label: string }[] }): string[] {
  const ways = info.signIn?.includes('password') ? ['password'] : [];
  if (info.providers?.length) return [...ways, ...info.providers.map((p) => p.label)];
  for (const m of info.signIn ?? []) if (m !== 'password' && METHOD_NAMES[m]) ways.push(METHOD_NAMES[m]);
  return ways;
}

/** "1.4.0 · sign in with password, Discord or GitHub · open registration", for a server card. */
export function serverFacts(info: {
  version?: string;
  signIn?: string[];
  providers?: { label: string }[];
  registration?: string;
}): string {
  const parts: string[] = [];
  if (info.version) parts.push(`version ${info.version}`);
  const ways = signInWays(info);
  if (ways.length) parts.push(`sign in with ${orList(ways)}`);
  if (info.registration) {
    parts.push(
      info.registration === 'open'
        ? 'anyone can create an account'
        : info.registration === 'invite'
          ? 'accounts by invitation'
          : 'no new accounts',
    );
  }
  return parts.join(' · ');
}
