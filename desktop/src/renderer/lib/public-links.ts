/**
 * Issue #31 item 3: the links a player copies for someone else (table invites, replay share links) point at an
 * address their friend can reach. The one seam for them (web and desktop app):
 * - the web link: the host's configured public address (CLIENT_URL, when the server says it was set), else the
 *   address this player is actually using (the page's origin; in the desktop app, the server it is connected to);
 * - the desktop-app invite link: `spades://table/<id>?server=<that address>&invite=<token>` (common's
 *   desktopTableLink, issue #30), so the app opens the table on the right server.
 */
import { desktopTableLink, type InviteLink, type ReplayShareLink } from '@spades/common';
import { getApiBase, isDesktopApp } from './platform';

/** The address of the server as this client reaches it (no trailing slash). */
export function currentServerAddress(): string {
  if (isDesktopApp()) return getApiBase();
  return typeof window !== 'undefined' ? window.location.origin : '';
}

/**
 * The address to put before a link's route: the configured one (what the server's `url` starts with, up to
 * `route`) when the host set CLIENT_URL or no address is known, else the address in use.
 */
function publicBase(link: { url: string; configured?: boolean }, route: string, here: string): string {
  if (link.configured || !here) {
    const i = link.url.indexOf(route);
    return i > 0 ? link.url.slice(0, i) : link.url;
  }
  return here.replace(/\/+$/, '');
}

/** The links to show and copy for a table invite (`link` as GET /api/games/:id/invite-link answered it). */
export function inviteLinks(link: InviteLink, here: string = currentServerAddress()): { url: string; appUrl: string } {
  const base = publicBase(link, '/table/', here);
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

/** The link to copy for a replay share link (`link` as POST/GET /api/games/:id/replay/shares answered it). */
export function replayShareUrl(link: ReplayShareLink, here: string = currentServerAddress()): string {
  const i = link.url.indexOf('/replay/');
  // an older server sends no `path`: the route is the part of its `url` from /replay/ on
  const path = link.path ?? (i > 0 ? link.url.slice(i) : null);
  if (path === null || !path.startsWith('/replay/')) return link.url;
  return `${publicBase(link, '/replay/', here)}${path}`;
}
