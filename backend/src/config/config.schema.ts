import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { hostname } from 'node:os';
import { z } from 'zod';

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
  PORT: intInRange('PORT', 0, 65535, 3000),
  DATA_DIR: z.preprocess((v) => (v === '' || v === undefined ? './data' : v), z.string()),
  DATABASE_URL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .refine((v) => /^postgres(ql)?:\/\//.test(v), 'DATABASE_URL must start with postgres:// or postgresql://')
      .optional(),
  ),
  DATABASE_SCHEMA: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^[a-z_][a-z0-9_]{0,62}$/, 'DATABASE_SCHEMA must be a lower-case SQL identifier')
      .optional(),
  ),
  DATABASE_POOL_SIZE: intInRange('DATABASE_POOL_SIZE', 1, 100, 10),
  JWT_SECRET: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().min(32, 'JWT_SECRET must be at least 32 characters long').optional(),
  ),
  JWT_EXPIRES_IN: expiresIn,
  CLIENT_URL: z.preprocess((v) => (v === '' || v === undefined ? 'http://localhost:3000' : v), url('CLIENT_URL')),
  CORS_ORIGINS: optionalString,
  DISCORD_CLIENT_ID: optionalString,
  DISCORD_CLIENT_SECRET: optionalString,
  DISCORD_REDIRECT_URI: optionalUrl('DISCORD_REDIRECT_URI'),
  DISCORD_AUTHORIZE_URL: z.preprocess(
    (v) => (v === '' || v === undefined ? 'https://discord.com/oauth2/authorize' : v),
    url('DISCORD_AUTHORIZE_URL'),
  ),
  DISCORD_API_URL: z.preprocess(
    (v) => (v === '' || v === undefined ? 'https://discord.com/api/v10' : v),
    url('DISCORD_API_URL'),
  ),
  LOG_LEVEL: z.preprocess(
    (v) => (v === '' || v === undefined ? 'info' : v),
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    }),
  ),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: intInRange('LOGIN_MAX_FAILURES_PER_ACCOUNT', 1, 100, 20),
  LOGIN_MAX_FAILURES_PER_IP: intInRange('LOGIN_MAX_FAILURES_PER_IP', 1, 10000, 100),
  TRUST_PROXY: optionalString,
  REGISTER_MAX_PER_IP: intInRange('REGISTER_MAX_PER_IP', 1, 100000, 100),
  INVITE_MAX_PER_MINUTE: intInRange('INVITE_MAX_PER_MINUTE', 1, 1000, 10),
  METRICS_TOKEN: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.string().min(16, 'METRICS_TOKEN must be at least 16 characters long').optional(),
  ),
  METRICS_PORT: z.preprocess(
    (v) => (v === '' ? undefined : typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    z
      .number({ error: METRICS_PORT_ERROR })
      .int({ error: METRICS_PORT_ERROR })
      .min(1, { error: METRICS_PORT_ERROR })
      .max(65535, { error: METRICS_PORT_ERROR })
      .optional(),
  ),
  METRICS_HOST: z.preprocess((v) => (v === '' || v === undefined ? '127.0.0.1' : v), z.string()),
  NODE_ID: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .regex(/^[A-Za-z0-9._:-]{1,100}$/, 'NODE_ID must be 1-100 letters, digits, dots, dashes, underscores or colons')
      .optional(),
  ),
  CLUSTER_LEASE_MS: intInRange('CLUSTER_LEASE_MS', 1000, 600000, 5000),
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
    }),
  REDIS_URL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .refine((v) => /^rediss?:\/\/[^/]/.test(v), 'REDIS_URL must start with redis:// or rediss://')
      .optional(),
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
  corsOrigins!: string[];
  /** undefined when DISCORD_CLIENT_ID / SECRET / REDIRECT_URI are not all set. */
  discord?: DiscordConfig;
  discordAuthorizeUrl!: string;
  discordApiUrl!: string;
  logLevel!: string;
  loginMaxFailuresPerAccount!: number;
  loginMaxFailuresPerIp!: number;
  /** Express 'trust proxy' (client IPs for rate limits behind a reverse proxy); false when unset. */
  trustProxy!: boolean | number | string;
  /** Accounts one IP may create per hour (each new account receives coins). */
  registerMaxPerIp!: number;
  /** In-app invitations one user may send per minute (socket invite_player and POST /api/games/:id/invite). */
  inviteMaxPerMinute!: number;
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
  const dataDir = resolve(e.DATA_DIR);
  const { secret, source } = resolveJwtSecret(dataDir, e.JWT_SECRET);
  const clientOrigin = new URL(e.CLIENT_URL).origin;
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
    clientUrl: e.CLIENT_URL.replace(/\/+$/, ''),
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
    logLevel: e.LOG_LEVEL,
    loginMaxFailuresPerAccount: e.LOGIN_MAX_FAILURES_PER_ACCOUNT,
    loginMaxFailuresPerIp: e.LOGIN_MAX_FAILURES_PER_IP,
    registerMaxPerIp: e.REGISTER_MAX_PER_IP,
    inviteMaxPerMinute: e.INVITE_MAX_PER_MINUTE,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    redisUrl: e.REDIS_URL,
    adminUserIds: e.ADMIN_USERS,
    cluster: {
      enabled: !!e.REDIS_URL && !!e.DATABASE_URL,
      nodeId: e.NODE_ID ?? `${hostname()}:${e.PORT}`,
      leaseMs: e.CLUSTER_LEASE_MS,
    },
  };
  return config;
}
