import { describe, expect, it } from '@jest/globals';
import { parseSsoProviders } from './sso.config';

const BASE = 'https://spades.example';

describe('parseSsoProviders (the SSO env schemas)', () => {
  it('configures nothing when nothing is set', () => {
    expect(parseSsoProviders({}, BASE)).toEqual({ providers: [], errors: [] });
  });

  it('reads an OIDC provider with its defaults and GitHub with its endpoints', () => {
    const { providers, errors } = parseSsoProviders(
      {
        OIDC_PROVIDERS: ' Keycloak ,keycloak',
        OIDC_KEYCLOAK_ISSUER: 'https://id.example/realms/x/',
        OIDC_KEYCLOAK_CLIENT_ID: 'cid',
        OIDC_KEYCLOAK_CLIENT_SECRET: 'sec',
        GITHUB_CLIENT_ID: 'gh',
        GITHUB_CLIENT_SECRET: 'ghs',
        GITHUB_API_URL: 'https://ghe.example/api/v3/',
      },
      BASE + '/',
    );
    expect(errors).toEqual([]);
    expect(providers).toEqual([
      {
        id: 'keycloak',
        kind: 'oidc',
        label: 'Keycloak',
        clientId: 'cid',
        clientSecret: 'sec',
        redirectUri: `${BASE}/api/auth/oidc/keycloak/callback`,
        issuer: 'https://id.example/realms/x',
        scope: 'openid email profile',
      },
      {
        id: 'github',
        kind: 'github',
        label: 'GitHub',
        clientId: 'gh',
        clientSecret: 'ghs',
        scope: 'read:user user:email',
        redirectUri: `${BASE}/api/auth/oidc/github/callback`,
        authorizeUrl: 'https://github.com/login/oauth/authorize',
        tokenUrl: 'https://github.com/login/oauth/access_token',
        apiUrl: 'https://ghe.example/api/v3',
      },
    ]);
  });

  it('lists every problem, in the words the server prints', () => {
    const { providers, errors } = parseSsoProviders(
      {
        OIDC_PROVIDERS: 'github,okta,corp',
        OIDC_OKTA_ISSUER: 'not a url',
        OIDC_OKTA_CLIENT_ID: 'cid',
        OIDC_OKTA_SCOPE: 'email',
        GITHUB_CLIENT_ID: 'gh',
        GITHUB_TOKEN_URL: 'nope',
      },
      BASE,
    );
    expect(providers).toEqual([]);
    expect(errors.sort()).toEqual(
      [
        'OIDC_PROVIDERS: "github" must be 2-20 lower-case letters/digits and not discord, github or password',
        "OIDC_OKTA_ISSUER must be the issuer's absolute URL",
        'OIDC_OKTA_SCOPE must include openid',
        'OIDC_OKTA_CLIENT_ID and OIDC_OKTA_CLIENT_SECRET must be set',
        'GITHUB_TOKEN_URL must be an absolute URL',
        "OIDC_CORP_ISSUER must be the issuer's absolute URL",
        'OIDC_CORP_CLIENT_ID and OIDC_CORP_CLIENT_SECRET must be set',
      ].sort(),
    );
  });
});
