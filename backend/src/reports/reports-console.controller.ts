import {
  BadRequestException,
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Req,
  UseGuards,
} from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { ReportDetail, ReportQueuePage } from '@spades/common';
import { StaffGuard, type StaffRequest } from '../admin/staff.guard';
import { parseReportQuery, ReportsService } from './reports.service';
import { ReportAssignInput, ReportDismissInput, ReportResolveInput } from './reports.input';

/** The console's report queue (issue #25): moderators and admins. Every step is audited. */
@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(StaffGuard)
@Controller('admin/reports')
export class ReportsConsoleController {
  constructor(private readonly reports: ReportsService) {}

  @Get()
  @ApiOperation({
    summary: 'Report queue, newest first (?status=open|assigned|resolved|dismissed&target=&before=&limit=)',
  })
  list(@Query() raw: Record<string, unknown>): Promise<ReportQueuePage> {
    const q = parseReportQuery(raw);
    if (typeof q === 'string') throw new BadRequestException(q);
    return this.reports.list(q);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One report with its captured context' })
  detail(@Param('id') id: string): Promise<ReportDetail> {
    return this.reports.detail(id);
  }

  @Post(':id/assign')
  @HttpCode(200)
  @ApiOperation({ summary: 'Assign to a moderator or admin ({ assigneeId?, reason }; default: yourself)' })
  assign(@Req() req: StaffRequest, @Param('id') id: string, @Body() body: ReportAssignInput): Promise<ReportDetail> {
    return this.reports.assign(req.userId!, id, body);
  }

  @Post(':id/resolve')
  @HttpCode(200)
  @ApiOperation({ summary: 'Resolve with a sanction ({ action: SanctionRequest, reason })' })
  resolve(@Req() req: StaffRequest, @Param('id') id: string, @Body() body: ReportResolveInput): Promise<ReportDetail> {
    return this.reports.resolve(req.userId!, id, body);
  }

  @Post(':id/dismiss')
  @HttpCode(200)
  @ApiOperation({ summary: 'Dismiss ({ reason })' })
  dismiss(@Req() req: StaffRequest, @Param('id') id: string, @Body() body: ReportDismissInput): Promise<ReportDetail> {
    return this.reports.dismiss(req.userId!, id, body);
  }
}
