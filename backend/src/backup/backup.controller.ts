import { CanActivate, Controller, ExecutionContext, Get, Injectable, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { StaffGuard, StaffOnly, type StaffRequest } from '../admin/staff.guard';
import { AppConfig } from '../config/config.schema';
import { BACKUP_CONTROL_HEADER, isBackupControlToken } from './backup.control';
import { BackupService } from './backup.service';

/** Admins (StaffGuard, admin only), or `npm run backup` on the server's machine (the control header). */
@Injectable()
export class BackupAccessGuard implements CanActivate {
  constructor(
    private readonly staff: StaffGuard,
    private readonly config: AppConfig,
  ) {}

  canActivate(ctx: ExecutionContext): Promise<boolean> | boolean {
    const req = ctx.switchToHttp().getRequest<StaffRequest>();
    if (isBackupControlToken(this.config.jwtSecret, req.headers[BACKUP_CONTROL_HEADER])) return true;
    return this.staff.canActivate(ctx);
  }
}

@ApiTags('admin')
@ApiBearerAuth()
@Controller('admin')
export class BackupController {
  constructor(private readonly backups: BackupService) {}

  @Get('backup')
  @StaffOnly('admin')
  @UseGuards(BackupAccessGuard)
  @ApiOperation({
    summary: 'Download a consistent backup of the whole database (admins; restore with npm run restore)',
  })
  async download(@Req() req: StaffRequest, @Res() res: Response): Promise<void> {
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
    res.setHeader('Content-Type', 'application/gzip');
    res.setHeader('Content-Disposition', `attachment; filename="spades-backup-${stamp}.gz"`);
    res.setHeader('Cache-Control', 'no-store');
    try {
      await this.backups.writeTo(res, req.userId ?? null);
    } catch (e) {
      // headers may be sent already: cut the stream, so the file has no manifest and restore refuses it
      res.destroy(e instanceof Error ? e : new Error(String(e)));
    }
  }
}
