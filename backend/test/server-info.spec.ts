/** GET /api/server-info (issue #30): the desktop app checks a community server by address before adding it. */
import { PROTOCOL_VERSION, SERVER_INFO_PATH } from '@spades/common';
import { api, createTestApp, TestApp } from './support/test-app';
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
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    const op = doc.paths['/api/server-info']?.get;
    expect(op).toBeDefined();
    expect(op!.responses['200'].content!['application/json'].schema.$ref).toBe('#/components/schemas/ServerInfoDto');
    expect(Object.keys(doc.components.schemas.ServerInfoDto.properties).sort()).toEqual(
      ['description', 'icon', 'kind', 'name', 'protocolVersion', 'registration', 'signIn', 'version'].sort(),
    );
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
