import { Controller, Get, Optional } from '@nestjs/common';
import type { AuthProviders } from '@spades/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '../config/config.schema';
import { SettingsService } from '../settings/settings.service';
import { SsoStrategies } from './sso.strategies';

/** Which sign-in providers this server offers (public): the login page hides or disables what is missing. */
@ApiTags('auth')
@Controller('auth')
export class AuthProvidersController {
  constructor(
    private readonly config: AppConfig,
    /** Issue #25: the host may switch a configured sign-in off in the console. */
    @Optional() private readonly settings?: SettingsService,
    /** Issue #26: the OpenID Connect issuers and GitHub, with the host's button labels. */
    @Optional() private readonly sso?: SsoStrategies,
  ) {}

  @Get('providers')
  @ApiOperation({
    summary: 'Sign-in providers offered by this server: { discord: boolean, sso: [{ id, label, kind }] }',
  })
  providers(): AuthProviders {
    return {
      discord: this.settings ? this.settings.discordOffered() : !!this.config.discord,
      sso: (this.config.sso ?? [])
        .filter((p) => this.sso?.offered(p.id))
        .map((p) => ({ id: p.id, label: p.label, kind: p.kind })),
    };
  }
}
