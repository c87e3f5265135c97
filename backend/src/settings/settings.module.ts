import { Global, Module } from '@nestjs/common';
import { SERVER_INFO_OVERRIDES } from '../server-info/server-info.service';
import { AnnouncementPush } from './announcement.push';
import { InviteCodesController } from './invite-codes.controller';
import { InviteCodesService } from './invite-codes.service';
import { REGISTRATION_GATE } from './registration.gate';
import { AdminSettingsController, PublicSettingsController } from './settings.controller';
import { SettingsService } from './settings.service';

/**
 * The host's server settings (issue #25): stored, live on every node (Redis pub/sub in cluster mode), read
 * synchronously through `SettingsService.get()` by any module (global). Also feeds GET /api/server-info (issue #30).
 */
@Global()
@Module({
  controllers: [AdminSettingsController, PublicSettingsController, InviteCodesController],
  providers: [
    SettingsService,
    InviteCodesService,
    AnnouncementPush,
    { provide: SERVER_INFO_OVERRIDES, useExisting: SettingsService },
    { provide: REGISTRATION_GATE, useExisting: InviteCodesService },
  ],
  exports: [SettingsService, InviteCodesService, SERVER_INFO_OVERRIDES, REGISTRATION_GATE],
})
export class SettingsModule {}
