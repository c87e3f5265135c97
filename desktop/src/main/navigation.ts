// Navigation and window.open restrictions for the renderer: the app may only navigate within its own origin;
// http(s) links elsewhere go to the system browser; everything else (file:, javascript:, data:, custom schemes…)
// is denied.
import type { Logger } from './logger';

export type NavigationDecision = 'allow' | 'external' | 'deny';

/**
 * The origin of a URL (`scheme://host[:port]`), or null when it cannot be parsed or has an opaque origin
 * (file:, data:, about:, javascript:, blob:…). Computed by hand because Node's URL reports 'null' for
 * non-special schemes, while Chromium gives app://spades a real origin (it is registered as standard).
 */
export function originOf(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (['file:', 'data:', 'about:', 'javascript:', 'blob:', 'filesystem:'].includes(u.protocol)) return null;
  if (!u.host || !url.slice(u.protocol.length).startsWith('//')) return null;
  return `${u.protocol}//${u.host.toLowerCase()}`;
}

/** Absolute http(s) URL without credentials, suitable for shell.openExternal. */
export function isSafeExternalUrl(url: unknown): url is string {
  if (typeof url !== 'string' || url.length === 0 || url.length > 2048) return false;
  // eslint-disable-next-line no-control-regex -- rejecting control characters is the point
  if (/[\u0000-\u0020\u007f-\u009f]/.test(url)) return false;
  try {
    const u = new URL(url);
    return (u.protocol === 'https:' || u.protocol === 'http:') && !u.username && !u.password && u.hostname !== '';
  } catch {
    return false;
  }
}

export function decideNavigation(url: string, appOrigin: string): NavigationDecision {
  const origin = originOf(url);
  if (origin !== null && origin === appOrigin) return 'allow';
  if (isSafeExternalUrl(url)) return 'external';
  return 'deny';
}

/** The structural subset of Electron's WebContents this module uses. */
export interface NavigableContents {
  on(event: 'will-navigate', listener: (event: { preventDefault(): void; url: string }) => void): unknown;
  on(event: 'will-redirect', listener: (event: { preventDefault(): void; url: string }) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' } | { action: 'allow' }): void;
}

export interface NavigationPolicyDeps {
  appOrigin: string;
  openExternal(url: string): void;
  log: Logger;
}

export function applyNavigationPolicy(contents: NavigableContents, deps: NavigationPolicyDeps): void {
  const guard = (kind: string) => (event: { preventDefault(): void; url: string }) => {
    const decision = decideNavigation(event.url, deps.appOrigin);
    if (decision === 'allow') return;
    event.preventDefault();
    if (decision === 'external') deps.openExternal(event.url);
    else deps.log.warn(`blocked ${kind} to ${safeForLog(event.url)}`);
  };
  contents.on('will-navigate', guard('navigation'));
  contents.on('will-redirect', guard('redirect'));
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    deps.log.warn('blocked <webview>');
  });
  // New windows are never created: same-origin targets are not expected (the SPA routes in place), external
  // http(s) ones open in the system browser.
  contents.setWindowOpenHandler(({ url }) => {
    if (decideNavigation(url, deps.appOrigin) === 'external') deps.openExternal(url);
    else deps.log.warn(`blocked window.open to ${safeForLog(url)}`);
    return { action: 'deny' };
  });
}

function safeForLog(url: string): string {
  const s = url.length > 200 ? `${url.slice(0, 200)}…` : url;
  return s.replace(/(token=)[^&#\s]*/gi, '$1<redacted>');
}
