import { BadRequestException, ForbiddenException, Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { OAuth2 } from 'oauth';
import OAuth2Strategy, { InternalOAuthError } from 'passport-oauth2';
import { AppConfig } from '../config/config.schema';
import { APP_PASSPORT, type Authenticator, withPassportOption, withAppPassport } from './app-passport';
import { DataSource } from 'typeorm';
import { DiscordStateStore, PendingLogins } from './discord-state.store';
import { DiscordLoginFailed, DiscordService, DiscordUser } from './discord.service';
import type { AuthUser } from './jwt.strategy';

export const DISCORD_STRATEGY = 'discord';
const HTTP_TIMEOUT_MS = 10_000;
const MAX_CODE_LENGTH = 512;

/** The options a guard passes to `passport.authenticate('discord', …)`. */
export interface DiscordAuthenticateOptions {
  /** `start` (GET /api/auth/discord) redirects to Discord; `callback` handles Discord's redirect back. */
  phase: 'start' | 'callback';
}

type AuthenticateRequest = Parameters<OAuth2Strategy['authenticate']>[0];
type TokenCallback = (err: unknown, accessToken?: string, refreshToken?: string, results?: unknown) => void;

/**
 * node-oauth's OAuth2 client with the code exchange over fetch, so it times out (node-oauth's own request has no
 * timeout). Same request as node-oauth's: a form POST with client id/secret, code and the strategy's params
 * (grant_type, redirect_uri, code_verifier); HTTP errors are reported in node-oauth's shape `{ statusCode, data }`.
 */
class TimedOAuth2 extends OAuth2 {
  override getOAuthAccessToken(code: string, params: unknown, callback?: unknown): void {
    const done = (typeof params === 'function' ? params : callback) as TokenCallback;
    const extra = typeof params === 'object' && params ? (params as Record<string, string>) : {};
    const body = new URLSearchParams({
      ...extra,
      client_id: this._clientId,
      client_secret: this._clientSecret,
      code,
    });
    fetch(this._getAccessTokenUrl(), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    })
      .then(async (res) => {
        const text = await res.text();
        if (!res.ok) return done({ statusCode: res.status, data: text || `HTTP ${res.status}` });
        const json = JSON.parse(text) as { access_token?: unknown; refresh_token?: unknown };
        if (typeof json.access_token !== 'string') return done(new Error('token endpoint returned no access_token'));
        done(null, json.access_token, typeof json.refresh_token === 'string' ? json.refresh_token : undefined, json);
      })
      .catch((e: unknown) => done(e instanceof Error ? e : new Error(String(e))));
  }
}

/**
 * Discord login as a passport-oauth2 strategy: authorization code with `state` + PKCE S256 (DiscordStateStore:
 * single use, 10 min, bound to the browser by the state cookie, kept in the database), scope `identify email`, `prompt=consent`. The
 * URLs come from configuration (DISCORD_AUTHORIZE_URL, DISCORD_API_URL, DISCORD_REDIRECT_URI), so tests use a
 * loopback provider. `validate` signs in the account linked to the Discord id or creates one (never linked by
 * e-mail: a verified e-mail of an existing account ends with `link_required`, see DiscordService.linkOrCreate).
 *
 * Failures end the strategy with `fail(DiscordLoginFailed)` or `error(e)`; DiscordCallbackGuard turns every one
 * into a redirect to the client with `?error=<code>`.
 */
@Injectable()
export class DiscordStrategy extends PassportStrategy(withAppPassport(OAuth2Strategy), DISCORD_STRATEGY) {
  readonly states: DiscordStateStore;

  constructor(
    private readonly config: AppConfig,
    private readonly discord: DiscordService,
    @Inject(APP_PASSPORT) passport: Authenticator,
    ds: DataSource,
  ) {
    const d = config.discord;
    // logins in progress live in the database: the callback may reach any node (issue #13) or a restarted one
    const states = new DiscordStateStore(new PendingLogins(ds));
    super(
      withPassportOption(passport, {
        // without Discord settings the guards answer 503 before this strategy runs
        authorizationURL: d?.authorizeUrl ?? config.discordAuthorizeUrl,
        tokenURL: `${d?.apiUrl ?? config.discordApiUrl}/oauth2/token`,
        clientID: d?.clientId ?? 'not-configured',
        clientSecret: d?.clientSecret ?? '',
        callbackURL: d?.redirectUri,
        scope: ['identify', 'email'],
        pkce: true,
        store: states as unknown as OAuth2Strategy.StateStore,
        // issue #26: validate needs the request to know whether the login links Discord to a signed-in account
        passReqToCallback: true,
      }),
    );
    this.states = states;
    const base = this._oauth2 as unknown as { _authorizeUrl: string; _accessTokenUrl: string };
    this._oauth2 = new TimedOAuth2(
      d?.clientId ?? 'not-configured',
      d?.clientSecret ?? '',
      '',
      base._authorizeUrl,
      base._accessTokenUrl,
    );
  }

  /** Registers this strategy in the app's passport instance (see withAppPassport). */
  getPassportInstance(): Authenticator {
    return this.appPassport;
  }

  /**
   * passport-oauth2 looks at `?error` before the state and starts a new login when `?code` is missing. Here the
   * state (and its cookie) is checked first on every callback, so it is used up whatever happens and a failure
   * goes back to the client that started the login; then a denial or a missing code fails the login.
   */
  override authenticate(req: AuthenticateRequest, options?: DiscordAuthenticateOptions): void {
    const query = (req.query ?? {}) as Record<string, unknown>;
    const code = query.code;
    const codeOk = typeof code === 'string' && code.length > 0 && code.length <= MAX_CODE_LENGTH;
    if (options?.phase !== 'callback') {
      if (query.code !== undefined || query.error !== undefined) {
        return this.error(new BadRequestException('A Discord login starts without code or error parameters'));
      }
      return super.authenticate(req, options);
    }
    if (query.error === undefined && codeOk) return super.authenticate(req, options);
    this.states.verify(req, query.state, undefined, (err, verifier, info) => {
      if (err) return this.error(err);
      if (!verifier) return this.fail(info, 403);
      if (query.error !== undefined) {
        return this.fail(
          new DiscordLoginFailed('discord_denied', `provider answered error=${String(query.error).slice(0, 60)}`),
          403,
        );
      }
      this.fail(new DiscordLoginFailed('no_code', 'no authorization code'), 403);
    });
  }

  override authorizationParams(): object {
    return { prompt: 'consent' };
  }

  /** A token endpoint error (4xx/5xx with a body): the login fails with `discord_failed`. */
  override parseErrorResponse(_body: unknown, status: number): Error {
    return new DiscordLoginFailed('discord_failed', `Discord exchange failed: token endpoint answered ${status}`);
  }

  /** GET users/@me with the access token (10 s timeout); the Discord id must be a snowflake. */
  override userProfile(accessToken: string, done: (err?: unknown, profile?: DiscordUser) => void): void {
    const d = this.config.discord;
    const fail = (reason: string) =>
      done(new DiscordLoginFailed('discord_failed', `Discord exchange failed: ${reason}`));
    if (!d) return fail('not configured');
    fetch(`${d.apiUrl}/users/@me`, {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    })
      .then(async (res) => {
        if (!res.ok) return fail(`users/@me answered ${res.status}`);
        const me = (await res.json()) as DiscordUser;
        if (typeof me.id !== 'string' || !/^\d{1,32}$/.test(me.id)) return fail('users/@me returned no valid id');
        done(null, me);
      })
      .catch((e: unknown) => fail((e as Error).message ?? String(e)));
  }

  /**
   * The verify callback: the account linked to this Discord id, or a new one; when the login was started from the
   * profile to link Discord (issue #26), that account, now linked.
   */
  async validate(
    req: object,
    _accessToken: string,
    _refreshToken: string | undefined,
    profile: DiscordUser,
  ): Promise<AuthUser> {
    const linkUserId = this.states.linkUserOf(req);
    const user = linkUserId ? await this.discord.linkTo(linkUserId, profile) : await this.discord.linkOrCreate(profile);
    // the account's stored role is what the session token will carry (informational, see AuthUser.tokenRole)
    return { id: user.id, username: user.username, tokenRole: user.role };
  }
}

/** Maps whatever ended a callback to its `?error=` code and logged reason. */
export function discordFailure(e: unknown): DiscordLoginFailed {
  if (e instanceof DiscordLoginFailed) return e;
  if (e instanceof InternalOAuthError) {
    const cause = (e.oauthError as { message?: unknown } | undefined)?.message;
    return new DiscordLoginFailed(
      'discord_failed',
      `Discord exchange failed: ${e.message}${typeof cause === 'string' ? ` (${cause})` : ''}`,
    );
  }
  // issue #25: creating the account was refused by the host's registration mode (closed / invite codes only)
  if (e instanceof ForbiddenException) return new DiscordLoginFailed('registration_refused', e.message);
  return new DiscordLoginFailed('account_failed', e instanceof Error ? e.message : String(e));
}
