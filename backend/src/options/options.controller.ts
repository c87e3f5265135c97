import { Body, Controller, Get, Put, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { PlayerOptions } from '@spades/common';
import { CurrentUserId, JwtAuthGuard } from '../auth/jwt-auth.guard';
import { OptionsService } from './options.service';
import { PlayerOptionsBodyInput } from './options.input';

/**
 * Issue #31: `GET /api/users/me/options` and `PUT /api/users/me/options` (any subset of PlayerOptions; unknown
 * fields or bad values → 400 `{ message }`, nothing stored). Identity from the token only.
 */
@ApiTags('users')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('users/me/options')
export class OptionsController {
  constructor(private readonly options: OptionsService) {}

  @Get()
  get(@CurrentUserId() me: string): Promise<PlayerOptions> {
    return this.options.get(me);
  }

  @Put()
  put(@CurrentUserId() me: string, @Body() body: PlayerOptionsBodyInput): Promise<PlayerOptions> {
    return this.options.update(me, body);
  }
}
