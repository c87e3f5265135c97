import { Link, useSearchParams } from 'react-router';
import { AuthLayout } from './LoginPage';

/**
 * Issue #26: a new sign-in whose verified e-mail already belongs to an account. Nothing was created or merged: the
 * player signs in to that account first, then links the provider from the profile.
 */
export function LinkRequiredPage() {
  const [params] = useSearchParams();
  const label = (params.get('provider') ?? '').slice(0, 40) || 'this provider';
  return (
    <AuthLayout>
      <h1 className="h2">This e-mail already has an account</h1>
      <p data-testid="link-required">
        {label} vouched for an e-mail address that an account on this server already uses. To keep that account safe,
        nothing was merged and no new account was created.
      </p>
      <ol className="muted">
        <li>Sign in to your existing account (with its e-mail and password, or the way you usually sign in).</li>
        <li>Open your profile and choose “Link {label}” under Sign-in methods.</li>
        <li>From then on, “Sign in with {label}” opens that same account.</li>
      </ol>
      <Link className="btn btn-primary btn-block" to="/login">
        Sign in to my account
      </Link>
    </AuthLayout>
  );
}
