import { CanActivate, ExecutionContext, ForbiddenException, Injectable, UnauthorizedException } from '@nestjs/common';
import { bearerToken } from '../auth/jwt.strategy';
import { TokenService } from '../auth/token.service';
import { UsersService } from '../users/users.service';

export const ADMIN_GUARD_MESSAGES = {
  unauthenticated: 'Authentication required',
  forbidden: 'Admins only',
} as const;

/**
 * Admin-only HTTP routes: a valid session token (the same passport `jwt` strategy as every other route) whose
 * account's STORED role is 'admin', read per request (issue #24). The token's `role` claim is not trusted: a
 * freshly granted admin needs no new sign-in, and a revoked admin's old token is refused at once.
 * 401 without a valid token, 403 for everybody else.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(
    private readonly tokens: TokenService,
    private readonly users: UsersService,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx
      .switchToHttp()
      .getRequest<{ headers: Record<string, string | string[] | undefined>; userId?: string }>();
    const token = bearerToken(req);
    const user = token ? await this.tokens.authenticate(token) : null;
    if (!user) throw new UnauthorizedException(ADMIN_GUARD_MESSAGES.unauthenticated);
    if (!(await this.users.isAdmin(user.id))) throw new ForbiddenException(ADMIN_GUARD_MESSAGES.forbidden);
    req.userId = user.id;
    return true;
  }
}
