/**
 * Replay viewer (`/replay/:id[?game=N]`, issue #12): the finished game's table seen from above with all four
 * hands, stepped card by card or trick by trick (arrows; Shift+arrows by trick; Space plays/pauses), a hand
 * picker, the score sheet, and per hand "Verify deal" (common's verifyDeal in the browser: sha256(seed) against
 * the commitment, dealFromSeed(seed) against the hands shown, every card played against its dealt hand).
 *
 * The state comes from `replay-model.ts` (common's runReplay over the document's actions); the seats are the live
 * table's `SeatBadge` and `CardFace` drawn from the same `TableModel`.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import {
  ArrowLeft,
  CheckCircle2,
  ChevronFirst,
  ChevronLast,
  ChevronLeft,
  ChevronRight,
  ChevronsLeft,
  ChevronsRight,
  Download,
  Pause,
  Play,
  ShieldCheck,
  XCircle,
} from 'lucide-react';
import { formatCoins, toListItemRules, verifyDeal, type Card, type GameReplay, type ReplayHand } from '@spades/common';
import { api, ApiError, errorText } from '../lib/api';
import { modeBadge } from '../lib/types';
import { LoadingScreen, Logo, useNotify } from '../components/ui';
import { useSession } from '../session/session';
import { ShareLinks } from './ShareLinks';
import { TrickArea } from '../table/TrickArea';
import { ScoreBoard } from '../table/ScoreBoard';
import { SeatBadge } from '../table/Seat';
import { bidLabel, positionOf, seatColor } from '../table/model';
import {
  buildTimeline,
  cardText,
  frameAt,
  handStart,
  handStartOf,
  isReplayDocument,
  lastPosition,
  nextStop,
  nextTrick,
  prevStop,
  prevTrick,
  type ReplayTimeline,
} from './replay-model';
import '../table/table.css';
import './replay.css';

export const REPLAY_SPEEDS = [0.5, 1, 2, 4] as const;
/** One step per second at 1×. */
const STEP_MS = 1000;

export function ReplayPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const game = params.get('game');
  // a share link (issue #24): that one replay, signed in or not
  const share = params.get('share');
  const me = useSession().user?.id ?? null;
  const navigate = useNavigate();
  const q = useQuery({
    queryKey: ['replay', id, game, share],
    queryFn: () =>
      api.get<unknown>(
        share
          ? `/api/shared-replays/${encodeURIComponent(id)}?share=${encodeURIComponent(share)}`
          : `/api/games/${encodeURIComponent(id)}/replay${game ? `?game=${encodeURIComponent(game)}` : ''}`,
      ),
    retry: false,
    staleTime: Infinity,
  });
  const timeline = useMemo(() => (q.data && isReplayDocument(q.data) ? buildTimeline(q.data) : null), [q.data]);
  if (q.isLoading) return <LoadingScreen text="Loading the replay…" />;
  if (q.error || !timeline) {
    const msg = q.error instanceof ApiError ? q.error.message : q.error ? errorText(q.error, 'Failed to load the replay') : 'This replay cannot be read';
    return (
      <div className="loading-screen">
        <Logo size={48} />
        <p className="h3">{msg}</p>
        <button type="button" className="btn btn-secondary" onClick={() => navigate('/')}>
          Back to lobby
        </button>
      </div>
    );
  }
  return <ReplayViewer timeline={timeline} me={me} shared={!!share} />;
}

/** `me`: the signed-in user (a player of a private game may share it); `shared`: opened through a share link. */
export function ReplayViewer({ timeline: t, me = null, shared = false }: { timeline: ReplayTimeline; me?: string | null; shared?: boolean }) {
  const doc = t.doc;
  const notify = useNotify();
  const [pos, setPos] = useState(() => t.handStarts[0] ?? 0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(1);
  const end = lastPosition(t);
  const frame = useMemo(() => frameAt(t, pos), [t, pos]);

  const step = useCallback((f: (t: ReplayTimeline, p: number) => number) => setPos((p) => f(t, p)), [t]);
  const forward = useCallback(() => step(nextStop), [step]);
  const back = useCallback(() => step(prevStop), [step]);

  useEffect(() => {
    if (!playing) return;
    if (pos >= end) {
      setPlaying(false);
      return;
    }
    const timer = setTimeout(forward, STEP_MS / speed);
    return () => clearTimeout(timer);
  }, [playing, pos, end, speed, forward]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const el = e.target as HTMLElement | null;
      if (el && (el.tagName === 'INPUT' || el.tagName === 'SELECT' || el.tagName === 'TEXTAREA' || el.isContentEditable)) return;
      if (e.key === 'ArrowRight') step(e.shiftKey ? nextTrick : nextStop);
      else if (e.key === 'ArrowLeft') step(e.shiftKey ? prevTrick : prevStop);
      else if (e.key === 'ArrowDown') step(nextTrick);
      else if (e.key === 'ArrowUp') step(prevTrick);
      else if (e.key === ' ' || e.code === 'Space') setPlaying((p) => !p);
      else return;
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [step]);

  const handCount = doc.hands.length;
  const curHand = frame.handNumber || 1;
  const goHand = (n: number) => setPos(handStart(t, Math.max(1, Math.min(handCount, n))));
  const atHandStart = pos === handStartOf(t, pos);

  const download = async () => {
    try {
      // through a share link the document at hand is the download (the signed-in route is not open to its holder)
      const body = shared ? doc : await api.get<unknown>(`/api/games/${encodeURIComponent(doc.gameId)}/replay?game=${doc.gameNumber}&download=1`);
      const url = URL.createObjectURL(new Blob([JSON.stringify(body, null, 2)], { type: 'application/json' }));
      const a = document.createElement('a');
      a.href = url;
      a.download = `spades-replay-${doc.gameId}-${doc.gameNumber}.json`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (e) {
      notify(errorText(e, 'Download failed'));
    }
  };

  const rules = toListItemRules(doc.settings);
  const badge = modeBadge({ forcedBid: rules.forcedBid, gameType: doc.settings.biddingOption });
  const dealt = frame.hand?.cards ?? [[], [], [], []];

  return (
    <div className="replay-page" style={{ ['--scale' as string]: 0.8 }}>
      <header className="table-top replay-top">
        <Link to="/profile" className="btn btn-ghost btn-sm" aria-label="Back">
          <ArrowLeft size={16} /> <span className="hide-narrow">Back</span>
        </Link>
        <Logo size={26} />
        <div className="table-title">
          <h1 className="replay-title">Replay</h1>
          <span className={`badge badge-${badge.tone}`}>{badge.label}</span>
          <span className="badge badge-dim">{doc.settings.gameMode}</span>
          {doc.rated && <span className="gold num hide-narrow">{formatCoins(doc.settings.buyIn)}</span>}
          <span className="muted small hide-narrow">{new Date(doc.finishedAt).toLocaleString()}</span>
        </div>
        <div className="table-top-right">
          <span className="hide-narrow">
            <ScoreBoard table={frame.table} />
          </span>
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => void download()}>
            <Download size={16} /> <span className="hide-narrow">JSON</span>
          </button>
        </div>
      </header>
      <div className="replay-body">
        <main className="replay-main" aria-label="Replay table">
          <div className="felt replay-felt">
            {[0, 1, 2, 3].map((s) => {
              const where = positionOf(s, 0);
              return (
                <section key={s} className={`replay-seat rs-${where}`} aria-label={`${doc.players[s]?.username ?? `Seat ${s + 1}`}'s hand`}>
                  <SeatBadge
                    table={frame.table}
                    seat={s}
                    player={frame.table.seats[s]}
                    isTurn={frame.table.turn === s && (frame.table.status === 'BIDDING' || frame.table.status === 'PLAYING')}
                    turnSecondsLeft={null}
                    replacementLeft={null}
                    canJoin={false}
                    onJoin={() => undefined}
                    canInviteBot={false}
                    onInviteBot={() => undefined}
                    canRemoveBot={false}
                    onRemoveBot={() => undefined}
                  />
                  <MiniHand dealt={dealt[s] ?? []} left={frame.hands[s] ?? []} />
                </section>
              );
            })}
            <TrickArea
              className="replay-trick"
              label="Cards on the table"
              cards={frame.trick}
              winner={frame.winner}
              mySeat={null}
              banner={frame.winner !== null ? (doc.players[frame.winner]?.username ?? `Seat ${frame.winner + 1}`) + ' wins the trick!' : null}
            />
          </div>
          <div className="replay-controls" role="toolbar" aria-label="Replay controls">
            <div className="replay-buttons">
              <button type="button" className="icon-btn" aria-label="Previous hand" onClick={() => goHand(atHandStart ? curHand - 1 : curHand)} disabled={pos <= (t.handStarts[0] ?? 0)}>
                <ChevronFirst size={20} />
              </button>
              <button type="button" className="icon-btn" aria-label="Previous trick" onClick={() => step(prevTrick)} disabled={pos <= (t.handStarts[0] ?? 0)}>
                <ChevronsLeft size={20} />
              </button>
              <button type="button" className="icon-btn" aria-label="Previous card" onClick={back} disabled={pos <= (t.stops[0] ?? 0)}>
                <ChevronLeft size={20} />
              </button>
              <button type="button" className="btn btn-primary btn-sm play-btn" aria-label={playing ? 'Pause' : 'Play'} aria-pressed={playing} onClick={() => setPlaying((p) => !p)} disabled={pos >= end && !playing}>
                {playing ? <Pause size={18} /> : <Play size={18} />}
              </button>
              <button type="button" className="icon-btn" aria-label="Next card" onClick={forward} disabled={pos >= end}>
                <ChevronRight size={20} />
              </button>
              <button type="button" className="icon-btn" aria-label="Next trick" onClick={() => step(nextTrick)} disabled={pos >= end}>
                <ChevronsRight size={20} />
              </button>
              <button type="button" className="icon-btn" aria-label="Next hand" onClick={() => (curHand < handCount ? goHand(curHand + 1) : setPos(end))} disabled={pos >= end}>
                <ChevronLast size={20} />
              </button>
            </div>
            <div className="replay-options">
              <label className="replay-option">
                <span className="muted small">Hand</span>
                <select className="select" value={curHand} onChange={(e) => goHand(Number(e.target.value))} aria-label="Jump to hand">
                  {doc.hands.map((h) => (
                    <option key={h.handNumber} value={h.handNumber}>
                      {h.handNumber} / {handCount}
                    </option>
                  ))}
                </select>
              </label>
              <label className="replay-option">
                <span className="muted small">Speed</span>
                <select className="select" value={speed} onChange={(e) => setSpeed(Number(e.target.value))} aria-label="Playback speed">
                  {REPLAY_SPEEDS.map((s) => (
                    <option key={s} value={s}>
                      {s}×
                    </option>
                  ))}
                </select>
              </label>
            </div>
            <p className="replay-caption" role="status" aria-label="Replay position">
              <span className="num">
                Hand {frame.handNumber || '—'} · {frame.trickNumber ? `Trick ${frame.trickNumber}` : 'Bidding'}
              </span>{' '}
              <span className="muted">{frame.caption}</span>
            </p>
            <p className="muted small replay-keys hide-narrow">← → card · Shift+← → or ↑ ↓ trick · Space play/pause</p>
          </div>
        </main>
        <aside className="replay-side" aria-label="Score sheet and deal verification">
          {!shared && doc.private && me !== null && doc.players.some((p) => p.userId === me) && <ShareLinks gameId={doc.gameId} gameNumber={doc.gameNumber} />}
          {frame.hand && <HandPanel hand={frame.hand} doc={doc} />}
          <ScoreSheet doc={doc} current={frame.handNumber} onPick={goHand} />
          <ResultBox doc={doc} />
        </aside>
      </div>
    </div>
  );
}

/** A seat's dealt hand: the cards still held, and the ones already played (faded). */
function MiniHand({ dealt, left }: { dealt: Card[]; left: Card[] }) {
  const held = new Set(left.map((c) => `${c.suit}${c.rank}`));
  return (
    <div className="replay-hand mini-cards" aria-label={`Holds ${left.length ? left.map(cardText).join(' ') : 'no cards'}`}>
      {dealt.map((c) => {
        const k = `${c.suit}${c.rank}`;
        return (
          <span key={k} className={`chip-card ${c.suit === 'H' || c.suit === 'D' ? 'red' : ''} ${held.has(k) ? '' : 'played'}`} aria-hidden="true">
            {cardText(c)}
          </span>
        );
      })}
    </div>
  );
}

function HandPanel({ hand, doc }: { hand: ReplayHand; doc: GameReplay }) {
  const name = (s: number) => doc.players[s]?.username ?? `Seat ${s + 1}`;
  return (
    <section className="panel replay-panel" aria-label={`Hand ${hand.handNumber}`}>
      <h2 className="h4">Hand {hand.handNumber}</h2>
      <p className="muted small">Dealer: {name(hand.dealer)}</p>
      <ol className="replay-bids" aria-label="Bids in order">
        {hand.bids.map((b) => (
          <li key={b.seat}>
            <span className={`dot team-${seatColor(doc.settings.gameMode, b.seat)}`} /> {name(b.seat)}{' '}
            <strong className="num">{bidLabel(b.bid, b.blind)}</strong>
            {b.blind && <span className="badge badge-outline">blind nil</span>}
            {b.auto && <span className="muted small"> (forced)</span>}
          </li>
        ))}
      </ol>
      <VerifyDeal hand={hand} doc={doc} />
    </section>
  );
}

/** "Verify deal": recomputed in this browser from the revealed seed with common's verifyDeal. */
export function VerifyDeal({ hand, doc }: { hand: ReplayHand; doc: GameReplay }) {
  const [open, setOpen] = useState(false);
  const check = useMemo(() => (open ? verifyDeal(hand) : null), [open, hand]);
  useEffect(() => setOpen(false), [hand]);
  const line = (ok: boolean, good: string, bad: string) => (
    <div className={`verify-line ${ok ? 'ok' : 'bad'}`}>
      {ok ? <CheckCircle2 size={18} /> : <XCircle size={18} />}
      <span>{ok ? good : bad}</span>
    </div>
  );
  return (
    <div className="verify-box">
      <button type="button" className="btn btn-secondary btn-sm" onClick={() => setOpen((v) => !v)} aria-expanded={open}>
        <ShieldCheck size={16} /> Verify deal
      </button>
      {check && (
        <div className="verify" aria-live="polite" aria-label={`Deal verification of hand ${hand.handNumber}`}>
          {line(check.commitmentOk, 'Deal verified: sha256(seed) equals the commitment published before the hand.', 'Mismatch: the seed does not match the commitment.')}
          {line(check.dealOk, 'The seed deals exactly the four hands shown.', 'The hands shown differ from the recomputed deal.')}
          {line(check.playsOk, `Every card played came from its player's dealt hand (${hand.tricks.length} tricks).`, 'A card played was not in its player\u2019s dealt hand.')}
          <dl className="hashes">
            <dt>Commitment</dt>
            <dd className="mono">{hand.commitment}</dd>
            <dt>Seed</dt>
            <dd className="mono">{hand.seed}</dd>
          </dl>
          {check.recomputed && (
            <div className="verify-hands">
              {check.recomputed.map((h, s) => (
                <div key={s} className="verify-hand">
                  <span className={`dot team-${seatColor(doc.settings.gameMode, s)}`} />
                  <span className="small">{doc.players[s]?.username ?? `Seat ${s + 1}`}</span>
                  <div className="mini-cards" aria-label={h.map(cardText).join(' ')}>
                    {h.map((c) => (
                      <span key={`${c.suit}${c.rank}`} className={`chip-card ${c.suit === 'H' || c.suit === 'D' ? 'red' : ''}`}>
                        {cardText(c)}
                      </span>
                    ))}
                  </div>
                </div>
              ))}
            </div>
          )}
        </div>
      )}
    </div>
  );
}

/** Per hand: bids / tricks per side, the hand's score and the running totals. */
function ScoreSheet({ doc, current, onPick }: { doc: GameReplay; current: number; onPick: (h: number) => void }) {
  const partners = doc.settings.gameMode === 'PARTNERS';
  const sides = partners ? [0, 1] : [0, 1, 2, 3];
  const sideName = (i: number) => (partners ? (i === 0 ? 'Red' : 'Blue') : (doc.players[i]?.username ?? `Seat ${i + 1}`));
  const bidOf = (h: ReplayHand, side: number) => {
    const seats = partners ? [side, side + 2] : [side];
    return seats.map((s) => bidLabel(h.score.bids[s], h.score.blind[s])).join('+');
  };
  return (
    <section className="panel replay-panel" aria-label="Score sheet">
      <h2 className="h4">Score sheet</h2>
      <div className="table-scroll">
        <table className="summary-solo score-sheet">
          <thead>
            <tr>
              <th>#</th>
              {sides.map((i) => (
                <th key={i} className={`team-${seatColor(doc.settings.gameMode, i)}`}>
                  <span className="dot" /> {sideName(i)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {doc.hands.map((h) => (
              <tr key={h.handNumber} className={h.handNumber === current ? 'current' : ''}>
                <td>
                  <button type="button" className="link-btn num" onClick={() => onPick(h.handNumber)} aria-label={`Go to hand ${h.handNumber}`}>
                    {h.handNumber}
                  </button>
                </td>
                {sides.map((i) => {
                  const sd = h.score.sides.find((x) => x.side === i);
                  return (
                    <td key={i} className="num">
                      <span className="muted small">
                        {bidOf(h, i)} · {sd?.tricks ?? 0}
                      </span>
                      <br />
                      <span className={(sd?.delta ?? 0) >= 0 ? 'pos' : 'neg'}>{(sd?.delta ?? 0) >= 0 ? `+${sd?.delta ?? 0}` : sd?.delta}</span> <strong>{sd?.scoreAfter ?? 0}</strong>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function ResultBox({ doc }: { doc: GameReplay }) {
  const partners = doc.settings.gameMode === 'PARTNERS';
  const name = (s: number) => doc.players[s]?.username ?? `Seat ${s + 1}`;
  const winners = partners ? (doc.result.winnerTeam === 0 ? [0, 2] : doc.result.winnerTeam === 1 ? [1, 3] : []) : doc.result.winnerSeat !== null ? [doc.result.winnerSeat] : [];
  return (
    <section className="panel replay-panel" aria-label="Final result">
      <h2 className="h4">Result</h2>
      <p>
        <strong>{winners.map(name).join(' & ') || '—'}</strong> {winners.length > 1 ? 'win' : 'wins'}
      </p>
      {doc.result.finalScores.map((s, i) => (
        <div key={i} className="stat-row">
          <span>{partners ? (i === 0 ? 'Red team' : 'Blue team') : name(i)}</span>
          <strong className="num">{s}</strong>
        </div>
      ))}
      {doc.payouts && doc.payouts.some((p) => p > 0) && (
        <p className="small">
          Paid:{' '}
          {doc.payouts
            .map((p, i) => (p > 0 ? `${name(i)} +${formatCoins(p)}` : null))
            .filter(Boolean)
            .join(', ')}
        </p>
      )}
    </section>
  );
}
