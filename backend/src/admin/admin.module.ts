import { Global, Module } from '@nestjs/common';
import { AdminSetupController } from './admin-setup.controller';
import { AdminSetupService } from './admin-setup.service';
import { AuditController } from './audit.controller';
import { AuditService } from './audit.service';
import { StaffGuard } from './staff.guard';

/**
 * Roles and the host console (issues #24, #25): ADMIN_USERS ids at boot, the one-time setup token, the audit log
 * and the guard of every `/api/admin/…` route. Global: any module's console routes use StaffGuard and write
 * AuditService. The CLI is admin.cli.ts.
 */
@Global()
@Module({
  controllers: [AdminSetupController, AuditController],
  providers: [AdminSetupService, AuditService, StaffGuard],
  exports: [AuditService, StaffGuard],
})
export class AdminModule {}
