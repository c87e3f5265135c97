import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AppConfig } from '../config/config.schema';

/** Which sign-in providers this server offers (public): the login page hides or disables what is missing. */
@ApiTags('auth')
@Controller('auth')
export class AuthProvidersController {
  constructor(private readonly config: AppConfig) {}

  @Get('providers')
  @ApiOperation({ summary: 'Sign-in providers offered by this server: { discord: boolean }' })
  providers(): { discord: boolean } {
    return { discord: !!this.config.discord };
  }
}
