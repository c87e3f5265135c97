import { useEffect, useRef, useState } from 'react';
import { Megaphone, TriangleAlert, X } from 'lucide-react';
import { sanctionNoticeText, type Announcement, type SanctionNotice } from '@spades/common';
import { Modal, useNotify } from '../components/ui';
import { useAnnouncement } from '../lib/announcement';
import { useSession } from '../session/session';
import { useSocketEvent } from '../socket/socket';
import { activeMute, loadMutes, loadStanding, resetModeration, setMyMute, useModeration } from './moderation-store';
import './moderation.css';

const DISMISSED_KEY = 'spades.announcement.dismissed';

function dismissedId(): string | null {
  try {
    return localStorage.getItem(DISMISSED_KEY);
  } catch {
    return null;
  }
}

/** The host's announcement (pushed live to every client); a player may close it until the next one. */
export function AnnouncementBanner({ announcement }: { announcement: Announcement | null }) {
  const [closed, setClosed] = useState<string | null>(dismissedId);
  if (!announcement || closed === announcement.id) return null;
  const Icon = announcement.level === 'warning' ? TriangleAlert : Megaphone;
  return (
    <div
      className={`announcement announcement-${announcement.level}`}
      role="status"
      aria-label="Announcement"
      data-testid="announcement"
    >
      <Icon size={18} aria-hidden="true" />
      <span className="announcement-text" title={announcement.text}>
        {announcement.text}
      </span>
      <button
        type="button"
        className="icon-btn"
        aria-label="Close the announcement"
        onClick={() => {
          setClosed(announcement.id);
          try {
            localStorage.setItem(DISMISSED_KEY, announcement.id);
          } catch {
            /* storage unavailable: closed for this page only */
          }
        }}
      >
        <X size={16} />
      </button>
    </div>
  );
}

const TITLES: Record<SanctionNotice['kind'], string> = {
  ban: 'Your account is banned',
  mute: 'You are muted',
  warn: 'A moderator warned you',
  rename: 'A moderator changed your name',
};

const keyOf = (n: SanctionNotice) => `${n.kind}|${n.reason}|${n.endsAt ?? ''}`;

/**
 * What a sanctioned player sees (issue #25), app-wide: warnings and forced renames once (GET
 * /api/moderation/standing at sign-in, then `sanction_notice` live), their mute with its end (the chat panel shows
 * it too), a ban (the server closes the socket; the client signs out and keeps the reason on screen), and the
 * host's announcement banner.
 */
export function ModerationHost() {
  const { status, user, logout, refreshProfile } = useSession();
  const announcement = useAnnouncement();
  const notify = useNotify();
  const [queue, setQueue] = useState<SanctionNotice[]>([]);
  const shown = useRef(new Set<string>());
  const { mute } = useModeration();
  const userId = user?.id;

  const enqueue = (ns: SanctionNotice[]) => {
    const fresh = ns.filter((n) => !shown.current.has(keyOf(n)));
    for (const n of fresh) shown.current.add(keyOf(n));
    if (fresh.length) setQueue((q) => [...q, ...fresh]);
  };

  useEffect(() => {
    if (status === 'anonymous') resetModeration();
    if (status !== 'authenticated' || !userId) return;
    loadStanding().then(enqueue, () => undefined);
    loadMutes().catch(() => undefined);
    // enqueue only touches a ref and a state setter: no dependency
  }, [status, userId]);

  // The profile carries the standing too (and marks notices seen): whichever answer brings a notice shows it.
  const standing = status === 'authenticated' ? user?.standing : undefined;
  useEffect(() => {
    if (!standing) return;
    setMyMute(standing.mute ?? null);
    if (Array.isArray(standing.notices)) enqueue(standing.notices);
    // enqueue only touches a ref and a state setter: no dependency
  }, [standing]);

  // A mute may be lifted early by a moderator: re-read the standing now and then while muted.
  useEffect(() => {
    if (!activeMute(mute) || status !== 'authenticated') return;
    const t = setInterval(() => void loadStanding().catch(() => undefined), 60_000);
    return () => clearInterval(t);
  }, [mute, status]);

  useSocketEvent('sanction_notice', (n: SanctionNotice) => {
    if (!n || typeof n !== 'object') return;
    if (n.kind === 'mute') {
      setMyMute(n);
      notify(sanctionNoticeText(n));
      return;
    }
    enqueue([n]);
    if (n.kind === 'rename') void refreshProfile().catch(() => undefined);
    if (n.kind === 'ban') logout();
  });

  const current = queue[0] ?? null;
  return (
    <>
      <AnnouncementBanner announcement={announcement} />
      {current && (
        <Modal
          open
          onOpenChange={(o) => !o && setQueue((q) => q.slice(1))}
          title={TITLES[current.kind]}
          description={sanctionNoticeText(current)}
          className="modal-sm"
          hideClose
        >
          <div className="modal-actions">
            <button type="button" className="btn btn-primary" onClick={() => setQueue((q) => q.slice(1))} autoFocus>
              OK
            </button>
          </div>
        </Modal>
      )}
    </>
  );
}
