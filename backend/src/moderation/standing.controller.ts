import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { PlayerStanding } from '@spades/common';
import { CurrentUserId, JwtAuthGuard } from '../auth/jwt-auth.guard';
import { SanctionsService } from './sanctions.service';

/** What a player is told about their own account (issue #25): an active mute, and warnings/renames once. */
@ApiTags('moderation')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('moderation')
export class StandingController {
  constructor(private readonly sanctions: SanctionsService) {}

  @Get('standing')
  @ApiOperation({ summary: "The signed-in player's active mute and unseen warnings / forced renames" })
  standing(@CurrentUserId() userId: string): Promise<PlayerStanding> {
    return this.sanctions.standing(userId);
  }
}
