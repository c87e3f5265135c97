import { Body, Controller, Get, HttpCode, Ip, Post, Put, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { AuthResponse, User } from '@spades/common';
import { LoginDto, RegisterDto, UpdateProfileDto } from './auth.dto';
import { AuthService } from './auth.service';
import { DiscordCallbackGuard, DiscordLoginGuard } from './discord-auth.guard';
import { DISCORD_STATE_COOKIE, stateCookieOptions, type CookieRequest } from './discord-state.store';
import { DiscordOutcome, DiscordService } from './discord.service';
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
  @UseGuards(DiscordLoginGuard)
  @ApiOperation({
    summary:
      'Redirects to Discord (state + PKCE; the state is bound to this browser by an HttpOnly cookie). ?client=desktop returns to spades://auth/callback',
  })
  @ApiQuery({ name: 'client', required: false, enum: ['web', 'desktop'] })
  discordStart(): void {
    // DiscordLoginGuard (the passport strategy) has set the state cookie and redirected to Discord
  }

  @Get('discord/callback')
  @UseGuards(DiscordCallbackGuard)
  @ApiOperation({
    summary:
      'Discord redirect target: checks state (and its browser cookie), exchanges the code, links or creates the account; redirects to the client with ?token= or ?error=',
  })
  async discordCallback(@Req() req: CookieRequest & { user: DiscordOutcome }, @Res() res: Response): Promise<void> {
    res.clearCookie(DISCORD_STATE_COOKIE, stateCookieOptions(req));
    res.redirect(302, this.discord.redirectFor(await this.auth.admitDiscord(req.user)));
  }
}

/** The parts of Express' response used here (the backend does not depend on @types/express). */
interface Response {
  clearCookie(name: string, options: ReturnType<typeof stateCookieOptions>): void;
  redirect(status: number, url: string): void;
}
