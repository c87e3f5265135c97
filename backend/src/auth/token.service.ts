import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { APP_PASSPORT, type Authenticator } from './app-passport';
import { authenticateToken, AuthUser, UserRole } from './jwt.strategy';

export type { UserRole } from './jwt.strategy';

/**
 * Issues session tokens (HS256, secret from JWT_SECRET or DATA_DIR/jwt-secret) and checks tokens that do not come
 * in an Authorization header (sockets) with the same passport `jwt` strategy as JwtAuthGuard.
 */
@Injectable()
export class TokenService {
  constructor(
    private readonly jwt: JwtService,
    @Inject(APP_PASSPORT) private readonly passport: Authenticator,
  ) {}

  /**
   * `role` (users.role at sign-in) rides in the token as the `role` claim when it is not 'user'. Informational:
   * the server decides with the stored role (AdminGuard, UsersService.roleOf), never with this claim.
   */
  sign(userId: string, role: UserRole = 'user'): string {
    // `iatMs`: the issue time to the millisecond (`iat` has whole seconds), so a sign-in right after the account's
    // sessions were revoked (issue #25) is not mistaken for one from before
    const iatMs = Date.now();
    return this.jwt.sign(role !== 'user' ? { sub: userId, role, iatMs } : { sub: userId, iatMs });
  }

  /** The account of a valid, unexpired token signed by this server whose user still exists; null otherwise. */
  authenticate(token: unknown): Promise<AuthUser | null> {
    return authenticateToken(this.passport, token);
  }
}
