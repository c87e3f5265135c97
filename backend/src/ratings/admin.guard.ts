import { CanActivate, ExecutionContext, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
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
    const header = req.headers.authorization;
    const m = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    const claims = m ? this.tokens.claims(m[1]) : null;
    if (!claims) throw new UnauthorizedException('Authentication required');
    if (claims.role !== 'admin' || (await this.ratings.roleOf(claims.userId)) !== 'admin') {
      throw new ForbiddenException('Admins only');
    }
    req.userId = claims.userId;
    return true;
  }
}
