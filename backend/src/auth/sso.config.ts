import { z } from 'zod';
import { SSO_PROVIDER_ID } from '@spades/common';

/**
 * Issue #26: sign-in providers configured by environment, beside Discord.
 *
 * - OpenID Connect: `OIDC_PROVIDERS=google,keycloak` and per id (upper case) `OIDC_<ID>_ISSUER`, `OIDC_<ID>_CLIENT_ID`,
 *   `OIDC_<ID>_CLIENT_SECRET`, optional `OIDC_<ID>_LABEL` (button text), `OIDC_<ID>_REDIRECT_URI` (default
 *   `<CLIENT_URL>/api/auth/oidc/<id>/callback`), `OIDC_<ID>_SCOPE` (default `openid email profile`).
 * - GitHub (OAuth2, not OIDC): `GITHUB_CLIENT_ID` + `GITHUB_CLIENT_SECRET`, optional `GITHUB_LABEL`,
 *   `GITHUB_REDIRECT_URI` (default `<CLIENT_URL>/api/auth/oidc/github/callback`), and for GitHub Enterprise
 *   `GITHUB_AUTHORIZE_URL`, `GITHUB_TOKEN_URL`, `GITHUB_API_URL`.
 */
export interface SsoProviderConfig {
  id: string;
  kind: 'oidc' | 'github';
  label: string;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  /** oidc: the issuer URL (discovered at `<issuer>/.well-known/openid-configuration`). */
  issuer?: string;
  scope: string;
  /** github: the OAuth2 endpoints. */
  authorizeUrl?: string;
  tokenUrl?: string;
  apiUrl?: string;
}

const RESERVED = new Set(['discord', 'github', 'password']);

function str(env: Record<string, unknown>, key: string): string | undefined {
  const v = env[key];
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

function absoluteUrl(v: string | undefined): boolean {
  if (!v) return false;
  try {
    return /^https?:$/.test(new URL(v).protocol);
  } catch {
    return false;
  }
}

const capitalized = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);

const trimmed = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
/** Trimmed text; unset or blank → unset. */
const text = () => z.preprocess(trimmed, z.string().optional());
/** Trimmed text; unset or blank → `def`. */
const textOr = (def: string) => z.preprocess((v) => trimmed(v) ?? def, z.string());
/**
 * An absolute http(s) URL (trimmed). Unset: `def` when given, else refused when `required`, else unset. (zod 4 skips
 * an absent key whose schema accepts undefined, so a default or a requirement needs a non-optional schema.)
 */
const absolute = (message: string, def?: string, required = false) => {
  const url = z.string({ error: message }).refine(absoluteUrl, message);
  return def !== undefined || required
    ? z.preprocess((v) => trimmed(v) ?? def, url)
    : z.preprocess(trimmed, url.optional());
};

/** OIDC_PROVIDERS split into lower-case ids, and those refused (reserved or not 2-20 letters/digits). */
export function splitProviderIds(raw: unknown): { ids: string[]; bad: string[] } {
  const all = [
    ...new Set(
      (typeof raw === 'string' ? raw : '')
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  const ok = (id: string) => SSO_PROVIDER_ID.test(id) && !RESERVED.has(id);
  return { ids: all.filter(ok), bad: all.filter((id) => !ok(id)) };
}

/** The single sign-on variables with fixed names (zod; rendered into docs/configuration.md). */
export const ssoEnvSchema = z.object({
  OIDC_PROVIDERS: z
    .preprocess(trimmed, z.string().optional())
    .superRefine((raw, ctx) => {
      for (const id of splitProviderIds(raw).bad)
        ctx.addIssue({
          code: 'custom',
          message: `OIDC_PROVIDERS: "${id.slice(0, 30)}" must be 2-20 lower-case letters/digits and not discord, github or password`,
        });
    })
    .transform((raw) => splitProviderIds(raw).ids)
    .describe(
      'OpenID Connect sign-in providers, comma-separated ids (each configured by the `OIDC_<ID>_*` rows below)',
    ),
  GITHUB_CLIENT_ID: text().describe('GitHub sign-in (OAuth2): set GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET together'),
  GITHUB_CLIENT_SECRET: text().describe("GitHub sign-in: the OAuth app's secret"),
  GITHUB_LABEL: textOr('GitHub').describe('GitHub sign-in: button text (first 40 characters)'),
  GITHUB_REDIRECT_URI: absolute('GITHUB_REDIRECT_URI must be an absolute URL').describe(
    'GitHub sign-in: callback address; unset: `<CLIENT_URL>/api/auth/oidc/github/callback`',
  ),
  GITHUB_AUTHORIZE_URL: absolute(
    'GITHUB_AUTHORIZE_URL must be an absolute URL',
    'https://github.com/login/oauth/authorize',
  ).describe('GitHub sign-in: authorize endpoint (GitHub Enterprise)'),
  GITHUB_TOKEN_URL: absolute(
    'GITHUB_TOKEN_URL must be an absolute URL',
    'https://github.com/login/oauth/access_token',
  ).describe('GitHub sign-in: token endpoint (GitHub Enterprise)'),
  GITHUB_API_URL: absolute('GITHUB_API_URL must be an absolute URL', 'https://api.github.com').describe(
    'GitHub sign-in: API base (GitHub Enterprise)',
  ),
});

/** The variables of one OpenID Connect provider, named `<prefix><KEY>` (prefix `OIDC_<ID>_`; docs: `OIDC_<ID>_`). */
export const oidcProviderEnvSchema = (p: string) =>
  z.object({
    ISSUER: absolute(`${p}ISSUER must be the issuer's absolute URL`, undefined, true).describe(
      'issuer URL (discovered at `<issuer>/.well-known/openid-configuration`); required',
    ),
    CLIENT_ID: text().describe('client id; required'),
    CLIENT_SECRET: text().describe('client secret; required'),
    LABEL: text().describe('button text (first 40 characters); unset: the id, capitalized'),
    REDIRECT_URI: absolute(`${p}REDIRECT_URI must be an absolute URL`).describe(
      'callback address; unset: `<CLIENT_URL>/api/auth/oidc/<id>/callback`',
    ),
    SCOPE: textOr('openid email profile')
      .refine((v) => v.split(/\s+/).includes('openid'), `${p}SCOPE must include openid`)
      .describe('scopes requested, space-separated'),
  });

const issuesOf = (r: { success: boolean; error?: z.ZodError }) =>
  r.success ? [] : (r.error?.issues ?? []).map((i) => i.message);

/** The configured providers, or the list of problems (ConfigValidationError lines). */
export function parseSsoProviders(
  env: Record<string, unknown>,
  clientUrl: string,
): { providers: SsoProviderConfig[]; errors: string[] } {
  const providers: SsoProviderConfig[] = [];
  const base = clientUrl.replace(/\/+$/, '');
  const top = ssoEnvSchema.safeParse(env);
  const errors = issuesOf(top);
  for (const id of splitProviderIds(env.OIDC_PROVIDERS).ids) {
    const p = `OIDC_${id.toUpperCase()}_`;
    const schema = oidcProviderEnvSchema(p);
    const r = schema.safeParse(Object.fromEntries(Object.keys(schema.shape).map((k) => [k, env[p + k]])));
    errors.push(...issuesOf(r));
    if (!str(env, `${p}CLIENT_ID`) || !str(env, `${p}CLIENT_SECRET`))
      errors.push(`${p}CLIENT_ID and ${p}CLIENT_SECRET must be set`);
    if (!r.success || !r.data.CLIENT_ID || !r.data.CLIENT_SECRET || !r.data.ISSUER) continue;
    const e = r.data;
    providers.push({
      id,
      kind: 'oidc',
      label: (e.LABEL ?? capitalized(id)).slice(0, 40),
      clientId: e.CLIENT_ID!,
      clientSecret: e.CLIENT_SECRET!,
      redirectUri: e.REDIRECT_URI ?? `${base}/api/auth/oidc/${id}/callback`,
      issuer: e.ISSUER!.replace(/\/+$/, ''),
      scope: e.SCOPE,
    });
  }
  if (!top.success) return { providers, errors };
  const gh = top.data;
  if (!!gh.GITHUB_CLIENT_ID !== !!gh.GITHUB_CLIENT_SECRET)
    errors.push('GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET must be set together (or none of them)');
  if (gh.GITHUB_CLIENT_ID && gh.GITHUB_CLIENT_SECRET) {
    providers.push({
      id: 'github',
      kind: 'github',
      label: gh.GITHUB_LABEL.slice(0, 40),
      clientId: gh.GITHUB_CLIENT_ID,
      clientSecret: gh.GITHUB_CLIENT_SECRET,
      scope: 'read:user user:email',
      redirectUri: gh.GITHUB_REDIRECT_URI ?? `${base}/api/auth/oidc/github/callback`,
      authorizeUrl: gh.GITHUB_AUTHORIZE_URL!,
      tokenUrl: gh.GITHUB_TOKEN_URL!,
      apiUrl: gh.GITHUB_API_URL!.replace(/\/+$/, ''),
    });
  }
  return { providers, errors };
}
