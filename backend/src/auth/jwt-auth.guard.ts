import { CanActivate, createParamDecorator, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { UsersService } from '../users/users.service';
import { TokenService } from './token.service';

interface AuthedRequest {
  headers: Record<string, string | string[] | undefined>;
  userId?: string;
}

/**
 * HTTP guard: the identity comes ONLY from a valid Bearer token (never from body or query ids), and the
 * account must still exist. 401 `{ message }` otherwise.
 */
@Injectable()
export class JwtAuthGuard implements CanActivate {
  constructor(
    private readonly tokens: TokenService,
    private readonly users: UsersService,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const req = ctx.switchToHttp().getRequest<AuthedRequest>();
    const header = req.headers.authorization;
    const m = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
    if (!m) throw new UnauthorizedException('Authentication required');
    const userId = this.tokens.verify(m[1]);
    if (!userId || !(await this.users.exists(userId))) throw new UnauthorizedException('Invalid or expired session');
    req.userId = userId;
    return true;
  }
}

/** The authenticated user's id (set by JwtAuthGuard). */
export const CurrentUserId = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const id = ctx.switchToHttp().getRequest<AuthedRequest>().userId;
  if (!id) throw new UnauthorizedException('Authentication required');
  return id;
});
