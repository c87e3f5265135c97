import { Module } from '@nestjs/common';
import { AccountController } from './account.controller';
import { AppConfig } from '../config/config.schema';
import { ACCOUNT_CONFIG, accountConfigOf } from './account.config';
import { AccountDataService } from './account-data.service';
import { AccountDeletionService } from './account-deletion.service';

/**
 * Issue #26: "Download my data" and "Delete my account" (see account-deletion.service.ts for what deletion does).
 * Uses the global CoinsService (the close-out transfer), AuditService and RealtimeService (closing sockets).
 */
@Module({
  controllers: [AccountController],
  providers: [
    AccountDataService,
    AccountDeletionService,
    { provide: ACCOUNT_CONFIG, inject: [AppConfig], useFactory: accountConfigOf },
  ],
})
export class AccountModule {}
