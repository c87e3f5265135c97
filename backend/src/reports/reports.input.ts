/**
 * Reports (issue #29), checked before the handler runs (400 `{ message }`, nothing changes): a player's report
 * (`POST /api/reports`, common's `parseReportRequest`) and the console's `assign` / `resolve` / `dismiss`.
 */
import { parseReportRequest } from '@spades/common';
import { IsOptional, IsUUID } from 'class-validator';
import { PayloadInput, Satisfies } from '../common/payload';
import { IsStaffReason } from '../moderation/moderation.input';
import { checkSanctionInput } from '../moderation/sanctions.service';
import { REPORT_MESSAGES as M } from './reports.messages';

export class ReportBodyInput extends PayloadInput {
  @Satisfies(parseReportRequest, { whole: true })
  userId!: string;
}

export class ReportDismissInput extends PayloadInput {
  @IsStaffReason()
  reason!: string;
}

export class ReportAssignInput extends ReportDismissInput {
  /** Default: the caller. */
  @IsOptional()
  @IsUUID('all', { message: M.assigneeNotStaff })
  assigneeId?: string;
}

export class ReportResolveInput extends ReportDismissInput {
  @Satisfies(checkSanctionInput)
  action!: unknown;
}
