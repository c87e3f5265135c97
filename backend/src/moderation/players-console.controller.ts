import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type {
  CoinCorrectionResult,
  PlayerDetail,
  PlayerSearchResult,
  RevokeSessionsResult,
  RoleChangeResult,
  Sanction,
  StaffList,
} from '@spades/common';
import { StaffGuard, StaffOnly, type StaffRequest } from '../admin/staff.guard';
import { PlayersActions } from './players.actions';
import { parsePlayerSearch, PlayersQuery } from './players.query';
import { CoinCorrectionInput, RoleChangeInput, SanctionBodyInput, StaffReasonInput } from './moderation.input';
import { checkSanctionInput, SanctionsService } from './sanctions.service';

/**
 * The console's players (issue #25): search, a player's page and every action on a player. Moderators and admins;
 * coin corrections and roles are admins only. Each action takes a reason and writes one audit entry.
 */
@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(StaffGuard)
@Controller('admin')
export class PlayersConsoleController {
  constructor(
    private readonly query: PlayersQuery,
    private readonly sanctions: SanctionsService,
    private readonly actions: PlayersActions,
  ) {}

  @Get('players')
  @ApiOperation({ summary: 'Search players by name, e-mail or account id (?q=&limit=)' })
  async search(@Query() raw: Record<string, unknown>): Promise<PlayerSearchResult> {
    const { q, limit } = parsePlayerSearch(raw);
    return { players: await this.query.search(q, limit) };
  }

  @Get('players/:id')
  @ApiOperation({ summary: "A player's page: profile, rating, coins, games, reports, sanctions, sessions" })
  detail(@Param('id') id: string): Promise<PlayerDetail> {
    return this.query.detail(id);
  }

  @Post('players/:id/sanctions')
  @HttpCode(200)
  @ApiOperation({ summary: 'Warn, mute, ban or force a rename (SanctionRequest, with a reason)' })
  sanction(@Req() req: StaffRequest, @Param('id') id: string, @Body() b: SanctionBodyInput): Promise<Sanction> {
    return this.sanctions.apply(req.userId!, id, checkSanctionInput(b));
  }

  @Post('sanctions/:id/lift')
  @HttpCode(200)
  @ApiOperation({ summary: 'Lift an active mute or ban (with a reason)' })
  lift(@Req() req: StaffRequest, @Param('id') id: string, @Body() b: StaffReasonInput): Promise<Sanction> {
    return this.sanctions.lift(req.userId!, id, b.reason);
  }

  @Post('players/:id/revoke-sessions')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign the player out everywhere: earlier tokens are refused, sockets closed' })
  revoke(
    @Req() req: StaffRequest,
    @Param('id') id: string,
    @Body() b: StaffReasonInput,
  ): Promise<RevokeSessionsResult> {
    return this.actions.revokeSessions(req.userId!, id, b.reason);
  }

  @Post('players/:id/coins')
  @HttpCode(200)
  @StaffOnly('admin')
  @ApiOperation({ summary: 'Grant or deduct coins: a ledger transfer from/to the house (admins)' })
  coins(
    @Req() req: StaffRequest,
    @Param('id') id: string,
    @Body() b: CoinCorrectionInput,
  ): Promise<CoinCorrectionResult> {
    return this.actions.correctCoins(req.userId!, id, b);
  }

  @Post('players/:id/role')
  @HttpCode(200)
  @StaffOnly('admin')
  @ApiOperation({ summary: "Set the account's role: user (Player), moderator or admin (admins)" })
  role(@Req() req: StaffRequest, @Param('id') id: string, @Body() b: RoleChangeInput): Promise<RoleChangeResult> {
    return this.actions.changeRole(req.userId!, id, b);
  }

  @Get('roles')
  @StaffOnly('admin')
  @ApiOperation({ summary: 'Moderators and admins (admins)' })
  async roles(): Promise<StaffList> {
    return { staff: await this.actions.staff() };
  }
}
