import { createHash, randomBytes } from 'node:crypto';
import GitHubStrategyBase from 'passport-github2';
import type { SsoProviderConfig } from './sso.config';
import type { SsoStateStore } from './sso-state.store';
import {
  checkCallback,
  setStateCookie,
  SsoFailed,
  ssoStrategyName,
  type SsoAuthenticateOptions,
  type SsoSuccess,
} from './oidc.strategy';
import type { CookieRequest } from './discord-state.store';

type Req = CookieRequest & { query: Record<string, unknown> };

/** The parts of passport-github2's strategy used here (the package has no types). */
interface GitHubBase {
  _oauth2: {
    getAuthorizeUrl(params: Record<string, string>): string;
    getOAuthAccessToken(
      code: string,
      params: Record<string, string>,
      cb: (err: unknown, accessToken?: string) => void,
    ): void;
  };
  userProfile(accessToken: string, done: (err: unknown, profile?: GitHubProfile) => void): void;
  redirect(url: string): void;
  success(user: unknown): void;
  fail(info: unknown, status?: number): void;
  error(err: Error): void;
}
interface GitHubProfile {
  id: string | number;
  username?: string;
  displayName?: string;
  emails?: { value: string; verified?: boolean; primary?: boolean }[];
}

const Base = GitHubStrategyBase as unknown as new (options: object, verify: () => void) => GitHubBase;

/**
 * GitHub sign-in (OAuth2, GitHub has no OpenID Connect for users) through passport-github2, as strategy
 * `sso:github`: the same state (single use, browser cookie) and PKCE S256 as the OIDC providers, driven here so the
 * state is checked before anything else. The identity is GitHub's numeric user id; the e-mail is the primary
 * address only when GitHub marks it verified (GET /user/emails, scope user:email).
 */
export class GithubStrategy extends Base {
  readonly name: string;

  constructor(
    private readonly cfg: SsoProviderConfig,
    private readonly store: SsoStateStore,
  ) {
    super(
      {
        clientID: cfg.clientId,
        clientSecret: cfg.clientSecret,
        callbackURL: cfg.redirectUri,
        authorizationURL: cfg.authorizeUrl,
        tokenURL: cfg.tokenUrl,
        userProfileURL: `${cfg.apiUrl}/user`,
        userEmailURL: `${cfg.apiUrl}/user/emails`,
        scope: ['read:user', 'user:email'],
        allRawEmails: true,
      },
      () => undefined,
    );
    this.name = ssoStrategyName(cfg.id);
  }

  authenticate(req: Req, options?: SsoAuthenticateOptions): void {
    const run = options?.phase === 'callback' ? this.callback(req) : this.start(req, options);
    run.catch((e: unknown) => {
      if (e instanceof SsoFailed) return this.fail(e, 403);
      this.error(e instanceof Error ? e : new Error(String(e)));
    });
  }

  private async start(req: Req, options?: SsoAuthenticateOptions): Promise<void> {
    const verifier = randomBytes(32).toString('base64url');
    const state = await this.store.create({
      provider: this.cfg.id,
      verifier,
      nonce: randomBytes(16).toString('base64url'), // OAuth2 has no id_token: unused
      client: options?.client ?? 'web',
      linkUserId: options?.linkUserId ?? null,
    });
    setStateCookie(req, this.store, state);
    this.redirect(
      this._oauth2.getAuthorizeUrl({
        response_type: 'code',
        redirect_uri: this.cfg.redirectUri,
        scope: this.cfg.scope,
        state,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      }),
    );
  }

  private async callback(req: Req): Promise<void> {
    const { pending, code } = await checkCallback(this.store, this.cfg.id, req);
    const fail = (reason: string) =>
      new SsoFailed('provider_failed', `github sign-in refused: ${reason}`, pending.client);
    const accessToken = await new Promise<string>((resolve, reject) =>
      this._oauth2.getOAuthAccessToken(
        code,
        { grant_type: 'authorization_code', redirect_uri: this.cfg.redirectUri, code_verifier: pending.verifier },
        (err, token) => (err || !token ? reject(fail(`token exchange: ${describe(err)}`)) : resolve(token)),
      ),
    );
    const profile = await new Promise<GitHubProfile>((resolve, reject) =>
      this.userProfile(accessToken, (err, p) => (err || !p ? reject(fail(`profile: ${describe(err)}`)) : resolve(p))),
    );
    const subject = String(profile.id);
    if (!/^\d{1,20}$/.test(subject)) throw fail('no valid user id');
    const primary = profile.emails?.find((e) => e.primary && e.verified === true);
    const email = primary && primary.value.length <= 254 ? primary.value : null;
    const success: SsoSuccess = {
      identity: { provider: this.cfg.id, subject, email, name: profile.username ?? profile.displayName ?? null },
      pending,
    };
    this.success(success);
  }
}

function describe(e: unknown): string {
  if (!e) return 'no answer';
  const x = e as { message?: string; statusCode?: number; oauthError?: { statusCode?: number } };
  return x.message ?? `HTTP ${x.statusCode ?? x.oauthError?.statusCode ?? '?'}`;
}
