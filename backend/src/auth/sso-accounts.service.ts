import { BadRequestException, ForbiddenException, Injectable, NotFoundException } from '@nestjs/common';
import {
  IDENTITY_MESSAGES,
  nameKey,
  normalizeName,
  USERNAME_PATTERN,
  type IdentitiesView,
  type LinkedIdentity,
  type SsoErrorCode,
  type SsoProviderInfo,
} from '@spades/common';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../config/config.schema';
import { UserEntity } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import type { SsoIdentity, SsoSuccess } from './oidc.strategy';
import type { SsoClient } from './sso-state.store';
import type { UserRole } from './token.service';

/** How an SSO callback ended: an account to sign in (`linked` when a provider was just linked), or an error. */
export type SsoOutcome =
  | { client: SsoClient; userId: string; role?: UserRole; linked?: string }
  | { client: SsoClient; error: SsoErrorCode; message?: string };

interface IdentityRow {
  provider: string;
  subject: string;
  user_id: string;
  email: string | null;
  created_at: Date;
}

/**
 * The account side of OIDC / GitHub sign-in (issue #26); Discord sign-in (DiscordService) shares its e-mail rule
 * (`linkRequired`). An identity is (provider id, subject): linked to at most
 * one account, an account has at most one per provider.
 * - Sign-in: a linked identity signs in its account. Otherwise, when the provider's VERIFIED e-mail is an
 *   account's e-mail, nothing is created or merged: the player is asked to sign in to that account and link the
 *   provider from the profile (`link_required`). Otherwise a new account is created (registration mode applies).
 * - Link: a signed-in player (a single-use ticket carried through the login's state) adds the identity.
 * - Unlink: never the last way to sign in (password, Discord or another identity).
 */
@Injectable()
export class SsoAccountsService {
  constructor(
    private readonly config: AppConfig,
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
  ) {}

  label(provider: string): string {
    if (provider === 'password') return 'E-mail and password';
    if (provider === 'discord') return 'Discord';
    return this.config.sso?.find((p) => p.id === provider)?.label ?? provider;
  }

  async resolve(s: SsoSuccess): Promise<SsoOutcome> {
    const { identity, pending } = s;
    const client = pending.client;
    const existing = await this.findIdentity(identity.provider, identity.subject);
    if (pending.linkUserId) {
      const target = pending.linkUserId;
      if (existing && existing.user_id !== target) return { client, error: 'identity_in_use' };
      if (!existing) {
        const other: unknown[] = await this.dataSource.query(
          `SELECT 1 FROM user_identities WHERE user_id = $1 AND provider = $2`,
          [target, identity.provider],
        );
        if (other.length) return { client, error: 'already_linked' };
        const inserted = await this.insertIdentity(this.dataSource.manager, target, identity);
        if (!inserted) return { client, error: 'identity_in_use' };
      }
      const user = await this.dataSource.getRepository(UserEntity).findOne({ where: { id: target } });
      if (!user) return { client, error: 'account_failed' };
      return { client, userId: user.id, role: user.role, linked: identity.provider };
    }
    if (existing) {
      const user = await this.dataSource.getRepository(UserEntity).findOne({ where: { id: existing.user_id } });
      if (!user) return { client, error: 'account_failed' };
      return { client, userId: user.id, role: user.role };
    }
    const required = await this.linkRequired(identity.provider, identity.email);
    if (required) return { client, ...required };
    try {
      const user = await this.create(identity);
      return { client, userId: user.id, role: user.role };
    } catch (e) {
      // issue #25: the host's registration mode (closed / invite codes only) refuses new accounts
      if (e instanceof ForbiddenException) return { client, error: 'registration_refused', message: e.message };
      throw e;
    }
  }

  /**
   * The rule of every sign-in provider, Discord included: a sign-in that would create a new account, whose provider
   * vouches for an e-mail (VERIFIED: pass null otherwise) that an account already uses, creates and merges nothing.
   * The owner of that e-mail signs in first and links the provider from the profile. Answers the `link_required`
   * outcome (`message`: the provider's label, shown by the clients' link-required page), or null when no account
   * uses the e-mail.
   */
  async linkRequired(
    provider: string,
    verifiedEmail: string | null | undefined,
  ): Promise<{ error: 'link_required'; message: string } | null> {
    if (!verifiedEmail) return null;
    const owner: unknown[] = await this.dataSource.query(`SELECT 1 FROM users WHERE lower(email) = lower($1)`, [
      verifiedEmail,
    ]);
    return owner.length ? { error: 'link_required', message: this.label(provider) } : null;
  }

  private async findIdentity(provider: string, subject: string): Promise<IdentityRow | null> {
    const rows: IdentityRow[] = await this.dataSource.query(
      `SELECT provider, subject, user_id, email, created_at FROM user_identities WHERE provider = $1 AND subject = $2`,
      [provider, subject],
    );
    return rows[0] ?? null;
  }

  /** false when the identity (or this provider for the account) is taken meanwhile. */
  private async insertIdentity(m: EntityManager, userId: string, id: SsoIdentity): Promise<boolean> {
    const rows: unknown[] = await m.query(
      `INSERT INTO user_identities (provider, subject, user_id, email) VALUES ($1, $2, $3, $4)
       ON CONFLICT DO NOTHING RETURNING 1`,
      [id.provider, id.subject, userId, id.email],
    );
    return rows.length > 0;
  }

  private async create(id: SsoIdentity): Promise<UserEntity> {
    let base = normalizeName(id.name || id.email?.split('@')[0] || 'player')
      .replace(/[^A-Za-z0-9_-]/g, '')
      .slice(0, 15);
    if (base.length < 3) base = `player${base}`.slice(0, 15);
    for (let attempt = 0; attempt < 8; attempt++) {
      const username = attempt === 0 ? base : `${base}_${randomBytes(2).toString('hex')}`;
      if (!USERNAME_PATTERN.test(username)) continue;
      const taken: unknown[] = await this.dataSource.query(`SELECT 1 FROM users WHERE username_key = $1`, [
        nameKey(username),
      ]);
      if (taken.length) continue;
      try {
        return await this.dataSource.transaction(async (m) => {
          const user = await this.users.createUser({ username, email: id.email, passwordHash: null }, m);
          if (!(await this.insertIdentity(m, user.id, id))) throw new Error('identity linked meanwhile');
          return user;
        });
      } catch (e) {
        if ((e as { status?: number }).status !== 409) {
          // a concurrent callback of the same identity created its account first
          const again = await this.findIdentity(id.provider, id.subject);
          const user =
            again && (await this.dataSource.getRepository(UserEntity).findOne({ where: { id: again.user_id } }));
          if (user) return user;
          throw e;
        }
        if (/email/i.test((e as Error).message)) id = { ...id, email: null };
      }
    }
    throw new Error('could not create an account for this sign-in');
  }

  // ----- the profile's identity routes ----------------------------------------------------------------------------

  async list(userId: string): Promise<IdentitiesView> {
    const user = await this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .addSelect('u.passwordHash')
      .where('u.id = :id', { id: userId })
      .getOne();
    if (!user) throw new NotFoundException({ message: 'Account not found' });
    const rows: IdentityRow[] = await this.dataSource.query(
      `SELECT provider, subject, user_id, email, created_at FROM user_identities WHERE user_id = $1 ORDER BY created_at`,
      [userId],
    );
    const ways = (user.passwordHash ? 1 : 0) + (user.discordId ? 1 : 0) + rows.length;
    const linked: LinkedIdentity[] = [];
    if (user.passwordHash) {
      linked.push({
        provider: 'password',
        label: this.label('password'),
        email: user.email,
        linkedAt: null,
        canUnlink: false,
      });
    }
    if (user.discordId) {
      linked.push({ provider: 'discord', label: 'Discord', email: null, linkedAt: null, canUnlink: ways > 1 });
    }
    for (const r of rows) {
      linked.push({
        provider: r.provider,
        label: this.label(r.provider),
        email: r.email,
        linkedAt: new Date(r.created_at).toISOString(),
        canUnlink: ways > 1,
      });
    }
    const have = new Set(rows.map((r) => r.provider));
    const available: SsoProviderInfo[] = (this.config.sso ?? [])
      .filter((p) => !have.has(p.id))
      .map((p) => ({ id: p.id, label: p.label, kind: p.kind }));
    if (this.config.discord && !user.discordId) available.unshift({ id: 'discord', label: 'Discord', kind: 'discord' });
    return { linked, available };
  }

  /** Unlinks `provider` (an SSO id or `discord`) unless it is the account's last way to sign in. */
  async unlink(userId: string, provider: string): Promise<IdentitiesView> {
    if (provider === 'password') throw new BadRequestException({ message: IDENTITY_MESSAGES.lastSignIn });
    await this.dataSource.transaction(async (m) => {
      // lock the account row: two concurrent unlinks cannot both pass the "not the last one" check
      const rows: { password: boolean; discord: boolean }[] = await m.query(
        `SELECT password_hash IS NOT NULL AS password, discord_id IS NOT NULL AS discord FROM users WHERE id = $1 FOR UPDATE`,
        [userId],
      );
      const u = rows[0];
      if (!u) throw new NotFoundException({ message: 'Account not found' });
      const ids: { provider: string }[] = await m.query(`SELECT provider FROM user_identities WHERE user_id = $1`, [
        userId,
      ]);
      const has = provider === 'discord' ? u.discord : ids.some((i) => i.provider === provider);
      if (!has) throw new NotFoundException({ message: IDENTITY_MESSAGES.notLinked });
      const ways = (u.password ? 1 : 0) + (u.discord ? 1 : 0) + ids.length;
      if (ways <= 1) throw new BadRequestException({ message: IDENTITY_MESSAGES.lastSignIn });
      if (provider === 'discord') await m.query(`UPDATE users SET discord_id = NULL WHERE id = $1`, [userId]);
      else await m.query(`DELETE FROM user_identities WHERE user_id = $1 AND provider = $2`, [userId, provider]);
    });
    return this.list(userId);
  }
}
