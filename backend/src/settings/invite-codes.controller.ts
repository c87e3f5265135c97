import { Body, Controller, Get, HttpCode, Param, Post, Req, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { InviteCode } from '@spades/common';
import { StaffGuard, StaffOnly, type StaffRequest } from '../admin/staff.guard';
import { InviteCodesService } from './invite-codes.service';
import { CreateInviteCodeInput, StaffReasonBodyInput } from './settings.input';

/** Invite codes for "registration by invite codes only" (issue #25): admins create, list and revoke them. */
@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(StaffGuard)
@StaffOnly('admin')
@Controller('admin/invite-codes')
export class InviteCodesController {
  constructor(private readonly codes: InviteCodesService) {}

  @Get()
  @ApiOperation({ summary: 'Invite codes, newest first, with their use counts (admins)' })
  list(): Promise<InviteCode[]> {
    return this.codes.list();
  }

  @Post()
  @ApiOperation({ summary: 'Create an invite code: { maxUses?, expiresInDays?, note?, reason } (admins, audited)' })
  create(@Req() req: StaffRequest, @Body() body: CreateInviteCodeInput): Promise<InviteCode> {
    return this.codes.create(req.userId!, { ...body });
  }

  @Post(':code/revoke')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke an invite code: { reason } (admins, audited)' })
  revoke(
    @Req() req: StaffRequest,
    @Param('code') code: string,
    @Body() body: StaffReasonBodyInput,
  ): Promise<InviteCode> {
    return this.codes.revoke(req.userId!, code, { reason: body.reason });
  }
}
