import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  NotFoundException,
  Optional,
} from '@nestjs/common';
import { checkUsername, STARTING_COINS, User, USERNAME_TAKEN_MESSAGE, UUID_RE } from '@spades/common';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { CoinsService } from '../coins/coins.service';
import { REGISTRATION_GATE, type RegistrationGate } from '../settings/registration.gate';
import { StatsService } from '../stats/stats.service';
import { UserEntity } from './user.entity';

/** Roles stored on accounts (issue #24; moderators get their powers with the console, issue #25). */
export type AccountRole = 'user' | 'moderator' | 'admin';

export interface NewUser {
  username: string;
  email: string | null;
  passwordHash: string | null;
  discordId?: string | null;
  avatar?: string | null;
  /** Issue #25: the invite code typed at registration (checked when the host's registration is by invitation). */
  inviteCode?: string | null;
}

/** Maps unique-index violations to clear 409s. */
export function uniqueViolation(e: unknown): ConflictException | null {
  if (!(e instanceof QueryFailedError)) return null;
  const d = e.driverError as { code?: string; constraint?: string; message?: string };
  if (d?.code !== '23505') return null;
  const what = `${d.constraint ?? ''} ${d.message ?? ''}`;
  if (what.includes('username_key')) return new ConflictException(USERNAME_TAKEN_MESSAGE);
  if (what.includes('username')) return new ConflictException('That username is already taken');
  if (what.includes('email')) return new ConflictException('An account with this email already exists');
  if (what.includes('discord')) return new ConflictException('This Discord account is already linked');
  return new ConflictException('Already exists');
}

/** The stored form and look-alike key of a username, or 400 with the rule it breaks. */
function usernameOf(input: string): { username: string; key: string } {
  const r = checkUsername(input);
  if (!r.ok) throw new BadRequestException(r.message);
  return r;
}

@Injectable()
export class UsersService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly coins: CoinsService,
    private readonly stats: StatsService,
    /** Issue #25: the host's registration mode, invite codes and starting coins (SettingsModule). */
    @Optional() @Inject(REGISTRATION_GATE) private readonly gate?: RegistrationGate,
  ) {}

  /**
   * Inserts the user and grants the starting coins from the house through the ledger, in ONE transaction
   * (the caller's when `manager` is inside one). The username is checked and normalized here (`checkUsername`:
   * every path that creates an account — register, Discord — goes through it); a name that looks like another
   * account's (same `nameKey`) is refused with 409.
   */
  async createUser(data: NewUser, manager?: EntityManager): Promise<UserEntity> {
    const name = usernameOf(data.username);
    const run = async (m: EntityManager) => {
      await this.gate?.admit(m, data.inviteCode);
      const repo = m.getRepository(UserEntity);
      const user = repo.create({
        username: name.username,
        usernameKey: name.key,
        email: data.email,
        passwordHash: data.passwordHash,
        discordId: data.discordId ?? null,
        avatar: data.avatar ?? null,
      });
      try {
        await repo.insert(user);
      } catch (e) {
        throw uniqueViolation(e) ?? e;
      }
      const grant = this.gate?.startingCoins() ?? STARTING_COINS;
      if (grant > 0) await this.coins.transfer(m, 'house', { userId: user.id }, grant, 'registration_grant', user.id);
      return user;
    };
    if (manager?.queryRunner?.isTransactionActive) return run(manager);
    return (manager ?? this.dataSource.manager).transaction(run);
  }

  /** Renames an account (normalized; 409 when the name looks like another account's). The role never changes. */
  async rename(id: string, username: string, manager: EntityManager = this.dataSource.manager): Promise<void> {
    const name = usernameOf(username);
    try {
      await manager.getRepository(UserEntity).update({ id }, { username: name.username, usernameKey: name.key });
    } catch (e) {
      throw uniqueViolation(e) ?? e;
    }
  }

  async findById(id: string): Promise<UserEntity | null> {
    if (!UUID_RE.test(id)) return null;
    return this.dataSource.getRepository(UserEntity).findOne({ where: { id } });
  }

  async getById(id: string): Promise<UserEntity> {
    const u = await this.findById(id);
    if (!u) throw new NotFoundException('User not found');
    return u;
  }

  /**
   * Id and username of an existing account (the session check: one small query, no avatar). `issuedAtMs` (the
   * token's issue time, ms since the epoch): a token issued before the account's `sessions_revoked_at` (console
   * "revoke sessions", every ban — issue #25) is refused; so is a token without an issue time once it is set.
   */
  async findIdentity(id: string, issuedAtMs?: number): Promise<{ id: string; username: string } | null> {
    if (!UUID_RE.test(id)) return null;
    const issued = typeof issuedAtMs === 'number' && Number.isFinite(issuedAtMs) ? issuedAtMs : null;
    const rows: { id: string; username: string }[] = await this.dataSource.query(
      `SELECT id, username FROM users
        WHERE id = $1 AND (sessions_revoked_at IS NULL OR $2::double precision > extract(epoch FROM sessions_revoked_at) * 1000)`,
      [id, issued],
    );
    return rows[0] ?? null;
  }

  /**
   * The account's stored role ('user' when the account is unknown). Roles live on the account, never matched by
   * name or e-mail (issue #24): read at request time, so a revoked role takes effect at once.
   */
  async roleOf(id: string): Promise<AccountRole> {
    if (!UUID_RE.test(id)) return 'user';
    const rows: { role: AccountRole }[] = await this.dataSource.query(`SELECT role FROM users WHERE id = $1`, [id]);
    return rows[0]?.role ?? 'user';
  }

  async isAdmin(id: string): Promise<boolean> {
    return (await this.roleOf(id)) === 'admin';
  }

  async exists(id: string): Promise<boolean> {
    if (!UUID_RE.test(id)) return false;
    const rows: unknown[] = await this.dataSource.query(`SELECT 1 FROM users WHERE id = $1`, [id]);
    return rows.length > 0;
  }

  /** With password hash (select: false column). */
  async findByEmailWithPassword(email: string): Promise<UserEntity | null> {
    return this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .addSelect('u.passwordHash')
      .where('lower(u.email) = lower(:email)', { email })
      .getOne();
  }

  /** The API's User: coins from the ledger, stats over all modes. */
  async toUser(u: UserEntity): Promise<User> {
    const [coins, stats] = await Promise.all([
      this.coins.balanceOf({ userId: u.id }),
      this.stats.getStats(u.id, 'ALL'),
    ]);
    return {
      id: u.id,
      username: u.username,
      email: u.email,
      avatar: u.avatar,
      coins: Number(coins),
      stats,
      discordLinked: !!u.discordId,
      createdAt: u.createdAt.toISOString(),
      role: u.role,
    };
  }
}
