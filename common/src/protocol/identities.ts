// Issue #26: sign-in providers beyond e-mail/password and Discord (OpenID Connect issuers, GitHub) and the
// identities linked to an account. Shared by the server (routes, error codes) and the clients (buttons, texts).

/** A provider id as configured by the host (OIDC_PROVIDERS=google,keycloak; `github`): lower case, 2–20 chars. */
export const SSO_PROVIDER_ID = /^[a-z][a-z0-9]{1,19}$/;

/** One sign-in button: GET /api/auth/providers lists the offered ones in `sso`. */
export interface SsoProviderInfo {
  id: string;
  /** The host's button label (OIDC_<ID>_LABEL), e.g. "Google", "Company SSO". */
  label: string;
  /** `discord` only in IdentitiesView.available (linking Discord from the profile). */
  kind: 'oidc' | 'github' | 'discord';
}

/** GET /api/auth/providers. */
export interface AuthProviders {
  discord: boolean;
  sso: SsoProviderInfo[];
}

/** A way to sign in to an account (GET /api/auth/identities). */
export interface LinkedIdentity {
  /** `password`, `discord`, or an SSO provider id. */
  provider: string;
  label: string;
  /** The e-mail the provider vouched for when linked (null when none was verified). */
  email: string | null;
  linkedAt: string | null;
  /** false for the last way to sign in: it cannot be unlinked. */
  canUnlink: boolean;
}

/** GET /api/auth/identities: what is linked, and the providers that could be linked. */
export interface IdentitiesView {
  linked: LinkedIdentity[];
  available: SsoProviderInfo[];
}

/** POST /api/auth/identities/:provider/link answers where to send the browser (single use, 2 minutes). */
export interface LinkStartResponse {
  /** Relative to the server, e.g. `/api/auth/oidc/google?link=…`; add `&client=desktop` from the desktop app. */
  url: string;
}

/** `?error=` codes of a failed SSO callback (the clients show `ssoErrorText`). */
export type SsoErrorCode =
  | 'invalid_state'
  | 'state_mismatch'
  | 'provider_denied'
  | 'no_code'
  | 'provider_failed'
  | 'account_failed'
  | 'banned'
  | 'registration_refused'
  /** The verified e-mail belongs to an account: sign in to it first, then link the provider on the profile. */
  | 'link_required'
  /** This provider identity is already linked to another account. */
  | 'identity_in_use'
  /** The account already has another identity of this provider linked. */
  | 'already_linked'
  | 'sign_in_not_offered';

export const SSO_ERROR_TEXTS: Readonly<Record<SsoErrorCode, string>> = Object.freeze({
  invalid_state: 'The sign-in expired or was started in another browser. Please try again.',
  state_mismatch: 'The sign-in expired or was started in another browser. Please try again.',
  provider_denied: 'The sign-in was cancelled.',
  no_code: 'The provider did not complete the sign-in. Please try again.',
  provider_failed: 'The sign-in provider could not be reached or its answer was refused. Please try again later.',
  account_failed: 'Your account could not be signed in. Please try again.',
  banned: 'This account is banned.',
  registration_refused: 'Registration is not open on this server.',
  link_required:
    'An account with this e-mail address already exists. Sign in to that account first, then link this provider from your profile.',
  identity_in_use: 'This sign-in is already linked to another account.',
  already_linked: 'Your account already has another identity of this provider linked. Unlink it first.',
  sign_in_not_offered: 'This sign-in method is not offered on this server.',
});

/** Readable text for an SSO `?error=` code (unknown codes get a generic text). */
export function ssoErrorText(code: string | null | undefined): string | null {
  if (!code) return null;
  return (SSO_ERROR_TEXTS as Record<string, string>)[code] ?? 'The sign-in failed. Please try again.';
}

/** Error messages of the identity routes (HTTP `{ message }`). */
export const IDENTITY_MESSAGES = {
  unknownProvider: 'This sign-in provider is not configured on this server',
  notLinked: 'This sign-in is not linked to your account',
  lastSignIn: 'This is the last way to sign in to your account: link another one (or set a password) first',
} as const;
