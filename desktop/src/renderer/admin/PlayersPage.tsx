import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { ACCOUNT_ROLE_LABELS, ADMIN_PLAYERS_PATH, type PlayerSearchResult } from '@spades/common';
import { api, errorText } from '../lib/api';
import { qs } from './admin-api';
import { when } from './format';

/** Player search by name, e-mail or account id. */
export function PlayersPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const [input, setInput] = useState(q);
  const res = useQuery({
    queryKey: ['admin', 'players', q],
    queryFn: () => api.get<PlayerSearchResult>(`${ADMIN_PLAYERS_PATH}${qs({ q })}`),
    enabled: q.length > 0,
  });
  const players = res.data?.players ?? [];
  return (
    <div className="console-page">
      <div className="console-head">
        <h1 className="h2">Players</h1>
      </div>
      <form
        className="console-filters"
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          const t = input.trim();
          setParams(t ? { q: t } : {}, { replace: true });
        }}
      >
        <label className="field grow">
          <span>Name, e-mail or account id</span>
          <input value={input} onChange={(e) => setInput(e.target.value)} placeholder="Search players" autoFocus />
        </label>
        <button type="submit" className="btn btn-primary" disabled={!input.trim()}>
          <Search size={16} aria-hidden="true" /> Search
        </button>
      </form>
      {res.error ? (
        <p className="form-error" role="alert">
          {errorText(res.error, 'Search failed')}
        </p>
      ) : null}
      {q && (
        <div className="data-wrap">
          <table className="data" aria-label="Players found">
            <thead>
              <tr>
                <th>Name</th>
                <th>E-mail</th>
                <th>Role</th>
                <th>Status</th>
                <th>Joined (UTC)</th>
                <th>Account id</th>
              </tr>
            </thead>
            <tbody>
              {res.isLoading ? (
                <tr>
                  <td colSpan={6} className="empty">
                    Searching…
                  </td>
                </tr>
              ) : players.length === 0 ? (
                <tr>
                  <td colSpan={6} className="empty">
                    No player matches “{q}”.
                  </td>
                </tr>
              ) : (
                players.map((p) => (
                  <tr key={p.id}>
                    <td className="nowrap">
                      <Link to={`/admin/players/${p.id}`}>{p.username}</Link>
                    </td>
                    <td className="clip">{p.email ?? '—'}</td>
                    <td>
                      {p.role === 'user' ? (
                        ACCOUNT_ROLE_LABELS.user
                      ) : (
                        <span className="badge badge-blue">{ACCOUNT_ROLE_LABELS[p.role]}</span>
                      )}
                    </td>
                    <td className="nowrap">
                      <span className={`badge ${p.online ? 'badge-green' : 'badge-dim'}`}>
                        {p.online ? 'online' : 'offline'}
                      </span>{' '}
                      {p.banned && <span className="badge badge-red">banned</span>}{' '}
                      {p.muted && <span className="badge badge-amber">muted</span>}
                    </td>
                    <td className="nowrap num">{when(p.createdAt)}</td>
                    <td className="code muted">{p.id}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
      )}
      {!q && (
        <p className="muted">
          Search for a player to see their profile, coins, games, reports, sanctions and sessions.
        </p>
      )}
    </div>
  );
}
