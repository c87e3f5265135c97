import { CanActivate, ExecutionContext, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { bearerToken } from '../auth/jwt.strategy';
import { TokenService } from '../auth/token.service';
import { RatingsService } from './ratings.service';

/**
 * Admin-only HTTP routes: the role comes from the verified token's `role` claim (set at login from users.role,
 * which ADMIN_USERS sets at boot) and must still be the account's role (a demoted admin's old token is refused).
 * 401 without a valid token, 403 for everybody else.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(
    private readonly tokens: TokenService,
    private readonly ratings: RatingsService,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<{ headers: Record<string, string | string[] | undefined>; userId?: string }>();
    // the same passport `jwt` strategy as every other route (HS256, not expired, the account exists)
    const token = bearerToken(req);
    const user = token ? await this.tokens.authenticate(token) : null;
    if (!user) throw new UnauthorizedException('Authentication required');
    if (user.tokenRole !== 'admin' || (await this.ratings.roleOf(user.id)) !== 'admin') {
      throw new ForbiddenException('Admins only');
    }
    req.userId = user.id;
    return true;
  }
}
