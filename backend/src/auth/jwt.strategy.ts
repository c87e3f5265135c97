import { Inject, Injectable } from '@nestjs/common';
import { createSecretKey, KeyObject } from 'node:crypto';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-jwt';
import { AppConfig } from '../config/config.schema';
import { UsersService } from '../users/users.service';
import { APP_PASSPORT, type Authenticator, withPassportOption, runStrategy, withAppPassport } from './app-passport';

/** The passport strategy name of session tokens (HTTP guard and socket handshake alike). */
export const JWT_STRATEGY = 'jwt';
/** Longer bearer credentials are not even parsed. */
const MAX_TOKEN_LENGTH = 4096;
const BEARER = /^Bearer\s+(\S+)$/i;

/** A session token's `role` claim: the account's role when the token was signed (informational only). */
export type UserRole = 'user' | 'moderator' | 'admin';

/** Who a verified session token belongs to (an account that still exists). */
export interface AuthUser {
  id: string;
  username: string;
  /**
   * The token's `role` claim: the role at sign-in, for clients only. Authorization never trusts it: admin routes
   * read the account's stored role per request (issue #24), so a grant or revoke takes effect without a new token.
   */
  tokenRole: UserRole;
}

const sessionKeys = new Map<string, KeyObject>();

/**
 * The HS256 key of session tokens as a KeyObject (one per secret). jsonwebtoken turns a string secret into a key on
 * every sign / verify by first trying to parse it as a public (verify) or private (sign) key, which fails and
 * costs ~0.3 ms of CPU each time (a reconnect storm of 4,000 sockets: ~1.5 s of the event loop); a KeyObject is
 * used as it is. Same bytes (the secret as UTF-8), so the tokens are the same.
 */
export function sessionKey(secret: string): KeyObject {
  let key = sessionKeys.get(secret);
  if (!key) sessionKeys.set(secret, (key = createSecretKey(Buffer.from(secret, 'utf8'))));
  return key;
}

/** A request as far as the JWT strategy reads it: only the Authorization header. */
export interface BearerRequest {
  headers: Record<string, string | string[] | undefined>;
}

const bearerMatch = (req: BearerRequest) => {
  const header = req.headers.authorization;
  return typeof header === 'string' ? BEARER.exec(header) : null;
};

/** The credentials of `Authorization: Bearer <token>` (exactly one token, at most 4096 characters), or null. */
export function bearerToken(req: BearerRequest): string | null {
  const m = bearerMatch(req);
  return m && m[1].length <= MAX_TOKEN_LENGTH ? m[1] : null;
}

/** Whether the request presents a bearer credential at all (valid or not). */
export const presentsBearer = (req: BearerRequest): boolean => bearerMatch(req) !== null;

/**
 * The ONE verification of a session token: HS256 only (`alg: none` and other algorithms are refused), signed with
 * the server's secret (JWT_SECRET or DATA_DIR/jwt-secret), not expired, and its `sub` an account that still exists.
 * HTTP routes run it through `JwtAuthGuard` (= `AuthGuard('jwt')`); sockets through `authenticateToken` below,
 * which runs this same passport strategy on the token of the handshake or of the `authenticate` event.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(withAppPassport(Strategy), JWT_STRATEGY) {
  constructor(
    config: AppConfig,
    private readonly users: UsersService,
    @Inject(APP_PASSPORT) passport: Authenticator,
  ) {
    super(
      withPassportOption(passport, {
        jwtFromRequest: bearerToken,
        // jsonwebtoken takes a KeyObject (passport-jwt passes it through; its types only name string | Buffer)
        secretOrKey: sessionKey(config.jwtSecret) as unknown as Buffer,
        algorithms: ['HS256'],
        ignoreExpiration: false,
      }),
    );
  }

  /** Registers this strategy in the app's passport instance (see withAppPassport). */
  getPassportInstance(): Authenticator {
    return this.appPassport;
  }

  /** passport-jwt calls this with the verified payload; false (no user) makes the strategy fail. */
  async validate(payload: {
    sub?: unknown;
    role?: unknown;
    iat?: unknown;
    iatMs?: unknown;
  }): Promise<AuthUser | false> {
    if (typeof payload.sub !== 'string') return false;
    // issue #25: tokens issued before the account's sessions were revoked (or it was banned) are refused
    const issuedAtMs =
      typeof payload.iatMs === 'number'
        ? payload.iatMs
        : typeof payload.iat === 'number'
          ? payload.iat * 1000
          : undefined;
    const user = await this.users.findIdentity(payload.sub, issuedAtMs);
    const tokenRole: UserRole = payload.role === 'admin' || payload.role === 'moderator' ? payload.role : 'user';
    return user ? { ...user, tokenRole } : false;
  }
}

/**
 * Runs the app's `jwt` strategy (the same one JwtAuthGuard runs for HTTP) on a token that arrived another way
 * (socket handshake `auth.token`, `authenticate` event): the user, or null when the token is refused. Rejects only
 * when the verification itself failed (database down).
 */
export async function authenticateToken(authenticator: Authenticator, token: unknown): Promise<AuthUser | null> {
  if (typeof token !== 'string' || token.length === 0) return null;
  const req: BearerRequest = { headers: { authorization: `Bearer ${token}` } };
  const user = await runStrategy(authenticator, JWT_STRATEGY, { session: false }, req, {}, (err, u) => {
    if (err) throw err;
    return (u as AuthUser | false) || null;
  });
  return user ?? null;
}
