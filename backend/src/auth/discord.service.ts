import { Injectable } from '@nestjs/common';
import { nameKey, normalizeName, USERNAME_PATTERN } from '@spades/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/config.schema';
import { UserEntity } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { SsoAccountsService } from './sso-accounts.service';
import { TokenService, UserRole } from './token.service';

export const DISCORD_NOT_CONFIGURED = 'Discord login is not configured on this server';

export { DiscordLoginFailed, type DiscordClient, type DiscordErrorCode } from './discord.errors';
import { DiscordLoginFailed, type DiscordClient, type DiscordErrorCode } from './discord.errors';

/** What `users/@me` returns (the fields used). */
export interface DiscordUser {
  id: string;
  username?: string;
  global_name?: string | null;
  email?: string | null;
  verified?: boolean;
}

/** How a callback ended: an account to sign in, or an error code; either way for the client that started it. */
export type DiscordOutcome =
  | { client: DiscordClient; userId: string; role?: UserRole }
  | { client: DiscordClient; error: DiscordErrorCode; message?: string };

/**
 * The account side of the Discord login (the OAuth2 side is DiscordStrategy): links or creates the account of a
 * Discord user and says where the browser goes at the end of a callback.
 */
@Injectable()
export class DiscordService {
  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly tokens: TokenService,
    private readonly accounts: SsoAccountsService,
  ) {}

  /**
   * Where to send the browser after the callback: the client callback with `?token=…` on success, `?error=<code>`
   * otherwise (spades://auth/callback when the login was started by the desktop app).
   */
  redirectFor(outcome: DiscordOutcome): string {
    const params: Record<string, string> =
      'userId' in outcome
        ? { token: this.tokens.sign(outcome.userId, outcome.role ?? 'user') }
        : { error: outcome.error, ...(outcome.message ? { message: outcome.message } : {}) };
    const base = outcome.client === 'desktop' ? 'spades://auth/callback' : `${this.config.clientUrl}/auth/callback`;
    return `${base}?${new URLSearchParams(params).toString()}`;
  }

  /**
   * Signs in ONLY by Discord id: an account already linked to this Discord user signs in; otherwise a new account
   * is created. Never linked or merged by e-mail: registration does not verify e-mail ownership, so linking by
   * e-mail would let whoever registered an address first take over the Discord user's login (or vice versa).
   * Issue #26, the rule of every provider (SsoAccountsService.linkRequired): when Discord's VERIFIED e-mail is
   * already an account's, nothing is created either; the login fails with `link_required` and the player signs in
   * to that account and links Discord from the profile. The new account keeps Discord's e-mail when it is
   * verified; an unverified one is not kept.
   */
  async linkOrCreate(du: DiscordUser): Promise<UserEntity> {
    const repo = this.dataSource.getRepository(UserEntity);
    const linked = await repo.findOne({ where: { discordId: du.id } });
    if (linked) return linked;
    const email = du.verified && typeof du.email === 'string' && du.email.length <= 254 ? du.email : null;
    const required = await this.accounts.linkRequired('discord', email);
    if (required)
      throw new DiscordLoginFailed(
        'link_required',
        'verified e-mail of an existing account: sign in to it and link Discord',
        required.message,
      );
    return this.create(du, email);
  }

  /**
   * Issue #26: links Discord user `du` to the signed-in account `userId` (profile → Link Discord). Refused when the
   * Discord user belongs to another account or the account has another Discord user.
   */
  async linkTo(userId: string, du: DiscordUser): Promise<UserEntity> {
    const repo = this.dataSource.getRepository(UserEntity);
    const owner = await repo.findOne({ where: { discordId: du.id } });
    if (owner && owner.id !== userId)
      throw new DiscordLoginFailed('identity_in_use', 'Discord user linked to another account');
    if (owner) return owner;
    const target = await repo.findOne({ where: { id: userId } });
    if (!target) throw new DiscordLoginFailed('account_failed', 'the account to link no longer exists');
    if (target.discordId) throw new DiscordLoginFailed('already_linked', 'the account has another Discord user linked');
    try {
      await repo.update({ id: userId }, { discordId: du.id });
    } catch {
      throw new DiscordLoginFailed('identity_in_use', 'Discord user linked to another account meanwhile');
    }
    return { ...target, discordId: du.id };
  }

  private async create(du: DiscordUser, email: string | null): Promise<UserEntity> {
    // NFKC first (a fullwidth or styled Discord name keeps its letters), then only what a username may hold
    let base = normalizeName(du.global_name || du.username || 'player')
      .replace(/[^A-Za-z0-9_-]/g, '')
      .slice(0, 15);
    if (base.length < 3) base = `player${base}`.slice(0, 15);
    for (let attempt = 0; attempt < 8; attempt++) {
      const username = attempt === 0 ? base : `${base}_${randomBytes(2).toString('hex')}`;
      if (!USERNAME_PATTERN.test(username)) continue;
      // taken, or looks like a name that is (the look-alike key, issue #24)
      const taken: unknown[] = await this.dataSource.query(`SELECT 1 FROM users WHERE username_key = $1`, [
        nameKey(username),
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
