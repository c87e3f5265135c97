import { Body, Controller, Get, Header, Put, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AdminSettingsView, PublicServerSettings } from '@spades/common';
import { StaffGuard, StaffOnly, type StaffRequest } from '../admin/staff.guard';
import { SettingsService } from './settings.service';
import { SettingsUpdateInput } from './settings.input';

/** The host's settings in the console (issue #25): admins only; every change is audited with before/after. */
@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(StaffGuard)
@StaffOnly('admin')
@Controller('admin/settings')
export class AdminSettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get()
  @ApiOperation({ summary: 'The server settings (admins)' })
  get(): AdminSettingsView {
    return this.settings.adminView();
  }

  @Put()
  @ApiOperation({ summary: 'Change settings: { changes, reason } (admins; live on every node, audited)' })
  update(@Req() req: StaffRequest, @Body() body: SettingsUpdateInput): Promise<AdminSettingsView> {
    return this.settings.update(req.userId!, body.changes, body.reason);
  }
}

/** What every client may know about the server's settings (no token). */
@ApiTags('settings')
@Controller('settings')
export class PublicSettingsController {
  constructor(private readonly settings: SettingsService) {}

  @Get('public')
  @Header('Cache-Control', 'no-cache')
  @ApiOperation({ summary: 'Public settings: server name, registration mode, sign-ins, table presets, banner' })
  get(): PublicServerSettings {
    return this.settings.publicView();
  }
}
