import {
  BadRequestException,
  ForbiddenException,
  HttpException,
  HttpStatus,
  Injectable,
  Optional,
  UnauthorizedException,
} from '@nestjs/common';
import type { AuthResponse, User } from '@spades/common';
import * as argon2 from 'argon2';
import { DataSource } from 'typeorm';
import { SanctionsService } from '../moderation/sanctions.service';
import { UsersService } from '../users/users.service';
import { UserEntity } from '../users/user.entity';
import { LoginDto, RegisterDto, UpdateProfileDto } from './auth.dto';
import { avatarError } from './avatar';
import type { DiscordOutcome } from './discord.service';
import { LoginLimiter, RegistrationLimiter } from './login-limiter';
import { TokenService } from './token.service';

/** OWASP argon2id baseline: m = 19 MiB, t = 2, p = 1. */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;
export const LOGIN_FAILED_MESSAGE = 'Invalid email or password';

@Injectable()
export class AuthService {
  /** Verified against when the account does not exist, so both paths cost one argon2 verification. */
  private dummyHash: Promise<string> | undefined;

  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UsersService,
    private readonly tokens: TokenService,
    private readonly limiter: LoginLimiter,
    private readonly registrations: RegistrationLimiter,
    /** Issue #25: a banned account's sign-in is refused with the reason and the end (403). */
    @Optional() private readonly sanctions?: SanctionsService,
  ) {}

  async register(dto: RegisterDto, ip: string): Promise<AuthResponse> {
    const wait = this.registrations.retryAfter(ip);
    if (wait > 0) {
      throw new HttpException(
        { message: `Too many accounts created from this address. Try again in ${Math.ceil(wait / 60)} minute(s).` },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    const passwordHash = await argon2.hash(dto.password, ARGON2_OPTIONS);
    const user = await this.users.createUser({
      username: dto.username,
      email: dto.email.trim(),
      passwordHash,
      inviteCode: dto.inviteCode,
    });
    this.registrations.record(ip);
    return { token: this.tokens.sign(user.id, user.role), user: await this.users.toUser(user) };
  }

  async login(dto: LoginDto, ip: string): Promise<AuthResponse> {
    const account = dto.email.trim().toLowerCase();
    const wait = this.limiter.retryAfter(ip, account);
    if (wait > 0) {
      throw new HttpException(
        { message: `Too many failed login attempts. Try again in ${Math.ceil(wait / 60)} minute(s).` },
        HttpStatus.TOO_MANY_REQUESTS,
      );
    }
    const user = await this.users.findByEmailWithPassword(account);
    this.dummyHash ??= argon2.hash('not-a-real-password-000', ARGON2_OPTIONS);
    const hash = user?.passwordHash ?? (await this.dummyHash);
    const ok = await argon2.verify(hash, dto.password).catch(() => false);
    if (!user || !user.passwordHash || !ok) {
      this.limiter.recordFailure(ip, account);
      throw new UnauthorizedException(LOGIN_FAILED_MESSAGE);
    }
    this.limiter.recordSuccess(ip, account);
    const refusal = await this.sanctions?.signInRefusal(user.id);
    if (refusal) throw new ForbiddenException(refusal);
    return { token: this.tokens.sign(user.id, user.role), user: await this.users.toUser(user) };
  }

  /** Issue #25: a Discord sign-in of a banned account ends with `?error=banned&message=<why and until when>`. */
  async admitDiscord(outcome: DiscordOutcome): Promise<DiscordOutcome> {
    if (!('userId' in outcome)) return outcome;
    const refusal = await this.sanctions?.signInRefusal(outcome.userId);
    // the desktop app takes at most 300 characters of `message` through its spades:// link
    const message = refusal && refusal.length > 300 ? `${refusal.slice(0, 299)}…` : refusal;
    return message ? { client: outcome.client, error: 'banned', message } : outcome;
  }

  async profile(userId: string): Promise<User> {
    const user = await this.users.toUser(await this.users.getById(userId));
    // issue #25: an active mute, and a warning or forced rename the player has not been shown yet
    const standing = await this.sanctions?.standing(userId);
    return standing ? { ...user, standing } : user;
  }

  async updateProfile(userId: string, dto: UpdateProfileDto): Promise<User> {
    if (dto.username === undefined && dto.avatar === undefined) {
      throw new BadRequestException('Nothing to update: send username and/or avatar');
    }
    if (typeof dto.avatar === 'string') {
      const err = avatarError(dto.avatar);
      if (err) throw new BadRequestException(err);
    }
    // one transaction: a refused name leaves the avatar unchanged too
    await this.dataSource.transaction(async (m) => {
      if (dto.username !== undefined) await this.users.rename(userId, dto.username, m);
      if (dto.avatar !== undefined) await m.getRepository(UserEntity).update({ id: userId }, { avatar: dto.avatar });
    });
    return this.profile(userId);
  }
}
