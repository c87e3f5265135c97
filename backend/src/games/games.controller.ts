import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { inviteUrls, InviteLink } from '@spades/common';
import { CurrentUserId, JwtAuthGuard } from '../auth/jwt-auth.guard';
import { AppConfig } from '../config/config.schema';
import { GamesService } from './games.service';
import { HistoryService } from './history';
import { ParticipantsService } from './participants.service';
import { BotSeatBodyInput, checkRequester } from './bot-seat.input';
import { CreateGameInput } from './create-game.input';
import { InviteBodyInput, JoinSeatInput, RemovePlayerInput, SpectateBodyInput } from './join-game.input';

/** HTTP API of the tables (spec §7). Identity only from the Bearer token. */
@Controller('games')
@UseGuards(JwtAuthGuard)
export class GamesController {
  constructor(
    private readonly games: GamesService,
    private readonly people: ParticipantsService,
    private readonly history: HistoryService,
    private readonly config: AppConfig,
  ) {}

  /** The lobby list as the caller may see it (private tables only for their members and invitees). */
  @Get()
  list(@CurrentUserId() userId: string) {
    return this.games.list(userId);
  }

  /**
   * Body: settings (spec §3 creation request) + optional `private: true`; creatorId/Name/Image are ignored
   * (the creator is the token's user).
   */
  @Post()
  async create(@CurrentUserId() userId: string, @Body() body: CreateGameInput) {
    return this.games.create(body.settings, await this.people.get(userId), { private: body.private === true });
  }

  /** The caller's view; a private table needs membership or `?invite=<token>`. */
  @Get(':id')
  view(@CurrentUserId() userId: string, @Param('id') id: string, @Query('invite') invite?: string) {
    return this.games.view(id, userId, invite);
  }

  /**
   * The replay document of a finished game (`?game=N`: the N-th game at the table, default the latest);
   * `?download=1` serves it as an attachment. 403 while the game is in progress or when the game is private and
   * the caller did not play it (table.access.ts), 404 when unknown.
   */
  @Get(':id/replay')
  async replay(
    @CurrentUserId() userId: string,
    @Param('id') id: string,
    @Query('game') game: string | undefined,
    @Query('download') download: string | undefined,
    @Res({ passthrough: true }) res: { setHeader(name: string, value: string): void },
  ) {
    const doc = await this.history.replay(id, game, { userId });
    if (download === '1' || download === 'true') {
      res.setHeader('Content-Disposition', `attachment; filename="spades-replay-${doc.gameId}-${doc.gameNumber}.json"`);
    }
    return doc;
  }

  @Post(':id/join')
  @HttpCode(200)
  async join(@CurrentUserId() userId: string, @Param('id') id: string, @Body() body: JoinSeatInput) {
    return this.games.join(id, await this.people.get(userId), body.seatIndex, body.invite);
  }

  @Post(':id/spectate')
  @HttpCode(200)
  async spectate(@CurrentUserId() userId: string, @Param('id') id: string, @Body() body: SpectateBodyInput) {
    return this.games.spectate(id, await this.people.get(userId), body.invite);
  }

  /** Host only: the table's invite link (created on first use). */
  @Get(':id/invite-link')
  async inviteLink(@CurrentUserId() userId: string, @Param('id') id: string): Promise<InviteLink> {
    return this.link(id, await this.games.inviteToken(id, userId));
  }

  /** Host only: a new link; the previous one stops working. */
  @Post(':id/invite-link')
  @HttpCode(200)
  async renewInviteLink(@CurrentUserId() userId: string, @Param('id') id: string): Promise<InviteLink> {
    return this.link(id, await this.games.inviteToken(id, userId, true));
  }

  /** Host only: revoke the link (nobody can enter with it any more). */
  @Delete(':id/invite-link')
  revokeInviteLink(@CurrentUserId() userId: string, @Param('id') id: string) {
    return this.games.revokeInviteToken(id, userId);
  }

  /** Body `{ userId, reserveSeat? }`: in-app invitation of a friend (socket `game_invitation` to them). */
  @Post(':id/invite')
  @HttpCode(200)
  async invite(@CurrentUserId() userId: string, @Param('id') id: string, @Body() body: InviteBodyInput) {
    const to = await this.people.find(body.userId);
    await this.people.assertCanInvite(userId, to.userId);
    return this.games.invitePlayer(id, await this.people.get(userId), to, body.reserveSeat === true);
  }

  @Post(':id/decline')
  @HttpCode(200)
  decline(@CurrentUserId() userId: string, @Param('id') id: string) {
    return this.games.declineInvitation(id, userId);
  }

  private link(gameId: string, token: string): InviteLink {
    return {
      gameId,
      token,
      ...inviteUrls(this.config.clientUrl, gameId, token),
      configured: this.config.clientUrlSet === true,
    };
  }

  /** Host only, before the start (issue #24): body `{ userId }` — their seat, watching place, invitation and admission go. */
  @Post(':id/remove-player')
  @HttpCode(200)
  removePlayer(@CurrentUserId() userId: string, @Param('id') id: string, @Body() body: RemovePlayerInput) {
    return this.games.removePlayer(id, userId, body.userId);
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
  inviteBot(@CurrentUserId() userId: string, @Param('id') id: string, @Body() body: BotSeatBodyInput) {
    checkRequester(body, userId);
    return this.games.inviteBot(id, userId, body.seatIndex, false);
  }

  @Post(':id/invite-bot-midgame')
  @HttpCode(200)
  inviteBotMidgame(@CurrentUserId() userId: string, @Param('id') id: string, @Body() body: BotSeatBodyInput) {
    checkRequester(body, userId);
    return this.games.inviteBot(id, userId, body.seatIndex, true);
  }

  @Post(':id/remove-bot')
  @HttpCode(200)
  removeBot(@CurrentUserId() userId: string, @Param('id') id: string, @Body() body: BotSeatBodyInput) {
    checkRequester(body, userId);
    return this.games.removeBot(id, userId, body.seatIndex, false);
  }

  @Post(':id/remove-bot-midgame')
  @HttpCode(200)
  removeBotMidgame(@CurrentUserId() userId: string, @Param('id') id: string, @Body() body: BotSeatBodyInput) {
    checkRequester(body, userId);
    return this.games.removeBot(id, userId, body.seatIndex, true);
  }
}

/**
 * `GET /api/users/:id/games?page=&pageSize=`: a player's finished games, newest first (public, like stats) — a
 * private game only for the players who sat at it and admins (issue #24).
 */
@Controller('users')
@UseGuards(JwtAuthGuard)
export class HistoryController {
  constructor(private readonly history: HistoryService) {}

  @Get(':id/games')
  games(
    @CurrentUserId() callerId: string,
    @Param('id') id: string,
    @Query('page') page?: string,
    @Query('pageSize') pageSize?: string,
  ) {
    return this.history.userGames(id, page, pageSize, callerId);
  }
}

/** `GET /api/invitations`: the caller's pending in-app invitations at open tables. */
@Controller('invitations')
@UseGuards(JwtAuthGuard)
export class InvitationsController {
  constructor(private readonly games: GamesService) {}

  @Get()
  mine(@CurrentUserId() userId: string) {
    return this.games.invitationsFor(userId);
  }
}
