import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { PlayerMuteList, PlayerMuteResult, ReportReceipt } from '@spades/common';
import type { Response } from 'express';
import { CurrentUserId, JwtAuthGuard } from '../auth/jwt-auth.guard';
import { PlayerMutesService } from './player-mutes.service';
import { ReportsService } from './reports.service';
import { ReportBodyInput } from './reports.input';

/** What players do (issue #25): report a player, mute and unmute players. */
@ApiTags('reports')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller()
export class ReportsController {
  constructor(
    private readonly reports: ReportsService,
    private readonly mutes: PlayerMutesService,
  ) {}

  @Post('reports')
  @ApiOperation({ summary: 'Report a player (201; 200 with the first report when already reported)' })
  async file(
    @CurrentUserId() me: string,
    @Body() body: ReportBodyInput,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ReportReceipt> {
    const { receipt, created } = await this.reports.file(me, body);
    res.status(created ? 201 : 200);
    return receipt;
  }

  @Get('mutes')
  @ApiOperation({ summary: 'Players the caller muted' })
  list(@CurrentUserId() me: string): Promise<PlayerMuteList> {
    return this.mutes.list(me);
  }

  @Put('mutes/:userId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Mute a player: their chat lines are hidden for the caller (lobby and table)' })
  mute(@CurrentUserId() me: string, @Param('userId') userId: string): Promise<PlayerMuteResult> {
    return this.mutes.mute(me, userId);
  }

  @Delete('mutes/:userId')
  @HttpCode(200)
  @ApiOperation({ summary: 'Unmute a player' })
  unmute(@CurrentUserId() me: string, @Param('userId') userId: string): Promise<PlayerMuteResult> {
    return this.mutes.unmute(me, userId);
  }
}
