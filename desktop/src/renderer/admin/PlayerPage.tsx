import { useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import {
  ACCOUNT_ROLE_LABELS,
  ADMIN_PLAYERS_PATH,
  REPORT_CATEGORY_LABELS,
  type PlayerDetail,
  type ReportCategory,
} from '@spades/common';
import { Avatar, useNotify } from '../components/ui';
import { api, errorText } from '../lib/api';
import { isAdmin, useStaff } from './admin-api';
import { coinsText, isActive, sanctionLabel, when } from './format';
import { emptyDraft, type SanctionKindChoice } from './ReasonDialog';
import { PlayerDialogs, type PlayerDialog } from './PlayerDialogs';

function Section({ title, children, count }: { title: string; children: ReactNode; count?: number }) {
  return (
    <section className="console-panel" aria-label={title}>
      <h2 className="h3">
        {title} {count !== undefined && <span className="muted small">({count})</span>}
      </h2>
      {children}
    </section>
  );
}

/** One player: profile, rating, coins and ledger, games, reports, sanctions, sessions, and the actions on them. */
export function PlayerPage() {
  const { id = '' } = useParams();
  const me = useStaff();
  const qc = useQueryClient();
  const notify = useNotify();
  const [dialog, setDialog] = useState<PlayerDialog | null>(null);
  const q = useQuery({
    queryKey: ['admin', 'player', id],
    queryFn: () => api.get<PlayerDetail>(`${ADMIN_PLAYERS_PATH}/${encodeURIComponent(id)}`),
  });
  const p = q.data;
  const refresh = () => void qc.invalidateQueries({ queryKey: ['admin'] });
  const done = (text: string) => {
    notify(text, 'info');
    refresh();
  };
  const base = `${ADMIN_PLAYERS_PATH}/${encodeURIComponent(id)}`;
  const openSanction = (kind: SanctionKindChoice) => setDialog({ kind: 'sanction', draft: emptyDraft(kind) });

  if (q.error) {
    return (
      <div className="console-page">
        <Link to="/admin/players" className="btn btn-ghost btn-sm" style={{ alignSelf: 'flex-start' }}>
          <ArrowLeft size={16} aria-hidden="true" /> Players
        </Link>
        <p className="form-error" role="alert">
          {errorText(q.error, 'Could not load this player')}
        </p>
      </div>
    );
  }
  if (!p) return <p className="muted">Loading…</p>;
  const self = p.id === me.id;
  const admin = isAdmin(me);

  return (
    <div className="console-page">
      <Link to="/admin/players" className="btn btn-ghost btn-sm" style={{ alignSelf: 'flex-start' }}>
        <ArrowLeft size={16} aria-hidden="true" /> Players
      </Link>
      <div className="console-head">
        <Avatar src={p.avatar} id={p.id} name={p.username} size={48} />
        <h1 className="h2">
          {p.username}
          <span className={`badge ${p.role === 'user' ? 'badge-neutral' : 'badge-blue'}`}>
            {ACCOUNT_ROLE_LABELS[p.role]}
          </span>
          {p.activeBan && <span className="badge badge-red">banned</span>}
          {p.activeMute && <span className="badge badge-amber">muted</span>}
        </h1>
      </div>
      {(p.activeBan || p.activeMute) && (
        <div className="warning-box" role="status">
          {p.activeBan && <p>{`${sanctionLabel(p.activeBan)}: ${p.activeBan.reason}`}</p>}
          {p.activeMute && <p>{`${sanctionLabel(p.activeMute)}: ${p.activeMute.reason}`}</p>}
        </div>
      )}
      <div className="action-bar" role="group" aria-label="Actions">
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => openSanction('warn')} disabled={self}>
          Warn
        </button>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => openSanction('mute')} disabled={self}>
          Mute
        </button>
        <button
          type="button"
          className="btn btn-danger-ghost btn-sm"
          onClick={() => openSanction('ban')}
          disabled={self}
        >
          Ban
        </button>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          onClick={() => openSanction('rename')}
          disabled={self}
        >
          Force rename
        </button>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => setDialog({ kind: 'sessions' })}>
          Revoke sessions
        </button>
        {admin && (
          <>
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => setDialog({ kind: 'coins', direction: 'grant', amount: '' })}
            >
              Coins…
            </button>
            <button
              type="button"
              className="btn btn-secondary btn-sm"
              onClick={() => setDialog({ kind: 'role', role: p.role })}
              disabled={self}
            >
              Role…
            </button>
            <Link className="btn btn-ghost btn-sm" to={`/admin/audit?target=${p.id}`}>
              Audit entries
            </Link>
          </>
        )}
      </div>

      <div className="console-cols">
        <div className="console-page">
          <Section title="Profile">
            <dl className="kv">
              <dt>Account id</dt>
              <dd className="code">{p.id}</dd>
              <dt>E-mail</dt>
              <dd>{p.email ?? '—'}</dd>
              <dt>Joined</dt>
              <dd>{when(p.createdAt)}</dd>
              <dt>Discord</dt>
              <dd>{p.discordLinked ? 'linked' : 'not linked'}</dd>
              <dt>Rating</dt>
              <dd>
                {p.rating
                  ? `${Math.round(p.rating.rating)} · ${p.rating.ratedGames} rated games · ${p.rating.gamesFinished} of ${p.rating.gamesStarted} games finished`
                  : 'never rated'}
              </dd>
            </dl>
          </Section>
          <Section title="Sessions">
            <dl className="kv">
              <dt>Now</dt>
              <dd>
                {p.sessions.online
                  ? `online, ${p.sessions.sockets} connection${p.sessions.sockets === 1 ? '' : 's'}`
                  : 'offline'}
              </dd>
              <dt>Last sign-in</dt>
              <dd>{when(p.sessions.lastSignInAt)}</dd>
              <dt>Sessions revoked</dt>
              <dd>{when(p.sessions.sessionsRevokedAt)}</dd>
            </dl>
          </Section>
          <Section title="Sanctions" count={p.sanctions.length}>
            <div className="data-wrap">
              <table className="data">
                <thead>
                  <tr>
                    <th>What</th>
                    <th>Reason</th>
                    <th>By</th>
                    <th>When</th>
                    <th />
                  </tr>
                </thead>
                <tbody>
                  {p.sanctions.length === 0 ? (
                    <tr>
                      <td colSpan={5} className="empty">
                        None.
                      </td>
                    </tr>
                  ) : (
                    p.sanctions.map((s) => (
                      <tr key={s.id} data-testid="sanction-row">
                        <td className="nowrap">
                          {sanctionLabel(s)}
                          {s.liftedAt && <div className="muted small">lifted {when(s.liftedAt)}</div>}
                        </td>
                        <td>{s.reason}</td>
                        <td className="nowrap">{s.createdByName ?? (s.createdBy ? s.createdBy : 'server')}</td>
                        <td className="nowrap num">{when(s.createdAt)}</td>
                        <td className="actions">
                          {isActive(s) && (
                            <button
                              type="button"
                              className="btn btn-ghost btn-sm"
                              onClick={() => setDialog({ kind: 'lift', sanction: s })}
                            >
                              Lift
                            </button>
                          )}
                        </td>
                      </tr>
                    ))
                  )}
                </tbody>
              </table>
            </div>
          </Section>
          <Section title="Reports against this player" count={p.reports?.length}>
            {p.reports === null ? (
              <p className="muted small">This server has no reports yet.</p>
            ) : p.reports.length === 0 ? (
              <p className="muted small">None.</p>
            ) : (
              <div className="data-wrap">
                <table className="data">
                  <tbody>
                    {p.reports.map((r) => (
                      <tr key={r.id}>
                        <td className="nowrap">
                          <Link to={`/admin/reports/${r.id}`}>
                            {REPORT_CATEGORY_LABELS[r.category as ReportCategory] ?? r.category}
                          </Link>
                        </td>
                        <td>{r.status}</td>
                        <td className="clip">{r.text}</td>
                        <td className="nowrap">{r.reporterName ?? 'server'}</td>
                        <td className="nowrap num">{when(r.createdAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Section>
        </div>
        <div className="console-page">
          <Section title={`Coins: ${coinsText(p.coins.balance)}`}>
            <div className="data-wrap">
              <table className="data" aria-label="Ledger entries">
                <thead>
                  <tr>
                    <th>When</th>
                    <th>Entry</th>
                    <th className="num">Amount</th>
                  </tr>
                </thead>
                <tbody>
                  {p.coins.ledger.length === 0 ? (
                    <tr>
                      <td colSpan={3} className="empty">
                        No ledger entries.
                      </td>
                    </tr>
                  ) : (
                    p.coins.ledger.map((l) => (
                      <tr key={l.id}>
                        <td className="nowrap num">{when(l.at)}</td>
                        <td>
                          <span className="code">{l.reason}</span>
                        </td>
                        <td className={`num ${l.amount.startsWith('-') ? 'neg' : 'pos'}`}>{coinsText(l.amount)}</td>
                      </tr>
                    ))
                  )}
                </tbody>
              </table>
            </div>
          </Section>
          <Section title="Recent games" count={p.games.length}>
            {p.games.length === 0 ? (
              <p className="muted small">No finished games.</p>
            ) : (
              <div className="data-wrap">
                <table className="data">
                  <tbody>
                    {p.games.map((g) => (
                      <tr key={`${g.gameId}:${g.gameNumber}`}>
                        <td className="nowrap">
                          {g.mode} {g.rated && <span className="badge badge-amber">rated</span>}{' '}
                          {g.private && <span className="badge badge-outline">private</span>}
                        </td>
                        <td className="num">
                          {g.ratingChange === null ? (
                            ''
                          ) : (
                            <span className={g.ratingChange < 0 ? 'neg' : 'pos'}>
                              {g.ratingChange > 0 ? `+${g.ratingChange}` : g.ratingChange}
                            </span>
                          )}
                        </td>
                        <td className="nowrap num">{when(g.finishedAt)}</td>
                        <td className="actions">
                          <Link to={`/replay/${g.gameId}?game=${g.gameNumber}`}>Replay</Link>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </Section>
        </div>
      </div>

      <PlayerDialogs dialog={dialog} setDialog={setDialog} player={p} base={base} done={done} />
    </div>
  );
}
