import { BadRequestException, Controller, Get, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuditPage, StaffMe } from '@spades/common';
import type { Response } from 'express';
import { UsersService } from '../users/users.service';
import { auditCsv, AuditService, parseAuditQuery } from './audit.service';
import { StaffGuard, StaffOnly, type StaffRequest } from './staff.guard';

/** The console's own identity and the audit log (issue #25). */
@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(StaffGuard)
@Controller('admin')
export class AuditController {
  constructor(
    private readonly audit: AuditService,
    private readonly users: UsersService,
  ) {}

  @Get('me')
  @ApiOperation({ summary: 'The signed-in moderator or admin (403 for players)' })
  async me(@Req() req: StaffRequest): Promise<StaffMe> {
    const u = await this.users.getById(req.userId!);
    return { id: u.id, username: u.username, role: req.staffRole! };
  }

  @Get('audit')
  @StaffOnly('admin')
  @ApiOperation({ summary: 'Audit log, newest first (admins)' })
  list(@Query() raw: Record<string, unknown>): Promise<AuditPage> {
    const q = parseAuditQuery(raw);
    if (typeof q === 'string') throw new BadRequestException(q);
    return this.audit.list(q);
  }

  @Get('audit/export')
  @StaffOnly('admin')
  @ApiOperation({ summary: 'Audit log as CSV or JSON (?format=csv|json, same filters)' })
  async export(@Query() raw: Record<string, unknown>, @Res() res: Response): Promise<void> {
    const format = raw.format ?? 'csv';
    if (format !== 'csv' && format !== 'json') throw new BadRequestException('format must be csv or json');
    const { format: _f, limit: _l, ...filters } = raw;
    const q = parseAuditQuery(filters);
    if (typeof q === 'string') throw new BadRequestException(q);
    const rows = await this.audit.exportRows(q);
    const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');
    res.setHeader('Content-Disposition', `attachment; filename="audit-${stamp}.${format}"`);
    res.setHeader('Cache-Control', 'no-store');
    if (format === 'json') res.type('application/json').send(JSON.stringify(rows, null, 2));
    else res.type('text/csv; charset=utf-8').send(auditCsv(rows));
  }
}
