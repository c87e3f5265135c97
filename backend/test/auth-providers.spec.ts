/** GET /api/auth/providers: the login page learns whether Discord sign-in is offered (issue 15). */
import { AuthProvidersController } from '../src/auth/auth-providers.controller';
import type { AppConfig } from '../src/config/config.schema';
import { api, createTestApp, TestApp } from './support/test-app';

describe('auth providers (integration)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('says Discord is unavailable on a server without Discord configuration (and the start URL answers 503)', async () => {
    const r = await api(t.url, 'GET', '/api/auth/providers');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ discord: false, sso: [] });
    expect((await api(t.url, 'GET', '/api/auth/discord')).status).toBe(503);
  });

  it('says Discord is available when it is configured', () => {
    const configured = {
      discord: { clientId: 'id', clientSecret: 's', redirectUri: 'http://x/cb' },
    } as unknown as AppConfig;
    expect(new AuthProvidersController(configured).providers()).toEqual({ discord: true, sso: [] });
    expect(new AuthProvidersController({ discord: null } as unknown as AppConfig).providers()).toEqual({
      discord: false,
      sso: [],
    });
  });
});
