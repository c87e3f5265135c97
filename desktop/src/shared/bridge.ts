// The contract between the Electron app and the React renderer: `window.desktop`.
//
// In the desktop app the preload script exposes an object of type `DesktopBridge` as `window.desktop`
// (contextBridge, context isolation on, no Node in the renderer). In the web build `window.desktop` is
// undefined, so the renderer always checks it: `const desktop = window.desktop; if (desktop) { ... }`.
//
// This file is types and constants only (no runtime imports): main, preload and renderer all import it.

/** IPC channel names. Invoke channels (renderer → main, answered) and event channels (main → renderer). */
export const IPC = {
  /** invoke(DesktopNotification) → boolean (true when the notification was shown). */
  notify: 'spades:notify',
  /** invoke() → boolean (the new full-screen state). */
  toggleFullScreen: 'spades:full-screen:toggle',
  /** invoke() → boolean. */
  isFullScreen: 'spades:full-screen:get',
  /** invoke(url: string) → true; rejects unless the URL is an absolute http(s) URL. */
  openExternal: 'spades:open-external',
  /** invoke() → AppInfo. */
  appInfo: 'spades:app-info',
  /** main → renderer event carrying a DeepLink. */
  deepLink: 'spades:deep-link',
  /** renderer → main (send): a deep-link listener is attached; main then delivers links it queued before. */
  deepLinkReady: 'spades:deep-link:ready',
} as const;

export type IpcChannel = (typeof IPC)[keyof typeof IPC];

/** The preload receives the API base from main as this command-line switch (webPreferences.additionalArguments). */
export const API_BASE_ARG = '--spades-api-base=';

/**
 * The origin of the renderer in the packaged app: bundled files are served from this privileged custom scheme
 * (with SPA fallback to index.html, so history routing works). The backend must accept it as a CORS origin.
 * In development the renderer comes from the electron-vite dev server instead (http://localhost:5173…).
 */
export const DESKTOP_APP_ORIGIN = 'app://spades';

/** The custom protocol registered by the app: `spades://auth/callback?token=…`, `spades://table/<gameId>`. */
export const DEEP_LINK_SCHEME = 'spades';

/**
 * A validated deep link, as delivered to the renderer.
 * `path` (auth-callback, table) is the renderer route to navigate to; it is exactly the web route, so
 * `{ kind: 'auth-callback' }` completes the Discord login like the web `/auth/callback?token=…` route does.
 */
export type DeepLink =
  | { kind: 'auth-callback'; token: string; path: string }
  /** The Discord login failed or was cancelled (`spades://auth/callback?error=discord_denied`): path is
   *  `/auth/callback?error=…`, which the web route treats as "no token" (back to /login). */
  | { kind: 'auth-error'; error: string; path: string }
  /** `spades://table/ID[?spectate=1|?invite=TOKEN]`: path `/table/ID[?…]` (an invite link seats the player, issue #12). */
  | { kind: 'table'; gameId: string; spectate: boolean; invite?: string; path: string }
  /** From the application menu (Help › Game Rules) or `spades://rules`: open the Game Rules dialog where you are (no navigation). */
  | { kind: 'rules' };

/** Why a notification is raised. The main process shows it only while the app window is not focused. */
export type NotificationKind = 'your-turn' | 'game-starting' | 'friend-request' | 'mention' | 'invitation';

export const NOTIFICATION_KINDS: readonly NotificationKind[] = ['your-turn', 'game-starting', 'friend-request', 'mention', 'invitation'];

export interface DesktopNotification {
  kind: NotificationKind;
  /** 1..120 characters. */
  title: string;
  /** 0..500 characters. */
  body: string;
  /** When set (a game id), clicking the notification focuses the window and opens this table (a `table` DeepLink). */
  gameId?: string;
}

export interface AppInfo {
  name: string;
  version: string;
  platform: 'darwin' | 'win32' | 'linux' | string;
  electron: string;
  chrome: string;
  /** The backend URL the app talks to (same as getApiBase()). */
  apiBase: string;
  /** Whether the app runs packaged (production) or from electron-vite dev. */
  packaged: boolean;
}

export interface DesktopBridge {
  /**
   * Ask for a native notification. Shown only when the app window is not focused (resolves false otherwise).
   * Clicking it focuses the window and, if `gameId` is set, a `table` deep link is delivered to onDeepLink.
   */
  notify(notification: DesktopNotification): Promise<boolean>;
  /** Toggle full screen (also F11 and View menu). Resolves with the new state. */
  toggleFullScreen(): Promise<boolean>;
  isFullScreen(): Promise<boolean>;
  /** Open an http(s) URL in the system browser (e.g. Discord login: `${getApiBase()}/api/auth/discord?client=desktop`). */
  openExternal(url: string): Promise<boolean>;
  appInfo(): Promise<AppInfo>;
  /**
   * The backend origin the renderer must use for HTTP (`${base}/api/...`) and socket.io, without trailing slash,
   * e.g. `https://play.spades.example`. Synchronous: available before the first request.
   */
  getApiBase(): string;
  /**
   * Subscribe to deep links (`spades://…` opened while running, or the one that launched the app; queued links are
   * delivered after the first subscription). Returns the unsubscribe function.
   */
  onDeepLink(callback: (link: DeepLink) => void): () => void;
}

declare global {
  interface Window {
    desktop?: DesktopBridge;
  }
}
