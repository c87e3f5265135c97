import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { hostname } from 'node:os';
import { z } from 'zod';
import { parseSsoProviders, type SsoProviderConfig } from '../auth/sso.config';

/** Empty strings count as "not set" so `FOO=` in a compose file behaves like an absent variable. */
const optionalString = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());
const url = (name: string) =>
  z.string().refine((v) => {
    try {
      new URL(v);
      return true;
    } catch {
      return false;
    }
  }, `${name} must be an absolute URL`);
const optionalUrl = (name: string) => z.preprocess((v) => (v === '' ? undefined : v), url(name).optional());
const METRICS_PORT_ERROR = 'METRICS_PORT must be a port number between 1 and 65535';
const intInRange = (name: string, min: number, max: number, def: number) =>
  z.preprocess(
    (v) => (v === '' || v === undefined ? def : typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v),
    z
      .number({ error: `${name} must be an integer between ${min} and ${max}` })
      .int({ error: `${name} must be an integer between ${min} and ${max}` })
      .min(min, { error: `${name} must be an integer between ${min} and ${max}` })
      .max(max, { error: `${name} must be an integer between ${min} and ${max}` }),
  );

/**
 * A whole number from the environment for a module's own config (games, ratings): unset or empty → `def`; else an
 * integer ≥ `min`, refused with "NAME must be an integer >= min (got "raw")".
 */
export const envIntAtLeast = (name: string, def: number, min = 0) =>
  z.preprocess(
    (raw) => (raw === undefined || raw === '' ? def : raw),
    z.unknown().transform((raw, ctx): number => {
      const n = Number(raw);
      if (!Number.isInteger(n) || n < min) {
        ctx.addIssue({ code: 'custom', message: `${name} must be an integer >= ${min} (got "${String(raw)}")` });
        return z.NEVER;
      }
      return n;
    }),
  );

/** Parses `env` with a module's schema; throws an Error with the first problem's message (the modules' wording). */
export function parseEnvOrThrow<S extends z.ZodType>(schema: S, env: Record<string, unknown>): z.output<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) throw new Error(parsed.error.issues[0]?.message ?? 'invalid environment');
  return parsed.data;
}

/** JWT_EXPIRES_IN: seconds ("3600") or a number with unit s/m/h/d ("7d"). */
const expiresIn = z
  .preprocess((v) => (v === '' || v === undefined ? '7d' : v), z.string())
  .refine(
    (v) => /^\d+[smhd]?$/.test(v),
    'JWT_EXPIRES_IN must be seconds or a number followed by s, m, h or d (e.g. 7d)',
  )
  .transform((v) => {
    const m = /^(\d+)([smhd]?)$/.exec(v)!;
    const mult = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[m[2] as '' | 's' | 'm' | 'h' | 'd'];
    return Number(m[1]) * mult;
  })
  .refine((v) => v > 0, 'JWT_EXPIRES_IN must be positive');

const ACCOUNT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The refusal of an ADMIN_USERS entry that is not an account id (names and e-mails were an attack, issue #24). */
export const adminUsersError = (bad: string[]) =>
  `only account ids (UUIDs) are accepted, never usernames or e-mails (not an id: ${bad.map((b) => JSON.stringify(b)).join(', ')}). ` +
  'Make an admin with `npm run admin -- grant <username> admin` (see README, "First admin").';

export const envSchema = z.object({
  PORT: intInRange('PORT', 0, 65535, 3000).describe(
    'HTTP port for the API (/api), socket.io, /health, /health/ready, /metrics (with METRICS_TOKEN), /api/docs and the web app',
  ),
  DATA_DIR: z
    .preprocess((v) => (v === '' || v === undefined ? './data' : v), z.string())
    .describe('embedded database (pgdata/, with a lock file) and the generated jwt-secret'),
  DATABASE_URL: z
    .preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .refine((v) => /^postgres(ql)?:\/\//.test(v), 'DATABASE_URL must start with postgres:// or postgresql://')
        .optional(),
    )
    .describe('a PostgreSQL to use; unset: embedded PGlite under DATA_DIR (behind PgBouncer use session pooling)'),
  DATABASE_SCHEMA: z
    .preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'DATABASE_SCHEMA must be a lower-case SQL identifier')
        .optional(),
    )
    .describe("PostgreSQL schema to use, created if missing; unset: the server's default"),
  DATABASE_POOL_SIZE: intInRange('DATABASE_POOL_SIZE', 1, 100, 10).describe(
    'connection pool size with DATABASE_URL (the embedded database always uses 1)',
  ),
  JWT_SECRET: z
    .preprocess(
      (v) => (v === '' ? undefined : v),
      z.string().min(32, 'JWT_SECRET must be at least 32 characters long').optional(),
    )
    .describe(
      'signs session tokens; unset: generated once into DATA_DIR/jwt-secret. Set it when several nodes share a database',
    ),
  JWT_EXPIRES_IN: expiresIn.describe('session lifetime: seconds, or a number with s, m, h or d'),
  CLIENT_URL: z
    .preprocess((v) => (v === '' ? undefined : v), url('CLIENT_URL').optional())
    .meta({ docDefault: 'http://localhost:<PORT>' })
    .describe(
      "the web client's origin: CORS, the sign-in return address and invite links (unset: links use the address the player opened)",
    ),
  CORS_ORIGINS: optionalString.describe('extra allowed origins, comma-separated'),
  DISCORD_CLIENT_ID: optionalString.describe(
    'Discord login (set DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET and DISCORD_REDIRECT_URI together, or none)',
  ),
  DISCORD_CLIENT_SECRET: optionalString.describe("Discord login: the application's secret"),
  DISCORD_REDIRECT_URI: optionalUrl('DISCORD_REDIRECT_URI').describe(
    'Discord login: https://<host>/api/auth/discord/callback',
  ),
  DISCORD_AUTHORIZE_URL: z
    .preprocess(
      (v) => (v === '' || v === undefined ? 'https://discord.com/oauth2/authorize' : v),
      url('DISCORD_AUTHORIZE_URL'),
    )
    .describe("Discord's authorize endpoint"),
  DISCORD_API_URL: z
    .preprocess((v) => (v === '' || v === undefined ? 'https://discord.com/api/v10' : v), url('DISCORD_API_URL'))
    .describe("base for Discord's /oauth2/token and /users/@me"),
  LOG_LEVEL: z
    .preprocess(
      (v) => (v === '' || v === undefined ? 'info' : v),
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      }),
    )
    .describe('JSON log level (passwords and tokens are never logged)'),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: intInRange('LOGIN_MAX_FAILURES_PER_ACCOUNT', 1, 100, 20).describe(
    'failed logins per account from one IP per hour (no global per-account cap: that would let anyone lock an owner out)',
  ),
  LOGIN_MAX_FAILURES_PER_IP: intInRange('LOGIN_MAX_FAILURES_PER_IP', 1, 10000, 100).describe(
    'failed logins per IP per hour, over all accounts',
  ),
  TRUST_PROXY: optionalString.describe(
    'Express trust proxy for client addresses behind a proxy: true, a hop count (1) or names/subnets; unset: false',
  ),
  REGISTER_MAX_PER_IP: intInRange('REGISTER_MAX_PER_IP', 1, 100000, 100).describe('accounts created per IP per hour'),
  INVITE_MAX_PER_MINUTE: intInRange('INVITE_MAX_PER_MINUTE', 1, 1000, 10).describe(
    'in-app table invitations one player may send per minute (over it: 429 / ack ok:false)',
  ),
  /** Issue #26: days a deleted account's old name stays reserved (0 = free at once). */
  ACCOUNT_NAME_HOLD_DAYS: intInRange('ACCOUNT_NAME_HOLD_DAYS', 0, 3650, 30).describe(
    "days a deleted account's username stays reserved (0: free at once)",
  ),
  /** The community's public face in GET /api/server-info (issue #30): what the desktop app shows before adding it. */
  SERVER_NAME: z
    .preprocess(
      (v) => (v === '' || v === undefined ? 'Spades' : typeof v === 'string' ? v.trim() : v),
      z.string().min(1).max(80, 'SERVER_NAME must be 1-80 characters'),
    )
    .describe(
      "the community's name in the public GET /api/server-info, shown by the desktop app before adding the server",
    ),
  SERVER_DESCRIPTION: z
    .preprocess(
      (v) => (v === undefined ? '' : typeof v === 'string' ? v.trim() : v),
      z.string().max(500, 'SERVER_DESCRIPTION must be at most 500 characters'),
    )
    .describe("the community's description in GET /api/server-info"),
  SERVER_ICON_URL: z
    .preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .max(2048)
        .refine((v) => /^https?:\/\//.test(v) && URL.canParse(v), 'SERVER_ICON_URL must be an absolute http(s) URL')
        .optional(),
    )
    .describe("the community's icon in GET /api/server-info"),
  METRICS_TOKEN: z
    .preprocess(
      (v) => (v === '' ? undefined : v),
      z.string().min(16, 'METRICS_TOKEN must be at least 16 characters long').optional(),
    )
    .describe('GET /metrics on PORT answers only Authorization: Bearer <token> (401 otherwise); unset: 404 there'),
  METRICS_PORT: z
    .preprocess(
      (v) => (v === '' ? undefined : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
      z
        .number({ error: METRICS_PORT_ERROR })
        .int({ error: METRICS_PORT_ERROR })
        .min(1, { error: METRICS_PORT_ERROR })
        .max(65535, { error: METRICS_PORT_ERROR })
        .optional(),
    )
    .describe(
      'a separate listener serving only GET /metrics without a token, for the monitoring network (do not publish it)',
    ),
  METRICS_HOST: z
    .preprocess((v) => (v === '' || v === undefined ? '127.0.0.1' : v), z.string())
    .describe('address METRICS_PORT binds to (0.0.0.0 in a container whose port stays unpublished)'),
  NODE_ID: z
    .preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .regex(/^[A-Za-z0-9._:-]{1,100}$/, 'NODE_ID must be 1-100 letters, digits, dots, dashes, underscores or colons')
        .optional(),
    )
    .describe("this node's name in a cluster, unique per process and stable across restarts; unset: <hostname>:<PORT>"),
  CLUSTER_LEASE_MS: intInRange('CLUSTER_LEASE_MS', 1000, 600000, 5000).describe(
    'a node silent this long is dead and the others take its tables over (heartbeat about every lease/5)',
  ),
  /** Account ids (UUIDs) granted the admin role at boot (issue #24: never names or e-mails; nobody is demoted). */
  ADMIN_USERS: z
    .preprocess((v) => (v === undefined ? '' : v), z.string())
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    )
    .superRefine((ids, ctx) => {
      const bad = ids.filter((id) => !ACCOUNT_ID.test(id));
      if (bad.length) ctx.addIssue({ code: 'custom', message: adminUsersError(bad) });
    })
    .describe('account ids (UUIDs, comma-separated) granted the admin role at start; nobody is demoted'),
  REDIS_URL: z
    .preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .refine((v) => /^rediss?:\/\/[^/]/.test(v), 'REDIS_URL must start with redis:// or rediss://')
        .optional(),
    )
    .describe(
      'Redis for socket.io broadcasts and presence; with DATABASE_URL it turns on cluster mode (see docs/scaling.md)',
    ),
});

export type RawEnv = z.input<typeof envSchema>;

export interface DiscordConfig {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  authorizeUrl: string;
  apiUrl: string;
}

/** The validated, typed configuration every module reads (inject `AppConfig`). */
export abstract class AppConfig {
  port!: number;
  dataDir!: string;
  databaseUrl?: string;
  databaseSchema?: string;
  databasePoolSize!: number;
  jwtSecret!: string;
  /** Where the JWT secret came from: the environment, or a file generated once in DATA_DIR. */
  jwtSecretSource!: 'env' | 'generated' | 'file';
  jwtExpiresInSeconds!: number;
  clientUrl!: string;
  /** Issue #31: CLIENT_URL was set (not the default): links the server builds use it; else the client's own address. */
  clientUrlSet?: boolean;
  corsOrigins!: string[];
  /** undefined when DISCORD_CLIENT_ID / SECRET / REDIRECT_URI are not all set. */
  discord?: DiscordConfig;
  discordAuthorizeUrl!: string;
  discordApiUrl!: string;
  /** Issue #26: OpenID Connect issuers and GitHub (OIDC_PROVIDERS, OIDC_<ID>_*, GITHUB_*; see auth/sso.config.ts). */
  sso?: SsoProviderConfig[];
  logLevel!: string;
  loginMaxFailuresPerAccount!: number;
  loginMaxFailuresPerIp!: number;
  /** Express 'trust proxy' (client IPs for rate limits behind a reverse proxy); false when unset. */
  trustProxy!: boolean | number | string;
  /** Accounts one IP may create per hour (each new account receives coins). */
  registerMaxPerIp!: number;
  /** In-app invitations one user may send per minute (socket invite_player and POST /api/games/:id/invite). */
  inviteMaxPerMinute!: number;
  /** Days a deleted account's old username stays reserved before anyone may take it (issue #26). */
  accountNameHoldDays!: number;
  /** GET /metrics on the public port answers only `Authorization: Bearer <metricsToken>`; unset: 404 there. */
  metricsToken?: string;
  /** A separate listener serving only GET /metrics (no token) on metricsHost:metricsPort; unset: none. */
  metricsPort?: number;
  metricsHost!: string;
  /** socket.io broadcasts go through Redis pub/sub when set (servers sharing a database reach each other's sockets). */
  redisUrl?: string;
  /**
   * Several nodes (issue #13): on when both DATABASE_URL (a shared PostgreSQL) and REDIS_URL are set. `nodeId`
   * names this process among them (NODE_ID, else `<hostname>:<port>`: stable across restarts of one replica);
   * a node whose heartbeat is older than `leaseMs` is dead and its tables are taken over.
   */
  cluster!: { enabled: boolean; nodeId: string; leaseMs: number };
  /** ADMIN_USERS: account ids granted the admin role at boot (lower-case UUIDs). */
  adminUserIds!: string[];
  /** SERVER_NAME / SERVER_DESCRIPTION / SERVER_ICON_URL: the public server-info (issue #30). */
  serverInfo!: { name: string; description: string; iconUrl: string | null };
}

export class ConfigValidationError extends Error {
  constructor(issues: string[]) {
    super(`Invalid configuration:\n  - ${issues.join('\n  - ')}`);
    this.name = 'ConfigValidationError';
  }
}

/**
 * JWT secret: JWT_SECRET if set; otherwise a random secret generated once and persisted in
 * DATA_DIR/jwt-secret (mode 0600), so tokens survive restarts. Never a hard-coded fallback.
 */
function resolveJwtSecret(dataDir: string, fromEnv?: string): { secret: string; source: AppConfig['jwtSecretSource'] } {
  if (fromEnv) return { secret: fromEnv, source: 'env' };
  const file = join(dataDir, 'jwt-secret');
  if (existsSync(file)) {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret.length < 32)
      throw new ConfigValidationError([`${file} holds a secret shorter than 32 characters; delete it to regenerate`]);
    return { secret, source: 'file' };
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret + '\n', { mode: 0o600, flag: 'wx' });
  try {
    chmodSync(file, 0o600);
  } catch {
    /* best effort on filesystems without modes */
  }
  return { secret, source: 'generated' };
}

/** TRUST_PROXY: unset/false → false, true → true, a hop count (1) or Express names/subnets ("loopback, 10.0.0.0/8"). */
function parseTrustProxy(v: string | undefined): boolean | number | string {
  if (v === undefined || v === 'false') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v;
}

/** Validates the environment and returns the typed configuration; throws ConfigValidationError with every problem. */
export function loadAppConfig(env: Record<string, unknown>): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigValidationError(parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  }
  const e = parsed.data;
  const discordParts = [e.DISCORD_CLIENT_ID, e.DISCORD_CLIENT_SECRET, e.DISCORD_REDIRECT_URI];
  const discordSet = discordParts.filter(Boolean).length;
  if (discordSet !== 0 && discordSet !== 3) {
    throw new ConfigValidationError([
      'DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET and DISCORD_REDIRECT_URI must be set together (or none of them)',
    ]);
  }
  // unset: this server itself, on the port it listens on (the web app is served there); PORT 0 (a random port,
  // tests) keeps the conventional 3000
  const clientUrlText = e.CLIENT_URL ?? `http://localhost:${e.PORT || 3000}`;
  const sso = parseSsoProviders(env, clientUrlText);
  if (sso.errors.length) throw new ConfigValidationError(sso.errors);
  const dataDir = resolve(e.DATA_DIR);
  const { secret, source } = resolveJwtSecret(dataDir, e.JWT_SECRET);
  const clientOrigin = new URL(clientUrlText).origin;
  const corsOrigins = [
    clientOrigin,
    ...(e.CORS_ORIGINS ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ];
  const config: AppConfig = {
    port: e.PORT,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databaseSchema: e.DATABASE_SCHEMA,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    jwtSecret: secret,
    jwtSecretSource: source,
    jwtExpiresInSeconds: e.JWT_EXPIRES_IN,
    clientUrl: clientUrlText.replace(/\/+$/, ''),
    clientUrlSet: e.CLIENT_URL !== undefined,
    corsOrigins,
    discord:
      discordSet === 3
        ? {
            clientId: e.DISCORD_CLIENT_ID!,
            clientSecret: e.DISCORD_CLIENT_SECRET!,
            redirectUri: e.DISCORD_REDIRECT_URI!,
            authorizeUrl: e.DISCORD_AUTHORIZE_URL,
            apiUrl: e.DISCORD_API_URL.replace(/\/+$/, ''),
          }
        : undefined,
    discordAuthorizeUrl: e.DISCORD_AUTHORIZE_URL,
    discordApiUrl: e.DISCORD_API_URL.replace(/\/+$/, ''),
    sso: sso.providers,
    logLevel: e.LOG_LEVEL,
    loginMaxFailuresPerAccount: e.LOGIN_MAX_FAILURES_PER_ACCOUNT,
    loginMaxFailuresPerIp: e.LOGIN_MAX_FAILURES_PER_IP,
    registerMaxPerIp: e.REGISTER_MAX_PER_IP,
    inviteMaxPerMinute: e.INVITE_MAX_PER_MINUTE,
    accountNameHoldDays: e.ACCOUNT_NAME_HOLD_DAYS,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    redisUrl: e.REDIS_URL,
    adminUserIds: e.ADMIN_USERS,
    serverInfo: { name: e.SERVER_NAME, description: e.SERVER_DESCRIPTION, iconUrl: e.SERVER_ICON_URL ?? null },
    cluster: {
      enabled: !!e.REDIS_URL && !!e.DATABASE_URL,
      nodeId: e.NODE_ID ?? `${hostname()}:${e.PORT}`,
      leaseMs: e.CLUSTER_LEASE_MS,
    },
  };
  return config;
}
