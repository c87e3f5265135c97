import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AdminDashboard } from '@spades/common';
import { DashboardService } from './dashboard.service';
import { StaffGuard } from './staff.guard';

/** The console's Dashboard (issue #25), moderators and admins. */
@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(StaffGuard)
@Controller('admin/dashboard')
export class DashboardController {
  constructor(private readonly dashboard: DashboardService) {}

  @Get()
  @ApiOperation({
    summary: 'Online users, tables, actions per second and ack p99 over the last minutes, nodes, open reports',
  })
  get(): Promise<AdminDashboard> {
    return this.dashboard.dashboard();
  }
}
