import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { useSession } from '../session/session';
import { AuthLayout } from './LoginPage';
import { takeReturnTo } from '../lib/return-to';
import { usePublicSettings } from '../lib/server-settings';
import { PASSWORD_LIMITS, PASSWORD_RULE, USERNAME_INPUT_PATTERN, USERNAME_RULE } from './signup-rules';

/** §2 separate registration form with confirmation; §5 'Passwords do not match'. */
export function RegisterPage() {
  const { register, status } = useSession();
  const navigate = useNavigate();
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // issue #25: the host's registration mode (open / invite codes only / closed)
  const registration = usePublicSettings()?.registration ?? 'open';
  const [inviteCode, setInviteCode] = useState('');

  if (status === 'authenticated') return <Navigate to={takeReturnTo()} replace />;

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    if (password !== confirm) {
      setError('Passwords do not match');
      return;
    }
    setBusy(true);
    // decided before signing in: once signed in, the page reached clears the remembered path
    const target = takeReturnTo();
    try {
      if (registration === 'invite') await register(username.trim(), email.trim(), password, inviteCode.trim());
      else await register(username.trim(), email.trim(), password);
      navigate(target, { replace: true });
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : 'Registration failed');
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout>
      <h1 className="auth-title">Create your account</h1>
      {registration === 'closed' && (
        <p className="form-warning" role="status">
          Registration is closed on this server. Ask its host, or sign in with an existing account.
        </p>
      )}
      <form className="form" onSubmit={submit}>
        <label className="field">
          <span>Username</span>
          <input
            name="username"
            autoComplete="username"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            required
            pattern={USERNAME_INPUT_PATTERN}
            aria-describedby="username-rule"
          />
        </label>
        <small id="username-rule" className="field-hint">
          {USERNAME_RULE}
        </small>
        <label className="field">
          <span>Email</span>
          <input
            name="email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
          />
        </label>
        <label className="field">
          <span>Password</span>
          <input
            name="password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            {...PASSWORD_LIMITS}
            aria-describedby="password-rule"
          />
        </label>
        <small id="password-rule" className="field-hint">
          {PASSWORD_RULE}
        </small>
        <label className="field">
          <span>Confirm Password</span>
          <input
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
            required
          />
        </label>
        {registration === 'invite' && (
          <label className="field">
            <span>Invite code</span>
            <input
              name="inviteCode"
              autoComplete="off"
              placeholder="ABCD-EFGH-JKMN"
              value={inviteCode}
              onChange={(e) => setInviteCode(e.target.value)}
              required
            />
          </label>
        )}
        <button type="submit" className="btn btn-primary btn-block" disabled={busy || registration === 'closed'}>
          Register
        </button>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </form>
      <p className="muted center small">
        <Link to="/login">Already have an account? Sign in</Link>
      </p>
    </AuthLayout>
  );
}
