import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { returnedRows } from '../database/returned-rows';
import { readCookie, type CookieOptions, type CookieRequest, type Queryable } from './discord-state.store';

const STATE_TTL_MS = 10 * 60 * 1000;
const TICKET_TTL_MS = 2 * 60 * 1000;
const MAX_PENDING = 10_000;

/**
 * Binds an SSO login's `state` to the browser that started it (login CSRF), as for Discord: HttpOnly, SameSite=Lax,
 * path /api/auth/oidc, holding a hash of the state; the callback requires it and clears it.
 */
export const SSO_STATE_COOKIE = 'spades_sso_state';
export const SSO_STATE_COOKIE_PATH = '/api/auth/oidc';

export type SsoClient = 'web' | 'desktop';

const hashOf = (s: string) => createHash('sha256').update(s).digest('base64url');

export function ssoCookieOptions(req: Pick<CookieRequest, 'secure'>, maxAge?: number): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure: req.secure,
    path: SSO_STATE_COOKIE_PATH,
    ...(maxAge ? { maxAge } : {}),
  };
}

/** A login in progress: what the callback needs to check the provider's answer. */
export interface SsoPending {
  provider: string;
  /** PKCE code verifier. */
  verifier: string;
  /** The nonce the id_token must carry (OIDC). */
  nonce: string;
  client: SsoClient;
  /** Set when a signed-in player links this provider to their account. */
  linkUserId: string | null;
  expiresAt: number;
}

/** Why a state was refused. */
export type StateRefusal = 'invalid_state' | 'state_mismatch';

/**
 * Logins in progress in `sso_login_states` (keyed by a hash of the state: the raw state only travels through the
 * provider) and link tickets in `sso_link_tickets`. Both are single use; at most MAX_PENDING unexpired logins.
 */
export class SsoStateStore {
  constructor(private readonly db: Queryable) {}

  /** Stores a new login and returns its state (32 random bytes); the caller sets the cookie (`cookieValue`). */
  async create(
    login: Omit<SsoPending, 'expiresAt' | 'verifier' | 'nonce'> & { verifier: string; nonce: string },
  ): Promise<string> {
    const state = randomBytes(32).toString('base64url');
    await this.db.query(`DELETE FROM sso_login_states WHERE expires_at < now()`);
    await this.db.query(
      `DELETE FROM sso_login_states WHERE state_hash IN (
         SELECT state_hash FROM sso_login_states ORDER BY expires_at
          LIMIT greatest(0, (SELECT count(*) FROM sso_login_states) - $1 + 1))`,
      [MAX_PENDING],
    );
    await this.db.query(
      `INSERT INTO sso_login_states (state_hash, provider, verifier, nonce, client, link_user_id, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7::int))`,
      [hashOf(state), login.provider, login.verifier, login.nonce, login.client, login.linkUserId, STATE_TTL_MS / 1000],
    );
    return state;
  }

  /** The cookie value that binds `state` to a browser. */
  cookieValue(state: string): string {
    return hashOf(state);
  }

  /**
   * Uses up the state of a callback (whatever happens next) and checks it: known, unexpired, of this provider, and
   * started in this browser (the cookie). Returns the login, or why it is refused.
   */
  async take(
    req: CookieRequest,
    provider: string,
    providedState: unknown,
  ): Promise<
    | { ok: true; pending: SsoPending; state: string }
    | { ok: false; code: StateRefusal; reason: string; client: SsoClient }
  > {
    const state = typeof providedState === 'string' && providedState.length <= 200 ? providedState : '';
    if (!state) return { ok: false, code: 'invalid_state', reason: 'no state', client: 'web' };
    const rows = returnedRows<{
      provider: string;
      verifier: string;
      nonce: string;
      client: string;
      link_user_id: string | null;
      expired: boolean;
    }>(
      await this.db.query(
        `DELETE FROM sso_login_states WHERE state_hash = $1
         RETURNING provider, verifier, nonce, client, link_user_id, expires_at < now() AS expired`,
        [hashOf(state)],
      ),
    );
    const r = rows[0];
    const client: SsoClient = r?.client === 'desktop' ? 'desktop' : 'web';
    if (!r || r.expired) return { ok: false, code: 'invalid_state', reason: 'unknown or expired state', client };
    if (r.provider !== provider)
      return { ok: false, code: 'invalid_state', reason: 'state of another provider', client };
    const cookie = readCookie(req, SSO_STATE_COOKIE);
    if (!cookie || !sameText(cookie, hashOf(state))) {
      return {
        ok: false,
        code: 'state_mismatch',
        reason: cookie
          ? 'state cookie belongs to another login'
          : 'no state cookie (login not started in this browser)',
        client,
      };
    }
    return {
      ok: true,
      state,
      pending: {
        provider: r.provider,
        verifier: r.verifier,
        nonce: r.nonce,
        client,
        linkUserId: r.link_user_id,
        expiresAt: Date.now(),
      },
    };
  }

  /** A single-use ticket (2 minutes) a signed-in player starts linking `provider` with. */
  async createTicket(userId: string, provider: string): Promise<string> {
    const ticket = randomBytes(24).toString('base64url');
    await this.db.query(`DELETE FROM sso_link_tickets WHERE expires_at < now()`);
    await this.db.query(
      `INSERT INTO sso_link_tickets (ticket_hash, user_id, provider, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4::int))`,
      [hashOf(ticket), userId, provider, TICKET_TTL_MS / 1000],
    );
    return ticket;
  }

  /** The account of a ticket for `provider` (used up), or null. */
  async takeTicket(ticket: unknown, provider: string): Promise<string | null> {
    if (typeof ticket !== 'string' || ticket.length > 100) return null;
    const rows = returnedRows<{ user_id: string; provider: string; expired: boolean }>(
      await this.db.query(
        `DELETE FROM sso_link_tickets WHERE ticket_hash = $1 RETURNING user_id, provider, expires_at < now() AS expired`,
        [hashOf(ticket)],
      ),
    );
    const r = rows[0];
    return r && !r.expired && r.provider === provider ? r.user_id : null;
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
