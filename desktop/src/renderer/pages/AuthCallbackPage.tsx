import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useSession } from '../session/session';
import { clearToken } from '../lib/storage';
import { Logo, Spinner } from '../components/ui';
import { takeReturnTo } from '../lib/return-to';

/** §2 identity-provider callback: ?token=… → store, fetch profile → '/' (replace); failure → /login. */
export function AuthCallbackPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { completeExternalLogin } = useSession();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = params.get('token');
    if (!token) {
      clearToken();
      // the server's ?error=<code> is shown as a readable message on the login page
      const error = params.get('error');
      // issue #26: the verified e-mail of a new Discord / OIDC / GitHub sign-in belongs to an account: explain how
      // to link (`message` is the provider's label)
      if (error === 'link_required') {
        navigate(`/auth/link-required?provider=${encodeURIComponent(params.get('message') ?? '')}`, { replace: true });
        return;
      }
      navigate(error ? `/login?error=${encodeURIComponent(error)}` : '/login', { replace: true });
      return;
    }
    // issue #26: back from linking a provider on the profile
    const target = params.get('linked') ? '/profile' : takeReturnTo();
    completeExternalLogin(token)
      .then(() => navigate(target, { replace: true }))
      .catch(() => {
        clearToken();
        navigate('/login?error=account_failed', { replace: true });
      });
  }, [params, navigate, completeExternalLogin]);

  return (
    <div className="loading-screen">
      <Logo size={56} />
      <Spinner />
      <h1 className="h2">Completing sign-in...</h1>
      <p className="muted">Please wait while we redirect you.</p>
    </div>
  );
}
