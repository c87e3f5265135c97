import { Module } from '@nestjs/common';
import { AdminSetupController } from './admin-setup.controller';
import { AdminSetupService } from './admin-setup.service';

/** Account roles (issue #24): ADMIN_USERS ids at boot, the one-time setup token and its route. The CLI is admin.cli.ts. */
@Module({
  controllers: [AdminSetupController],
  providers: [AdminSetupService],
})
export class AdminModule {}
