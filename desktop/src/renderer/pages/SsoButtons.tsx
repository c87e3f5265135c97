import { useEffect, useState } from 'react';
import type { AuthProviders, SsoProviderInfo } from '@spades/common';
import { api } from '../lib/api';
import { apiUrl, isDesktopApp, openExternalOrNavigate } from '../lib/platform';

/** The OpenID Connect / GitHub providers this server offers (GET /api/auth/providers, issue #26). */
export function useSsoProviders(): SsoProviderInfo[] {
  const [providers, setProviders] = useState<SsoProviderInfo[]>([]);
  useEffect(() => {
    let live = true;
    api
      .get<Partial<AuthProviders>>('/api/auth/providers')
      .then((p) => live && setProviders(Array.isArray(p?.sso) ? p.sso : []))
      .catch(() => live && setProviders([]));
    return () => {
      live = false;
    };
  }, []);
  return providers;
}

/** Opens a sign-in (or link) route in the browser; the desktop app comes back through spades://auth/callback. */
export function openSsoRoute(path: string): void {
  const desktop = isDesktopApp() ? `${path.includes('?') ? '&' : '?'}client=desktop` : '';
  openExternalOrNavigate(apiUrl(`${path}${desktop}`));
}

/** One "Sign in with <label>" button per provider the host configured (shown under Discord on the login page). */
export function SsoButtons() {
  const providers = useSsoProviders();
  if (providers.length === 0) return null;
  return (
    <div className="sso-buttons">
      {providers.map((p) => (
        <button
          key={p.id}
          type="button"
          className="btn btn-secondary btn-block"
          data-testid={`sso-${p.id}`}
          onClick={() => openSsoRoute(`/api/auth/oidc/${encodeURIComponent(p.id)}`)}
        >
          Sign in with {p.label}
        </button>
      ))}
    </div>
  );
}
