/**
 * Issue #31 item 3: the invite links a player copies point at an address their friend can reach. The one seam for
 * them (web and desktop app):
 * - the web link: the host's configured public address (CLIENT_URL, when the server says it was set), else the
 *   address this player is actually using (the page's origin; in the desktop app, the server it is connected to);
 * - the desktop-app link: `spades://table/<id>?server=<that address>&invite=<token>` (common's desktopTableLink,
 *   issue #30), so the app opens the table on the right server.
 */
import { desktopTableLink, type InviteLink } from '@spades/common';
import { getApiBase, isDesktopApp } from './platform';

/** The address of the server as this client reaches it (no trailing slash). */
export function currentServerAddress(): string {
  if (isDesktopApp()) return getApiBase();
  return typeof window !== 'undefined' ? window.location.origin : '';
}

/** The links to show and copy for a table invite (`link` as GET /api/games/:id/invite-link answered it). */
export function inviteLinks(link: InviteLink, here: string = currentServerAddress()): { url: string; appUrl: string } {
  const base = link.configured || !here ? origin(link.url) : here.replace(/\/+$/, '');
  const q = `invite=${encodeURIComponent(link.token)}`;
  const url = `${base}/table/${encodeURIComponent(link.gameId)}?${q}`;
  let appUrl = link.appUrl;
  try {
    appUrl = desktopTableLink({ server: base, gameId: link.gameId, invite: link.token });
  } catch {
    /* not an http(s) address: keep the server's form */
  }
  return { url, appUrl };
}

/** `scheme://host[:port][/prefix]` of a link the server built: everything before `/table/`. */
function origin(url: string): string {
  const i = url.indexOf('/table/');
  return i > 0 ? url.slice(0, i) : url;
}
