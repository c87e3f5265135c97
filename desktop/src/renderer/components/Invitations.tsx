/**
 * In-app table invitations (issue #12), app-wide: `game_invitation` shows a card with Join / Decline (plus a native
 * notification in the desktop app); pending invitations are fetched after every (re)authentication; an invitation
 * disappears when answered or when its table closes (`game_invitation_cancelled`).
 */
import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Mail, X } from 'lucide-react';
import { toListItemRules, type Ack, type GameInvitation } from '@spades/common';
import { api } from '../lib/api';
import { notifyDesktop } from '../lib/notifications';
import { modeBadge } from '../lib/types';
import { useSession } from '../session/session';
import { useSocket, useSocketEvent } from '../socket/socket';
import { Avatar, useNotify } from './ui';

type AckResult = Parameters<Ack>[0];

export function invitationText(i: GameInvitation): string {
  const badge = modeBadge({ forcedBid: toListItemRules(i.settings).forcedBid, gameType: i.settings.biddingOption });
  return `${i.from.username} invites you to a${i.private ? ' private' : ''} ${i.settings.gameMode} ${badge.label} table.`;
}

export function InvitationsHost() {
  const { user } = useSession();
  const sock = useSocket();
  const navigate = useNavigate();
  const notify = useNotify();
  const [list, setList] = useState<GameInvitation[]>([]);
  const add = useCallback((i: GameInvitation) => setList((l) => [i, ...l.filter((x) => x.gameId !== i.gameId)]), []);
  const drop = useCallback((gameId: string) => setList((l) => l.filter((x) => x.gameId !== gameId)), []);

  useEffect(() => {
    if (!sock.ready || !user) return;
    api.get<GameInvitation[]>('/api/invitations').then(
      // the server's pending ones, plus any that arrived live while asking
      (all) =>
        setList((live) => {
          const byGame = new Map((Array.isArray(all) ? all : []).map((i) => [i.gameId, i]));
          for (const i of live) if (!byGame.has(i.gameId)) byGame.set(i.gameId, i);
          return [...byGame.values()].sort((x, y) => y.createdAt - x.createdAt);
        }),
      () => undefined,
    );
  }, [sock.ready, user]);

  useSocketEvent('game_invitation', (i) => {
    if (!i || typeof i.gameId !== 'string') return;
    add(i);
    notifyDesktop({ kind: 'invitation', title: 'Table invitation', body: invitationText(i), gameId: i.gameId });
  });
  useSocketEvent('game_invitation_cancelled', (p) => p && drop(p.gameId));
  useSocketEvent('invitation_declined', (p) => p && notify(`${p.username} declined your invitation.`));

  if (!user || list.length === 0) return null;
  const join = (i: GameInvitation) => {
    drop(i.gameId);
    navigate(`/table/${encodeURIComponent(i.gameId)}?join=1`);
  };
  const decline = (i: GameInvitation) => {
    drop(i.gameId);
    sock.socket?.emit('decline_invitation', { gameId: i.gameId }, (res: AckResult) => {
      if (!res.ok) notify(res.message);
    });
  };
  return (
    <div className="invitations" aria-live="polite">
      {list.slice(0, 3).map((i) => (
        <div key={i.gameId} className="invitation" role="alertdialog" aria-label={`Invitation from ${i.from.username}`}>
          <Avatar src={i.from.avatar} id={i.from.id} name={i.from.username} size={36} />
          <div className="invitation-text">
            <strong>
              <Mail size={14} aria-hidden="true" /> Invitation
            </strong>
            <span className="small">{invitationText(i)}</span>
            {i.reservedSeat !== null && i.reservedUntil !== null && i.reservedUntil > Date.now() && (
              <span className="muted small">Seat {i.reservedSeat + 1} is held for you.</span>
            )}
            <div className="row gap-2">
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => decline(i)}>
                Decline
              </button>
              <button type="button" className="btn btn-primary btn-sm" onClick={() => join(i)}>
                Join
              </button>
            </div>
          </div>
          <button type="button" className="icon-btn" aria-label="Hide" onClick={() => drop(i.gameId)}>
            <X size={16} />
          </button>
        </div>
      ))}
    </div>
  );
}
