/**
 * Invite players to the table (issue #12): the host's invite link (copy, renew, revoke; web and desktop-app
 * forms) and in-app invitations of friends (`invite_player`, optionally holding a free seat for a short time).
 */
import { useEffect, useState } from 'react';
import { Copy, Link2, RefreshCw, Send, Trash2 } from 'lucide-react';
import type { Ack, InviteLink } from '@spades/common';
import { api, errorText } from '../lib/api';
import { inviteLinks } from '../lib/public-links';
import { useUsers } from '../lib/queries';
import { useSocket } from '../socket/socket';
import { Avatar, Modal, useNotify } from '../components/ui';

type AckResult = Parameters<Ack>[0];

export interface PendingInvite {
  userId: string;
  username: string;
  seatIndex: number | null;
  reservedUntil: number | null;
}

export function InvitePanel({
  open,
  onOpenChange,
  gameId,
  isHost,
  isPrivate,
  canHoldSeat,
  members,
  pending,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  gameId: string;
  isHost: boolean;
  isPrivate: boolean;
  /** WAITING with a free seat: an invitation may hold one. */
  canHoldSeat: boolean;
  /** User ids already at the table. */
  members: string[];
  pending: PendingInvite[];
}) {
  const notify = useNotify();
  const sock = useSocket();
  const users = useUsers();
  const [link, setLink] = useState<InviteLink | null>(null);
  const [revoked, setRevoked] = useState(false);
  const [hold, setHold] = useState(true);
  const [busy, setBusy] = useState<string | null>(null);
  /** The server's refusal per friend (ruling 13: they have not added you back; or too many invitations). */
  const [refused, setRefused] = useState<Record<string, string>>({});
  const path = `/api/games/${encodeURIComponent(gameId)}/invite-link`;

  useEffect(() => {
    if (!open || !isHost || link || revoked) return;
    api.get<InviteLink>(path).then(
      (l) => setLink({ ...l, ...inviteLinks(l) }),
      (e) => notify(errorText(e, 'Failed to get the invite link')),
    );
  }, [open, isHost, link, revoked, path, notify]);

  const copy = async (text: string) => {
    try {
      await navigator.clipboard.writeText(text);
      notify('Invite link copied');
    } catch {
      notify('Copy failed: select the link and copy it');
    }
  };
  const renew = async () => {
    try {
      const l = await api.post<InviteLink>(path);
      setLink({ ...l, ...inviteLinks(l) });
      setRevoked(false);
      notify('New invite link: the old one no longer works');
    } catch (e) {
      notify(errorText(e, 'Failed to renew the link'));
    }
  };
  const revoke = async () => {
    try {
      await api.del(path);
      setLink(null);
      setRevoked(true);
      notify('Invite link revoked');
    } catch (e) {
      notify(errorText(e, 'Failed to revoke the link'));
    }
  };
  const invite = (userId: string) => {
    const s = sock.socket;
    if (!s) return;
    setBusy(userId);
    s.emit('invite_player', { gameId, userId, reserveSeat: canHoldSeat && hold }, (res: AckResult) => {
      setBusy(null);
      notify(res.ok ? 'Invitation sent' : res.message);
      setRefused((r) => {
        const { [userId]: _previous, ...rest } = r;
        return res.ok ? rest : { ...rest, [userId]: res.message };
      });
    });
  };

  const friends = users.players.filter((p) => p.status === 'friend' && !members.includes(p.id));
  const invited = new Map(pending.map((p) => [p.userId, p]));
  return (
    <Modal open={open} onOpenChange={onOpenChange} title="Invite players" className="modal-md invite-panel">
      {isHost && (
        <section className="invite-section" aria-label="Invite link">
          <h3 className="h4">
            <Link2 size={16} /> Invite link
          </h3>
          <p className="muted small">
            {isPrivate
              ? 'This table is private: only people with an invitation can sit or watch.'
              : 'Anyone with the link opens this table.'}
          </p>
          {link ? (
            <>
              <div className="invite-link-row">
                <input
                  className="invite-link"
                  readOnly
                  value={link.url}
                  aria-label="Invite link"
                  onFocus={(e) => e.currentTarget.select()}
                />
                <button type="button" className="btn btn-primary btn-sm" onClick={() => void copy(link.url)}>
                  <Copy size={15} /> Copy
                </button>
              </div>
              <p className="muted small">
                Desktop app: <span className="mono">{link.appUrl}</span>{' '}
                <button
                  type="button"
                  className="btn btn-ghost btn-sm"
                  onClick={() => void copy(link.appUrl)}
                  aria-label="Copy the desktop app link"
                >
                  <Copy size={13} />
                </button>
              </p>
            </>
          ) : (
            <p className="muted">{revoked ? 'No link: the previous one was revoked.' : 'Loading…'}</p>
          )}
          <div className="row gap-2">
            <button type="button" className="btn btn-secondary btn-sm" onClick={() => void renew()}>
              <RefreshCw size={15} /> New link
            </button>
            {link && (
              <button type="button" className="btn btn-ghost btn-sm danger" onClick={() => void revoke()}>
                <Trash2 size={15} /> Revoke
              </button>
            )}
          </div>
        </section>
      )}
      <section className="invite-section" aria-label="Invite friends">
        <h3 className="h4">
          <Send size={16} /> Invite friends
        </h3>
        {canHoldSeat && (
          <label className="invite-hold">
            <input type="checkbox" checked={hold} onChange={(e) => setHold(e.target.checked)} /> Hold a free seat for
            them for a minute
          </label>
        )}
        <p className="muted small">
          An in-app invitation reaches only players who have added you as a friend too; send anyone else the invite
          link.
        </p>
        {friends.length === 0 ? (
          <p className="muted small">No friends to invite yet: add friends from the lobby's player list.</p>
        ) : (
          <ul className="player-list invite-friends">
            {friends.map((f) => {
              const p = invited.get(f.id);
              return (
                <li key={f.id} className={`player-row${refused[f.id] ? ' has-refusal' : ''}`}>
                  <span className="player-main static">
                    <Avatar src={f.avatar} id={f.id} name={f.username} size={28} />
                    <span className="player-name">{f.username}</span>
                    <span className={`dot ${f.online ? 'online' : ''}`} aria-label={f.online ? 'online' : 'offline'} />
                  </span>
                  {p && (
                    <span className="muted small">
                      {p.seatIndex !== null && p.reservedUntil ? `invited · seat ${p.seatIndex + 1} held` : 'invited'}
                    </span>
                  )}
                  <button
                    type="button"
                    className="btn btn-secondary btn-sm"
                    onClick={() => invite(f.id)}
                    disabled={busy === f.id}
                    aria-label={`Invite ${f.username}`}
                  >
                    {p ? 'Again' : 'Invite'}
                  </button>
                  {refused[f.id] && (
                    <p className="muted small invite-refused" role="status">
                      {refused[f.id]}
                    </p>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </Modal>
  );
}
