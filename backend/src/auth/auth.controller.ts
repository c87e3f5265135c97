import { Body, Controller, Get, HttpCode, Ip, Post, Put, Query, Redirect, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { AuthResponse, User } from '@spades/common';
import { LoginDto, RegisterDto, UpdateProfileDto } from './auth.dto';
import { AuthService } from './auth.service';
import { DiscordService } from './discord.service';
import { CurrentUserId, JwtAuthGuard } from './jwt-auth.guard';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly discord: DiscordService,
  ) {}

  @Post('register')
  @ApiOperation({ summary: 'Create an account (receives 5,000,000 coins from the house)' })
  register(@Body() dto: RegisterDto, @Ip() ip: string): Promise<AuthResponse> {
    return this.auth.register(dto, ip);
  }

  @Post('login')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in; failures are generic and rate-limited per IP and per account' })
  login(@Body() dto: LoginDto, @Ip() ip: string): Promise<AuthResponse> {
    return this.auth.login(dto, ip);
  }

  @Get('profile')
  @UseGuards(JwtAuthGuard)
  @ApiBearerAuth()
  profile(@CurrentUserId() userId: string): Promise<User> {
    return this.auth.profile(userId);
  }

  @Put('profile')
  @UseGuards(JwtAuthGuard)
  @ApiBearerAuth()
  updateProfile(@CurrentUserId() userId: string, @Body() dto: UpdateProfileDto): Promise<User> {
    return this.auth.updateProfile(userId, dto);
  }

  @Get('discord')
  @Redirect()
  @ApiOperation({ summary: 'Redirects to Discord (state + PKCE). ?client=desktop returns to spades://auth/callback' })
  @ApiQuery({ name: 'client', required: false, enum: ['web', 'desktop'] })
  discordStart(@Query('client') client?: string): { url: string; statusCode: number } {
    return { url: this.discord.start(client === 'desktop' ? 'desktop' : 'web'), statusCode: 302 };
  }

  @Get('discord/callback')
  @Redirect()
  @ApiOperation({ summary: 'Discord redirect target: checks state, exchanges the code, links or creates the account' })
  async discordCallback(@Query() query: Record<string, unknown>): Promise<{ url: string; statusCode: number }> {
    return { url: await this.discord.callback(query), statusCode: 302 };
  }
}
