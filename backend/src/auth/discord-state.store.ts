import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { returnedRows } from '../database/returned-rows';
import { DiscordClient, DiscordLoginFailed } from './discord.errors';

const STATE_TTL_MS = 10 * 60 * 1000;
export const MAX_PENDING = 10_000;
/**
 * Binds a login's `state` to the browser that started it (login CSRF): set at GET /api/auth/discord, HttpOnly,
 * SameSite=Lax, path /api/auth/discord, holding a hash of the state; the callback requires it and clears it.
 */
export const DISCORD_STATE_COOKIE = 'spades_discord_state';
export const DISCORD_STATE_COOKIE_PATH = '/api/auth/discord';
export const DISCORD_STATE_COOKIE_MAX_AGE_MS = STATE_TTL_MS;

/** What the state cookie holds for a state (a hash: the raw state travels only through the provider). */
export const stateCookieValue = (state: string) => createHash('sha256').update(state).digest('base64url');

/** The parts of Express' request/response used here (the backend does not depend on @types/express). */
export interface CookieRequest {
  secure: boolean;
  headers: Record<string, string | string[] | undefined>;
  query?: Record<string, unknown>;
  res?: { cookie(name: string, value: string, options: CookieOptions): void };
}
export interface CookieOptions {
  httpOnly: boolean;
  sameSite: 'lax';
  secure: boolean;
  path: string;
  maxAge?: number;
}

export function stateCookieOptions(req: CookieRequest): CookieOptions {
  // req.secure honours TRUST_PROXY (X-Forwarded-Proto behind a reverse proxy)
  return { httpOnly: true, sameSite: 'lax', secure: req.secure, path: DISCORD_STATE_COOKIE_PATH };
}

export function readCookie(req: CookieRequest, name: string): string | undefined {
  const header = req.headers.cookie;
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim(); // base64url: no escaping
  }
  return undefined;
}

export interface PendingLogin {
  verifier: string;
  client: DiscordClient;
  expiresAt: number;
  /** Issue #26: the signed-in account this Discord login links to (profile → Link Discord); null: a sign-in. */
  linkUserId?: string | null;
}

/** What the database store runs its SQL on (a DataSource). */
export interface Queryable {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/**
 * Logins in progress in `discord_login_states`, keyed by a hash of the state (the raw state is never stored): the
 * callback may reach any node and survives a restart. At most `max` (MAX_PENDING) unexpired rows: starting logins in a loop
 * evicts the oldest instead of growing the table.
 */
export class PendingLogins {
  constructor(
    private readonly db: Queryable,
    private readonly max = MAX_PENDING,
  ) {}

  async put(state: string, login: PendingLogin): Promise<void> {
    await this.db.query(`DELETE FROM discord_login_states WHERE expires_at < now()`);
    await this.db.query(
      `DELETE FROM discord_login_states WHERE state_hash IN (
         SELECT state_hash FROM discord_login_states ORDER BY expires_at
          LIMIT greatest(0, (SELECT count(*) FROM discord_login_states) - $1 + 1))`,
      [this.max],
    );
    await this.db.query(
      `INSERT INTO discord_login_states (state_hash, verifier, client, expires_at, link_user_id) VALUES ($1, $2, $3, to_timestamp($4::bigint / 1000.0), $5)`,
      [stateCookieValue(state), login.verifier, login.client, login.expiresAt, login.linkUserId ?? null],
    );
  }

  /** Removes and returns the login of a state (single use), or null. */
  async take(state: string): Promise<PendingLogin | null> {
    const rows = returnedRows<{ verifier: string; client: string; expires_at: string; link_user_id: string | null }>(
      await this.db.query(
        `DELETE FROM discord_login_states WHERE state_hash = $1 RETURNING verifier, client, (extract(epoch FROM expires_at) * 1000)::bigint AS expires_at, link_user_id`,
        [stateCookieValue(state)],
      ),
    );
    const r = rows[0];
    if (!r) return null;
    return {
      verifier: r.verifier,
      client: r.client === 'desktop' ? 'desktop' : 'web',
      expiresAt: Number(r.expires_at),
      linkUserId: r.link_user_id ?? null,
    };
  }
}

type StoreDone = (err: Error | null, state?: string) => void;
type VerifyDone = (
  err: Error | null,
  verifier: string | false,
  info: DiscordLoginFailed | { client: DiscordClient },
) => void;

/**
 * passport-oauth2's state store with PKCE, without sessions: `state` is random (32 bytes), single use, valid for
 * 10 minutes and kept in the database (PendingLogins) with its PKCE verifier and the client that started the login; the browser that
 * started it gets the state cookie. `verify` uses the state up whatever happens next, and accepts it only with
 * the matching cookie. (passport-oauth2 picks the PKCE calling convention from the arity of `store`: keep 5.)
 */
export class DiscordStateStore {
  /** Which client (web or desktop) the login of a callback request was started by, once its state is known. */
  private readonly clients = new WeakMap<object, DiscordClient>();
  /** Issue #26: the account a callback's login links Discord to (only for a valid state). */
  private readonly links = new WeakMap<object, string>();

  constructor(private readonly pending: PendingLogins) {}

  store(req: CookieRequest, verifier: string, _state: unknown, _meta: unknown, done: StoreDone): void {
    const state = randomBytes(32).toString('base64url');
    const client: DiscordClient = req.query?.client === 'desktop' ? 'desktop' : 'web';
    if (!req.res) return done(new Error('no response to set the state cookie on'));
    const res = req.res;
    // issue #26: set by DiscordLoginGuard from a link ticket (profile → Link Discord)
    const linkUserId = (req as { discordLinkUserId?: string }).discordLinkUserId ?? null;
    this.pending.put(state, { verifier, client, expiresAt: Date.now() + STATE_TTL_MS, linkUserId }).then(
      () => {
        res.cookie(DISCORD_STATE_COOKIE, stateCookieValue(state), {
          ...stateCookieOptions(req),
          maxAge: DISCORD_STATE_COOKIE_MAX_AGE_MS,
        });
        done(null, state);
      },
      (e: Error) => done(e),
    );
  }

  verify(req: CookieRequest, providedState: unknown, _meta: unknown, done: VerifyDone): void {
    const state = typeof providedState === 'string' && providedState.length <= 200 ? providedState : '';
    // single use, whatever happens next
    (state ? this.pending.take(state) : Promise.resolve(null)).then(
      (pending) => this.check(req, state, pending ?? undefined, done),
      (e: Error) => done(e, false, new DiscordLoginFailed('invalid_state', 'login state unavailable')),
    );
  }

  private check(req: CookieRequest, state: string, pending: PendingLogin | undefined, done: VerifyDone): void {
    const client = pending?.client ?? 'web';
    this.clients.set(req, client);
    if (!pending || pending.expiresAt < Date.now()) {
      return done(
        null,
        false,
        new DiscordLoginFailed('invalid_state', state ? 'unknown or expired state' : 'no state'),
      );
    }
    const cookie = readCookie(req, DISCORD_STATE_COOKIE);
    if (!cookie || !sameText(cookie, stateCookieValue(state))) {
      return done(
        null,
        false,
        new DiscordLoginFailed(
          'state_mismatch',
          cookie ? 'state cookie belongs to another login' : 'no state cookie (login not started in this browser)',
        ),
      );
    }
    if (pending.linkUserId) this.links.set(req, pending.linkUserId);
    done(null, pending.verifier, { client });
  }

  /** Issue #26: the account a callback request's login links Discord to, or undefined for a sign-in. */
  linkUserOf(req: object): string | undefined {
    return this.links.get(req);
  }

  /** The client of the login a callback request belongs to (web when its state was unknown). */
  clientOf(req: object): DiscordClient {
    return this.clients.get(req) ?? 'web';
  }
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
