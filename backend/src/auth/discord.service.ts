import {
  BadGatewayException,
  BadRequestException,
  Injectable,
  Logger,
  ServiceUnavailableException,
} from '@nestjs/common';
import { USERNAME_PATTERN } from '@spades/common';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppConfig, DiscordConfig } from '../config/config.schema';
import { UserEntity } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { AuthService } from './auth.service';

export const DISCORD_NOT_CONFIGURED = 'Discord login is not configured on this server';
const STATE_TTL_MS = 10 * 60 * 1000;
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

  /** The authorize URL to redirect the browser to. */
  start(client: 'web' | 'desktop'): string {
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
    return url.toString();
  }

  /** Handles the provider's redirect; returns where to send the browser (client callback with ?token=…). */
  async callback(query: Record<string, unknown>): Promise<string> {
    const d = this.settings();
    const state = typeof query.state === 'string' ? query.state : '';
    const pending = state ? this.pending.get(state) : undefined;
    if (state) this.pending.delete(state);
    if (!pending || pending.expiresAt < Date.now()) {
      throw new BadRequestException('Invalid or expired Discord login state. Please start the login again.');
    }
    if (typeof query.error === 'string') return this.clientRedirect(pending.client, { error: 'discord_denied' });
    const code = typeof query.code === 'string' ? query.code : '';
    if (!code || code.length > 512) throw new BadRequestException('Discord did not return an authorization code');

    const discordUser = await this.fetchDiscordUser(d, code, pending.verifier);
    const user = await this.linkOrCreate(discordUser);
    return this.clientRedirect(pending.client, { token: this.auth.issueToken(user.id) });
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
      this.logger.warn(`Discord exchange failed: ${(e as Error).message}`);
      throw new BadGatewayException('Discord login failed. Please try again.');
    }
  }

  /** Existing link → that account; else a verified e-mail of an existing account → link it; else a new account. */
  private async linkOrCreate(du: DiscordUser): Promise<UserEntity> {
    const repo = this.dataSource.getRepository(UserEntity);
    const linked = await repo.findOne({ where: { discordId: du.id } });
    if (linked) return linked;
    const email = du.verified && typeof du.email === 'string' && du.email.length <= 254 ? du.email : null;
    if (email) {
      const byEmail = await repo.createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email }).getOne();
      if (byEmail) {
        if (!byEmail.discordId) {
          await repo.update({ id: byEmail.id }, { discordId: du.id });
          return { ...byEmail, discordId: du.id };
        }
        // the e-mail's account is linked to another Discord account: create a separate one without e-mail
        return this.create(du, null);
      }
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
      }
    }
    throw new BadGatewayException('Could not create an account for this Discord user');
  }
}
