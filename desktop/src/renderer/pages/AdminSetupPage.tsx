import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { AdminSetupRequest, AdminSetupResponse } from '@spades/common';
import { api, errorText } from '../lib/api';
import { useSession } from '../session/session';
import { AuthLayout } from './LoginPage';

/**
 * `/admin/setup?token=…` (issue #24): the signed-in account redeems the one-time setup token that the server prints
 * in its log while no admin exists, and becomes admin. The server checks everything; this page only sends it.
 */
export function AdminSetupPage() {
  const { user, refreshProfile } = useSession();
  const [params] = useSearchParams();
  const [token, setToken] = useState(params.get('token') ?? '');
  const [error, setError] = useState('');
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    setBusy(true);
    try {
      const body: AdminSetupRequest = { token: token.trim() };
      await api.post<AdminSetupResponse>('/api/admin/setup', body);
      setDone(true);
      await refreshProfile().catch(() => undefined);
    } catch (err) {
      setError(errorText(err, 'The setup token was not accepted'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <AuthLayout>
      <h1 className="auth-title">Admin setup</h1>
      {done ? (
        <>
          <p role="status">{user?.username ?? 'Your account'} is now an admin.</p>
          <Link className="btn btn-primary btn-block" to="/">
            Go to the lobby
          </Link>
        </>
      ) : (
        <>
          <p className="muted auth-sub">
            Enter the one-time setup token from the server log to make {user?.username ?? 'this account'} an admin.
          </p>
          <form className="form" onSubmit={submit}>
            <label className="field">
              <span>Setup token</span>
              <input
                name="token"
                autoComplete="off"
                value={token}
                onChange={(e) => setToken(e.target.value)}
                required
              />
            </label>
            <button type="submit" className="btn btn-primary btn-block" disabled={busy || !token.trim()}>
              {busy ? 'Checking...' : 'Become admin'}
            </button>
            {error && (
              <p className="form-error" role="alert">
                {error}
              </p>
            )}
          </form>
        </>
      )}
    </AuthLayout>
  );
}
