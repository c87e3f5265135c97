import {
  BadRequestException,
  Controller,
  Delete,
  ForbiddenException,
  Get,
  HttpCode,
  Inject,
  Logger,
  NotFoundException,
  Param,
  Post,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import { IDENTITY_MESSAGES, REGISTRATION_MESSAGES, type IdentitiesView, type LinkStartResponse } from '@spades/common';
import { AppConfig } from '../config/config.schema';
import { APP_PASSPORT, runStrategy, type Authenticator } from './app-passport';
import { AuthService } from './auth.service';
import type { CookieRequest } from './discord-state.store';
import { CurrentUserId, JwtAuthGuard } from './jwt-auth.guard';
import { SsoFailed, ssoStrategyName, type SsoAuthenticateOptions, type SsoSuccess } from './oidc.strategy';
import { SsoAccountsService, type SsoOutcome } from './sso-accounts.service';
import { SSO_STATE_COOKIE, ssoCookieOptions, type SsoClient } from './sso-state.store';
import { SsoStrategies } from './sso.strategies';
import { TokenService } from './token.service';

/** The parts of Express' request/response used here (the backend does not depend on @types/express). */
type Request = CookieRequest & { query: Record<string, unknown> };
interface Response {
  headersSent: boolean;
  clearCookie(name: string, options: ReturnType<typeof ssoCookieOptions>): void;
  redirect(status: number, url: string): void;
}

/**
 * Issue #26: sign-in with the OpenID Connect issuers and GitHub the host configured (OIDC_PROVIDERS, GITHUB_*),
 * the same browser round trip as Discord (`?client=desktop` comes back through spades://auth/callback), and the
 * profile's linked sign-ins.
 */
@ApiTags('auth')
@Controller('auth')
export class SsoController {
  private readonly logger = new Logger('SsoAuth');

  constructor(
    private readonly config: AppConfig,
    private readonly accounts: SsoAccountsService,
    private readonly strategies: SsoStrategies,
    private readonly auth: AuthService,
    private readonly tokens: TokenService,
    @Inject(APP_PASSPORT) private readonly passport: Authenticator,
  ) {}

  /** 404 for a provider that is not configured, 403 when the host does not offer it now. */
  private requireProvider(id: string): void {
    if (!this.strategies.has(id)) throw new NotFoundException({ message: IDENTITY_MESSAGES.unknownProvider });
    if (!this.strategies.offered(id)) throw new ForbiddenException({ message: REGISTRATION_MESSAGES.signInNotOffered });
  }

  @Get('oidc/:provider')
  @ApiOperation({
    summary:
      'Redirects to the provider (state + nonce + PKCE; the state is bound to this browser by an HttpOnly cookie). ?client=desktop returns to spades://auth/callback; ?link=<ticket> links the provider to the signed-in account',
  })
  @ApiQuery({ name: 'client', required: false, enum: ['web', 'desktop'] })
  @ApiQuery({ name: 'link', required: false })
  async start(@Param('provider') provider: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    this.requireProvider(provider);
    const client: SsoClient = req.query.client === 'desktop' ? 'desktop' : 'web';
    if (req.query.code !== undefined || req.query.error !== undefined) {
      throw new BadRequestException({ message: 'A sign-in starts without code or error parameters' });
    }
    let linkUserId: string | null = null;
    if (req.query.link !== undefined) {
      linkUserId = await this.strategies.store.takeTicket(req.query.link, provider);
      if (!linkUserId)
        throw new BadRequestException({ message: 'This link request expired: start it again from your profile' });
    }
    const options: SsoAuthenticateOptions = { phase: 'start', client, linkUserId };
    // a redirect to the provider ends the response inside the strategy; only a failure comes back here
    void runStrategy(this.passport, ssoStrategyName(provider), options, req, res, (err, _user, info) => {
      const failure = this.failure(err ?? info, client);
      this.logger.warn(`${provider} sign-in could not start (${failure.code}): ${failure.reason}`);
      if (!res.headersSent) res.redirect(302, this.redirectFor({ client, error: failure.code }));
    }).catch((e: unknown) => this.logger.error(`${provider} sign-in start: ${(e as Error).message}`));
  }

  @Get('oidc/:provider/callback')
  @ApiOperation({
    summary:
      'Provider redirect target: checks state (and its browser cookie), exchanges the code (PKCE), verifies the id_token (signature, nonce); signs in, links, or asks to link; redirects to the client with ?token= or ?error=',
  })
  async callback(@Param('provider') provider: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    this.requireProvider(provider);
    res.clearCookie(SSO_STATE_COOKIE, ssoCookieOptions(req));
    const outcome = await runStrategy<Promise<SsoOutcome>>(
      this.passport,
      ssoStrategyName(provider),
      { phase: 'callback' } satisfies SsoAuthenticateOptions,
      req,
      res,
      async (err, user, info) => {
        if (!err && user) {
          try {
            return await this.admit(await this.accounts.resolve(user as SsoSuccess));
          } catch (e) {
            err = e;
          }
        }
        const failure = this.failure(err ?? info, 'web');
        this.logger.warn(`${provider} sign-in rejected (${failure.code}): ${failure.reason}`);
        return { client: failure.client, error: failure.code };
      },
    );
    const end = (await outcome) ?? { client: 'web' as const, error: 'account_failed' as const };
    if ('error' in end && end.error !== 'link_required')
      this.logger.warn(`${provider} sign-in ended with ${end.error}`);
    res.redirect(302, this.redirectFor(end));
  }

  /** A banned account is refused (issue #25), as for password and Discord sign-ins. */
  private async admit(outcome: SsoOutcome): Promise<SsoOutcome> {
    if (!('userId' in outcome)) return outcome;
    const admitted = await this.auth.admitDiscord({
      client: outcome.client,
      userId: outcome.userId,
      role: outcome.role,
    });
    return 'error' in admitted ? { client: outcome.client, error: 'banned', message: admitted.message } : outcome;
  }

  private failure(e: unknown, client: SsoClient): SsoFailed {
    if (e instanceof SsoFailed) return e;
    return new SsoFailed('account_failed', e instanceof Error ? e.message : String(e), client);
  }

  /**
   * The client callback: `?token=` (and `&linked=<provider>` on the web after linking), or `?error=<code>` with an
   * optional `&message=` (≤ 300 characters: the desktop app's deep link limit); spades://auth/callback for desktop.
   */
  private redirectFor(outcome: SsoOutcome): string {
    const params = new URLSearchParams();
    if ('userId' in outcome) {
      params.set('token', this.tokens.sign(outcome.userId, outcome.role ?? 'user'));
      if (outcome.linked && outcome.client === 'web') params.set('linked', outcome.linked);
    } else {
      params.set('error', outcome.error);
      if (outcome.message) params.set('message', outcome.message.slice(0, 300));
    }
    const base = outcome.client === 'desktop' ? 'spades://auth/callback' : `${this.config.clientUrl}/auth/callback`;
    return `${base}?${params.toString()}`;
  }

  // ----- linked sign-ins on the profile ------------------------------------------------------------------------

  @Get('identities')
  @UseGuards(JwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: "The account's ways to sign in, and the providers it could link" })
  async identities(@CurrentUserId() userId: string): Promise<IdentitiesView> {
    const view = await this.accounts.list(userId);
    return {
      ...view,
      available: view.available.filter((p) =>
        p.id === 'discord' ? this.strategies.discordOffered() : this.strategies.offered(p.id),
      ),
    };
  }

  @Post('identities/:provider/link')
  @HttpCode(200)
  @UseGuards(JwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Where to send the browser to link a provider (a single-use ticket, 2 minutes)' })
  async link(@CurrentUserId() userId: string, @Param('provider') provider: string): Promise<LinkStartResponse> {
    if (provider === 'discord') {
      // the Discord login (GET /api/auth/discord) takes the same ticket
      if (!this.strategies.discordOffered())
        throw new ForbiddenException({ message: REGISTRATION_MESSAGES.signInNotOffered });
      const ticket = await this.strategies.store.createTicket(userId, provider);
      return { url: `/api/auth/discord?link=${encodeURIComponent(ticket)}` };
    }
    this.requireProvider(provider);
    const ticket = await this.strategies.store.createTicket(userId, provider);
    return { url: `/api/auth/oidc/${provider}?link=${encodeURIComponent(ticket)}` };
  }

  @Delete('identities/:provider')
  @UseGuards(JwtAuthGuard)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Unlinks a provider (never the last way to sign in)' })
  unlink(@CurrentUserId() userId: string, @Param('provider') provider: string): Promise<IdentitiesView> {
    return this.accounts.unlink(userId, provider);
  }
}
