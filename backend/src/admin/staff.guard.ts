import {
  CanActivate,
  ExecutionContext,
  ForbiddenException,
  Injectable,
  SetMetadata,
  UnauthorizedException,
} from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { StaffRole } from '@spades/common';
import { bearerToken } from '../auth/jwt.strategy';
import { TokenService } from '../auth/token.service';
import { UsersService } from '../users/users.service';

export const STAFF_MESSAGES = {
  unauthenticated: 'Authentication required',
  staffOnly: 'Moderators and admins only',
  adminOnly: 'Admins only',
} as const;

const STAFF_ROLE_KEY = 'spades:staffRole';
/** The least role a console route needs (default 'moderator'); put on a controller or a route. */
export const StaffOnly = (role: StaffRole = 'moderator') => SetMetadata(STAFF_ROLE_KEY, role);

/** The request after StaffGuard: the verified account and its stored role. */
export interface StaffRequest {
  headers: Record<string, string | string[] | undefined>;
  userId?: string;
  staffRole?: StaffRole;
}

/**
 * Console routes (issue #25): a valid session token whose account's STORED role (read per request, never the
 * token's claim) is at least the route's `@StaffOnly(role)`. 401 without a valid token, 403 otherwise.
 */
@Injectable()
export class StaffGuard implements CanActivate {
  constructor(
    private readonly tokens: TokenService,
    private readonly users: UsersService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const need =
      this.reflector.getAllAndOverride<StaffRole | undefined>(STAFF_ROLE_KEY, [ctx.getHandler(), ctx.getClass()]) ??
      'moderator';
    const req = ctx.switchToHttp().getRequest<StaffRequest>();
    const token = bearerToken(req);
    const user = token ? await this.tokens.authenticate(token) : null;
    if (!user) throw new UnauthorizedException(STAFF_MESSAGES.unauthenticated);
    const role = await this.users.roleOf(user.id);
    if (role === 'user') throw new ForbiddenException(STAFF_MESSAGES.staffOnly);
    if (need === 'admin' && role !== 'admin') throw new ForbiddenException(STAFF_MESSAGES.adminOnly);
    req.userId = user.id;
    req.staffRole = role;
    return true;
  }
}
