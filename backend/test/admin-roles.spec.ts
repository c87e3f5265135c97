/**
 * Roles stored on accounts (issue #24, item 3): the admin role never follows a name or an e-mail, survives renames
 * and restarts, is granted by ADMIN_USERS account ids (never demoted at boot), by `npm run admin` (the CLI's main
 * function, in-process, against this test's database) or by the one-time setup token printed at first boot.
 * Runs against PostgreSQL (TEST_DATABASE_URL) and the embedded database alike: one database across restarts.
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { __resetOutOfContextForTests } from 'nestjs-pino/PinoLogger';
import { DataSource } from 'typeorm';
import { runAdminCli } from '../src/admin/admin.cli';
import { ADMIN_MESSAGES } from '../src/admin/admin.roles';
import { api, createTestApp, registerUser, RegisteredUser, TestApp, usingEmbedded } from './support/test-app';

const embedded = usingEmbedded();
const dataDir = mkdtempSync(join(tmpdir(), 'spades-roles-'));
const schema = `roles_${process.pid}_${randomBytes(4).toString('hex')}`;
const TOKEN_LINE = /One-time admin setup token: (\S+)/;

/** Boots the real app on this suite's database (kept across restarts), collecting its log lines. */
async function boot(env: Record<string, string | undefined> = {}): Promise<{ t: TestApp; logs: string[] }> {
  const logs: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean))
        logs.push(String((JSON.parse(l) as { msg?: unknown }).msg ?? ''));
      done();
    },
  });
  const dbEnv = embedded ? {} : { DATABASE_SCHEMA: schema };
  // nestjs-pino keeps the first app's logger for logs outside a request: each boot here gets its own stream
  __resetOutOfContextForTests();
  const t = await createTestApp({
    embedded,
    dataDir,
    env: {
      LOG_LEVEL: 'info',
      JWT_SECRET: 'admin-roles-test-secret-0123456789abcdef',
      ADMIN_USERS: undefined,
      ...dbEnv,
      ...env,
    },
    logStream,
  });
  return { t, logs };
}

/** The CLI as `npm run admin -- …` runs it, on this suite's database. */
async function cli(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const env = embedded
    ? { DATA_DIR: dataDir, JWT_SECRET: 'admin-roles-test-secret-0123456789abcdef' }
    : {
        DATABASE_URL: process.env.TEST_DATABASE_URL,
        DATABASE_SCHEMA: schema,
        DATA_DIR: dataDir,
        JWT_SECRET: 'admin-roles-test-secret-0123456789abcdef',
      };
  const code = await runAdminCli(argv, env, { log: (l) => out.push(l), error: (l) => err.push(l) });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const collusion = (t: TestApp, token: string) =>
  api(t.url, 'GET', '/api/admin/collusion', { token }).then((r) => r.status);
const roleOf = async (t: TestApp, u: RegisteredUser) =>
  (await api<{ role?: string }>(t.url, 'GET', '/api/auth/profile', { token: u.token })).body.role;
const setupTokens = (logs: string[]) => logs.map((l) => TOKEN_LINE.exec(l)?.[1]).filter((x): x is string => !!x);

describe(`account roles and the first admin (${embedded ? 'embedded' : 'PostgreSQL'})`, () => {
  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    if (!embedded) {
      const ds = await new DataSource({
        type: 'postgres',
        url: process.env.TEST_DATABASE_URL,
        poolSize: 1,
      }).initialize();
      await ds.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await ds.destroy();
    }
  });

  let alice: RegisteredUser;
  let bob: RegisteredUser;
  let carol: RegisteredUser;
  let impostor: RegisteredUser;
  let mailImpostor: RegisteredUser;

  it('first boot without an admin prints a setup token once; it is redeemed once, a wrong one is refused', async () => {
    const first = await boot();
    const printed = setupTokens(first.logs);
    await first.t.close();
    expect(printed).toHaveLength(1);
    const token = printed[0];
    // the next start (still no admin) does not issue another token: it reminds, and the first one still works
    const { t, logs } = await boot();
    try {
      expect(setupTokens(logs)).toEqual([]);
      expect(logs.some((l) => /admin setup token printed at .* is still unused/.test(l))).toBe(true);
      alice = await registerUser(t.url);
      bob = await registerUser(t.url);
      carol = await registerUser(t.url);
      // the names and the e-mail an old ADMIN_USERS would have listed
      impostor = await registerUser(t.url, { username: 'admin1' });
      mailImpostor = await registerUser(t.url, { email: 'boss@example.test' });
      expect(await roleOf(t, bob)).toBe('user');
      expect(await collusion(t, bob.token)).toBe(403);

      expect((await api(t.url, 'POST', '/api/admin/setup', { body: { token } })).status).toBe(401);
      const missing = await api(t.url, 'POST', '/api/admin/setup', { token: bob.token, body: { token: 42 } });
      expect(missing).toMatchObject({ status: 400 });
      const wrong = await api(t.url, 'POST', '/api/admin/setup', { token: bob.token, body: { token: `${token}x` } });
      expect(wrong).toMatchObject({ status: 403, body: { message: ADMIN_MESSAGES.setupTokenInvalid } });
      expect(await roleOf(t, bob)).toBe('user');

      const ok = await api(t.url, 'POST', '/api/admin/setup', { token: bob.token, body: { token } });
      expect(ok).toMatchObject({ status: 200, body: { role: 'admin' } });
      // the token signed before the grant works at once: the stored role decides
      expect(await collusion(t, bob.token)).toBe(200);
      expect(await roleOf(t, bob)).toBe('admin');

      const again = await api(t.url, 'POST', '/api/admin/setup', { token: carol.token, body: { token } });
      expect(again).toMatchObject({ status: 403, body: { message: ADMIN_MESSAGES.setupTokenUsed } });
      expect(await roleOf(t, carol)).toBe('user');
      expect(await collusion(t, carol.token)).toBe(403);
    } finally {
      await t.close();
    }
  }, 120000);

  it('ADMIN_USERS with a username or an e-mail stops the server with a config error', async () => {
    const env = (ADMIN_USERS: string) => ({
      embedded,
      dataDir,
      env: { ...(embedded ? {} : { DATABASE_SCHEMA: schema }), ADMIN_USERS },
    });
    const refusal = async (list: string) => {
      try {
        await (await createTestApp(env(list))).close();
        return 'started';
      } catch (e) {
        return (e as Error).message;
      }
    };
    expect(await refusal('admin1')).toMatch(
      /ADMIN_USERS: only account ids \(UUIDs\) are accepted.*npm run admin -- grant <username> admin/s,
    );
    expect(await refusal(`${alice.user.id}, boss@example.test`)).toMatch(/not an id: "boss@example.test"/);
  }, 120000);

  it('ADMIN_USERS ids are granted at boot; accounts named like old entries stay players; no setup token once an admin exists', async () => {
    const { t, logs } = await boot({ ADMIN_USERS: alice.user.id.toUpperCase() });
    try {
      expect(
        logs.some((l) => l.includes('ADMIN_USERS: 1 account id(s); granted admin now:') && l.includes(alice.user.id)),
      ).toBe(true);
      expect(setupTokens(logs)).toEqual([]);
      expect(logs.filter((l) => /setup token/i.test(l))).toEqual([]);
      expect(await collusion(t, alice.token)).toBe(200);
      expect(await collusion(t, bob.token)).toBe(200); // not listed, not demoted
      for (const u of [impostor, mailImpostor, carol]) {
        expect(await roleOf(t, u)).toBe('user');
        expect(await collusion(t, u.token)).toBe(403);
      }
      // admins rename; the impostor takes a name an admin had
      const renamed = await api(t.url, 'PUT', '/api/auth/profile', {
        token: alice.token,
        body: { username: `ren_${randomBytes(3).toString('hex')}` },
      });
      expect(renamed.status).toBe(200);
      const oldBob = bob.user.username;
      expect(
        (
          await api(t.url, 'PUT', '/api/auth/profile', {
            token: bob.token,
            body: { username: `b_${randomBytes(3).toString('hex')}` },
          })
        ).status,
      ).toBe(200);
      expect(
        (await api(t.url, 'PUT', '/api/auth/profile', { token: impostor.token, body: { username: oldBob } })).status,
      ).toBe(200);
    } finally {
      await t.close();
    }
  }, 120000);

  it('after a restart without ADMIN_USERS: renamed admins are still admins, the new holder of an admin name is not', async () => {
    const { t, logs } = await boot();
    try {
      expect(await roleOf(t, alice)).toBe('admin');
      expect(await roleOf(t, bob)).toBe('admin');
      expect(await collusion(t, alice.token)).toBe(200);
      expect(await roleOf(t, impostor)).toBe('user');
      expect(await collusion(t, impostor.token)).toBe(403);
      expect(setupTokens(logs)).toEqual([]);
      if (embedded) {
        // the embedded database serves one process: the CLI says so instead of failing obscurely
        const busy = await cli('list');
        expect(busy.code).toBe(1);
        expect(busy.err).toMatch(/in use by the running server \(pid \d+\).*Stop the server/s);
      } else {
        // PostgreSQL: the CLI works while the server runs, and the change takes effect without a new sign-in
        expect((await cli('grant', carol.user.username.toUpperCase(), 'admin')).code).toBe(0);
        expect(await collusion(t, carol.token)).toBe(200);
        expect((await cli('revoke', carol.user.id)).code).toBe(0);
        expect(await collusion(t, carol.token)).toBe(403);
      }
    } finally {
      await t.close();
    }
  }, 120000);

  it('npm run admin: grant, revoke, list by username or id; bad input refused; a database without admins gets a new token', async () => {
    let r = await cli('list');
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines).toHaveLength(2);
    for (const u of [alice, bob])
      expect(lines.some((l) => new RegExp(`^admin\\s+\\S+\\s+${u.user.id}$`).test(l))).toBe(true);
    r = await cli('grant', carol.user.username, 'moderator');
    expect(r).toMatchObject({ code: 0, out: expect.stringContaining('user → moderator') });
    r = await cli('grant', 'no_such_user', 'admin');
    expect(r).toMatchObject({ code: 1, err: ADMIN_MESSAGES.unknownAccount('no_such_user') });
    r = await cli('grant', carol.user.username, 'superuser');
    expect(r.code).toBe(2);
    expect(r.err).toContain(ADMIN_MESSAGES.badRole('superuser'));
    // e-mails never name an account
    expect((await cli('grant', 'boss@example.test', 'admin')).code).toBe(1);
    expect((await cli('frobnicate')).code).toBe(2);
    expect((await cli('revoke', bob.user.id)).code).toBe(0);
    r = await cli('revoke', alice.user.id);
    expect(r).toMatchObject({ code: 0, out: expect.stringContaining('admin → user') });
    r = await cli('list');
    expect(r.out).toMatch(new RegExp(`^moderator\\s+${carol.user.username}\\s+${carol.user.id}$`));

    // no admin left: the next start prints a NEW setup token (the first one was spent), which works once
    const { t, logs } = await boot();
    try {
      expect(await collusion(t, alice.token)).toBe(403);
      const [token] = setupTokens(logs);
      expect(token).toBeDefined();
      const ok = await api(t.url, 'POST', '/api/admin/setup', { token: carol.token, body: { token } });
      expect(ok).toMatchObject({ status: 200, body: { role: 'admin' } });
      expect(await roleOf(t, carol)).toBe('admin');
    } finally {
      await t.close();
    }
    r = await cli('setup-token');
    expect(r.code).toBe(1); // an admin exists
  }, 180000);
});
