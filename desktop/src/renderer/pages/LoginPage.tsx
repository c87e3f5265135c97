import { useEffect, useState, type FormEvent } from 'react';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { api } from '../lib/api';
import { useSession } from '../session/session';
import { Logo } from '../components/ui';
import { apiUrl, isDesktopApp, openExternalOrNavigate } from '../lib/platform';
import { takeReturnTo } from '../lib/return-to';
import { usePublicSettings } from '../lib/server-settings';
import { formatCoinsExact, SSO_ERROR_TEXTS, ssoErrorText, STARTING_COINS } from '@spades/common';
import { OpenPendingInviteInApp } from '../servers/OpenInApp';
import { PASSWORD_RULE, USERNAME_RULE } from './signup-rules';
import { SsoButtons } from './SsoButtons';

/** §2 combined sign-in / create-account form. */
export function LoginPage() {
  const { login, register, status } = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const discordError = discordErrorText(params.get('error'));
  const [mode, setMode] = useState<'signin' | 'create'>('signin');
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  // issue #25: the host's registration mode and starting coins
  const hostSettings = usePublicSettings();
  const registration = hostSettings?.registration ?? 'open';
  const [inviteCode, setInviteCode] = useState('');

  if (status === 'authenticated') return <Navigate to={takeReturnTo()} replace />;

  const creating = mode === 'create';
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError('');
    setBusy(true);
    // decided before signing in: once signed in, the page reached clears the remembered path
    const target = takeReturnTo();
    try {
      if (creating && registration === 'invite')
        await register(username.trim(), email.trim(), password, inviteCode.trim());
      else if (creating) await register(username.trim(), email.trim(), password);
      else await login(email.trim(), password);
      navigate(target, { replace: true });
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : creating ? 'Registration failed' : 'Login failed');
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout>
      <h1 className="auth-title">{creating ? 'Create your account' : 'Welcome back'}</h1>
      <p className="muted auth-sub">
        {creating
          ? `Join the table: ${formatCoinsExact(hostSettings?.startingCoins ?? STARTING_COINS)} coins to start.`
          : 'Sign in to take your seat.'}
      </p>
      {creating && registration === 'closed' && (
        <p className="form-warning" role="status">
          Registration is closed on this server. Ask its host, or sign in with an existing account.
        </p>
      )}
      <form className="form" onSubmit={submit} noValidate={false}>
        {creating && (
          <label className="field">
            <span>Username</span>
            <input
              name="username"
              autoComplete="username"
              value={username}
              onChange={(e) => setUsername(e.target.value)}
              required
              aria-describedby="username-rule"
            />
          </label>
        )}
        {creating && (
          <small id="username-rule" className="field-hint">
            {USERNAME_RULE}
          </small>
        )}
        <label className="field">
          <span>Email address</span>
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
            autoComplete={creating ? 'new-password' : 'current-password'}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            aria-describedby={creating ? 'password-rule' : undefined}
          />
        </label>
        {creating && (
          <small id="password-rule" className="field-hint">
            {PASSWORD_RULE}
          </small>
        )}
        {creating && registration === 'invite' && (
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
        <button
          type="submit"
          className="btn btn-primary btn-block"
          disabled={busy || (creating && registration === 'closed')}
        >
          {creating ? (busy ? 'Creating Account...' : 'Create Account') : busy ? 'Signing in...' : 'Sign in'}
        </button>
        {error && (
          <p className="form-error" role="alert">
            {error}
          </p>
        )}
      </form>
      {discordError && !error && (
        <p className="form-error" role="alert">
          {discordError}
        </p>
      )}
      <button
        type="button"
        className="link-btn"
        onClick={() => {
          setMode(creating ? 'signin' : 'create');
          setError('');
        }}
      >
        {creating ? 'Already have an account? Sign in' : "Don't have an account? Create account"}
      </button>
      <div className="divider">
        <span>Or continue with</span>
      </div>
      <DiscordButton />
      <SsoButtons />
      <OpenPendingInviteInApp />
    </AuthLayout>
  );
}

/** Readable text for the `?error=<code>` a failed Discord sign-in comes back with (backend discord.service.ts). */
export function discordErrorText(code: string | null): string | null {
  if (!code) return null;
  const texts: Record<string, string> = {
    discord_unavailable: 'Discord sign-in is not available on this server.',
    discord_denied: 'Discord sign-in was cancelled.',
    invalid_state: 'The Discord sign-in expired or was started in another browser. Please try again.',
    state_mismatch: 'The Discord sign-in expired or was started in another browser. Please try again.',
    no_code: 'Discord did not complete the sign-in. Please try again.',
    discord_failed: 'Discord could not be reached. Please try again later.',
    account_failed: 'Your account could not be signed in with Discord. Please try again.',
    registration_refused:
      'This server does not accept new accounts right now (registration is closed or by invite code).',
  };
  // issue #26: the codes only OpenID Connect / GitHub sign-ins end with
  return texts[code] ?? (code in SSO_ERROR_TEXTS ? ssoErrorText(code) : 'Discord sign-in failed. Please try again.');
}

/** Whether this server offers Discord sign-in (GET /api/auth/providers); null while unknown. */
function useDiscordAvailable(): boolean | null {
  const [available, setAvailable] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    api
      .get<{ discord?: unknown }>('/api/auth/providers')
      .then((p) => live && setAvailable(p?.discord === true))
      .catch(() => live && setAvailable(true)); // an older server without the endpoint: keep the button
    return () => {
      live = false;
    };
  }, []);
  return available;
}

export function DiscordButton() {
  const available = useDiscordAvailable();
  const off = available === false;
  return (
    <>
      <button
        type="button"
        className="btn btn-discord btn-block"
        disabled={available !== true}
        aria-describedby={off ? 'discord-unavailable' : undefined}
        onClick={() =>
          openExternalOrNavigate(apiUrl(isDesktopApp() ? '/api/auth/discord?client=desktop' : '/api/auth/discord'))
        }
      >
        <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true">
          <path
            fill="currentColor"
            d="M20.3 4.4A19.8 19.8 0 0 0 15.4 3l-.6 1.3a18.4 18.4 0 0 0-5.6 0L8.6 3a19.7 19.7 0 0 0-4.9 1.4C.6 9 .0 13.6.3 18.1a19.9 19.9 0 0 0 6 3l1.3-2.1c-.7-.3-1.4-.6-2-1l.5-.4a14.2 14.2 0 0 0 12 0l.5.4c-.6.4-1.3.7-2 1l1.3 2.1a19.8 19.8 0 0 0 6-3c.5-5.2-.8-9.7-3.6-13.7zM8.5 15.3c-1.2 0-2.1-1.1-2.1-2.4s.9-2.4 2.1-2.4 2.2 1.1 2.1 2.4c0 1.3-.9 2.4-2.1 2.4zm7 0c-1.2 0-2.1-1.1-2.1-2.4s.9-2.4 2.1-2.4 2.2 1.1 2.1 2.4c0 1.3-.9 2.4-2.1 2.4z"
          />
        </svg>
        Sign in with Discord
      </button>
      {off && (
        <p id="discord-unavailable" className="muted auth-note">
          Discord sign-in is not available on this server.
        </p>
      )}
    </>
  );
}

export function AuthLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="auth-page">
      <div className="auth-hero" aria-hidden="true">
        <div className="hero-cards">
          <span className="hero-card c1">A♠</span>
          <span className="hero-card c2">K♥</span>
          <span className="hero-card c3">Q♦</span>
        </div>
      </div>
      <main className="auth-card">
        <div className="auth-brand">
          <Logo size={40} withText />
        </div>
        {children}
      </main>
    </div>
  );
}
