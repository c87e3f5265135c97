import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';

export type UserRole = 'user' | 'admin';

/** Signs and verifies session tokens (HS256, secret from JWT_SECRET or DATA_DIR/jwt-secret). */
@Injectable()
export class TokenService {
  constructor(private readonly jwt: JwtService) {}

  /** `role` (users.role, from ADMIN_USERS) rides in the token as the `role` claim (issue #11: admin report). */
  sign(userId: string, role: UserRole = 'user'): string {
    return this.jwt.sign(role === 'admin' ? { sub: userId, role } : { sub: userId });
  }

  /** The user id of a valid, unexpired token signed by this server; null otherwise. */
  verify(token: unknown): string | null {
    return this.claims(token)?.userId ?? null;
  }

  /** User id and role of a valid, unexpired token; null otherwise. */
  claims(token: unknown): { userId: string; role: UserRole } | null {
    if (typeof token !== 'string' || token.length > 4096) return null;
    try {
      const payload = this.jwt.verify<{ sub?: unknown; role?: unknown }>(token);
      if (typeof payload.sub !== 'string') return null;
      return { userId: payload.sub, role: payload.role === 'admin' ? 'admin' : 'user' };
    } catch {
      return null;
    }
  }
}
