import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeGithub, FakeGithubUser } from './support/fake-github';
import { api, createTestApp, registerUser, TestApp } from './support/test-app';

/** Issue #26: GitHub sign-in through passport-github2 (OAuth2 + PKCE), against a loopback GitHub. */
describe('GitHub sign-in', () => {
  let t: TestApp;
  const gh = new FakeGithub();
  let seq = 0;
  const ghUser = (over: Partial<FakeGithubUser> = {}): FakeGithubUser => {
    seq += 1;
    return { id: 5_000_000 + seq, login: `octo${seq}`, emails: [], ...over };
  };

  beforeAll(async () => {
    await gh.start();
    t = await createTestApp({ env: gh.env() });
  });
  afterAll(async () => {
    await t?.close();
    await gh.stop();
  });

  async function login(user: FakeGithubUser, path = '/api/auth/oidc/github', tamper?: (u: URL) => void): Promise<URL> {
    const start = await api(t.url, 'GET', path);
    expect(start.status).toBe(302);
    const cookie = start.headers
      .getSetCookie()
      .find((c) => c.startsWith('spades_sso_state='))!
      .split(';')[0];
    const back = gh.authorize(start.headers.get('location')!, user);
    tamper?.(back);
    const r = await api(t.url, 'GET', `${back.pathname}${back.search}`, { headers: { cookie } });
    expect(r.status).toBe(302);
    return new URL(r.headers.get('location')!);
  }

  it('is listed with its label', async () => {
    const r = await api(t.url, 'GET', '/api/auth/providers');
    expect(r.body.sso).toEqual([{ id: 'github', label: 'GitHub', kind: 'github' }]);
  });

  it('creates an account with the verified primary e-mail, signs the same GitHub user in again, and on desktop', async () => {
    const u = ghUser({ emails: [{ email: `octo${seq + 1}@example.test`, primary: true, verified: true }] });
    const end = await login(u);
    const token = end.searchParams.get('token')!;
    const me = await api(t.url, 'GET', '/api/auth/profile', { token });
    expect(me.body.username).toBe(u.login);
    expect(me.body.email).toBe(u.emails[0].email);
    const again = await login(u, '/api/auth/oidc/github?client=desktop');
    expect(again.protocol).toBe('spades:');
    const me2 = await api(t.url, 'GET', '/api/auth/profile', { token: again.searchParams.get('token')! });
    expect(me2.body.id).toBe(me.body.id);
  });

  it('asks to link when the verified e-mail is an account, ignores an unverified one', async () => {
    const owner = await registerUser(t.url);
    const asks = await login(ghUser({ emails: [{ email: owner.email, primary: true, verified: true }] }));
    expect(asks.searchParams.get('error')).toBe('link_required');
    expect(asks.searchParams.get('message')).toBe('GitHub');
    const unverified = await login(ghUser({ emails: [{ email: owner.email, primary: true, verified: false }] }));
    const me = await api(t.url, 'GET', '/api/auth/profile', { token: unverified.searchParams.get('token')! });
    expect(me.body.id).not.toBe(owner.user.id);
    expect(me.body.email).toBeNull();
  });

  it('refuses a code exchanged without the right PKCE verifier or a forged state', async () => {
    const forged = await login(ghUser(), undefined, (u) => u.searchParams.set('state', 'forged-state'));
    expect(forged.searchParams.get('error')).toBe('invalid_state');
    // a code issued for another PKCE challenge (an injected code) fails the exchange
    const injected = await login(ghUser(), undefined, (u) => {
      const other = gh.authorize(
        `${gh.url}/login/oauth/authorize?client_id=gh-client-id&redirect_uri=${encodeURIComponent(u.origin + u.pathname)}&scope=user:email&code_challenge_method=S256&code_challenge=${'A'.repeat(43)}&state=x`,
        ghUser(),
      );
      u.searchParams.set('code', other.searchParams.get('code')!);
    });
    expect(injected.searchParams.get('error')).toBe('provider_failed');
  });
});
