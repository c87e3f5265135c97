import { Module } from '@nestjs/common';
import { BackupAccessGuard, BackupController } from './backup.controller';
import { BackupService } from './backup.service';

/** Backup while running (issue #26). `npm run backup` / `npm run restore` are backup.cli.ts. */
@Module({
  controllers: [BackupController],
  providers: [BackupService, BackupAccessGuard],
})
export class BackupModule {}
