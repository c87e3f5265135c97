import { Body, Controller, Get, HttpCode, NotFoundException, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { LobbyPlayer, SocialResponse, Stats } from '@spades/common';
import { CurrentUserId, JwtAuthGuard } from '../auth/jwt-auth.guard';
import { StatsService } from '../stats/stats.service';
import { UsersService } from '../users/users.service';
import { BlockDto, FriendDto, StatsQueryDto } from './social.dto';
import { SocialService } from './social.service';

@ApiTags('social')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('social')
export class SocialController {
  constructor(private readonly social: SocialService) {}

  @Post('friends/add')
  @HttpCode(200)
  addFriend(@CurrentUserId() me: string, @Body() dto: FriendDto): Promise<SocialResponse> {
    return this.social.addFriend(me, dto.friendId);
  }

  @Post('friends/remove')
  @HttpCode(200)
  removeFriend(@CurrentUserId() me: string, @Body() dto: FriendDto): Promise<SocialResponse> {
    return this.social.removeFriend(me, dto.friendId);
  }

  @Post('block')
  @HttpCode(200)
  block(@CurrentUserId() me: string, @Body() dto: BlockDto): Promise<SocialResponse> {
    return this.social.block(me, dto.blockId);
  }

  @Post('unblock')
  @HttpCode(200)
  unblock(@CurrentUserId() me: string, @Body() dto: BlockDto): Promise<SocialResponse> {
    return this.social.unblock(me, dto.blockId);
  }
}

@ApiTags('users')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('users')
export class UsersController {
  constructor(
    private readonly social: SocialService,
    private readonly users: UsersService,
    private readonly stats: StatsService,
  ) {}

  @Get()
  list(@CurrentUserId() me: string): Promise<LobbyPlayer[]> {
    return this.social.listPlayers(me);
  }

  /** Stats of spec §3 (all fields, missing = 0); `?mode=PARTNERS|SOLO` filters, default ALL. */
  @Get(':id/stats')
  async userStats(@Param('id') id: string, @Query() q: StatsQueryDto): Promise<Stats> {
    if (!(await this.users.exists(id))) throw new NotFoundException('User not found');
    return this.stats.getStats(id, q.mode ?? 'ALL');
  }
}
