// Native notifications: shown only while the app window is not focused; a click focuses the window and, when
// the notification belongs to a table, opens that table. A tournament match (issue #27) takes the player's reserved
// seat (`/table/ID?join=1`), or opens the tournament's page when there is no table yet.
import type { DeepLink, DesktopNotification } from '../shared/bridge';

export interface NativeNotification {
  on(event: 'click', listener: () => void): unknown;
  show(): void;
}

export interface NotifierDeps {
  isSupported(): boolean;
  /** Whether the main window exists, is visible and has focus. */
  isWindowFocused(): boolean;
  createNotification(options: { title: string; body: string; silent: boolean }): NativeNotification;
  focusWindow(): void;
  /** Route a link to the renderer (the deep-link router's dispatch). */
  openLink(link: DeepLink): void;
  /** Clock for the rate limit (ms). */
  now?: () => number;
}

/** At most this many notifications per window of RATE_WINDOW_MS: a misbehaving page cannot flood the desktop. */
export const RATE_LIMIT = 6;
export const RATE_WINDOW_MS = 10_000;

export function createNotifier(deps: NotifierDeps): (n: DesktopNotification) => boolean {
  // Keep references until clicked: a garbage-collected Notification loses its click handler on some platforms.
  const live = new Set<NativeNotification>();
  const now = deps.now ?? Date.now;
  let recent: number[] = [];
  return (n) => {
    if (deps.isWindowFocused() || !deps.isSupported()) return false;
    const t = now();
    recent = recent.filter((s) => t - s < RATE_WINDOW_MS);
    if (recent.length >= RATE_LIMIT) return false;
    recent.push(t);
    const native = deps.createNotification({ title: n.title, body: n.body, silent: false });
    live.add(native);
    if (live.size > 20) live.delete(live.values().next().value as NativeNotification);
    native.on('click', () => {
      live.delete(native);
      deps.focusWindow();
      const link = linkOf(n);
      if (link) deps.openLink(link);
    });
    native.show();
    return true;
  };
}

/** Where a click on the notification leads (null: only focus the window). Ids are validated by ipc.ts. */
export function linkOf(n: DesktopNotification): DeepLink | null {
  if (n.kind === 'tournament-match') {
    if (n.gameId) return { kind: 'table', gameId: n.gameId, spectate: false, path: `/table/${n.gameId}?join=1` };
    if (n.tournamentId)
      return { kind: 'tournament', tournamentId: n.tournamentId, path: `/tournaments/${n.tournamentId}` };
    return null;
  }
  return n.gameId ? { kind: 'table', gameId: n.gameId, spectate: false, path: `/table/${n.gameId}` } : null;
}
