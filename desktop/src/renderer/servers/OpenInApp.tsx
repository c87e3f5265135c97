/**
 * "Open in the app" on the web's invite pages (issue #30): the same invitation as a desktop link that names this
 * server (`spades://table/ID?server=…&invite=…`), so the app opens it on the right community, after asking.
 * Nothing on the desktop (the player is in the app already) or without an invite.
 */
import { desktopTableLink } from '@spades/common';
import { getApiBase, isDesktopApp } from '../lib/platform';
import { takeReturnTo } from '../lib/return-to';
import './servers.css';

export function OpenInApp({ gameId, invite }: { gameId: string; invite: string | null }) {
  if (isDesktopApp() || !invite || !gameId) return null;
  let href: string;
  try {
    href = desktopTableLink({ server: getApiBase() || window.location.origin, gameId, invite });
  } catch {
    return null;
  }
  return (
    <p className="open-in-app">
      Have the Spades app? <a href={href}>Open this invitation in the app</a>
    </p>
  );
}

/** `/table/ID?invite=TOKEN` → its parts, else null. */
export function inviteOfPath(path: string): { gameId: string; invite: string } | null {
  const m = /^\/table\/([A-Za-z0-9_-]{1,64})\?(?:.*&)?invite=([A-Za-z0-9_-]{16,64})(?:&|$)/.exec(path);
  return m ? { gameId: m[1], invite: m[2] } : null;
}

/** On the sign-in page reached from a web invite link (signed out): offer the app before signing in on the web. */
export function OpenPendingInviteInApp() {
  const pending = inviteOfPath(takeReturnTo());
  return pending ? <OpenInApp gameId={pending.gameId} invite={pending.invite} /> : null;
}
