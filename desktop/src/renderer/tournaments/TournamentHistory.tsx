/** Issue #27: the profile's "Tournaments" — each tournament played: place, prize, and every game's replay. */
import { Link } from 'react-router';
import { Film } from 'lucide-react';
import { formatCoinsExact } from '@spades/common';
import { Spinner } from '../components/ui';
import { errorText } from '../lib/api';
import { ordinal, roundTitle, roundsOf, statusLabel } from './bracket-model';
import { tournamentPath, useTournamentHistory } from './tournament-api';

export function TournamentHistory({ userId }: { userId: string }) {
  const q = useTournamentHistory(userId);
  if (q.isLoading) return <Spinner />;
  if (q.error || !q.data) return <p className="form-error">{errorText(q.error, 'Failed to load your tournaments.')}</p>;
  if (q.data.length === 0)
    return <p className="muted">No tournaments yet. Register for one in the lobby's Tournaments tab.</p>;
  return (
    <ul className="history-list tournament-history" aria-label="My tournaments">
      {q.data.map((t) => {
        const rounds = roundsOf(t.size);
        return (
          <li key={t.tournamentId} className="tournament-history-row" data-testid="tournament-history-row">
            <div className="grow">
              <Link to={tournamentPath(t.tournamentId)}>
                <strong>{t.name}</strong>
              </Link>
              <span className="muted small">
                {' '}
                · {t.mode} · {t.size} players
                {t.finishedAt ? ` · ${new Date(t.finishedAt).toLocaleDateString()}` : ''}
                {t.status !== 'FINISHED' ? ` · ${statusLabel(t.status)}` : ''}
              </span>
              {t.games.length > 0 && (
                <div className="row gap-2 wrap">
                  {t.games.map((g) => (
                    <Link
                      key={g.gameId}
                      className="btn btn-ghost btn-sm"
                      to={`/replay/${encodeURIComponent(g.gameId)}`}
                    >
                      <Film size={14} aria-hidden="true" /> {roundTitle(t.mode, g.round, rounds)}
                    </Link>
                  ))}
                </div>
              )}
            </div>
            <span className="num tournament-history-place">{t.place !== null ? ordinal(t.place) : '—'}</span>
            <span className={`num tournament-history-prize ${t.prize ? 'gold' : 'muted'}`}>
              {t.prize ? formatCoinsExact(t.prize) : '—'}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
