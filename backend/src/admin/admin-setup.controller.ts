import { BadRequestException, Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { AdminSetupResponse } from '@spades/common';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { CurrentUserId, JwtAuthGuard } from '../auth/jwt-auth.guard';
import { AdminSetupService } from './admin-setup.service';
import { ADMIN_MESSAGES } from './admin.roles';

export class AdminSetupDto {
  @ApiProperty({ description: 'the one-time setup token printed in the server log' })
  @IsString({ message: ADMIN_MESSAGES.setupTokenRequired })
  @MinLength(1, { message: ADMIN_MESSAGES.setupTokenRequired })
  @MaxLength(200, { message: ADMIN_MESSAGES.setupTokenInvalid })
  token: string;
}

@ApiTags('admin')
@ApiBearerAuth()
@UseGuards(JwtAuthGuard)
@Controller('admin')
export class AdminSetupController {
  constructor(private readonly setup: AdminSetupService) {}

  /** Redeems the one-time setup token: the signed-in account becomes admin (403 when the token is wrong or spent). */
  @Post('setup')
  @HttpCode(200)
  async redeem(@CurrentUserId() me: string, @Body() body: AdminSetupDto): Promise<AdminSetupResponse> {
    if (typeof body?.token !== 'string') throw new BadRequestException(ADMIN_MESSAGES.setupTokenRequired);
    await this.setup.redeem(me, body.token.trim());
    return { role: 'admin' };
  }
}
