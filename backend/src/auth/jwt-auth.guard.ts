import { createParamDecorator, ExecutionContext, Injectable, UnauthorizedException } from '@nestjs/common';
import { AppAuthGuard } from './app-passport';
import { AuthUser, BearerRequest, JWT_STRATEGY, presentsBearer } from './jwt.strategy';

interface AuthedRequest extends BearerRequest {
  user?: AuthUser;
}

/**
 * HTTP guard (`AuthGuard('jwt')` on the app's passport instance, see JwtStrategy and AppAuthGuard): the identity comes ONLY from a valid Bearer token (never from
 * body or query ids), and the account must still exist. 401 `{ message }` otherwise: "Authentication required"
 * without a bearer token, "Invalid or expired session" with one that is refused.
 */
@Injectable()
export class JwtAuthGuard extends AppAuthGuard(JWT_STRATEGY) {
  override handleRequest<TUser = AuthUser>(err: unknown, user: unknown, _info: unknown, ctx: ExecutionContext): TUser {
    if (err) throw err;
    if (!user) {
      const presented = presentsBearer(ctx.switchToHttp().getRequest<AuthedRequest>());
      throw new UnauthorizedException(presented ? 'Invalid or expired session' : 'Authentication required');
    }
    return user as TUser;
  }
}

/** The authenticated user's id (set by JwtAuthGuard). */
export const CurrentUserId = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  const id = ctx.switchToHttp().getRequest<AuthedRequest>().user?.id;
  if (!id) throw new UnauthorizedException('Authentication required');
  return id;
});
