/**
 * Issue #28: the lobby's Quick play panel. Pick a mode, a stake band and a pace and join the queue (alone, or with
 * a partner who accepted an invitation); the panel shows how many wait and the estimated wait, offers bots after
 * the host's bot-offer wait, and goes to the table once one is formed. "Play bots now" seats the player with three
 * bots of the chosen level at once. After a reconnect the panel queues again with the same choice.
 */
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Bot, Search, UserPlus, X, Zap } from 'lucide-react';
import {
  QUICKPLAY_BOT_LEVELS,
  QUICKPLAY_PACES,
  STAKE_BANDS,
  type BotLevelKey,
  type PartnerInvitation,
  type PreferredPartner,
  type QuickPlayStatus,
} from '@spades/common';
import { api } from '../lib/api';
import { useUsers } from '../lib/queries';
import { useSession } from '../session/session';
import { useSocket, useSocketEvent } from '../socket/socket';
import { useNotify } from './ui';
import { formatWait, loadWanted, rememberPartner, saveWanted, type QueueChoice } from './quick-play';
import './quick-play.css';

type Res = { ok: true; gameId?: string } & Partial<QuickPlayStatus> & Record<string, unknown>;
type AckRes = Res | { ok: false; message: string };

function Segmented<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly { key: T; label: string }[];
  onChange: (v: T) => void;
}) {
  return (
    <div className="segmented qp-seg" role="radiogroup" aria-label={label}>
      {options.map((o) => (
        <button
          key={o.key}
          type="button"
          role="radio"
          aria-checked={value === o.key}
          className={value === o.key ? 'active' : ''}
          onClick={() => onChange(o.key)}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

export function QuickPlay() {
  const { user } = useSession();
  const sock = useSocket();
  const navigate = useNavigate();
  const notify = useNotify();
  const users = useUsers();
  const [choice, setChoice] = useState<QueueChoice>({ mode: 'PARTNERS', stake: 'low', pace: 'normal' });
  const [level, setLevel] = useState<BotLevelKey>('normal');
  const [status, setStatus] = useState<QuickPlayStatus>({ queued: false, waiting: 0 });
  const [partnerId, setPartnerId] = useState('');
  const [preferred, setPreferred] = useState<PreferredPartner[]>([]);
  const [invites, setInvites] = useState<PartnerInvitation[]>([]);
  const [busy, setBusy] = useState(false);
  const [now, setNow] = useState(Date.now());
  /** The queue this client wants to be in (re-sent after a reconnect). */
  const wanted = useRef<QueueChoice | null>(loadWanted());
  const want = {
    get current() {
      return wanted.current;
    },
    set current(c: QueueChoice | null) {
      wanted.current = c;
      saveWanted(c);
    },
  };

  const call = (event: string, payload?: unknown) =>
    new Promise<AckRes>((resolve) => {
      const s = sock.socket as unknown as { emit: (e: string, p: unknown, cb: (r: AckRes) => void) => void } | null;
      if (!s) return resolve({ ok: false, message: 'Not connected' });
      s.emit(event, payload ?? {}, resolve);
    });

  useEffect(() => {
    if (!sock.ready || !user) return;
    void call('quickplay_status').then((r) => {
      if (!r.ok) return;
      if (r.queued) setStatus(r as QuickPlayStatus);
      else if (want.current) void call('quickplay_join', want.current); // a reconnect (or a lost node): queue again
    });
    api.get<PreferredPartner[]>('/api/quickplay/partners').then(
      (p) => setPreferred(Array.isArray(p) ? p : []),
      () => undefined,
    );
  }, [sock.ready, user]);

  useEffect(() => {
    if (!status.queued) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [status.queued]);

  useSocketEvent('quickplay_status', (s) => {
    setStatus(s);
    if (!s.queued) want.current = null;
  });
  useSocketEvent('quickplay_bot_offer', (s) => setStatus({ ...s, botOffer: true }));
  useSocketEvent('partner_invitation', (i) =>
    setInvites((l) => [i, ...l.filter((x) => x.fromId !== i.fromId)].slice(0, 3)),
  );
  useSocketEvent('partner_update', (u) =>
    notify(
      u.state === 'accepted'
        ? `${u.username} joined you: you are queued as a team.`
        : `${u.username} declined your invitation.`,
    ),
  );
  useSocketEvent('quickplay_matched', (m) => {
    want.current = null;
    if (m.partnerId) {
      const name =
        status.partner?.username ?? users.players.find((p) => p.id === m.partnerId)?.username ?? 'your partner';
      rememberPartner(m.gameId, {
        partnerId: m.partnerId,
        partnerName: name,
        mode: status.mode ?? choice.mode,
        stake: status.stake ?? choice.stake,
        pace: status.pace ?? choice.pace,
      });
    }
    navigate(`/table/${encodeURIComponent(m.gameId)}`);
  });

  const run = async (event: string, payload?: unknown) => {
    setBusy(true);
    try {
      const r = await call(event, payload);
      if (!r.ok) notify(r.message);
      return r;
    } finally {
      setBusy(false);
    }
  };

  const join = async () => {
    want.current = choice;
    const r = await run('quickplay_join', choice);
    if (r.ok) setStatus(r as QuickPlayStatus);
    else want.current = null;
  };
  const leave = async () => {
    want.current = null;
    await run('quickplay_leave');
    setStatus({ queued: false, waiting: 0 });
  };
  const invite = async () => {
    if (!partnerId) return;
    const r = await run('partner_invite', { userId: partnerId, ...choice, mode: 'PARTNERS' });
    if (r.ok) notify('Invitation sent: you are queued together once your partner accepts.');
  };
  const answer = async (i: PartnerInvitation, accept: boolean) => {
    setInvites((l) => l.filter((x) => x.fromId !== i.fromId));
    const r = await run(accept ? 'partner_accept' : 'partner_decline', { fromId: i.fromId });
    if (accept && r.ok) {
      want.current = null; // the inviter's ticket: the inviter's client re-queues the team after a reconnect
      setStatus(r as QuickPlayStatus);
    }
  };
  const bots = async (event: 'play_bots_now' | 'quickplay_bots') => {
    const r = await run(event, event === 'play_bots_now' ? { level, mode: choice.mode } : {});
    if (r.ok && r.gameId) {
      want.current = null;
      navigate(`/table/${encodeURIComponent(r.gameId)}`);
    }
  };

  const friends = users.players.filter((p) => p.status === 'friend' && p.id !== user?.id);
  const partnerOptions = [
    ...preferred.map((p) => ({ id: p.userId, name: `${p.username} (${p.games} games together)` })),
  ];
  for (const f of friends)
    if (!partnerOptions.some((o) => o.id === f.id)) partnerOptions.push({ id: f.id, name: f.username });
  const waited = status.since ? Math.max(0, Math.round((now - status.since) / 1000)) : 0;

  return (
    <section className="quick-play" aria-labelledby="qp-h">
      <div className="qp-head">
        <h2 id="qp-h" className="h3">
          <Zap size={18} aria-hidden="true" /> Quick play
        </h2>
        <span className="muted small">Matched by rating: tables start at once, rated with four players.</span>
      </div>
      {invites.map((i) => (
        <div
          key={i.fromId}
          className="qp-invite"
          role="alertdialog"
          aria-label={`Partner invitation from ${i.fromName}`}
        >
          <span>
            <strong>{i.fromName}</strong> wants to queue with you as partners (
            {STAKE_BANDS.find((b) => b.key === i.stake)?.label} stakes, {i.pace} pace).
          </span>
          <button type="button" className="btn btn-ghost btn-sm" onClick={() => void answer(i, false)}>
            Decline
          </button>
          <button type="button" className="btn btn-primary btn-sm" onClick={() => void answer(i, true)}>
            Accept
          </button>
        </div>
      ))}
      {status.queued ? (
        <div className="qp-queued" role="status" aria-live="polite">
          <div className="qp-searching">
            <Search size={18} aria-hidden="true" className="qp-pulse" />
            <div>
              <strong>Finding a table…</strong>
              <div className="muted small">
                {status.mode === 'SOLO' ? 'Solo' : 'Partners'} ·{' '}
                {STAKE_BANDS.find((b) => b.key === status.stake)?.label} stakes ·{' '}
                {status.pace === 'fast' ? 'Fast' : 'Normal'} pace
                {status.partner ? ` · with ${status.partner.username}` : ''}
              </div>
            </div>
            <span className="num qp-clock" aria-label="Waiting time">
              {Math.floor(waited / 60)}:{String(waited % 60).padStart(2, '0')}
            </span>
          </div>
          <div className="muted small">
            <span data-testid="qp-waiting">{status.waiting} waiting</span>
            {status.estimatedWaitMs !== undefined && <> · estimated wait {formatWait(status.estimatedWaitMs)}</>}
          </div>
          {status.botOffer && (
            <div className="qp-offer">
              <span>No match yet. Fill the table with bots (unrated), or keep waiting.</span>
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                disabled={busy}
                onClick={() => void bots('quickplay_bots')}
              >
                <Bot size={14} /> Play with bots
              </button>
              <button
                type="button"
                className="btn btn-ghost btn-sm"
                onClick={() => setStatus({ ...status, botOffer: false })}
              >
                Keep waiting
              </button>
            </div>
          )}
          <button type="button" className="btn btn-ghost btn-sm qp-leave" onClick={() => void leave()} disabled={busy}>
            <X size={14} /> Leave queue
          </button>
        </div>
      ) : (
        <div className="qp-grid">
          <Segmented
            label="Mode"
            value={choice.mode}
            options={
              [
                { key: 'PARTNERS', label: 'Partners' },
                { key: 'SOLO', label: 'Solo' },
              ] as const
            }
            onChange={(mode) => setChoice({ ...choice, mode })}
          />
          <Segmented
            label="Stakes"
            value={choice.stake}
            options={STAKE_BANDS}
            onChange={(stake) => setChoice({ ...choice, stake })}
          />
          <Segmented
            label="Pace"
            value={choice.pace}
            options={QUICKPLAY_PACES}
            onChange={(pace) => setChoice({ ...choice, pace })}
          />
          <button
            type="button"
            className="btn btn-primary qp-find"
            disabled={busy || !sock.ready}
            onClick={() => void join()}
          >
            <Search size={16} /> Find a game
          </button>
          {choice.mode === 'PARTNERS' && (
            <div className="qp-partner">
              <label className="small muted" htmlFor="qp-partner">
                Partner
              </label>
              <select
                id="qp-partner"
                className="input qp-select"
                value={partnerId}
                onChange={(e) => setPartnerId(e.target.value)}
              >
                <option value="">
                  {partnerOptions.length ? 'Choose a friend…' : 'Add friends to invite a partner'}
                </option>
                {partnerOptions.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                  </option>
                ))}
              </select>
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                disabled={!partnerId || busy}
                onClick={() => void invite()}
              >
                <UserPlus size={14} /> Queue together
              </button>
            </div>
          )}
        </div>
      )}
      <div className="qp-bots">
        <Bot size={16} aria-hidden="true" />
        <span className="small">Play bots now</span>
        <Segmented label="Bot level" value={level} options={QUICKPLAY_BOT_LEVELS} onChange={setLevel} />
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={busy || status.queued}
          onClick={() => void bots('play_bots_now')}
        >
          Play bots now
        </button>
      </div>
    </section>
  );
}
