import type { SsoErrorCode } from '@spades/common';
import { custom, generators, Issuer, type BaseClient } from 'openid-client';
import { Strategy } from 'passport-strategy';
import type { SsoProviderConfig } from './sso.config';
import {
  SSO_STATE_COOKIE,
  ssoCookieOptions,
  type SsoClient,
  type SsoPending,
  type SsoStateStore,
} from './sso-state.store';
import type { CookieRequest } from './discord-state.store';

const STATE_COOKIE_MAX_AGE_MS = 10 * 60 * 1000;
const MAX_CODE_LENGTH = 2048;
// openid-client's requests (discovery, JWKS, token, userinfo) time out instead of hanging a login
custom.setHttpOptionsDefaults({ timeout: 10_000 });

/** The identity a provider vouched for (from the verified id_token, or the provider's API for GitHub). */
export interface SsoIdentity {
  provider: string;
  subject: string;
  /** Only an e-mail the provider says is verified; otherwise null. */
  email: string | null;
  /** A display name to derive a username from. */
  name: string | null;
}

/** What a successful callback yields (the account side is SsoAccountsService). */
export interface SsoSuccess {
  identity: SsoIdentity;
  pending: SsoPending;
}

/** Why a login was refused: the `?error=` code, the logged reason, and the client to send the browser back to. */
export class SsoFailed extends Error {
  constructor(
    readonly code: SsoErrorCode,
    readonly reason: string,
    readonly client: SsoClient = 'web',
  ) {
    super(reason);
  }
}

/** Options of `passport.authenticate('sso:<id>', …)`. */
export interface SsoAuthenticateOptions {
  phase: 'start' | 'callback';
  client?: SsoClient;
  /** phase start: the account a signed-in player links this provider to. */
  linkUserId?: string | null;
}

type Req = CookieRequest & { query: Record<string, unknown> };

export const ssoStrategyName = (id: string) => `sso:${id}`;

/** The start of every SSO callback: the state (single use) and the provider's error / code parameters. */
export async function checkCallback(
  store: SsoStateStore,
  provider: string,
  req: Req,
): Promise<{ pending: SsoPending; state: string; code: string }> {
  const taken = await store.take(req, provider, req.query.state);
  if (!taken.ok) throw new SsoFailed(taken.code, taken.reason, taken.client);
  const client = taken.pending.client;
  if (req.query.error !== undefined) {
    throw new SsoFailed('provider_denied', `provider answered error=${String(req.query.error).slice(0, 60)}`, client);
  }
  const code = req.query.code;
  if (typeof code !== 'string' || !code || code.length > MAX_CODE_LENGTH) {
    throw new SsoFailed('no_code', 'no authorization code', client);
  }
  return { pending: taken.pending, state: taken.state, code };
}

/** Sets the state cookie that binds a login to this browser. */
export function setStateCookie(req: CookieRequest, store: SsoStateStore, state: string): void {
  if (!req.res) throw new Error('no response to set the state cookie on');
  req.res.cookie(SSO_STATE_COOKIE, store.cookieValue(state), ssoCookieOptions(req, STATE_COOKIE_MAX_AGE_MS));
}

/**
 * OpenID Connect sign-in with one configured issuer, as a passport strategy (`sso:<id>`), through openid-client:
 * authorization code flow with `state` (single use, bound to the browser by a cookie), `nonce` and PKCE S256. The
 * callback exchanges the code and openid-client checks the id_token (signature against the issuer's JWKS, iss,
 * aud, exp, nonce); the identity is the id_token's `sub`, the e-mail only when `email_verified` is true (from
 * the id_token, or the userinfo endpoint whose `sub` must match). The issuer is discovered on first use.
 */
export class OidcStrategy extends Strategy {
  readonly name: string;
  private client: Promise<BaseClient> | null = null;

  constructor(
    private readonly cfg: SsoProviderConfig,
    private readonly store: SsoStateStore,
  ) {
    super();
    this.name = ssoStrategyName(cfg.id);
  }

  private getClient(): Promise<BaseClient> {
    this.client ??= Issuer.discover(this.cfg.issuer!).then(
      (issuer) =>
        new issuer.Client({
          client_id: this.cfg.clientId,
          client_secret: this.cfg.clientSecret,
          redirect_uris: [this.cfg.redirectUri],
          response_types: ['code'],
        }),
    );
    // a failed discovery is retried by the next login
    this.client.catch(() => (this.client = null));
    return this.client;
  }

  override authenticate(req: Req, options?: SsoAuthenticateOptions): void {
    const run = options?.phase === 'callback' ? this.callback(req) : this.start(req, options);
    run.catch((e: unknown) => {
      if (e instanceof SsoFailed) return this.fail(e, 403);
      this.error(e instanceof Error ? e : new Error(String(e)));
    });
  }

  private async start(req: Req, options?: SsoAuthenticateOptions): Promise<void> {
    const client = await this.getClient().catch((e: Error) => {
      throw new SsoFailed('provider_failed', `discovery of ${this.cfg.issuer} failed: ${e.message}`, options?.client);
    });
    const verifier = generators.codeVerifier();
    const nonce = generators.nonce();
    const state = await this.store.create({
      provider: this.cfg.id,
      verifier,
      nonce,
      client: options?.client ?? 'web',
      linkUserId: options?.linkUserId ?? null,
    });
    setStateCookie(req, this.store, state);
    this.redirect(
      client.authorizationUrl({
        scope: this.cfg.scope,
        redirect_uri: this.cfg.redirectUri,
        state,
        nonce,
        code_challenge: generators.codeChallenge(verifier),
        code_challenge_method: 'S256',
      }),
    );
  }

  private async callback(req: Req): Promise<void> {
    const { pending, state, code } = await checkCallback(this.store, this.cfg.id, req);
    try {
      const client = await this.getClient();
      const params: Record<string, string> = { code, state: String(req.query.state) };
      if (typeof req.query.iss === 'string') params.iss = req.query.iss;
      const tokens = await client.callback(this.cfg.redirectUri, params, {
        state,
        nonce: pending.nonce,
        code_verifier: pending.verifier,
        response_type: 'code',
      });
      const claims = tokens.claims();
      if (typeof claims.sub !== 'string' || !claims.sub || claims.sub.length > 255) {
        throw new Error('id_token has no usable sub');
      }
      let email = claims.email_verified === true && typeof claims.email === 'string' ? claims.email : null;
      let name = (claims.preferred_username ?? claims.name ?? claims.nickname ?? null) as string | null;
      if (claims.email === undefined && tokens.access_token) {
        // the e-mail may come only from userinfo; openid-client checks its sub against the id_token's
        const info = await client.userinfo(tokens);
        if (info.email_verified === true && typeof info.email === 'string') email = info.email;
        name ??= (info.preferred_username ?? info.name ?? null) as string | null;
      }
      if (email && email.length > 254) email = null;
      this.success({
        identity: { provider: this.cfg.id, subject: claims.sub, email, name },
        pending,
      } satisfies SsoSuccess);
    } catch (e) {
      throw new SsoFailed('provider_failed', `${this.cfg.id} sign-in refused: ${(e as Error).message}`, pending.client);
    }
  }
}
