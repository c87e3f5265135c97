import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';

/** Signs and verifies session tokens (HS256, secret from JWT_SECRET or DATA_DIR/jwt-secret). */
@Injectable()
export class TokenService {
  constructor(private readonly jwt: JwtService) {}

  sign(userId: string): string {
    return this.jwt.sign({ sub: userId });
  }

  /** The user id of a valid, unexpired token signed by this server; null otherwise. */
  verify(token: unknown): string | null {
    if (typeof token !== 'string' || token.length > 4096) return null;
    try {
      const payload = this.jwt.verify<{ sub?: unknown }>(token);
      return typeof payload.sub === 'string' ? payload.sub : null;
    } catch {
      return null;
    }
  }
}
