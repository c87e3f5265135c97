/** GET /api/server-info (issue #30): the desktop app checks a community server by address before adding it. */
import { PROTOCOL_VERSION, SERVER_INFO_PATH, type AuthProviders, type ServerInfo } from '@spades/common';
import { api, createTestApp, registerUser, RegisteredUser, TestApp } from './support/test-app';
import { loadAppConfig } from '../src/config/config.schema';
import { ServerInfoService } from '../src/server-info/server-info.service';

describe('server info (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        SERVER_NAME: '  Friday Night Spades ',
        SERVER_DESCRIPTION: 'Partners on Fridays, solo the rest of the week.',
        SERVER_ICON_URL: 'https://cdn.example.org/fns.png',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers without sign-in, cacheable, with the configured name, icon and description', async () => {
    const r = await fetch(`${t.url}${SERVER_INFO_PATH}`, { headers: { origin: 'app://spades' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('public, max-age=300');
    // the packaged app's renderer (app://spades) may read it too
    expect(r.headers.get('access-control-allow-origin')).toBe('app://spades');
    const body = (await r.json()) as Record<string, unknown>;
    expect(body).toEqual({
      kind: 'spades',
      name: 'Friday Night Spades',
      icon: 'https://cdn.example.org/fns.png',
      description: 'Partners on Fridays, solo the rest of the week.',
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      protocolVersion: PROTOCOL_VERSION,
      signIn: ['password'],
      providers: [],
      registration: 'open',
    });
    expect(body.version).not.toBe('0.0.0');
  });

  it('is described in the OpenAPI document', async () => {
    const r = await api(t.url, 'GET', '/api/docs-json');
    const doc = r.body as {
      paths: Record<
        string,
        { get?: { responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }> } }
      >;
      components: {
        schemas: Record<string, { properties: Record<string, { enum?: string[]; items?: { $ref?: string } }> }>;
      };
    };
    const op = doc.paths['/api/server-info']?.get;
    expect(op).toBeDefined();
    expect(op!.responses['200'].content!['application/json'].schema.$ref).toBe('#/components/schemas/ServerInfoDto');
    expect(Object.keys(doc.components.schemas.ServerInfoDto.properties).sort()).toEqual(
      [
        'description',
        'icon',
        'kind',
        'name',
        'protocolVersion',
        'providers',
        'registration',
        'signIn',
        'version',
      ].sort(),
    );
    const props = doc.components.schemas.ServerInfoDto.properties;
    expect(props.signIn.items).toEqual({ type: 'string', enum: ['password', 'discord', 'github', 'oidc'] });
    expect(props.providers.items?.$ref).toBe('#/components/schemas/SignInProviderDto');
    expect(Object.keys(doc.components.schemas.SignInProviderDto.properties).sort()).toEqual(['id', 'kind', 'label']);
  });

  it('defaults to "Spades" without an icon, lists Discord when configured, and takes the settings seam first', async () => {
    const base = { DATA_DIR: t.dataDir, JWT_SECRET: 'x'.repeat(32) };
    const plain = new ServerInfoService(loadAppConfig(base));
    await expect(plain.info()).resolves.toMatchObject({
      name: 'Spades',
      icon: null,
      description: '',
      signIn: ['password'],
    });
    const discord = loadAppConfig({
      ...base,
      DISCORD_CLIENT_ID: 'id',
      DISCORD_CLIENT_SECRET: 'secret',
      DISCORD_REDIRECT_URI: 'https://s.example.org/api/auth/discord/callback',
    });
    const live = new ServerInfoService(discord, {
      serverInfoOverrides: async () => ({ name: 'Renamed live', registration: 'closed' as const }),
    });
    await expect(live.info()).resolves.toMatchObject({
      name: 'Renamed live',
      registration: 'closed',
      signIn: ['password', 'discord'],
      providers: [{ id: 'discord', label: 'Discord', kind: 'discord' }],
    });
  });

  it('refuses a bad icon address or an over-long name at start-up', () => {
    const base = { DATA_DIR: t.dataDir, JWT_SECRET: 'x'.repeat(32) };
    expect(() => loadAppConfig({ ...base, SERVER_ICON_URL: 'javascript:alert(1)' })).toThrow(
      /SERVER_ICON_URL must be an absolute http\(s\) URL/,
    );
    expect(() => loadAppConfig({ ...base, SERVER_NAME: 'n'.repeat(81) })).toThrow(
      /SERVER_NAME must be 1-80 characters/,
    );
  });
});

/** Issue #26: the server-info lists every sign-in offered now, OpenID Connect issuers and GitHub included. */
describe('server info: sign-in providers (integration)', () => {
  let t: TestApp;
  let admin: RegisteredUser;
  const DISCORD = { id: 'discord', label: 'Discord', kind: 'discord' };
  const GOOGLE = { id: 'google', label: 'Google', kind: 'oidc' };
  const COMPANY = { id: 'corp', label: 'Company SSO', kind: 'oidc' };
  const GITHUB = { id: 'github', label: 'GitHub', kind: 'github' };

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        DISCORD_CLIENT_ID: 'discord-id',
        DISCORD_CLIENT_SECRET: 'discord-secret',
        DISCORD_REDIRECT_URI: 'http://localhost:3000/api/auth/discord/callback',
        // the issuers are discovered on first sign-in only: nothing listens at these addresses
        OIDC_PROVIDERS: 'google,corp',
        OIDC_GOOGLE_ISSUER: 'https://accounts.google.example',
        OIDC_GOOGLE_CLIENT_ID: 'google-id',
        OIDC_GOOGLE_CLIENT_SECRET: 'google-secret',
        OIDC_CORP_ISSUER: 'https://sso.corp.example/realms/spades',
        OIDC_CORP_CLIENT_ID: 'corp-id',
        OIDC_CORP_CLIENT_SECRET: 'corp-secret',
        OIDC_CORP_LABEL: 'Company SSO',
        GITHUB_CLIENT_ID: 'github-id',
        GITHUB_CLIENT_SECRET: 'github-secret',
      },
    });
    admin = await registerUser(t.url);
    await t.dataSource.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.user.id]);
  });
  afterAll(async () => {
    await t?.close();
  });

  const info = async () => (await api(t.url, 'GET', SERVER_INFO_PATH)).body as ServerInfo;
  const offer = async (signIns: unknown) => {
    const r = await api(t.url, 'PUT', '/api/admin/settings', {
      token: admin.token,
      body: { changes: { signIns }, reason: 'sign-ins on server-info' },
    });
    expect(r.status).toBe(200);
  };

  it('lists Discord, each OpenID Connect provider and GitHub with their labels, as GET /api/auth/providers does', async () => {
    const body = await info();
    expect(body.signIn).toEqual(['password', 'discord', 'github', 'oidc']);
    expect(body.providers).toEqual([DISCORD, GOOGLE, COMPANY, GITHUB]);
    const providers = (await api(t.url, 'GET', '/api/auth/providers')).body as AuthProviders;
    expect(providers.sso).toEqual([GOOGLE, COMPANY, GITHUB]);
  });

  it('follows the console: a provider the host switches off leaves the list at once, and comes back', async () => {
    await offer({ discord: true, sso: { google: false, github: false } });
    let body = await info();
    expect(body.signIn).toEqual(['password', 'discord', 'oidc']);
    expect(body.providers).toEqual([DISCORD, COMPANY]);

    await offer({ discord: false, sso: { google: false, corp: false, github: true } });
    body = await info();
    expect(body.signIn).toEqual(['password', 'github']);
    expect(body.providers).toEqual([GITHUB]);
    // the same as what the login page offers
    expect((await api(t.url, 'GET', '/api/auth/providers')).body).toEqual({ discord: false, sso: [GITHUB] });

    await offer({ discord: true });
    body = await info();
    expect(body.signIn).toEqual(['password', 'discord', 'github', 'oidc']);
    expect(body.providers).toEqual([DISCORD, GOOGLE, COMPANY, GITHUB]);
  });
});
