/**
 * Issue #27: `/tournaments/:id` — the header (status, format, pool and split, the caller's registration), the
 * caller's next match ("Take your seat" with the seat deadline), the live bracket with each table's score and a Watch
 * link, the standings and prizes when finished, the reason when cancelled.
 */
import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ArrowLeft, CalendarClock, Clock, Trophy, Users } from 'lucide-react';
import { formatCoins, formatCoinsExact, type TournamentView } from '@spades/common';
import { LobbyShell } from '../pages/LobbyPage';
import { CoinIcon, Spinner, useNotify } from '../components/ui';
import { errorText } from '../lib/api';
import { useUsers } from '../lib/queries';
import { useSession } from '../session/session';
import {
  bracketColumns,
  buyInLabel,
  countdown,
  formatLabel,
  isEliminated,
  myMatch,
  ordinal,
  prizeLines,
  registrationGroups,
  roundTitle,
  standingRows,
  startLabel,
  statusLabel,
  statusTone,
  type MyMatch,
} from './bracket-model';
import { Bracket } from './Bracket';
import { useNow } from './use-now';
import { RegisterDialog } from './TournamentDialogs';
import { askWebNotificationPermission } from './MatchReady';
import { seatPath, useTournament, useTournamentActions } from './tournament-api';
import './tournaments.css';

export function NextMatchPanel({ m, now }: { m: MyMatch; now: number }) {
  const left = m.seatDeadline !== null ? m.seatDeadline - now : null;
  return (
    <section className="panel next-match" aria-labelledby="next-match-h" data-testid="next-match">
      <div className="grow">
        <h2 id="next-match-h" className="h3">
          Your match · {m.roundTitle}
        </h2>
        <p className="muted">
          {m.opponents.length ? `Against ${m.opponents.join(', ')}` : 'Your opponents are being decided'}
          {m.status === 'PLAYING' ? ' · in play' : ''}
        </p>
      </div>
      {m.status === 'SEATING' && left !== null && (
        <span className={`seat-deadline num ${left < 30_000 ? 'urgent' : ''}`} aria-label="Seat deadline">
          <Clock size={16} aria-hidden="true" /> {countdown(left)}
        </span>
      )}
      {m.gameId ? (
        <Link className="btn btn-gold" to={`${seatPath(m.gameId)}?join=1`}>
          {m.status === 'PLAYING' ? 'Return to table' : 'Take your seat'}
        </Link>
      ) : (
        <span className="muted small">The table opens when the round starts.</span>
      )}
    </section>
  );
}

function Header({
  v,
  onRegister,
  onUnregister,
  busy,
}: {
  v: TournamentView;
  onRegister: () => void;
  onUnregister: () => void;
  busy: boolean;
}) {
  const lines = prizeLines(v);
  const me = v.me ?? null;
  const open = v.status === 'REGISTERING';
  return (
    <section className="panel tournament-head" aria-labelledby="t-name">
      <div className="tournament-head-main">
        <div className="badges">
          <span className={`badge badge-${statusTone(v.status)}`} data-testid="tournament-status">
            {statusLabel(v.status)}
          </span>
          <span className="badge badge-dim">{formatLabel(v)}</span>
          <span className="badge badge-outline">{v.kind === 'scheduled' ? 'SCHEDULED' : 'SIT & GO'}</span>
        </div>
        <h1 id="t-name" className="h2">
          {v.name}
        </h1>
        <div className="tournament-facts">
          <span>
            <CoinIcon /> Buy-in <strong className="num">{buyInLabel(v.buyIn)}</strong>
          </span>
          <span className="gold">
            <Trophy size={16} aria-hidden="true" /> Pool{' '}
            <strong className="num">{v.buyIn === 0 ? 'none' : formatCoinsExact(v.prizePool)}</strong>
          </span>
          <span>
            <Users size={16} aria-hidden="true" />
            <span className="num">
              {v.registered}/{v.size}
            </span>{' '}
            registered
          </span>
          {v.status === 'RUNNING' && v.round !== null && (
            <span>
              {roundTitle(v.mode, v.round, v.roundCount)} ({v.round}/{v.roundCount})
            </span>
          )}
          {open && v.startsAt !== null && (
            <span>
              <CalendarClock size={16} aria-hidden="true" /> Starts {startLabel(v.startsAt)}
              {v.minEntrants ? ` · at least ${v.minEntrants} players` : ''}
            </span>
          )}
          {open && v.kind === 'sit_and_go' && <span className="muted">Starts as soon as it is full</span>}
        </div>
        {lines.length > 0 && (
          <ul className="prize-lines" aria-label="Prizes">
            {lines.map((l) => (
              <li key={l.place} className="num">
                <span className="muted">{ordinal(l.place)}</span> {l.percent}% ·{' '}
                <span className="gold">{formatCoins(l.amount)}</span>
              </li>
            ))}
          </ul>
        )}
        {v.status === 'CANCELLED' && (
          <p className="form-error" role="status">
            Cancelled{v.cancelReason ? `: ${v.cancelReason}` : ''}. Every buy-in was refunded.
          </p>
        )}
      </div>
      <div className="tournament-head-side">
        {me?.registered ? (
          <>
            <span className="badge badge-green" data-testid="my-registration">
              {open ? 'Registered' : me.eliminated ? 'Eliminated' : 'Playing'}
            </span>
            {me.partnerId && (
              <span className="muted small">
                with {v.registrations.find((r) => r.userId === me.partnerId)?.username ?? 'your partner'}
              </span>
            )}
            {open && (
              <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={onUnregister}>
                Unregister
              </button>
            )}
          </>
        ) : open ? (
          <button
            type="button"
            className="btn btn-primary"
            disabled={busy || v.registered >= v.size}
            onClick={onRegister}
          >
            Register · {buyInLabel(v.buyIn)}
          </button>
        ) : null}
      </div>
    </section>
  );
}

export function TournamentBody({ v, viewerId }: { v: TournamentView; viewerId: string | null }) {
  const now = useNow(1000);
  const columns = useMemo(() => bracketColumns(v, viewerId), [v, viewerId]);
  const standings = useMemo(() => standingRows(v, viewerId), [v, viewerId]);
  const mine = myMatch(v, viewerId);
  const out = isEliminated(v, viewerId);
  const groups = registrationGroups(v);
  return (
    <>
      {mine && <NextMatchPanel m={mine} now={now} />}
      {out && v.status === 'RUNNING' && (
        <p className="panel muted" role="status">
          You are out of this tournament. Follow the rest of it here.
        </p>
      )}
      {v.status === 'FINISHED' && standings.length > 0 && (
        <section className="panel" aria-labelledby="standings-h">
          <h2 id="standings-h" className="h3">
            Standings
          </h2>
          <table className="leaderboard standings" data-testid="standings">
            <thead>
              <tr>
                <th>Place</th>
                <th>{v.mode === 'PARTNERS' ? 'Team' : 'Player'}</th>
                <th className="right">Prize</th>
              </tr>
            </thead>
            <tbody>
              {standings.map((s) => (
                <tr key={s.entrantId} className={s.mine ? 'me' : ''}>
                  <td className="num">{ordinal(s.place)}</td>
                  <td>{s.name}</td>
                  <td className={`right num ${s.prize ? 'gold' : 'muted'}`}>
                    {s.prize ? formatCoinsExact(s.prize) : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {v.status !== 'REGISTERING' && v.status !== 'CANCELLED' && (
        <section className="panel bracket-panel" aria-labelledby="bracket-h">
          <h2 id="bracket-h" className="h3">
            {v.mode === 'PARTNERS' ? 'Bracket' : 'Tables'}
          </h2>
          <Bracket columns={columns} solo={v.mode === 'SOLO'} />
        </section>
      )}
      {(v.status === 'REGISTERING' || v.status === 'CANCELLED') && (
        <section className="panel" aria-labelledby="reg-h">
          <h2 id="reg-h" className="h3">
            Registered ({v.registered}/{v.size})
          </h2>
          {groups.length === 0 ? (
            <p className="muted">Nobody yet. Be the first.</p>
          ) : (
            <ul className="registrations" data-testid="registrations">
              {groups.map((g) => (
                <li key={g.join('+')} className={g.length > 1 ? 'team' : ''}>
                  {g.join(' & ')}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </>
  );
}

export function TournamentPage() {
  const { id = '' } = useParams();
  const { user, refreshProfile } = useSession();
  const notify = useNotify();
  const users = useUsers();
  const q = useTournament(id);
  const actions = useTournamentActions();
  const [registerOpen, setRegisterOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const v = q.data;
  return (
    <LobbyShell>
      <main className="page tournament-page">
        <Link to="/?tab=tournaments" className="btn btn-ghost btn-sm back-link">
          <ArrowLeft size={16} aria-hidden="true" /> Tournaments
        </Link>
        {q.isLoading ? (
          <div className="center pad-lg">
            <Spinner label="Loading the tournament" />
          </div>
        ) : !v ? (
          <p className="form-error" role="alert">
            {errorText(q.error, 'This tournament does not exist')}
          </p>
        ) : (
          <>
            <Header
              v={v}
              busy={busy}
              onRegister={() => setRegisterOpen(true)}
              onUnregister={() => {
                setBusy(true);
                actions
                  .unregister(v.id)
                  .then(() => refreshProfile())
                  .catch((e: unknown) => notify(errorText(e, 'Could not unregister')))
                  .finally(() => setBusy(false));
              }}
            />
            <TournamentBody v={v} viewerId={user?.id ?? null} />
            <RegisterDialog
              t={registerOpen ? v : null}
              friends={users.players.filter((p) => p.status === 'friend')}
              coins={user?.coins}
              onClose={() => setRegisterOpen(false)}
              onRegister={async (partnerId) => {
                await actions.register(v.id, partnerId ? { partnerId } : {});
                askWebNotificationPermission(); // the match-ready notice in the browser
                void refreshProfile();
              }}
            />
          </>
        )}
      </main>
    </LobbyShell>
  );
}
