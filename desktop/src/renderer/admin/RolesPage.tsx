import { useState } from 'react';
import { Link } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ACCOUNT_ROLE_LABELS,
  ADMIN_PLAYERS_PATH,
  ADMIN_ROLES_PATH,
  type AccountRoleName,
  type PlayerSearchResult,
  type RoleChangeRequest,
  type StaffList,
} from '@spades/common';
import { useNotify } from '../components/ui';
import { api, errorText } from '../lib/api';
import { qs, useStaff } from './admin-api';
import { ReasonDialog } from './ReasonDialog';
import { RoleRadios } from './PlayerDialogs';

interface Target {
  id: string;
  username: string;
  role: AccountRoleName;
}

/** Roles (admins): who is a moderator or an admin; grant a role to a player, or take it back. */
export function RolesPage() {
  const me = useStaff();
  const qc = useQueryClient();
  const notify = useNotify();
  const staff = useQuery({ queryKey: ['admin', 'roles'], queryFn: () => api.get<StaffList>(ADMIN_ROLES_PATH) });
  const [search, setSearch] = useState('');
  const [term, setTerm] = useState('');
  const found = useQuery({
    queryKey: ['admin', 'players', term],
    queryFn: () => api.get<PlayerSearchResult>(`${ADMIN_PLAYERS_PATH}${qs({ q: term, limit: 10 })}`),
    enabled: term.length > 0,
  });
  const [target, setTarget] = useState<Target | null>(null);
  const [role, setRole] = useState<AccountRoleName>('moderator');
  const pick = (t: Target) => {
    setTarget(t);
    setRole(t.role === 'user' ? 'moderator' : 'user');
  };

  return (
    <div className="console-page">
      <div className="console-head">
        <h1 className="h2">Roles</h1>
      </div>
      <p className="hint">
        Moderators handle reports, players and tables. Admins also change roles and settings, correct coins and read the
        audit log.
      </p>
      <section className="console-panel" aria-labelledby="r-staff">
        <h2 id="r-staff" className="h3">
          Staff
        </h2>
        {staff.error ? <p className="form-error">{errorText(staff.error, 'Could not load the staff list')}</p> : null}
        <div className="data-wrap">
          <table className="data" aria-label="Staff">
            <thead>
              <tr>
                <th>Name</th>
                <th>Role</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {(staff.data?.staff ?? []).map((s) => (
                <tr key={s.id} data-testid="staff-row">
                  <td>
                    <Link to={`/admin/players/${s.id}`}>{s.username}</Link>
                    {s.id === me.id && <span className="muted small"> (you)</span>}
                  </td>
                  <td>
                    <span className={`badge ${s.role === 'admin' ? 'badge-amber' : 'badge-blue'}`}>
                      {ACCOUNT_ROLE_LABELS[s.role]}
                    </span>
                  </td>
                  <td className="actions">
                    {s.id !== me.id && (
                      <button type="button" className="btn btn-ghost btn-sm" onClick={() => pick(s)}>
                        Change role
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>
      <section className="console-panel console-page" aria-labelledby="r-grant">
        <h2 id="r-grant" className="h3">
          Grant a role
        </h2>
        <form
          className="console-filters"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            setTerm(search.trim());
          }}
        >
          <label className="field grow">
            <span>Find a player (name, e-mail or id)</span>
            <input value={search} onChange={(e) => setSearch(e.target.value)} />
          </label>
          <button type="submit" className="btn btn-secondary" disabled={!search.trim()}>
            Find
          </button>
        </form>
        {term && (
          <div className="data-wrap">
            <table className="data" aria-label="Players found">
              <tbody>
                {(found.data?.players ?? []).length === 0 ? (
                  <tr>
                    <td className="empty">{found.isLoading ? 'Searching…' : `No player matches “${term}”.`}</td>
                  </tr>
                ) : (
                  found.data!.players.map((p) => (
                    <tr key={p.id}>
                      <td>{p.username}</td>
                      <td className="muted">{p.email ?? ''}</td>
                      <td>{ACCOUNT_ROLE_LABELS[p.role]}</td>
                      <td className="actions">
                        {p.id !== me.id && (
                          <button
                            type="button"
                            className="btn btn-secondary btn-sm"
                            onClick={() => pick(p)}
                            aria-label={`Change the role of ${p.username}`}
                          >
                            Change role
                          </button>
                        )}
                      </td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {target && (
        <ReasonDialog
          open
          onOpenChange={(o) => !o && setTarget(null)}
          title={`Role of ${target.username}`}
          description={`Now: ${ACCOUNT_ROLE_LABELS[target.role]}. It takes effect at once.`}
          confirmLabel="Change role"
          canSubmit={role !== target.role}
          onSubmit={async (reason) => {
            const body: RoleChangeRequest = { role, reason };
            await api.post(`${ADMIN_PLAYERS_PATH}/${target.id}/role`, body);
            notify(`${target.username} is now ${ACCOUNT_ROLE_LABELS[role]}`, 'info');
            void qc.invalidateQueries({ queryKey: ['admin'] });
          }}
        >
          <RoleRadios value={role} onChange={setRole} />
        </ReasonDialog>
      )}
    </div>
  );
}
