/**
 * Issue #28: "Keep partner" in the result dialog of a quick-play table: invites the same partner to queue again as a
 * team (same mode, stakes and pace), leaves the table and goes to the lobby, where the Quick play panel shows the
 * queue. The partner sees the invitation here (Accept: leave the table and queue together) or in the lobby.
 */
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { Users } from 'lucide-react';
import type { PartnerInvitation } from '@spades/common';
import { useSocket, useSocketEvent } from '../socket/socket';
import { useNotify } from './ui';
import { partnerOf, type KeptPartner } from './quick-play';

type AckRes = { ok: true } | { ok: false; message: string };

export function KeepPartner() {
  const { id } = useParams();
  const kept = partnerOf(id);
  return kept && id ? <KeepPartnerButton id={id} kept={kept} /> : null;
}

function KeepPartnerButton({ id, kept }: { id: string; kept: KeptPartner }) {
  const sock = useSocket();
  const navigate = useNavigate();
  const notify = useNotify();
  const [asked, setAsked] = useState<PartnerInvitation | null>(null);
  useSocketEvent('partner_invitation', (i) => {
    if (i.fromId === kept.partnerId) setAsked(i);
  });
  const call = (event: string, payload: unknown) =>
    new Promise<AckRes>((resolve) => {
      const s = sock.socket as unknown as { emit: (e: string, p: unknown, cb: (r: AckRes) => void) => void } | null;
      if (!s) return resolve({ ok: false, message: 'Not connected' });
      s.emit(event, payload, resolve);
    });
  const go = async () => {
    await call('leave_game', { gameId: id });
    const r = asked
      ? await call('partner_accept', { fromId: kept.partnerId })
      : await call('partner_invite', { userId: kept.partnerId, mode: kept.mode, stake: kept.stake, pace: kept.pace });
    if (!r.ok) notify(r.message);
    else if (!asked) notify(`Invited ${kept.partnerName}: you queue together once they accept.`);
    navigate('/');
  };
  return (
    <p className="center">
      <button type="button" className="btn btn-secondary btn-sm" onClick={() => void go()}>
        <Users size={14} /> {asked ? `Queue again with ${kept.partnerName}` : `Keep partner (${kept.partnerName})`}
      </button>
    </p>
  );
}
