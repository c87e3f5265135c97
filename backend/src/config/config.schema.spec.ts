import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { redactUrl } from '../common/logging';
import { ConfigValidationError, loadAppConfig } from './config.schema';

describe('configuration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'spades-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('applies the documented defaults', () => {
    const c = loadAppConfig({ DATA_DIR: dir });
    expect(c).toMatchObject({
      port: 3000,
      dataDir: dir,
      databaseUrl: undefined,
      clientUrl: 'http://localhost:3000',
      jwtExpiresInSeconds: 7 * 86400,
      discord: undefined,
      discordAuthorizeUrl: 'https://discord.com/oauth2/authorize',
      discordApiUrl: 'https://discord.com/api/v10',
      logLevel: 'info',
      loginMaxFailuresPerAccount: 20,
      loginMaxFailuresPerIp: 100,
      registerMaxPerIp: 100,
      trustProxy: false,
    });
    expect(loadAppConfig({}).dataDir).toBe(join(process.cwd(), 'data'));
  });

  it('without CLIENT_URL, the links the server prints (admin setup, sign-in returns) name its own PORT', () => {
    expect(loadAppConfig({ DATA_DIR: dir, PORT: '3123' })).toMatchObject({
      clientUrl: 'http://localhost:3123',
      clientUrlSet: false,
      corsOrigins: ['http://localhost:3123'],
    });
    expect(loadAppConfig({ DATA_DIR: dir, PORT: '0' }).clientUrl).toBe('http://localhost:3000');
    expect(loadAppConfig({ DATA_DIR: dir, PORT: '3123', CLIENT_URL: 'https://spades.example.org' }).clientUrl).toBe(
      'https://spades.example.org',
    );
  });

  it('tells whether CLIENT_URL was set (issue #31: else invite links use the address the player uses)', () => {
    expect(loadAppConfig({ DATA_DIR: dir }).clientUrlSet).toBe(false);
    expect(loadAppConfig({ DATA_DIR: dir, CLIENT_URL: '' }).clientUrlSet).toBe(false);
    expect(loadAppConfig({ DATA_DIR: dir, CLIENT_URL: 'https://spades.example.org/' })).toMatchObject({
      clientUrl: 'https://spades.example.org',
      clientUrlSet: true,
    });
  });

  it('generates the JWT secret once, persists it (mode 0600) and reuses it; JWT_SECRET wins', () => {
    const d = join(dir, 'secret');
    const a = loadAppConfig({ DATA_DIR: d });
    expect(a.jwtSecretSource).toBe('generated');
    expect(a.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(join(d, 'jwt-secret'), 'utf8').trim()).toBe(a.jwtSecret);
    expect(statSync(join(d, 'jwt-secret')).mode & 0o777).toBe(0o600);
    const b = loadAppConfig({ DATA_DIR: d });
    expect(b).toMatchObject({ jwtSecret: a.jwtSecret, jwtSecretSource: 'file' });
    const env = loadAppConfig({ DATA_DIR: d, JWT_SECRET: 's'.repeat(40) });
    expect(env).toMatchObject({ jwtSecret: 's'.repeat(40), jwtSecretSource: 'env' });
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be an integer between 0 and 65535/],
    [{ PORT: '70000' }, /PORT must be an integer between 0 and 65535/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must start with postgres/],
    [{ JWT_SECRET: 'short' }, /JWT_SECRET must be at least 32/],
    [{ JWT_EXPIRES_IN: 'forever' }, /JWT_EXPIRES_IN/],
    [{ CLIENT_URL: 'not a url' }, /CLIENT_URL must be an absolute URL/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be one of/],
    [{ DISCORD_CLIENT_ID: 'id' }, /must be set together/],
    [
      { DISCORD_CLIENT_ID: 'id', DISCORD_CLIENT_SECRET: 's', DISCORD_REDIRECT_URI: 'nope' },
      /DISCORD_REDIRECT_URI must be an absolute URL/,
    ],
    [{ LOGIN_MAX_FAILURES_PER_ACCOUNT: '101' }, /LOGIN_MAX_FAILURES_PER_ACCOUNT must be an integer between 1 and 100/],
    [{ DATABASE_SCHEMA: 'Robert"; DROP' }, /DATABASE_SCHEMA/],
  ])('rejects %j with a clear message', (env, msg) => {
    let err: unknown;
    try {
      loadAppConfig({ DATA_DIR: dir, ...env });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigValidationError);
    expect((err as Error).message).toMatch(/^Invalid configuration:/);
    expect((err as Error).message).toMatch(msg);
  });

  it('reads REDIS_URL (redis:// or rediss://) and rejects anything else with a clear message', () => {
    expect(loadAppConfig({ DATA_DIR: dir }).redisUrl).toBeUndefined();
    expect(loadAppConfig({ DATA_DIR: dir, REDIS_URL: '' }).redisUrl).toBeUndefined();
    expect(loadAppConfig({ DATA_DIR: dir, REDIS_URL: 'redis://cache:6379' }).redisUrl).toBe('redis://cache:6379');
    expect(() => loadAppConfig({ DATA_DIR: dir, REDIS_URL: 'http://cache:6379' })).toThrow(
      'REDIS_URL must start with redis:// or rediss://',
    );
  });

  it('reads INVITE_MAX_PER_MINUTE and the /metrics settings (issue #24), refusing bad values with a clear message', () => {
    expect(loadAppConfig({ DATA_DIR: dir })).toMatchObject({
      inviteMaxPerMinute: 10,
      metricsToken: undefined,
      metricsPort: undefined,
      metricsHost: '127.0.0.1',
    });
    const c = loadAppConfig({
      DATA_DIR: dir,
      INVITE_MAX_PER_MINUTE: '3',
      METRICS_TOKEN: 'x'.repeat(16),
      METRICS_PORT: '9464',
      METRICS_HOST: '0.0.0.0',
    });
    expect(c).toMatchObject({
      inviteMaxPerMinute: 3,
      metricsToken: 'x'.repeat(16),
      metricsPort: 9464,
      metricsHost: '0.0.0.0',
    });
    expect(() => loadAppConfig({ DATA_DIR: dir, METRICS_TOKEN: 'short' })).toThrow(
      'METRICS_TOKEN must be at least 16 characters long',
    );
    for (const port of ['0', '70000', 'abc', '1.5'])
      expect(() => loadAppConfig({ DATA_DIR: dir, METRICS_PORT: port })).toThrow(
        'METRICS_PORT must be a port number between 1 and 65535',
      );
    expect(() => loadAppConfig({ DATA_DIR: dir, INVITE_MAX_PER_MINUTE: '0' })).toThrow(
      'INVITE_MAX_PER_MINUTE must be an integer between 1 and 1000',
    );
  });

  it('ADMIN_USERS takes account ids only (issue #24): a username or an e-mail is refused with the command to use', () => {
    expect(loadAppConfig({ DATA_DIR: dir }).adminUserIds).toEqual([]);
    const id = '0B7E2F36-8C1D-4E5A-9F00-1234567890AB';
    expect(loadAppConfig({ DATA_DIR: dir, ADMIN_USERS: ` ${id} , ` }).adminUserIds).toEqual([id.toLowerCase()]);
    for (const bad of ['admin1', 'boss@example.test', `${id},admin1`]) {
      expect(() => loadAppConfig({ DATA_DIR: dir, ADMIN_USERS: bad })).toThrow(
        /only account ids \(UUIDs\).*npm run admin -- grant <username> admin/,
      );
    }
  });

  it('parses TRUST_PROXY', () => {
    expect(loadAppConfig({ DATA_DIR: dir, TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadAppConfig({ DATA_DIR: dir, TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadAppConfig({ DATA_DIR: dir, TRUST_PROXY: 'loopback' }).trustProxy).toBe('loopback');
    expect(loadAppConfig({ DATA_DIR: dir, TRUST_PROXY: 'false' }).trustProxy).toBe(false);
  });

  it('configures Discord only when id, secret and redirect URI are all set', () => {
    const c = loadAppConfig({
      DATA_DIR: dir,
      DISCORD_CLIENT_ID: 'id',
      DISCORD_CLIENT_SECRET: 'secret',
      DISCORD_REDIRECT_URI: 'https://spades.example/api/auth/discord/callback',
      DISCORD_API_URL: 'http://127.0.0.1:9999/',
    });
    expect(c.discord).toEqual({
      clientId: 'id',
      clientSecret: 'secret',
      redirectUri: 'https://spades.example/api/auth/discord/callback',
      authorizeUrl: 'https://discord.com/oauth2/authorize',
      apiUrl: 'http://127.0.0.1:9999',
    });
  });

  it('log URLs never carry tokens, OAuth codes or state', () => {
    expect(redactUrl('/api/auth/discord/callback?code=abc&state=def')).toBe(
      '/api/auth/discord/callback?code=[REDACTED]&state=[REDACTED]',
    );
    expect(redactUrl('/auth/callback?token=eyJhbGciOi.x.y&client=desktop')).toBe(
      '/auth/callback?token=[REDACTED]&client=desktop',
    );
    expect(redactUrl('/api/users')).toBe('/api/users');
  });
});
