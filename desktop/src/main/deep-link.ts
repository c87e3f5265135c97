// spades:// deep links: parsing/validation and the one handler every entry path feeds
// (launch argv, Windows/Linux `second-instance` argv, macOS `open-url`).
import { normalizeServerAddress } from '../../../common/src/protocol/server-info';
import { DEEP_LINK_SCHEME, type DeepLink } from '../shared/bridge';
import type { Logger } from './logger';

/** Longer input is ignored without being parsed (a JWT is well under 2 KB). */
export const MAX_DEEP_LINK_LENGTH = 4096;
const PREFIX = `${DEEP_LINK_SCHEME}://`;
const GAME_ID = /^[A-Za-z0-9_-]{1,64}$/;
// JWTs, opaque codes: base64url alphabet plus '.', '~'.
const TOKEN = /^[A-Za-z0-9._~-]{8,2048}$/;
/** An invite link token (issue #12): URL-safe base64, 16–64 characters. */
const INVITE_TOKEN = /^[A-Za-z0-9_-]{16,64}$/;

export type DeepLinkParse = { ok: true; link: DeepLink } | { ok: false; reason: string };

/** Strict parser: anything but the three known shapes is rejected with a reason (never thrown). */
export function parseDeepLink(raw: unknown): DeepLinkParse {
  if (typeof raw !== 'string') return { ok: false, reason: 'not a string' };
  if (raw.length > MAX_DEEP_LINK_LENGTH) return { ok: false, reason: `longer than ${MAX_DEEP_LINK_LENGTH} characters` };
  // Control characters, spaces, quotes, angle brackets and backslashes have no business in our links.
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
  if (/[\u0000-\u0020\u007f-\u009f"'<>\\`]/.test(raw)) return { ok: false, reason: 'forbidden characters' };
  if (!raw.toLowerCase().startsWith(PREFIX)) return { ok: false, reason: 'foreign scheme' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'malformed URL' };
  }
  if (url.protocol !== `${DEEP_LINK_SCHEME}:`) return { ok: false, reason: 'foreign scheme' };
  if (url.username || url.password || url.port) return { ok: false, reason: 'unexpected credentials or port' };
  if (url.hash) return { ok: false, reason: 'unexpected fragment' };
  const host = url.hostname.toLowerCase();
  const segments = url.pathname.split('/').filter((s, i, all) => !(s === '' && (i === 0 || i === all.length - 1)));
  if (segments.some((s) => s === '' || s === '.' || s === '..' || s.includes('%'))) {
    return { ok: false, reason: 'bad path' };
  }
  // `server=<address>` (issue #30) may accompany table and login links: exactly one, an http(s) address.
  const serverValues = url.searchParams.getAll('server');
  if (serverValues.length > 1) return { ok: false, reason: 'more than one server' };
  let server: string | undefined;
  if (serverValues.length === 1) {
    server = normalizeServerAddress(serverValues[0]);
    if (!server || !/^https?:\/\//i.test(serverValues[0])) return { ok: false, reason: 'malformed server address' };
    if (host === 'rules') return { ok: false, reason: 'unexpected query parameters' };
    url.searchParams.delete('server');
  }
  type ServerLink = Extract<DeepLink, { kind: 'table' | 'auth-callback' | 'auth-error' }>;
  const withServer = (link: ServerLink): DeepLinkParse => ({ ok: true, link: server ? { ...link, server } : link });
  const params = [...url.searchParams.keys()];

  if (host === 'auth' && segments.length === 1 && segments[0] === 'callback') {
    const isErrorLink =
      params[0] === 'error' &&
      (params.length === 1 || (params.length === 2 && params[1] === 'message')) &&
      url.searchParams.getAll('error').length === 1 &&
      url.searchParams.getAll('message').length <= 1;
    if (isErrorLink) {
      const error = url.searchParams.get('error') ?? '';
      if (!/^[a-z0-9_]{1,64}$/.test(error)) return { ok: false, reason: 'malformed error code' };
      // issue #25: a refused login may say why (`&message=`, e.g. a ban and until when): plain text, bounded
      const message = url.searchParams.get('message');
      // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
      if (message !== null && (message.length > 300 || /[\u0000-\u001f\u007f-\u009f]/.test(message))) {
        return { ok: false, reason: 'malformed error message' };
      }
      const query = message !== null ? `error=${error}&message=${encodeURIComponent(message)}` : `error=${error}`;
      return withServer({ kind: 'auth-error', error, path: `/auth/callback?${query}` });
    }
    if (params.length !== 1 || params[0] !== 'token' || url.searchParams.getAll('token').length !== 1) {
      return { ok: false, reason: 'auth callback needs exactly one token (or error) parameter' };
    }
    const token = url.searchParams.get('token') ?? '';
    if (!TOKEN.test(token)) return { ok: false, reason: 'malformed token' };
    return withServer({ kind: 'auth-callback', token, path: `/auth/callback?token=${encodeURIComponent(token)}` });
  }
  if (host === 'table' && segments.length === 1) {
    const gameId = segments[0];
    if (!GAME_ID.test(gameId)) return { ok: false, reason: 'malformed game id' };
    const spectateValues = url.searchParams.getAll('spectate');
    const inviteValues = url.searchParams.getAll('invite');
    if (
      params.some((p) => p !== 'spectate' && p !== 'invite') ||
      spectateValues.length > 1 ||
      inviteValues.length > 1
    ) {
      return { ok: false, reason: 'unexpected query parameters' };
    }
    if (spectateValues.length === 1 && spectateValues[0] !== '1') return { ok: false, reason: 'bad spectate value' };
    const spectate = spectateValues.length === 1;
    if (inviteValues.length === 1) {
      // issue #12 invite link: spades://table/ID?invite=TOKEN (URL-safe base64, never combined with spectate)
      const invite = inviteValues[0];
      if (spectate || !INVITE_TOKEN.test(invite)) return { ok: false, reason: 'malformed invite token' };
      return withServer({ kind: 'table', gameId, spectate: false, invite, path: `/table/${gameId}?invite=${invite}` });
    }
    return withServer({ kind: 'table', gameId, spectate, path: `/table/${gameId}${spectate ? '?spectate=1' : ''}` });
  }
  if (host === 'rules' && segments.length === 0 && params.length === 0) return { ok: true, link: { kind: 'rules' } };
  return { ok: false, reason: 'unknown link' };
}

/** The first argument that looks like one of our links (Windows/Linux pass the URL as a command-line argument). */
export function findDeepLinkArg(argv: readonly string[]): string | undefined {
  return argv.find((a) => typeof a === 'string' && a.toLowerCase().startsWith(PREFIX));
}

/** For logs: never print a login token. */
export function redactDeepLink(raw: unknown): string {
  if (typeof raw !== 'string') return `<${typeof raw}>`;
  const cut = raw.length > 200 ? `${raw.slice(0, 200)}…(${raw.length} chars)` : raw;
  return cut.replace(/(token=)[^&#\s]*/gi, '$1<redacted>');
}

export interface DeepLinkRouterDeps {
  /** Send a link to the renderer. */
  deliver(link: DeepLink): void;
  /**
   * Links naming another server than the current one (issue #30) become a `server-link` request the player
   * answers first (server-links.ts). Without a gate every valid link is delivered as is.
   */
  gate?: {
    /** Whether a server is chosen: before the first one, a link without `server=` has nowhere to open. */
    hasCurrent(): boolean;
    isForCurrent(link: DeepLink): boolean;
    request(link: DeepLink & { server: string }): DeepLink;
  };
  /**
   * Login callbacks do not name their server: the sign-ins started in the browser say which one (login-rounds.ts),
   * before the gate looks at the link.
   */
  logins?: { resolve(link: DeepLink): DeepLink };
  /** Bring the main window to front (restore if minimised). */
  focusWindow(): void;
  log: Logger;
}

export interface DeepLinkRouter {
  /** The one entry point for every source. Returns whether the link was accepted. */
  handleDeepLink(raw: unknown): boolean;
  /** Deliver a link the app itself produced (menu, notification click) through the same queue. */
  dispatch(link: DeepLink): void;
  /** The renderer attached a listener: flush what arrived before (e.g. the link that launched the app). */
  rendererReady(): void;
  /** The renderer is gone (reload, navigation, crash): queue again until it says it is ready. */
  rendererGone(): void;
}

export function createDeepLinkRouter(deps: DeepLinkRouterDeps): DeepLinkRouter {
  const pending: DeepLink[] = [];
  let ready = false;
  const dispatch = (link: DeepLink): void => {
    deps.focusWindow();
    if (ready) deps.deliver(link);
    else {
      // Only the latest few matter; an unbounded queue would be a memory lever for a link-spamming page.
      if (pending.length >= 10) pending.shift();
      pending.push(link);
    }
  };
  return {
    handleDeepLink(raw) {
      const parsed = parseDeepLink(raw);
      if (!parsed.ok) {
        deps.log.warn(`ignored deep link ${redactDeepLink(raw)}: ${parsed.reason}`);
        return false;
      }
      const link = deps.logins ? deps.logins.resolve(parsed.link) : parsed.link;
      if (deps.gate && link.kind !== 'rules' && !('server' in link && link.server) && !deps.gate.hasCurrent()) {
        deps.log.info(`deep link ${link.kind} without a server before one is chosen: the chooser`);
        dispatch({ kind: 'servers', path: '/servers' });
        return true;
      }
      if (deps.gate && 'server' in link && link.server && !deps.gate.isForCurrent(link)) {
        deps.log.info(`deep link ${link.kind} for another server: asking first`);
        dispatch(deps.gate.request(link as DeepLink & { server: string }));
        return true;
      }
      deps.log.info(`deep link ${link.kind}`);
      dispatch(link);
      return true;
    },
    dispatch,
    rendererReady() {
      ready = true;
      for (const link of pending.splice(0)) deps.deliver(link);
    },
    rendererGone() {
      ready = false;
    },
  };
}
