/**
 * Native desktop notifications (issue 6): your turn, a game you sit at is starting, a friend request, your
 * name mentioned in chat. They go through the typed `window.desktop` bridge; the main process shows them only
 * while the window is not focused, and a click focuses the window (and opens the table when `gameId` is set).
 * On the web there is no bridge and these calls do nothing.
 */
import type { DesktopNotification } from '../../shared/bridge';
import { bridge } from './platform';

/** Asks the desktop app for a notification; never throws, no-op on the web. */
export function notifyDesktop(n: DesktopNotification): void {
  const b = bridge();
  if (!b || typeof b.notify !== 'function') return;
  try {
    void Promise.resolve(b.notify(n)).catch(() => false);
  } catch {
    /* best effort */
  }
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether `text` mentions `username` as a whole word, case-insensitively ("hi Bob!", "@bob" mention "bob";
 * "bobby" does not). Letters, digits and _ count as word characters, in any script.
 */
export function mentions(text: string, username: string | null | undefined): boolean {
  const name = (username ?? '').trim();
  if (!name || !text) return false;
  const re = new RegExp(`(^|[^\\p{L}\\p{N}_])${escapeRegExp(name)}(?=$|[^\\p{L}\\p{N}_])`, 'iu');
  return re.test(text);
}

/** 1..120 characters for the title, 0..500 for the body (the bridge's limits). */
function clip(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

export function mentionNotification(
  from: string,
  message: string,
  where: 'game' | 'lobby',
  gameId?: string,
): DesktopNotification {
  return {
    kind: 'mention',
    title: clip(`${from} mentioned you${where === 'lobby' ? ' in the lobby' : ''}`, 120),
    body: clip(message, 500),
    ...(gameId ? { gameId } : {}),
  };
}
