import { Link } from 'react-router';
import { CalendarClock, Trophy, Users } from 'lucide-react';
import { formatCoins, type TournamentSummary } from '@spades/common';
import { CoinIcon } from '../components/ui';
import {
  buyInLabel,
  formatLabel,
  ordinal,
  prizeLines,
  roundTitle,
  startLabel,
  statusLabel,
  statusTone,
} from './bracket-model';
import { tournamentPath } from './tournament-api';

/**
 * A tournament in the lobby's Tournaments tab: name, format, buy-in, prize pool and split, registered x/size, the
 * start time of a scheduled one; Register / Unregister (REGISTERING) or Open.
 */
export function TournamentCard({
  t,
  registered,
  busy,
  onRegister,
  onUnregister,
}: {
  t: TournamentSummary;
  /** Whether the signed-in player is registered (the list row's `me`; a server before it: undefined = not known). */
  registered?: boolean;
  busy?: boolean;
  onRegister: () => void;
  onUnregister: () => void;
}) {
  const lines = prizeLines(t);
  const open = t.status === 'REGISTERING';
  const full = t.registered >= t.size;
  return (
    <article className="game-card tournament-card" aria-label={`Tournament ${t.name}`} data-testid="tournament-card">
      <header className="game-card-head">
        <div className="badges">
          <span className={`badge badge-${statusTone(t.status)}`}>{statusLabel(t.status)}</span>
          <span className="badge badge-dim">{formatLabel(t)}</span>
          {t.kind === 'scheduled' && <span className="badge badge-outline">SCHEDULED</span>}
        </div>
        <div className="buyin" aria-label={`Buy-in ${buyInLabel(t.buyIn)}`}>
          <CoinIcon /> <span className="num">{buyInLabel(t.buyIn)}</span>
        </div>
      </header>
      <h3 className="tournament-card-name">
        <Link to={tournamentPath(t.id)}>{t.name}</Link>
      </h3>
      <div className="tournament-card-meta">
        <span className="gold num" title="Prize pool">
          <Trophy size={14} aria-hidden="true" /> {t.buyIn === 0 ? 'No prizes' : formatCoins(t.prizePool)}
        </span>
        {lines.length > 0 && (
          <span className="muted small num" aria-label="Prize split">
            {lines.map((l) => `${ordinal(l.place)} ${l.percent}%`).join(' · ')}
          </span>
        )}
      </div>
      <div className="tournament-card-meta">
        <span className="num" aria-label={`${t.registered} of ${t.size} registered`}>
          <Users size={14} aria-hidden="true" /> {t.registered}/{t.size}
        </span>
        {t.startsAt !== null && open && (
          <span className="muted small">
            <CalendarClock size={14} aria-hidden="true" /> Starts {startLabel(t.startsAt)}
          </span>
        )}
        {t.status === 'RUNNING' && t.round !== null && (
          <span className="muted small">{roundTitle(t.mode, t.round, t.roundCount)}</span>
        )}
        {t.kind === 'sit_and_go' && open && <span className="muted small">Starts when full</span>}
      </div>
      <footer className="game-card-foot">
        <span className="muted small">by {t.createdByName}</span>
        <div className="row gap-2">
          <Link className="btn btn-ghost btn-sm" to={tournamentPath(t.id)}>
            {t.status === 'RUNNING' ? 'Bracket' : 'Open'}
          </Link>
          {open &&
            (registered ? (
              <button type="button" className="btn btn-secondary btn-sm" disabled={busy} onClick={onUnregister}>
                Unregister
              </button>
            ) : (
              <button type="button" className="btn btn-primary btn-sm" disabled={busy || full} onClick={onRegister}>
                Register
              </button>
            ))}
        </div>
      </footer>
    </article>
  );
}
