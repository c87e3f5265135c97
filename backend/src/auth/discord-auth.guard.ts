import { ExecutionContext, Injectable, Logger, ServiceUnavailableException } from '@nestjs/common';
import { AppConfig } from '../config/config.schema';
import { AppAuthGuard } from './app-passport';
import { DISCORD_NOT_CONFIGURED, DiscordOutcome } from './discord.service';
import { DISCORD_STRATEGY, DiscordAuthenticateOptions, discordFailure, DiscordStrategy } from './discord.strategy';
import type { AuthUser } from './jwt.strategy';

/** 503 `{ message }` on both Discord routes when Discord login is not configured. */
function requireDiscord(config: AppConfig): void {
  if (!config.discord) throw new ServiceUnavailableException({ message: DISCORD_NOT_CONFIGURED });
}

/** GET /api/auth/discord: the strategy sets the state cookie and redirects the browser to Discord. */
@Injectable()
export class DiscordLoginGuard extends AppAuthGuard(DISCORD_STRATEGY) {
  constructor(private readonly config: AppConfig) {
    super();
  }

  override canActivate(ctx: ExecutionContext): Promise<boolean> {
    requireDiscord(this.config);
    return super.canActivate(ctx) as Promise<boolean>;
  }

  override getAuthenticateOptions(): DiscordAuthenticateOptions {
    return { phase: 'start' };
  }
}

/**
 * GET /api/auth/discord/callback: runs the strategy and never answers 401. Whatever the outcome, the request's
 * `user` is a DiscordOutcome (the account, or the `?error=` code) for the client that started the login; each
 * failure is logged as one warn line `Discord login rejected (<code>): <reason>`.
 */
@Injectable()
export class DiscordCallbackGuard extends AppAuthGuard(DISCORD_STRATEGY) {
  private readonly logger = new Logger('DiscordAuth');

  constructor(
    private readonly config: AppConfig,
    private readonly strategy: DiscordStrategy,
  ) {
    super();
  }

  override canActivate(ctx: ExecutionContext): Promise<boolean> {
    requireDiscord(this.config);
    return super.canActivate(ctx) as Promise<boolean>;
  }

  override getAuthenticateOptions(): DiscordAuthenticateOptions {
    return { phase: 'callback' };
  }

  override handleRequest<T = DiscordOutcome>(err: unknown, user: unknown, info: unknown, ctx: ExecutionContext): T {
    const client = this.strategy.states.clientOf(ctx.switchToHttp().getRequest<object>());
    if (!err && user) return { client, userId: (user as AuthUser).id, role: (user as AuthUser).tokenRole } as T;
    const failure = discordFailure(err ?? info);
    this.logger.warn(`Discord login rejected (${failure.code}): ${failure.reason}`);
    return { client, error: failure.code } as T;
  }
}
