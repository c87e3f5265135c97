/**
 * Replay share links (issue #24, ruling 15). A player of a finished game makes a link to its replay; whoever
 * holds it can open that one replay document, signed in or not (a friend on Discord may have no account), and
 * nothing else. The token is `<share id>.<HMAC-SHA256(key, share id)>` with a key derived from the JWT secret:
 * nothing secret is stored, a forged or altered token fails the constant-time comparison, and revoking the row
 * (`revoked_at`) ends the link.
 */
import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Injectable,
  NotFoundException,
  Param,
  Post,
  Query,
  UseGuards,
} from '@nestjs/common';
import { GameReplay, ReplayShareLink, replaySharePagePath, UUID_RE as UUID } from '@spades/common';
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import { CurrentUserId, JwtAuthGuard } from '../auth/jwt-auth.guard';
import { AppConfig } from '../config/config.schema';
import { HistoryService, intParam } from './history';
import { MAX_GAME_NUMBER, ReplayShareBodyInput } from './replay-share.input';
import { TableError } from './table';
import { TableAccess } from './table.access';

export const SHARE_ERRORS = {
  /** Unknown, forged, altered or revoked token: one answer for all (nothing tells which). */
  INVALID: 'This share link is not valid or was revoked',
  NOT_A_PLAYER: 'Only the players of this game can share its replay',
  NO_GAME: 'This game has no replay',
  UNKNOWN_SHARE: 'Share link not found',
} as const;

interface ShareRow {
  id: string;
  game_id: string;
  game_number: number;
  created_by: string;
  created_at: Date | string;
  revoked_at: Date | string | null;
}

@Injectable()
export class ReplayShares {
  private readonly key: Buffer;

  constructor(
    private readonly ds: DataSource,
    private readonly history: HistoryService,
    private readonly access: TableAccess,
    private readonly config: AppConfig,
  ) {
    this.key = createHmac('sha256', config.jwtSecret).update('spades replay share v1').digest();
  }

  private sign(id: string): string {
    return createHmac('sha256', this.key).update(id.toLowerCase()).digest('base64url');
  }

  tokenOf(id: string): string {
    return `${id}.${this.sign(id)}`;
  }

  /** The share id of a well-signed token, else null (the database says whether it is revoked). */
  verify(token: unknown): string | null {
    if (typeof token !== 'string' || token.length > 200) return null;
    const dot = token.indexOf('.');
    const id = token.slice(0, dot);
    if (dot < 0 || !UUID.test(id)) return null;
    const offered = Buffer.from(token.slice(dot + 1));
    const expected = Buffer.from(this.sign(id));
    return offered.length === expected.length && timingSafeEqual(offered, expected) ? id : null;
  }

  private out(r: ShareRow): ReplayShareLink {
    const token = this.tokenOf(r.id);
    // issue #31: the route, and the CLIENT_URL form only when the host set it (else the client puts its own address)
    const path = replaySharePagePath(r.game_id, r.game_number, token);
    return {
      id: r.id,
      gameId: r.game_id,
      gameNumber: r.game_number,
      createdAt: new Date(r.created_at).toISOString(),
      token,
      path,
      url: `${this.config.clientUrl}${path}`,
      configured: this.config.clientUrlSet === true,
    };
  }

  /** The finished game (latest unless `game`) and a check that the user sat at it. */
  private async playedGame(userId: string, gameId: string, game: unknown): Promise<number> {
    const n = game === undefined || game === null || game === '' ? null : intParam(game, 1, 1, MAX_GAME_NUMBER, 'game');
    const g = await this.history.finishedGame(gameId, n);
    if (!g) throw new NotFoundException(SHARE_ERRORS.NO_GAME);
    if (!(await this.access.players(gameId, g.gameNumber)).has(userId))
      throw new TableError(SHARE_ERRORS.NOT_A_PLAYER, 403);
    return g.gameNumber;
  }

  async create(userId: string, gameId: string, game: number | undefined): Promise<ReplayShareLink> {
    const gameNumber = await this.playedGame(userId, gameId, game);
    const [row]: ShareRow[] = await this.ds.query(
      `INSERT INTO replay_shares (id, game_id, game_number, created_by) VALUES ($1, $2, $3, $4) RETURNING *`,
      [randomUUID(), gameId, gameNumber, userId],
    );
    return this.out(row);
  }

  /** The caller's live (not revoked) links of a game. */
  async mine(userId: string, gameId: string, game: unknown): Promise<ReplayShareLink[]> {
    const gameNumber = await this.playedGame(userId, gameId, game);
    const rows: ShareRow[] = await this.ds.query(
      `SELECT * FROM replay_shares WHERE game_id = $1 AND game_number = $2 AND created_by = $3 AND revoked_at IS NULL ORDER BY created_at`,
      [gameId, gameNumber, userId],
    );
    return rows.map((r) => this.out(r));
  }

  /** Revokes one of the caller's links (404 for a link that is not theirs: nothing tells it exists). */
  async revoke(userId: string, gameId: string, shareId: string): Promise<{ success: true }> {
    if (!UUID.test(shareId) || !UUID.test(gameId)) throw new NotFoundException(SHARE_ERRORS.UNKNOWN_SHARE);
    const rows: unknown[] = await this.ds.query(
      // (a CTE: the driver answers a bare UPDATE with [rows, count])
      `WITH u AS (UPDATE replay_shares SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 AND game_id = $2 AND created_by = $3 RETURNING id)
       SELECT id FROM u`,
      [shareId, gameId, userId],
    );
    if (!rows.length) throw new NotFoundException(SHARE_ERRORS.UNKNOWN_SHARE);
    return { success: true };
  }

  /** The replay a live token opens; `gameId` must be the token's game. */
  async open(gameId: string, token: unknown): Promise<GameReplay> {
    const id = this.verify(token);
    if (!id) throw new TableError(SHARE_ERRORS.INVALID, 403);
    const [row]: ShareRow[] = await this.ds.query(`SELECT * FROM replay_shares WHERE id = $1`, [id]);
    if (!row || row.revoked_at !== null || row.game_id !== gameId.toLowerCase())
      throw new TableError(SHARE_ERRORS.INVALID, 403);
    return this.history.sharedReplay(row.game_id, row.game_number);
  }
}

/** Signed in: make, list and revoke share links of a game you played. */
@Controller('games')
@UseGuards(JwtAuthGuard)
export class ReplayShareController {
  constructor(private readonly shares: ReplayShares) {}

  /** Body `{ game? }` (the game number at the table, default the latest finished one): `ReplayShareBodyInput`. */
  @Post(':id/replay/shares')
  create(@CurrentUserId() userId: string, @Param('id') id: string, @Body() body: ReplayShareBodyInput) {
    return this.shares.create(userId, id, body.game);
  }

  @Get(':id/replay/shares')
  mine(@CurrentUserId() userId: string, @Param('id') id: string, @Query('game') game?: string) {
    return this.shares.mine(userId, id, game);
  }

  @Delete(':id/replay/shares/:shareId')
  @HttpCode(200)
  revoke(@CurrentUserId() userId: string, @Param('id') id: string, @Param('shareId') shareId: string) {
    return this.shares.revoke(userId, id, shareId);
  }
}

/** Without sign-in: `GET /api/shared-replays/:gameId?share=<token>` — that one game's replay document, nothing else. */
@Controller('shared-replays')
export class SharedReplayController {
  constructor(private readonly shares: ReplayShares) {}

  @Get(':id')
  open(@Param('id') id: string, @Query('share') share?: string) {
    return this.shares.open(id, share);
  }
}
