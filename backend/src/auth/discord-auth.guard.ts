import {
  BadRequestException,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  Logger,
  Optional,
  ServiceUnavailableException,
} from '@nestjs/common';
import { REGISTRATION_MESSAGES } from '@spades/common';
import { AppConfig } from '../config/config.schema';
import { SettingsService } from '../settings/settings.service';
import { AppAuthGuard } from './app-passport';
import { DISCORD_NOT_CONFIGURED, DiscordOutcome } from './discord.service';
import { DISCORD_STRATEGY, DiscordAuthenticateOptions, discordFailure, DiscordStrategy } from './discord.strategy';
import type { AuthUser } from './jwt.strategy';
import { SsoStrategies } from './sso.strategies';

/**
 * 503 `{ message }` on both Discord routes when Discord login is not configured; 403 when the host does not offer
 * it (issue #25: a console setting, live).
 */
function requireDiscord(config: AppConfig, settings?: SettingsService): void {
  if (!config.discord) throw new ServiceUnavailableException({ message: DISCORD_NOT_CONFIGURED });
  if (settings && !settings.discordOffered()) throw new ForbiddenException(REGISTRATION_MESSAGES.signInNotOffered);
}

/** GET /api/auth/discord: the strategy sets the state cookie and redirects the browser to Discord. */
@Injectable()
export class DiscordLoginGuard extends AppAuthGuard(DISCORD_STRATEGY) {
  constructor(
    private readonly config: AppConfig,
    @Optional() private readonly settings?: SettingsService,
    /** Issue #26: `?link=<ticket>` (profile → Link Discord) names the signed-in account to link to. */
    @Optional() private readonly sso?: SsoStrategies,
  ) {
    super();
  }

  override async canActivate(ctx: ExecutionContext): Promise<boolean> {
    requireDiscord(this.config, this.settings);
    const req = ctx.switchToHttp().getRequest<{ query?: Record<string, unknown>; discordLinkUserId?: string }>();
    if (req.query?.link !== undefined) {
      const userId = await this.sso?.store.takeTicket(req.query.link, 'discord');
      if (!userId)
        throw new BadRequestException({ message: 'This link request expired: start it again from your profile' });
      req.discordLinkUserId = userId;
    }
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
    @Optional() private readonly settings?: SettingsService,
  ) {
    super();
  }

  override canActivate(ctx: ExecutionContext): Promise<boolean> {
    requireDiscord(this.config, this.settings);
    return super.canActivate(ctx) as Promise<boolean>;
  }

  override getAuthenticateOptions(): DiscordAuthenticateOptions {
    return { phase: 'callback' };
  }

  override handleRequest<T = DiscordOutcome>(err: unknown, user: unknown, info: unknown, ctx: ExecutionContext): T {
    const client = this.strategy.states.clientOf(ctx.switchToHttp().getRequest<object>());
    if (!err && user) return { client, userId: (user as AuthUser).id, role: (user as AuthUser).tokenRole } as T;
    const failure = discordFailure(err ?? info);
    // link_required (issue #26) is an answer, not a fault: an info line, no warning (OIDC / GitHub do not warn either)
    if (failure.code === 'link_required') this.logger.log(`Discord login asks to link (${failure.reason})`);
    else this.logger.warn(`Discord login rejected (${failure.code}): ${failure.reason}`);
    // the registration mode's refusal is shown as is (issue #25), link_required names the provider; other reasons
    // stay in the log
    const message = failure.code === 'registration_refused' ? failure.reason : failure.clientMessage;
    return { client, error: failure.code, ...(message ? { message } : {}) } as T;
  }
}
