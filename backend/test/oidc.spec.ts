import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { api, createTestApp, registerUser, TestApp } from './support/test-app';

const CLIENT_ID = 'spades-test';
const CLIENT_SECRET = 'spades-test-secret-0123456789';
// the default redirect URI: CLIENT_URL (the test app's is http://localhost:5173) + /api/auth/oidc/<id>/callback
const REDIRECT_URI = 'http://localhost:5173/api/auth/oidc/test/callback';
const COOKIE = 'spades_sso_state';

interface TestLogin {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

/** The real OIDC provider (oidc-provider) in a child process: it is ESM and keeps its own HTTP server. */
async function startProvider(): Promise<{ issuer: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [join(__dirname, 'support', 'oidc-test-provider.mjs'), CLIENT_ID, CLIENT_SECRET, REDIRECT_URI],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const issuer = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += String(d);
      const m = /READY (\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`OIDC provider exited with ${code}`)));
  });
  return { issuer, child };
}

describe('OpenID Connect sign-in against a real OIDC provider (oidc-provider)', () => {
  let t: TestApp;
  let provider: { issuer: string; child: ChildProcess };
  let seq = 0;
  const logLines: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });

  beforeAll(async () => {
    provider = await startProvider();
    t = await createTestApp({
      env: {
        OIDC_PROVIDERS: 'test',
        OIDC_TEST_ISSUER: provider.issuer,
        OIDC_TEST_CLIENT_ID: CLIENT_ID,
        OIDC_TEST_CLIENT_SECRET: CLIENT_SECRET,
        OIDC_TEST_LABEL: 'Test SSO',
        LOG_LEVEL: 'warn',
      },
      logStream,
    });
  });
  afterAll(async () => {
    await t?.close();
    provider?.child.kill('SIGTERM');
  });

  const account = (over: Partial<TestLogin> = {}): TestLogin => {
    seq += 1;
    return { sub: `sub-${Date.now()}-${seq}`, name: `Oidc Player ${seq}`, ...over };
  };
  const userCount = async () => Number((await t.dataSource.query(`SELECT count(*)::int AS n FROM users`))[0].n);

  /** The backend's start route: the provider's authorize URL and the state cookie (`name=value`). */
  async function start(path = '/api/auth/oidc/test'): Promise<{ authorizeUrl: URL; cookie: string }> {
    const r = await api(t.url, 'GET', path);
    expect(r.status).toBe(302);
    const set = r.headers.getSetCookie().find((c) => c.startsWith(`${COOKIE}=`));
    expect(set).toBeDefined();
    expect(set!.toLowerCase()).toContain('httponly');
    return { authorizeUrl: new URL(r.headers.get('location')!), cookie: set!.split(';')[0] };
  }

  /**
   * A browser at the provider: follows its redirects (keeping its cookies) until it sends the browser back to the
   * redirect URI; returns that URL's path and query (to be requested from the backend).
   */
  async function throughProvider(authorizeUrl: URL, who: TestLogin): Promise<string> {
    await fetch(`${provider.issuer}/__test/next-login`, { method: 'POST', body: JSON.stringify(who) });
    const jar = new Map<string, string>();
    let url = authorizeUrl.toString();
    for (let hop = 0; hop < 10; hop++) {
      if (url.startsWith(REDIRECT_URI)) {
        const back = new URL(url);
        return `${back.pathname}${back.search}`;
      }
      const res = await fetch(url, {
        redirect: 'manual',
        headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
      });
      for (const c of res.headers.getSetCookie()) {
        const [pair] = c.split(';');
        const eq = pair.indexOf('=');
        jar.set(pair.slice(0, eq), pair.slice(eq + 1));
      }
      const location = res.headers.get('location');
      if (!location) throw new Error(`provider answered ${res.status} without a redirect: ${await res.text()}`);
      url = new URL(location, url).toString();
    }
    throw new Error('too many redirects at the provider');
  }

  async function callback(pathAndQuery: string, cookie?: string): Promise<URL> {
    const r = await api(t.url, 'GET', pathAndQuery, { headers: cookie ? { cookie } : {} });
    expect(r.status).toBe(302);
    return new URL(r.headers.get('location')!);
  }

  /** Start → provider → callback; the client URL the browser ends at. */
  async function login(who: TestLogin, path?: string): Promise<URL> {
    const s = await start(path);
    return callback(await throughProvider(s.authorizeUrl, who), s.cookie);
  }

  const profileOf = async (token: string) => {
    const r = await api(t.url, 'GET', '/api/auth/profile', { token });
    expect(r.status).toBe(200);
    return r.body as { id: string; username: string; email: string | null };
  };

  it('lists the provider with its label', async () => {
    const r = await api(t.url, 'GET', '/api/auth/providers');
    expect(r.body).toEqual({ discord: false, sso: [{ id: 'test', label: 'Test SSO', kind: 'oidc' }] });
  });

  it('asks for code + S256 PKCE + state + nonce, and signs a new player in with the verified e-mail', async () => {
    const who = account({ email: `new${seq}@example.test`, email_verified: true });
    const s = await start();
    const q = s.authorizeUrl.searchParams;
    expect(s.authorizeUrl.origin).toBe(provider.issuer);
    expect(q.get('response_type')).toBe('code');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('state')!.length).toBeGreaterThanOrEqual(40);
    expect(q.get('nonce')!.length).toBeGreaterThanOrEqual(40);
    const before = await userCount();
    const end = await callback(await throughProvider(s.authorizeUrl, who), s.cookie);
    expect(`${end.origin}${end.pathname}`).toBe('http://localhost:5173/auth/callback');
    const token = end.searchParams.get('token')!;
    expect(token).toBeTruthy();
    const me = await profileOf(token);
    expect(me.email).toBe(who.email);
    expect(me.username).toMatch(/^OidcPlayer/);
    expect(await userCount()).toBe(before + 1);

    // the same identity signs in to the same account
    const again = await login(who);
    expect((await profileOf(again.searchParams.get('token')!)).id).toBe(me.id);
    expect(await userCount()).toBe(before + 1);
  });

  it('comes back to the desktop app through spades://auth/callback', async () => {
    const who = account();
    const end = await login(who, '/api/auth/oidc/test?client=desktop');
    expect(end.protocol).toBe('spades:');
    expect(`${end.host}${end.pathname}`).toBe('auth/callback');
    expect([...end.searchParams.keys()]).toEqual(['token']);
    await profileOf(end.searchParams.get('token')!);
  });

  it('refuses a wrong or replayed state, and a state from another browser', async () => {
    const who = account();
    const s = await start();
    const back = await throughProvider(s.authorizeUrl, who);
    const forged = back.replace(/state=[^&]+/, 'state=not-a-state-of-ours');
    const before = await userCount();
    let end = await callback(forged, s.cookie);
    expect(end.searchParams.get('error')).toBe('invalid_state');
    expect(end.searchParams.get('token')).toBeNull();
    // without the browser's state cookie (login CSRF): refused, and the state is used up
    end = await callback(back);
    expect(end.searchParams.get('error')).toBe('state_mismatch');
    end = await callback(back, s.cookie);
    expect(end.searchParams.get('error')).toBe('invalid_state');
    expect(await userCount()).toBe(before);
  });

  it('refuses an id_token whose nonce is not the one of the login', async () => {
    const who = account();
    const s = await start();
    // an authorization response obtained with another nonce, injected into this login
    const tampered = new URL(s.authorizeUrl);
    tampered.searchParams.set('nonce', 'an-attackers-nonce-0123456789');
    const before = await userCount();
    const end = await callback(await throughProvider(tampered, who), s.cookie);
    expect(end.searchParams.get('error')).toBe('provider_failed');
    expect(end.searchParams.get('token')).toBeNull();
    expect(logLines.some((l) => l.includes('nonce mismatch'))).toBe(true);
    expect(await userCount()).toBe(before);
  });

  it('asks to link instead of merging when the verified e-mail is an existing account', async () => {
    const owner = await registerUser(t.url);
    const before = await userCount();
    const who = account({ email: owner.email.toUpperCase(), email_verified: true });
    const end = await login(who);
    expect(end.searchParams.get('error')).toBe('link_required');
    expect(end.searchParams.get('message')).toBe('Test SSO');
    expect(end.searchParams.get('token')).toBeNull();
    expect(await userCount()).toBe(before);
    const ids = await t.dataSource.query(`SELECT 1 FROM user_identities WHERE subject = $1`, [who.sub]);
    expect(ids).toHaveLength(0);

    // an unverified e-mail is not trusted: a new account, without that e-mail
    const unverified = account({ email: owner.email, email_verified: false });
    const created = await login(unverified);
    const me = await profileOf(created.searchParams.get('token')!);
    expect(me.id).not.toBe(owner.user.id);
    expect(me.email).toBeNull();
  });

  it('links the provider to a signed-in account (web and desktop), lists it, signs in with it, unlinks it', async () => {
    const owner = await registerUser(t.url);
    const who = account({ email: owner.email, email_verified: true });
    const ticket = await api(t.url, 'POST', '/api/auth/identities/test/link', { token: owner.token });
    expect(ticket.status).toBe(200);
    const end = await login(who, ticket.body.url);
    expect(end.searchParams.get('linked')).toBe('test');
    expect((await profileOf(end.searchParams.get('token')!)).id).toBe(owner.user.id);
    // a ticket is single use
    expect((await api(t.url, 'GET', ticket.body.url)).status).toBe(400);

    const list = await api(t.url, 'GET', '/api/auth/identities', { token: owner.token });
    expect(list.body.linked.map((l: { provider: string }) => l.provider)).toEqual(['password', 'test']);
    expect(list.body.linked[1]).toMatchObject({ label: 'Test SSO', email: owner.email, canUnlink: true });
    expect(list.body.available).toEqual([]);

    // now the provider signs in to that account (the e-mail matches, but the identity is linked)
    const signIn = await login(who);
    expect((await profileOf(signIn.searchParams.get('token')!)).id).toBe(owner.user.id);

    // another account cannot link the same identity
    const other = await registerUser(t.url);
    const otherTicket = await api(t.url, 'POST', '/api/auth/identities/test/link', { token: other.token });
    const refused = await login(who, `${otherTicket.body.url}&client=desktop`);
    expect(refused.protocol).toBe('spades:');
    expect(refused.searchParams.get('error')).toBe('identity_in_use');

    // linking from the desktop app comes back through the deep link
    const other2 = account();
    const t2 = await api(t.url, 'POST', '/api/auth/identities/test/link', { token: other.token });
    const linked = await login(other2, `${t2.body.url}&client=desktop`);
    expect(linked.protocol).toBe('spades:');
    expect((await profileOf(linked.searchParams.get('token')!)).id).toBe(other.user.id);

    const unlinked = await api(t.url, 'DELETE', '/api/auth/identities/test', { token: owner.token });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.linked.map((l: { provider: string }) => l.provider)).toEqual(['password']);
    // unlinked: the verified e-mail now asks to link again
    expect((await login(who)).searchParams.get('error')).toBe('link_required');
  });

  it('refuses a banned account with ?error=banned and its reason', async () => {
    const mod = await registerUser(t.url);
    await t.dataSource.query(`UPDATE users SET role = 'moderator' WHERE id = $1`, [mod.user.id]);
    const who = account();
    const first = await login(who);
    const me = await profileOf(first.searchParams.get('token')!);
    const ban = await api(t.url, 'POST', `/api/admin/players/${me.id}/sanctions`, {
      token: mod.token,
      body: { kind: 'ban', minutes: 120, reason: 'harassment' },
    });
    expect(ban.status).toBe(200);
    const refused = await login(who);
    expect(refused.searchParams.get('error')).toBe('banned');
    expect(refused.searchParams.get('message')).toMatch(/harassment/);
    expect(refused.searchParams.get('token')).toBeNull();
  });

  it("follows the host's sign-ins setting (console): a provider switched off is hidden and refused", async () => {
    const admin = await registerUser(t.url);
    await t.dataSource.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.user.id]);
    const put = (sso: Record<string, boolean>) =>
      api(t.url, 'PUT', '/api/admin/settings', {
        token: admin.token,
        body: { changes: { signIns: { discord: true, sso } }, reason: 'sign-ins' },
      });
    const view = await api(t.url, 'GET', '/api/admin/settings', { token: admin.token });
    expect(view.body.signInsConfigured).toEqual({ discord: false, sso: { test: true } });
    expect((await put({ test: false })).status).toBe(200);
    expect((await api(t.url, 'GET', '/api/auth/providers')).body.sso).toEqual([]);
    expect((await api(t.url, 'GET', '/api/settings/public')).body.signIns).toEqual({
      discord: false,
      sso: { test: false },
    });
    expect((await api(t.url, 'GET', '/api/auth/oidc/test')).status).toBe(403);
    expect((await api(t.url, 'POST', '/api/auth/identities/test/link', { token: admin.token })).status).toBe(403);
    expect((await put({ test: true })).status).toBe(200);
    expect((await api(t.url, 'GET', '/api/auth/providers')).body.sso).toHaveLength(1);
    expect((await put({ 'Not An Id': true })).status).toBe(400);
  });

  it('never unlinks the last way to sign in', async () => {
    const end = await login(account());
    const token = end.searchParams.get('token')!;
    const r = await api(t.url, 'DELETE', '/api/auth/identities/test', { token });
    expect(r.status).toBe(400);
    expect(r.body.message).toMatch(/last way to sign in/);
    const list = await api(t.url, 'GET', '/api/auth/identities', { token });
    expect(list.body.linked).toEqual([expect.objectContaining({ provider: 'test', canUnlink: false })]);
    expect((await api(t.url, 'DELETE', '/api/auth/identities/nope', { token })).status).toBe(404);
    expect((await api(t.url, 'GET', '/api/auth/oidc/nope')).status).toBe(404);
    expect((await api(t.url, 'POST', '/api/auth/identities/test/link')).status).toBe(401);
  });
});
