// The contract between the Electron app and the React renderer: `window.desktop`.
//
// In the desktop app the preload script exposes an object of type `DesktopBridge` as `window.desktop`
// (contextBridge, context isolation on, no Node in the renderer). In the web build `window.desktop` is
// undefined, so the renderer always checks it: `const desktop = window.desktop; if (desktop) { ... }`.
//
// This file is types and constants only (no runtime imports): main, preload and renderer all import it.
import type { ServerInfo } from '../../../common/src/protocol/server-info';

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
  /** sendSync() → BootState: the preload asks once per page load (the current server and its session). */
  bootState: 'spades:boot-state',
  /** invoke() → SavedServer[]. */
  serversList: 'spades:servers:list',
  /** invoke(address: string) → ServerProbe (fetched by main: the renderer's CSP only reaches the current server). */
  serversProbe: 'spades:servers:probe',
  /** invoke(address: string) → ServerProbe: probes, then saves (or refreshes) the server. Does not switch. */
  serversAdd: 'spades:servers:add',
  /** invoke(id: string) → boolean: makes it the current server and reloads the window on it. */
  serversSwitch: 'spades:servers:switch',
  /** invoke(id: string) → boolean: forgets the server and its session. */
  serversForget: 'spades:servers:forget',
  /** invoke(requestId: string, accept: boolean) → ServerProbe|null: the answer to a ServerLinkRequest. */
  serversAnswerLink: 'spades:servers:answer-link',
  /** invoke(token: string | null) → boolean: stores (encrypted) or clears the current server's session. */
  sessionSet: 'spades:session:set',
  /** invoke() → UpdateState. */
  updateState: 'spades:update:state',
  /** invoke(enabled: boolean) → UpdateState: the "check for updates" setting. */
  updateSetEnabled: 'spades:update:set-enabled',
  /** invoke() → boolean: quit and install a downloaded update. */
  updateRestart: 'spades:update:restart',
  /** main → renderer event carrying an UpdateState. */
  updateChanged: 'spades:update:changed',
} as const;

export type IpcChannel = (typeof IPC)[keyof typeof IPC];

/**
 * The preload receives the API base of the server the window was created for as this command-line switch
 * (webPreferences.additionalArguments); a later switch of server is read through IPC.bootState.
 */
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
 * A validated deep link, as delivered to the renderer. `server` (issue #30: `&server=<address>`, normalized) names
 * the server the link belongs to; the main process delivers such a link as is only when it is the current server,
 * else as a `server-link` request the player answers first. Links without it open on the current server.
 * `path` (auth-callback, table) is the renderer route to navigate to; it is exactly the web route, so
 * `{ kind: 'auth-callback' }` completes the Discord login like the web `/auth/callback?token=…` route does.
 */
export type DeepLink =
  | { kind: 'auth-callback'; token: string; path: string; server?: string }
  /** The Discord login failed or was cancelled (`spades://auth/callback?error=discord_denied`): path is
   *  `/auth/callback?error=…`, which the web route treats as "no token" (back to /login). */
  | { kind: 'auth-error'; error: string; path: string; server?: string }
  /** `spades://table/ID[?spectate=1|?invite=TOKEN]`: path `/table/ID[?…]` (an invite link seats the player, issue #12). */
  | { kind: 'table'; gameId: string; spectate: boolean; invite?: string; path: string; server?: string }
  /** From the application menu (Help › Game Rules) or `spades://rules`: open the Game Rules dialog where you are (no navigation). */
  | { kind: 'rules' }
  /** From the application menu (File › Servers…): the server chooser, path `/servers`. */
  | { kind: 'servers'; path: string }
  /** Issue #27: a tournament's page, path `/tournaments/ID` (a click on a `tournament-match` notification). */
  | { kind: 'tournament'; tournamentId: string; path: string }
  /**
   * A link that names a server other than the current one (`server=`, issue #30): never followed silently.
   * The renderer asks the player (name, address, "not the current one") and answers with
   * `servers.answerLink(id, accept)`; no `path`, so nothing navigates before that.
   */
  | { kind: 'server-link'; request: ServerLinkRequest };

/** A link (table, spectate, invite, login) for a server that is not the current one, waiting for the player's answer. */
export interface ServerLinkRequest {
  /** Main's handle for this pending link. */
  id: string;
  /** The link's normalized server address. */
  server: string;
  /** That server when the player already added it (name known), else null. */
  known: SavedServer | null;
  /** The server the app is on now (null on first run). */
  current: SavedServer | null;
  /** What the link opens there. */
  target: 'table' | 'spectate' | 'invite' | 'login';
  gameId?: string;
}

/** A server the player added (stored by main in <userData>/servers.json; its session encrypted with safeStorage). */
export interface SavedServer {
  id: string;
  /** Normalized base address, e.g. `https://spades.example.org`. */
  address: string;
  name: string;
  icon: string | null;
  description: string;
  version: string;
  /** Whether a session is stored for it. */
  signedIn: boolean;
  current: boolean;
}

export type ServerProbeError =
  'invalid_address' | 'unreachable' | 'not_spades' | 'protocol_mismatch' | 'unknown_server' | 'storage';

/** What main found at an address (or why it will not add it). `message` is shown to the player as is. */
export type ServerProbe =
  | { ok: true; address: string; info: ServerInfo; server?: SavedServer }
  | { ok: false; address?: string; error: ServerProbeError; message: string; info?: ServerInfo };

/** The page's start state (IPC.bootState): the current server (null on first run) and its session token. */
export interface BootState {
  server: SavedServer | null;
  token: string | null;
  /** The protocol version this app speaks (common PROTOCOL_VERSION). */
  protocolVersion: number;
}

/** The self-updater (electron-updater against the generic feed set at build time). */
export interface UpdateState {
  status: 'unsupported' | 'disabled' | 'idle' | 'checking' | 'available' | 'downloading' | 'ready' | 'error';
  /** The "check for updates" setting. */
  enabled: boolean;
  /** The version offered (available, downloading, ready). */
  version?: string;
  /** 0..100 while downloading. */
  percent?: number;
  /** Why it failed (error) or why there is no updater (unsupported). */
  message?: string;
}

/**
 * Why a notification is raised. The main process shows it only while the app window is not focused.
 * `tournament-match` (issue #27): the player's tournament match is ready; a click takes their seat (`gameId`) or opens
 * the tournament (`tournamentId` only).
 */
export type NotificationKind =
  'your-turn' | 'game-starting' | 'friend-request' | 'mention' | 'invitation' | 'tournament-match';

export const NOTIFICATION_KINDS: readonly NotificationKind[] = [
  'your-turn',
  'game-starting',
  'friend-request',
  'mention',
  'invitation',
  'tournament-match',
];

export interface DesktopNotification {
  kind: NotificationKind;
  /** 1..120 characters. */
  title: string;
  /** 0..500 characters. */
  body: string;
  /** When set (a game id), clicking the notification focuses the window and opens this table (a `table` DeepLink). */
  gameId?: string;
  /**
   * Issue #27 (`tournament-match` only): the tournament. With `gameId`, a click takes the reserved seat
   * (`/table/ID?join=1`); without, it opens the tournament's page (a `tournament` DeepLink).
   */
  tournamentId?: string;
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
  /** Servers (issue #30): several communities, each with its own session. Optional: absent in older test stubs. */
  servers?: {
    /** The current server as the page started (null on first run: the renderer shows the chooser). Synchronous. */
    current(): SavedServer | null;
    list(): Promise<SavedServer[]>;
    probe(address: string): Promise<ServerProbe>;
    add(address: string): Promise<ServerProbe>;
    /** Resolves true, then the window reloads on that server. */
    switchTo(id: string): Promise<boolean>;
    forget(id: string): Promise<boolean>;
    /** Accept (switch there, adding it first when new, and open the link) or decline a ServerLinkRequest. */
    answerLink(requestId: string, accept: boolean): Promise<ServerProbe | null>;
  };
  /** The current server's session token, kept by main encrypted (safeStorage), never in localStorage. */
  session?: {
    /** Synchronous: the token as the page started, or as last set. */
    get(): string | null;
    set(token: string | null): void;
  };
  updates?: {
    state(): Promise<UpdateState>;
    setEnabled(enabled: boolean): Promise<UpdateState>;
    restart(): Promise<boolean>;
    onChange(callback: (state: UpdateState) => void): () => void;
  };
}

declare global {
  interface Window {
    desktop?: DesktopBridge;
  }
}
