import { Body, Controller, Get, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import type { DeleteAccountResponse, DeletionInfo } from '@spades/common';
import { CurrentUserId, JwtAuthGuard } from '../auth/jwt-auth.guard';
import { DeleteAccountInput } from './account.input';
import { AccountDataService } from './account-data.service';
import { AccountDeletionService } from './account-deletion.service';

/**
 * Issue #26, a player's own data (identity from the token only):
 * - `GET /api/users/me/data`: the export (AccountExport) as a JSON file download;
 * - `GET /api/users/me/deletion`: what the confirmation needs (DeletionInfo);
 * - `POST /api/users/me/deletion` `{ password }` or `{ confirm: <username> }`: deletes the account
 *   (400/403 unconfirmed, 409 while an open table still includes the player; nothing changes then).
 */
@ApiTags('users')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('users/me')
export class AccountController {
  constructor(
    private readonly data: AccountDataService,
    private readonly deletion: AccountDeletionService,
  ) {}

  @Get('data')
  async export(@CurrentUserId() me: string, @Res({ passthrough: true }) res: Response): Promise<unknown> {
    const doc = await this.data.export(me);
    const day = doc.exportedAt.slice(0, 10);
    res.setHeader('Content-Disposition', `attachment; filename="spades-account-${day}.json"`);
    res.setHeader('Cache-Control', 'no-store');
    return doc;
  }

  @Get('deletion')
  info(@CurrentUserId() me: string): Promise<DeletionInfo> {
    return this.deletion.info(me);
  }

  @Post('deletion')
  @HttpCode(200)
  remove(@CurrentUserId() me: string, @Body() body: DeleteAccountInput): Promise<DeleteAccountResponse> {
    return this.deletion.delete(me, body);
  }
}
