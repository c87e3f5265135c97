/**
 * Issue #27: tournaments over HTTP (common/src/protocol/tournaments.ts). Identity from the token only; refusals are
 * `{ message }` with their status and change nothing.
 */
import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { TournamentHistoryItem, TournamentSummary, TournamentView } from '@spades/common';
import { StaffGuard, type StaffRequest } from '../admin/staff.guard';
import { CurrentUserId, JwtAuthGuard } from '../auth/jwt-auth.guard';
import {
  CancelTournamentInput,
  CreateConsoleTournamentInput,
  CreateSitAndGoInput,
  RegisterTournamentBody,
} from './tournaments.input';
import { staffReason } from '../settings/staff-reason';
import { TournamentsService } from './tournaments.service';

@ApiTags('tournaments')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller()
export class TournamentsController {
  constructor(private readonly tournaments: TournamentsService) {}

  @Get('tournaments')
  @ApiOperation({
    summary: 'Tournaments: ?status=open (registering, default) | running | finished; each with the caller’s `me`',
  })
  list(@CurrentUserId() userId: string, @Query('status') status: unknown): Promise<TournamentSummary[]> {
    return this.tournaments.list(status, userId);
  }

  @Get('tournaments/:id')
  @ApiOperation({ summary: 'A tournament: bracket, standings, and the caller’s registration and next match' })
  view(@CurrentUserId() userId: string, @Param('id') id: string): Promise<TournamentView> {
    return this.tournaments.view(id, userId);
  }

  @Post('tournaments')
  @ApiOperation({ summary: 'Create a sit-and-go (CreateTournamentInput); starts when full' })
  create(@CurrentUserId() userId: string, @Body() body: CreateSitAndGoInput): Promise<TournamentView> {
    return this.tournaments.create(userId, body, 'sit_and_go');
  }

  @Post('tournaments/:id/register')
  @HttpCode(200)
  @ApiOperation({ summary: 'Register (PARTNERS: with a friend as partnerId); the buy-in goes into the escrow' })
  register(
    @CurrentUserId() userId: string,
    @Param('id') id: string,
    @Body() body: RegisterTournamentBody,
  ): Promise<TournamentView> {
    return this.tournaments.register(userId, id, body);
  }

  @Post('tournaments/:id/unregister')
  @HttpCode(200)
  @ApiOperation({ summary: 'Unregister before the start (a team together); the buy-in is refunded' })
  unregister(@CurrentUserId() userId: string, @Param('id') id: string): Promise<TournamentView> {
    return this.tournaments.unregister(userId, id);
  }

  @Get('users/:id/tournaments')
  @ApiOperation({ summary: "A player's tournaments: place, prize and the games (replay links)" })
  history(@Param('id') id: string): Promise<TournamentHistoryItem[]> {
    return this.tournaments.history(id);
  }
}

/** The console's tournaments (moderators and admins): scheduled tournaments and cancellations, audited. */
@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(StaffGuard)
@Controller('admin/tournaments')
export class TournamentsConsoleController {
  constructor(private readonly tournaments: TournamentsService) {}

  @Post()
  @ApiOperation({ summary: 'Create a scheduled tournament (or a sit-and-go with kind: sit_and_go)' })
  create(@Req() req: StaffRequest, @Body() body: CreateConsoleTournamentInput): Promise<TournamentView> {
    return this.tournaments.create(req.userId!, body, body.kind ?? 'scheduled', true);
  }

  @Post(':id/cancel')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a tournament that has not finished ({ reason }); every buy-in is refunded' })
  cancel(
    @Req() req: StaffRequest,
    @Param('id') id: string,
    @Body() body: CancelTournamentInput,
  ): Promise<TournamentView> {
    // the DTO checked the reason; staffReason again for its normalised text
    return this.tournaments.cancel(req.userId!, id, staffReason(body.reason));
  }
}
