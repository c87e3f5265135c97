/**
 * Where the renderer runs. The web build is served by the backend (same origin, BrowserRouter).
 * The desktop app loads the renderer from file:// and exposes `window.desktop` through its preload
 * script (typed in desktop/src/shared/bridge.ts by the Electron side); we only use it through optional
 * chaining so the web build works without it.
 */
import type { DesktopBridge } from '../../shared/bridge';

export type { DeepLink } from '../../shared/bridge';

export function bridge(): DesktopBridge | undefined {
  return typeof window !== 'undefined' ? window.desktop : undefined;
}

export function isDesktopApp(): boolean {
  return bridge() !== undefined;
}

let apiBase = '';

/** '' = same origin. In the desktop app the bridge gives the server base URL. */
export function getApiBase(): string {
  return apiBase;
}

export function setApiBase(base: string): void {
  apiBase = base.replace(/\/+$/, '');
}

/** Resolves the API base once at start-up (from the desktop bridge; same origin on the web). */
export function initApiBase(): void {
  const b = bridge();
  if (!b) return;
  try {
    const v = typeof b.getApiBase === 'function' ? b.getApiBase() : '';
    if (typeof v === 'string' && v) setApiBase(v);
  } catch {
    /* keep same origin */
  }
}

export function apiUrl(path: string): string {
  return `${apiBase}${path}`;
}

/** Spec §2/§9: mobile/tablet = user agent or width <= 1024. */
export function isMobileOrTablet(): boolean {
  if (typeof window === 'undefined') return false;
  const ua = navigator.userAgent || '';
  return /Android|iPhone|iPad|iPod|Mobile|Tablet/i.test(ua) || window.innerWidth <= 1024;
}

/** Opens a URL outside the app: the system browser in the desktop app, this tab on the web. */
export function openExternalOrNavigate(url: string): void {
  const b = bridge();
  if (b && typeof b.openExternal === 'function') void b.openExternal(url);
  else window.location.href = url;
}

/** HashRouter only when loaded from file:// (no server to answer deep paths); BrowserRouter otherwise (web, app://). */
export function useHashRouting(): boolean {
  return typeof location !== 'undefined' && location.protocol === 'file:';
}
