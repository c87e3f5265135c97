/**
 * Issue #27: the live bracket. PARTNERS: one column per round with a box per table (two teams, the winner
 * highlighted); SOLO: the tables of each round with their players, places and who advances. A table being seated or
 * played has a Watch link (spectator route), a played one its Replay; one decided by staff closing its table says so.
 */
import { Link } from 'react-router';
import { Check, Eye, Film } from 'lucide-react';
import { ordinal, type BracketColumn, type BracketMatch } from './bracket-model';
import { watchPath } from './tournament-api';

const STATUS_TEXT: Record<BracketMatch['status'], string> = {
  UPCOMING: 'Upcoming',
  PENDING: 'Waiting',
  SEATING: 'Seating',
  PLAYING: 'Playing',
  DONE: 'Done',
};

export function MatchBox({ m, solo }: { m: BracketMatch; solo: boolean }) {
  const live = m.status === 'PLAYING' || m.status === 'SEATING';
  return (
    <div
      className={`bracket-match ${m.placeholder ? 'placeholder' : ''} ${m.mine ? 'mine' : ''} ${live ? 'live' : ''}`}
      data-testid="bracket-match"
      data-status={m.status}
      aria-label={`${m.label}: ${STATUS_TEXT[m.status]}${m.closed ? ', closed by staff' : ''}`}
    >
      <div className="bracket-match-head">
        <span className="small muted">{m.label}</span>
        <span className={`bracket-status status-${m.status.toLowerCase()}`}>
          {m.walkover ? 'Walkover' : STATUS_TEXT[m.status]}
        </span>
        {m.closed && (
          <span
            className="bracket-closed"
            data-testid="bracket-closed"
            title="Staff closed this table: decided by the score at that moment"
          >
            Closed by staff
          </span>
        )}
        {m.gameId && m.status === 'DONE' && !m.walkover && !m.closed && (
          <Link
            className="bracket-watch"
            to={`/replay/${encodeURIComponent(m.gameId)}`}
            aria-label={`Replay ${m.label}`}
            title="Watch the replay"
          >
            <Film size={14} aria-hidden="true" /> Replay
          </Link>
        )}
        {m.gameId && (m.status === 'SEATING' || m.status === 'PLAYING') && (
          <Link
            className="bracket-watch"
            to={watchPath(m.gameId)}
            aria-label={`Watch ${m.label}`}
            title="Watch as a spectator"
          >
            <Eye size={14} aria-hidden="true" /> Watch
          </Link>
        )}
      </div>
      {m.placeholder ? (
        <>
          <div className="bracket-row tbd">TBD</div>
          <div className="bracket-row tbd">TBD</div>
        </>
      ) : (
        m.rows.map((r) => (
          <div
            key={r.entrantId}
            className={`bracket-row ${r.advanced ? 'advanced' : ''} ${r.out ? 'out' : ''} ${r.mine ? 'me' : ''}`}
            data-testid="bracket-row"
          >
            {solo && r.place !== null && <span className="bracket-place num">{ordinal(r.place)}</span>}
            <span className="bracket-name" title={r.name}>
              {r.name}
            </span>
            {r.advanced && <Check size={14} className="bracket-adv" aria-label="advances" />}
            <span className="bracket-score num">{r.score ?? ''}</span>
          </div>
        ))
      )}
    </div>
  );
}

export function Bracket({ columns, solo }: { columns: BracketColumn[]; solo: boolean }) {
  return (
    <div className={`bracket ${solo ? 'solo' : 'partners'}`} data-testid="bracket">
      {columns.map((c) => (
        <section
          key={c.round}
          className={`bracket-col ${c.current ? 'current' : ''}`}
          aria-label={c.title}
          data-testid="bracket-col"
        >
          <h3 className="bracket-title">
            {c.title}
            {c.current && <span className="badge badge-amber">NOW</span>}
          </h3>
          <div className="bracket-matches">
            {c.matches.map((m) => (
              <MatchBox key={m.id} m={m} solo={solo} />
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}
