import { Injectable, Logger, ServiceUnavailableException } from '@nestjs/common';
import { USERNAME_PATTERN } from '@spades/common';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppConfig, DiscordConfig } from '../config/config.schema';
import { UserEntity } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { AuthService } from './auth.service';

export const DISCORD_NOT_CONFIGURED = 'Discord login is not configured on this server';
const STATE_TTL_MS = 10 * 60 * 1000;
/**
 * Binds a login's `state` to the browser that started it (login CSRF): set at GET /api/auth/discord, HttpOnly,
 * SameSite=Lax, path /api/auth/discord, holding a hash of the state; the callback requires it and clears it.
 */
export const DISCORD_STATE_COOKIE = 'spades_discord_state';
export const DISCORD_STATE_COOKIE_PATH = '/api/auth/discord';
export const DISCORD_STATE_COOKIE_MAX_AGE_MS = STATE_TTL_MS;

/** What the state cookie holds for a state (a hash: the raw state travels only through the provider). */
export const stateCookieValue = (state: string) => createHash('sha256').update(state).digest('base64url');

/** `?error=` codes of a failed callback (the client treats any of them as "no token"). */
export type DiscordErrorCode =
  'invalid_state' | 'state_mismatch' | 'discord_denied' | 'no_code' | 'discord_failed' | 'account_failed';

class CallbackFailed extends Error {
  constructor(
    readonly code: DiscordErrorCode,
    readonly reason: string,
  ) {
    super(reason);
  }
}
const MAX_PENDING = 10_000;

interface PendingLogin {
  verifier: string;
  client: 'web' | 'desktop';
  expiresAt: number;
}

interface DiscordUser {
  id: string;
  username?: string;
  global_name?: string | null;
  email?: string | null;
  verified?: boolean;
}

const b64url = (b: Buffer) => b.toString('base64url');

/**
 * Discord OAuth2 authorization-code flow with `state` (single use, 10 min, kept in memory) and PKCE S256.
 * Base URLs come from configuration (DISCORD_AUTHORIZE_URL, DISCORD_API_URL) so tests use a loopback provider.
 */
@Injectable()
export class DiscordService {
  private readonly logger = new Logger('DiscordAuth');
  private readonly pending = new Map<string, PendingLogin>();

  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly auth: AuthService,
  ) {}

  private settings(): DiscordConfig {
    if (!this.config.discord) throw new ServiceUnavailableException({ message: DISCORD_NOT_CONFIGURED });
    return this.config.discord;
  }

  /** The authorize URL to redirect the browser to, and the state to bind to the browser (cookie). */
  start(client: 'web' | 'desktop'): { url: string; state: string } {
    const d = this.settings();
    const now = Date.now();
    for (const [k, v] of this.pending) if (v.expiresAt < now) this.pending.delete(k);
    if (this.pending.size >= MAX_PENDING) this.pending.delete(this.pending.keys().next().value as string);
    const state = b64url(randomBytes(32));
    const verifier = b64url(randomBytes(48));
    const challenge = b64url(createHash('sha256').update(verifier).digest());
    this.pending.set(state, { verifier, client, expiresAt: now + STATE_TTL_MS });
    const url = new URL(d.authorizeUrl);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: d.clientId,
      scope: 'identify email',
      redirect_uri: d.redirectUri,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      prompt: 'consent',
    }).toString();
    return { url: url.toString(), state };
  }

  /**
   * Handles the provider's redirect; always returns where to send the browser: the client callback with
   * `?token=…` on success, `?error=<code>` otherwise (spades:// when the login was started by the desktop app).
   * `stateCookie` is the value of the browser's state cookie (undefined when absent). Throws only when Discord
   * login is not configured.
   */
  async callback(query: Record<string, unknown>, stateCookie: string | undefined): Promise<string> {
    const d = this.settings();
    const state = typeof query.state === 'string' ? query.state : '';
    const pending = state ? this.pending.get(state) : undefined;
    if (state) this.pending.delete(state); // single use, whatever happens next
    const client = pending?.client ?? 'web';
    try {
      if (!pending || pending.expiresAt < Date.now())
        throw new CallbackFailed('invalid_state', state ? 'unknown or expired state' : 'no state');
      if (!stateCookie || !sameText(stateCookie, stateCookieValue(state)))
        throw new CallbackFailed(
          'state_mismatch',
          stateCookie ? 'state cookie belongs to another login' : 'no state cookie (login not started in this browser)',
        );
      if (typeof query.error === 'string')
        throw new CallbackFailed('discord_denied', `provider answered error=${query.error.slice(0, 60)}`);
      const code = typeof query.code === 'string' ? query.code : '';
      if (!code || code.length > 512) throw new CallbackFailed('no_code', 'no authorization code');
      const discordUser = await this.fetchDiscordUser(d, code, pending.verifier);
      const user = await this.linkOrCreate(discordUser);
      return this.clientRedirect(client, { token: this.auth.issueToken(user.id, user.role) });
    } catch (e) {
      const failure =
        e instanceof CallbackFailed ? e : new CallbackFailed('account_failed', (e as Error).message ?? String(e));
      this.logger.warn(`Discord login rejected (${failure.code}): ${failure.reason}`);
      return this.clientRedirect(client, { error: failure.code });
    }
  }

  private clientRedirect(client: 'web' | 'desktop', params: Record<string, string>): string {
    const base = client === 'desktop' ? 'spades://auth/callback' : `${this.config.clientUrl}/auth/callback`;
    return `${base}?${new URLSearchParams(params).toString()}`;
  }

  private async fetchDiscordUser(d: DiscordConfig, code: string, verifier: string): Promise<DiscordUser> {
    try {
      const tokenRes = await fetch(`${d.apiUrl}/oauth2/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: d.redirectUri,
          client_id: d.clientId,
          client_secret: d.clientSecret,
          code_verifier: verifier,
        }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!tokenRes.ok) throw new Error(`token endpoint answered ${tokenRes.status}`);
      const tok = (await tokenRes.json()) as { access_token?: unknown; token_type?: unknown };
      if (typeof tok.access_token !== 'string') throw new Error('token endpoint returned no access_token');
      const meRes = await fetch(`${d.apiUrl}/users/@me`, {
        headers: { authorization: `Bearer ${tok.access_token}`, accept: 'application/json' },
        signal: AbortSignal.timeout(10_000),
      });
      if (!meRes.ok) throw new Error(`users/@me answered ${meRes.status}`);
      const me = (await meRes.json()) as DiscordUser;
      if (typeof me.id !== 'string' || !/^\d{1,32}$/.test(me.id)) throw new Error('users/@me returned no valid id');
      return me;
    } catch (e) {
      throw new CallbackFailed('discord_failed', `Discord exchange failed: ${(e as Error).message}`);
    }
  }

  /**
   * Links ONLY by Discord id: an account already linked to this Discord user signs in; otherwise a new account
   * is created. Never linked by e-mail: registration does not verify e-mail ownership, so linking by e-mail
   * would let whoever registered an address first take over the Discord user's login (or vice versa). The
   * new account keeps Discord's e-mail only when it is verified and no other account uses it (the users table
   * has a unique index on lower(email)); otherwise it is created without an e-mail.
   */
  private async linkOrCreate(du: DiscordUser): Promise<UserEntity> {
    const repo = this.dataSource.getRepository(UserEntity);
    const linked = await repo.findOne({ where: { discordId: du.id } });
    if (linked) return linked;
    let email = du.verified && typeof du.email === 'string' && du.email.length <= 254 ? du.email : null;
    if (email) {
      const taken: unknown[] = await this.dataSource.query(`SELECT 1 FROM users WHERE lower(email) = lower($1)`, [
        email,
      ]);
      if (taken.length) email = null;
    }
    return this.create(du, email);
  }

  private async create(du: DiscordUser, email: string | null): Promise<UserEntity> {
    let base = (du.global_name || du.username || 'player').replace(/[^A-Za-z0-9_-]/g, '').slice(0, 15);
    if (base.length < 3) base = `player${base}`.slice(0, 15);
    for (let attempt = 0; attempt < 8; attempt++) {
      const username = attempt === 0 ? base : `${base}_${randomBytes(2).toString('hex')}`;
      if (!USERNAME_PATTERN.test(username)) continue;
      const taken: unknown[] = await this.dataSource.query(`SELECT 1 FROM users WHERE lower(username) = lower($1)`, [
        username,
      ]);
      if (taken.length) continue;
      try {
        return await this.users.createUser({ username, email, passwordHash: null, discordId: du.id });
      } catch (e) {
        if ((e as { status?: number }).status !== 409) throw e;
        const message = (e as Error).message;
        if (/Discord/.test(message)) {
          // a concurrent callback of the same Discord user created it first
          const linked = await this.dataSource.getRepository(UserEntity).findOne({ where: { discordId: du.id } });
          if (linked) return linked;
        }
        if (/email/.test(message)) email = null; // taken meanwhile: the Discord account goes without it
      }
    }
    throw new Error('could not create an account for this Discord user');
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
