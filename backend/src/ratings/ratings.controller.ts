import { BadRequestException, Controller, Get, Param, ParseIntPipe, Query, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiProperty, ApiTags } from '@nestjs/swagger';
import {
  isUuid,
  type CollusionReport,
  type GameRatingsResponse,
  type RatingHistoryResponse,
  type RatingsResponse,
} from '@spades/common';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { CurrentUserId, JwtAuthGuard } from '../auth/jwt-auth.guard';
import { AdminGuard } from './admin.guard';
import { RatingsService } from './ratings.service';

export class RatingsQueryDto {
  @ApiProperty({ description: 'comma-separated user ids (at most 50)' })
  @IsString({ message: 'ids must be a comma-separated list of user ids' })
  @MaxLength(50 * 37, { message: 'at most 50 ids' })
  ids: string;
}

export class CollusionQueryDto {
  @ApiProperty({ required: false, default: 30 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'days must be an integer' })
  @Min(1)
  @Max(365)
  days?: number;

  @ApiProperty({ required: false, default: 5 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'minGames must be an integer' })
  @Min(1)
  @Max(10000)
  minGames?: number;

  @ApiProperty({ required: false, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'minShare must be an integer' })
  @Min(0)
  @Max(100)
  minShare?: number;
}

function uuidOr400(id: string): string {
  if (!isUuid(id)) throw new BadRequestException('Invalid user id');
  return id;
}

@ApiTags('ratings')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('ratings')
export class RatingsController {
  constructor(private readonly ratings: RatingsService) {}

  /** Rating cards of up to 50 users (unknown ids are left out). */
  @Get()
  async list(@Query() q: RatingsQueryDto): Promise<RatingsResponse> {
    const ids = q.ids
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (ids.length > 50) throw new BadRequestException('at most 50 ids');
    return { ratings: await this.ratings.summaries(ids.map(uuidOr400)) };
  }

  /** The caller's own card (with bannedUntil). */
  @Get('me')
  async me(@CurrentUserId() me: string): Promise<RatingsResponse['ratings'][number]> {
    return (await this.ratings.summaries([me]))[0];
  }

  @Get('games/:gameId/:gameNumber')
  gameChanges(
    @Param('gameId') gameId: string,
    @Param('gameNumber', ParseIntPipe) gameNumber: number,
  ): Promise<GameRatingsResponse> {
    return this.ratings.gameChanges(uuidOr400(gameId), gameNumber);
  }

  @Get(':userId/history')
  async history(@Param('userId') userId: string): Promise<RatingHistoryResponse> {
    const [summary] = await this.ratings.summaries([uuidOr400(userId)]);
    if (!summary) throw new BadRequestException('Unknown user');
    return { summary, history: await this.ratings.history(userId) };
  }
}

@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(AdminGuard)
@Controller('admin')
export class AdminController {
  constructor(private readonly ratings: RatingsService) {}

  /** Pairs who meet unusually often in rated games, with the coins that flowed between them (admins only). */
  @Get('collusion')
  collusion(@Query() q: CollusionQueryDto): Promise<CollusionReport> {
    return this.ratings.collusionReport(q.days ?? 30, q.minGames ?? 5, q.minShare ?? 50);
  }
}
