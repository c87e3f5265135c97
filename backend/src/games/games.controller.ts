import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { CurrentUserId, JwtAuthGuard } from '../auth/jwt-auth.guard';
import { GamesService } from './games.service';
import { ParticipantsService } from './participants.service';
import { TableError } from './table';

function seatIndexOf(body: unknown): number {
  const b = (body ?? {}) as { seatIndex?: unknown; seat?: unknown };
  const v = b.seatIndex ?? b.seat;
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new TableError('seatIndex must be 0, 1, 2 or 3');
  return n;
}

/** `requesterId` (spec §7) is accepted for compatibility but must be the token's user. */
function checkRequester(body: unknown, userId: string): void {
  const r = (body ?? {}) as { requesterId?: unknown };
  if (r.requesterId !== undefined && r.requesterId !== null && r.requesterId !== userId) {
    throw new TableError('requesterId does not match the signed-in user', 403);
  }
}

function optionalSeat(body: unknown): number | undefined {
  const b = (body ?? {}) as { seat?: unknown; seatIndex?: unknown };
  const v = b.seat ?? b.seatIndex;
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new TableError('Invalid seat');
  return n;
}

/** HTTP API of the tables (spec §7). Identity only from the Bearer token. */
@Controller('games')
@UseGuards(JwtAuthGuard)
export class GamesController {
  constructor(
    private readonly games: GamesService,
    private readonly people: ParticipantsService,
  ) {}

  @Get()
  list() {
    return this.games.list();
  }

  /** Body: settings (spec §3 creation request); creatorId/Name/Image are ignored (the creator is the token's user). */
  @Post()
  async create(@CurrentUserId() userId: string, @Body() body: unknown) {
    const me = await this.people.get(userId);
    return this.games.create(body, me);
  }

  @Get(':id')
  view(@CurrentUserId() userId: string, @Param('id') id: string) {
    return this.games.view(id, userId);
  }

  @Post(':id/join')
  @HttpCode(200)
  async join(@CurrentUserId() userId: string, @Param('id') id: string, @Body() body: unknown) {
    return this.games.join(id, await this.people.get(userId), optionalSeat(body));
  }

  @Post(':id/spectate')
  @HttpCode(200)
  async spectate(@CurrentUserId() userId: string, @Param('id') id: string) {
    return this.games.spectate(id, await this.people.get(userId));
  }

  @Post(':id/leave')
  @HttpCode(200)
  leave(@CurrentUserId() userId: string, @Param('id') id: string) {
    return this.games.leave(id, userId);
  }

  @Post(':id/start')
  @HttpCode(200)
  start(@CurrentUserId() userId: string, @Param('id') id: string) {
    return this.games.start(id, userId);
  }

  @Post(':id/invite-bot')
  @HttpCode(200)
  inviteBot(@CurrentUserId() userId: string, @Param('id') id: string, @Body() body: unknown) {
    checkRequester(body, userId);
    return this.games.inviteBot(id, userId, seatIndexOf(body), false);
  }

  @Post(':id/invite-bot-midgame')
  @HttpCode(200)
  inviteBotMidgame(@CurrentUserId() userId: string, @Param('id') id: string, @Body() body: unknown) {
    checkRequester(body, userId);
    return this.games.inviteBot(id, userId, seatIndexOf(body), true);
  }

  @Post(':id/remove-bot')
  @HttpCode(200)
  removeBot(@CurrentUserId() userId: string, @Param('id') id: string, @Body() body: unknown) {
    checkRequester(body, userId);
    return this.games.removeBot(id, userId, seatIndexOf(body), false);
  }

  @Post(':id/remove-bot-midgame')
  @HttpCode(200)
  removeBotMidgame(@CurrentUserId() userId: string, @Param('id') id: string, @Body() body: unknown) {
    checkRequester(body, userId);
    return this.games.removeBot(id, userId, seatIndexOf(body), true);
  }
}
