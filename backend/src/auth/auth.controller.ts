import { Body, Controller, Get, HttpCode, Ip, Post, Put, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { AuthResponse, User } from '@spades/common';
import { LoginDto, RegisterDto, UpdateProfileDto } from './auth.dto';
import { AuthService } from './auth.service';
import {
  DISCORD_STATE_COOKIE,
  DISCORD_STATE_COOKIE_MAX_AGE_MS,
  DISCORD_STATE_COOKIE_PATH,
  DiscordService,
  stateCookieValue,
} from './discord.service';
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
  @ApiOperation({
    summary:
      'Redirects to Discord (state + PKCE; the state is bound to this browser by an HttpOnly cookie). ?client=desktop returns to spades://auth/callback',
  })
  @ApiQuery({ name: 'client', required: false, enum: ['web', 'desktop'] })
  discordStart(@Query('client') client: string | undefined, @Req() req: Request, @Res() res: Response): void {
    const { url, state } = this.discord.start(client === 'desktop' ? 'desktop' : 'web');
    res.cookie(DISCORD_STATE_COOKIE, stateCookieValue(state), {
      ...stateCookieOptions(req),
      maxAge: DISCORD_STATE_COOKIE_MAX_AGE_MS,
    });
    res.redirect(302, url);
  }

  @Get('discord/callback')
  @ApiOperation({
    summary:
      'Discord redirect target: checks state (and its browser cookie), exchanges the code, links or creates the account; redirects to the client with ?token= or ?error=',
  })
  async discordCallback(
    @Query() query: Record<string, unknown>,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const url = await this.discord.callback(query, readCookie(req, DISCORD_STATE_COOKIE));
    res.clearCookie(DISCORD_STATE_COOKIE, stateCookieOptions(req));
    res.redirect(302, url);
  }
}

/** The parts of Express' request/response used here (the backend does not depend on @types/express). */
interface Request {
  secure: boolean;
  headers: Record<string, string | string[] | undefined>;
}
interface CookieOptions {
  httpOnly: boolean;
  sameSite: 'lax';
  secure: boolean;
  path: string;
  maxAge?: number;
}
interface Response {
  cookie(name: string, value: string, options: CookieOptions): void;
  clearCookie(name: string, options: CookieOptions): void;
  redirect(status: number, url: string): void;
}

function stateCookieOptions(req: Request): CookieOptions {
  // req.secure honours TRUST_PROXY (X-Forwarded-Proto behind a reverse proxy)
  return { httpOnly: true, sameSite: 'lax', secure: req.secure, path: DISCORD_STATE_COOKIE_PATH };
}

function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim(); // base64url: no escaping
  }
  return undefined;
}
