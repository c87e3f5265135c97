import { Body, Controller, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { CurrentUserId, JwtAuthGuard } from '../auth/jwt-auth.guard';
import { MatchmakingService } from './matchmaking.service';
import { PartnersService } from './partners.service';
import { PlayBotsNowInput } from './quickplay.input';

/** Issue #28: quick play over HTTP (the queue itself is on the socket, which carries its updates). */
@UseGuards(JwtAuthGuard)
@Controller('quickplay')
export class MatchmakingController {
  constructor(
    private readonly mm: MatchmakingService,
    private readonly partners: PartnersService,
  ) {}

  @Get('status')
  status(@CurrentUserId() userId: string) {
    return this.mm.status(userId);
  }

  /** "Play bots now" `{level: easy|normal|strong, mode?}` → `{gameId}` (a started table). */
  @Post('bots')
  @HttpCode(200)
  bots(@CurrentUserId() userId: string, @Body() body: PlayBotsNowInput) {
    return this.mm.playBotsNow(userId, body);
  }

  /** Preferred partners: the players one partnered most in the last 90 days. */
  @Get('partners')
  preferred(@CurrentUserId() userId: string) {
    return this.partners.preferred(userId);
  }
}
