/**
 * Integration-test support: boots the REAL AppModule (same bootstrap as main.ts) on a random port against a
 * FRESH database, plus small HTTP / socket.io helpers.
 *
 * - TEST_DATABASE_URL set: a uniquely named schema in that PostgreSQL (created by the migrations, dropped on close).
 * - unset (or `embedded: true`): the embedded PGlite in a temporary DATA_DIR (removed on close unless `dataDir` was given).
 *
 * PGlite needs `--experimental-vm-modules` under jest; `npm test -w backend` sets it.
 */
import type { NestExpressApplication } from '@nestjs/platform-express';
import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { io, Socket } from 'socket.io-client';
import { DataSource } from 'typeorm';
import type { AuthResponse, ClientToServerEvents, ServerToClientEvents, User } from '@spades/common';
import { createApp } from '../../src/bootstrap';
import { AppConfig } from '../../src/config/config.schema';

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface TestAppOptions {
  /** Environment overrides (e.g. DISCORD_*, LOGIN_MAX_FAILURES_PER_ACCOUNT). */
  env?: Record<string, string | undefined>;
  /** Force the embedded PGlite even when TEST_DATABASE_URL is set. */
  embedded?: boolean;
  /** Use (and keep) this DATA_DIR instead of a temporary one (restart tests). */
  dataDir?: string;
  /** Receives the JSON log lines (set env.LOG_LEVEL too; the default in tests is silent). */
  logStream?: NodeJS.WritableStream;
}

export interface TestApp {
  app: NestExpressApplication;
  /** http://127.0.0.1:<port> */
  url: string;
  dataSource: DataSource;
  config: AppConfig;
  dataDir: string;
  /** Stops the app (and the embedded database), drops the test schema, removes the temporary DATA_DIR. */
  close(): Promise<void>;
}

export const usingEmbedded = (opts: TestAppOptions = {}) => opts.embedded === true || !process.env.TEST_DATABASE_URL;

export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const embedded = usingEmbedded(opts);
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'spades-test-'));
  // embedded: start from the migrated template made by globalSetup (a copy is much faster than a new cluster)
  const template = process.env.SPADES_PGLITE_TEMPLATE;
  if (
    embedded &&
    template &&
    existsSync(template) &&
    !existsSync(join(dataDir, 'pgdata')) &&
    readdirSync(dataDir).length === 0
  ) {
    cpSync(join(template, 'pgdata'), join(dataDir, 'pgdata'), { recursive: true });
  }
  const schema = embedded ? undefined : `t_${process.pid}_${randomBytes(5).toString('hex')}`;
  const env: Record<string, string | undefined> = {
    PORT: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: embedded ? undefined : process.env.TEST_DATABASE_URL,
    DATABASE_SCHEMA: schema,
    DATABASE_POOL_SIZE: '4',
    JWT_SECRET: undefined,
    JWT_EXPIRES_IN: '1h',
    CLIENT_URL: 'http://localhost:5173',
    CORS_ORIGINS: undefined,
    DISCORD_CLIENT_ID: undefined,
    DISCORD_CLIENT_SECRET: undefined,
    DISCORD_REDIRECT_URI: undefined,
    DISCORD_AUTHORIZE_URL: undefined,
    DISCORD_API_URL: undefined,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    LOGIN_MAX_FAILURES_PER_ACCOUNT: undefined,
    LOGIN_MAX_FAILURES_PER_IP: undefined,
    // suites register many users from 127.0.0.1
    REGISTER_MAX_PER_IP: '100000',
    ...(opts.env ?? {}),
  };
  const dropSchema = async () => {
    if (!schema) return;
    const ds = await new DataSource({ type: 'postgres', url: process.env.TEST_DATABASE_URL, poolSize: 1 }).initialize();
    try {
      await ds.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    } finally {
      await ds.destroy();
    }
  };
  const removeDir = () => {
    if (!opts.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  let app: NestExpressApplication;
  try {
    app = await createApp(env, { logStream: opts.logStream });
    await app.listen(0, '127.0.0.1');
  } catch (e) {
    await dropSchema().catch(() => undefined);
    removeDir();
    throw e;
  }
  const address = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${address.port}`;
  let closed = false;
  return {
    app,
    url,
    dataSource: app.get(DataSource),
    config: app.get(AppConfig),
    dataDir,
    async close() {
      if (closed) return;
      closed = true;
      try {
        await app.close();
      } finally {
        await dropSchema();
        removeDir();
      }
    },
  };
}

let counter = 0;
/** A unique, valid username (≤ 20 chars). */
export function uniqueName(prefix = 'u'): string {
  counter += 1;
  return `${prefix}${counter}_${randomBytes(3).toString('hex')}`.slice(0, 20);
}

export interface RegisteredUser extends AuthResponse {
  email: string;
  password: string;
}

/** POST /api/auth/register; throws with the server message unless it answers 201. */
export async function registerUser(
  url: string,
  fields: Partial<{ username: string; email: string; password: string }> = {},
): Promise<RegisteredUser> {
  const username = fields.username ?? uniqueName();
  const body = {
    username,
    email: fields.email ?? `${username.toLowerCase()}@example.test`,
    password: fields.password ?? 'correct horse battery',
  };
  const res = await fetch(`${url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as AuthResponse & { message?: string };
  if (res.status !== 201) throw new Error(`register failed (${res.status}): ${json.message}`);
  return { ...json, email: body.email, password: body.password };
}

export interface HttpResult<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/** JSON request helper: `api(url, 'GET', '/api/users', { token })`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- callers (games tests) read bodies loosely
export async function api<T = any>(
  url: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.rawBody !== undefined) {
    body = opts.rawBody;
    headers['content-type'] ??= 'application/json';
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${url}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed as T, headers: res.headers };
}

/**
 * Connects a real socket.io client with handshake auth and resolves once `authenticated {success:true}` arrives.
 * `setup` runs before connecting: attach listeners there for events sent right after `authenticated`
 * (chat history, online_users).
 */
export function connectSocket(
  url: string,
  token: string | undefined,
  opts: { timeoutMs?: number; setup?: (socket: TestSocket) => void } = {},
): Promise<TestSocket> {
  const timeoutMs = opts.timeoutMs ?? 5000;
  const socket: TestSocket = io(url, {
    auth: token === undefined ? {} : { token },
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    autoConnect: false,
  });
  opts.setup?.(socket);
  socket.connect();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.close();
      reject(new Error('socket: no authenticated event'));
    }, timeoutMs);
    socket.once('authenticated', (p) => {
      clearTimeout(timer);
      if (p.success) resolve(socket);
      else {
        socket.close();
        reject(new Error(`socket authentication failed: ${p.message ?? ''}`));
      }
    });
    socket.once('connect_error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

/** Connects without any token (for "unauthenticated can only authenticate" tests). */
export function connectRawSocket(url: string): Promise<TestSocket> {
  const socket: TestSocket = io(url, { transports: ['websocket'], forceNew: true, reconnection: false });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** socket.io's typed on/off without the generic gymnastics. */
interface Loose {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  on(event: string, fn: Function): void;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  off(event: string, fn: Function): void;
}

/** Resolves with the next `event` payload matching `predicate`, rejects after timeoutMs. */
export function waitForEvent<E extends keyof ServerToClientEvents>(
  socket: TestSocket,
  event: E,
  predicate: (...args: Parameters<ServerToClientEvents[E]>) => boolean = () => true,
  timeoutMs = 3000,
): Promise<Parameters<ServerToClientEvents[E]>[0]> {
  return new Promise((resolve, reject) => {
    const handler = (...args: Parameters<ServerToClientEvents[E]>) => {
      if (!predicate(...args)) return;
      clearTimeout(timer);
      (socket as unknown as Loose).off(event, handler);
      resolve(args[0]);
    };
    const timer = setTimeout(() => {
      (socket as unknown as Loose).off(event, handler);
      reject(new Error(`timeout waiting for ${String(event)}`));
    }, timeoutMs);
    (socket as unknown as Loose).on(event, handler);
  });
}

/** Records every payload of `event` (for "was NOT delivered" assertions). */
export function recordEvents<E extends keyof ServerToClientEvents>(
  socket: TestSocket,
  event: E,
): Parameters<ServerToClientEvents[E]>[0][] {
  const seen: Parameters<ServerToClientEvents[E]>[0][] = [];
  (socket as unknown as Loose).on(event, (p: unknown) => seen.push(p as Parameters<ServerToClientEvents[E]>[0]));
  return seen;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type { User };
