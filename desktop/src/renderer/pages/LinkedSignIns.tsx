import { useCallback, useEffect, useState } from 'react';
import type { IdentitiesView, LinkStartResponse } from '@spades/common';
import { api } from '../lib/api';
import { rememberReturnTo } from '../lib/return-to';
import { openSsoRoute } from './SsoButtons';

/** Issue #26: the profile's sign-in methods: what is linked (unlink, never the last one) and what can be linked. */
export function LinkedSignIns() {
  const [view, setView] = useState<IdentitiesView | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const load = useCallback(() => {
    api
      .get<IdentitiesView>('/api/auth/identities')
      .then(setView)
      .catch((e: Error) => setError(e.message));
  }, []);
  useEffect(load, [load]);

  const link = async (provider: string) => {
    setBusy(true);
    setError('');
    try {
      const r = await api.post<LinkStartResponse>(`/api/auth/identities/${encodeURIComponent(provider)}/link`);
      // back on this page after the provider's round trip (also for Discord, whose callback has no `linked`)
      rememberReturnTo('/profile');
      openSsoRoute(r.url);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const unlink = async (provider: string) => {
    setBusy(true);
    setError('');
    try {
      setView(await api.del<IdentitiesView>(`/api/auth/identities/${encodeURIComponent(provider)}`));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };

  if (!view) return error ? <p className="form-error">{error}</p> : null;
  return (
    <div data-testid="linked-sign-ins">
      <ul style={{ listStyle: 'none', padding: 0, margin: 0, display: 'grid', gap: 8 }}>
        {view.linked.map((l) => (
          <li
            key={l.provider}
            style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 8 }}
          >
            <span>
              <strong>{l.label}</strong>
              {l.email && <span className="muted small"> · {l.email}</span>}
            </span>
            {l.provider !== 'password' && (
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                disabled={busy || !l.canUnlink}
                title={l.canUnlink ? undefined : 'The last way to sign in cannot be unlinked'}
                onClick={() => void unlink(l.provider)}
              >
                Unlink
              </button>
            )}
          </li>
        ))}
      </ul>
      {view.available.length > 0 && (
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, marginTop: 12 }}>
          {view.available.map((p) => (
            <button
              key={p.id}
              type="button"
              className="btn btn-secondary btn-sm"
              disabled={busy}
              data-testid={`link-${p.id}`}
              onClick={() => void link(p.id)}
            >
              Link {p.label}
            </button>
          ))}
        </div>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
