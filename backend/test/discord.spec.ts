import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { STARTING_COINS, User } from '@spades/common';
import { Writable } from 'node:stream';
import { PendingLogins } from '../src/auth/discord-state.store';
import { FakeDiscord, FakeDiscordUser } from './support/fake-discord';
import { api, createTestApp, HttpResult, registerUser, TestApp } from './support/test-app';

const COOKIE = 'spades_discord_state';
if (!process.env.TEST_DATABASE_URL)
  console.warn(
    '[discord.spec] TEST_DATABASE_URL not set: the two-node login test is skipped (one process per embedded database)',
  );

/** The `name=value` of the state cookie a response sets, and its attributes (lower-cased). */
function stateCookie(r: HttpResult): { pair: string; value: string; attrs: string[] } {
  const set = r.headers.getSetCookie().find((c) => c.startsWith(`${COOKIE}=`));
  expect(set).toBeDefined();
  const [pair, ...attrs] = set!.split(';').map((x) => x.trim());
  return { pair, value: pair.slice(COOKIE.length + 1), attrs: attrs.map((a) => a.toLowerCase()) };
}

describe('Discord login (state + PKCE) against a loopback provider', () => {
  let t: TestApp;
  const discord = new FakeDiscord();
  let seq = 0;
  const discordUser = (over: Partial<FakeDiscordUser> = {}): FakeDiscordUser => {
    seq += 1;
    return {
      id: String(900000000000000000n + BigInt(seq)),
      username: `disc${seq}`,
      global_name: `Disc Player ${seq}`,
      ...over,
    };
  };

  const logLines: string[] = [];
  const logStream = new Writable({
    write(chunk, _enc, cb) {
      logLines.push(...String(chunk).split('\n').filter(Boolean));
      cb();
    },
  });

  beforeAll(async () => {
    await discord.start();
    t = await createTestApp({ env: { ...discord.env(), TRUST_PROXY: 'loopback', LOG_LEVEL: 'warn' }, logStream });
  });
  afterAll(async () => {
    await t?.close();
    await discord.stop();
  });

  const userCount = async () => Number((await t.dataSource.query(`SELECT count(*)::int AS n FROM users`))[0].n);

  /** A browser starting a login: the provider's authorize URL, its state, and the state cookie it was given. */
  async function startLogin(client?: 'desktop') {
    const start = await api(t.url, 'GET', `/api/auth/discord${client ? '?client=desktop' : ''}`);
    expect(start.status).toBe(302);
    const authorizeUrl = start.headers.get('location')!;
    return { authorizeUrl, state: new URL(authorizeUrl).searchParams.get('state')!, cookie: stateCookie(start).pair };
  }

  /** GET the callback (optionally with a Cookie header); expects a redirect and returns its Location. */
  async function callback(pathAndQuery: string, cookie?: string): Promise<{ res: HttpResult; location: URL }> {
    const res = await api(t.url, 'GET', pathAndQuery, { headers: cookie ? { cookie } : {} });
    expect(res.status).toBe(302);
    return { res, location: new URL(res.headers.get('location')!) };
  }

  /** Browser: start → provider consent → callback (carrying the state cookie); returns the final Location. */
  async function login(user: FakeDiscordUser, client?: 'desktop'): Promise<URL> {
    const start = await startLogin(client);
    const back = discord.authorize(start.authorizeUrl, user);
    return (await callback(`${back.pathname}${back.search}`, start.cookie)).location;
  }

  /** A failed callback: the browser goes back to the client with ?error=<code> and no token. */
  function expectError(location: URL, code: string, base = 'http://localhost:5173/auth/callback') {
    expect(`${location.protocol}//${location.host}${location.pathname}`).toBe(base);
    expect(location.searchParams.get('token')).toBeNull();
    expect(location.searchParams.get('error')).toBe(code);
  }

  async function profileOf(location: URL): Promise<User> {
    const token = location.searchParams.get('token');
    expect(token).toEqual(expect.any(String));
    const r = await api<User>(t.url, 'GET', '/api/auth/profile', { token: token! });
    expect(r.status).toBe(200);
    return r.body;
  }

  it('creates an account (with the 5,000,000 grant) and redirects to CLIENT_URL/auth/callback?token=…', async () => {
    const before = await userCount();
    const du = discordUser({ global_name: 'Queen of Spades!', email: 'queen@discord.test', verified: true });
    const loc = await login(du);
    expect(`${loc.origin}${loc.pathname}`).toBe('http://localhost:5173/auth/callback');
    const me = await profileOf(loc);
    expect(me).toMatchObject({
      username: 'QueenofSpades',
      email: 'queen@discord.test',
      coins: STARTING_COINS,
      discordLinked: true,
    });
    expect(await userCount()).toBe(before + 1);
    expect(discord.tokenRequests.at(-1)).toEqual({ ok: true });

    // the same Discord account signs in to the same user
    const again = await profileOf(await login({ ...du }));
    expect(again.id).toBe(me.id);
    expect(await userCount()).toBe(before + 1);
  });

  it('never merges by e-mail: a verified e-mail of an account asks to sign in and link (link_required), as OIDC / GitHub', async () => {
    const existing = await registerUser(t.url);
    const before = await userCount();
    const du = discordUser({ email: existing.email.toUpperCase(), verified: true });
    const loc = await login(du);
    expectError(loc, 'link_required');
    // the clients' link-required page names the provider
    expect(loc.searchParams.get('message')).toBe('Discord');
    // the desktop app hears it through its deep link
    const desktop = await login({ ...du }, 'desktop');
    expectError(desktop, 'link_required', 'spades://auth/callback');
    expect(desktop.searchParams.get('message')).toBe('Discord');
    // nothing was created or linked, and it is not logged as a fault
    expect(await userCount()).toBe(before);
    const [row] = await t.dataSource.query(`SELECT email, discord_id FROM users WHERE id = $1`, [existing.user.id]);
    expect(row).toEqual({ email: existing.email, discord_id: null });
    expect(logLines.some((l) => /Discord login rejected \(link_required\)/.test(l))).toBe(false);

    // the owner signs in with the password and links Discord from the profile
    const pw = await api(t.url, 'POST', '/api/auth/login', {
      body: { email: existing.email, password: existing.password },
    });
    expect(pw.status).toBe(200);
    expect(pw.body.user.id).toBe(existing.user.id);
    const link = await api(t.url, 'POST', '/api/auth/identities/discord/link', { token: pw.body.token });
    expect(link.status).toBe(200);
    const linkStart = await api(t.url, 'GET', link.body.url);
    expect(linkStart.status).toBe(302);
    const back = discord.authorize(linkStart.headers.get('location')!, du);
    const linked = await callback(`${back.pathname}${back.search}`, stateCookie(linkStart).pair);
    expect((await profileOf(linked.location)).id).toBe(existing.user.id);

    // from then on Discord signs in to that account; still no new account
    const me = await profileOf(await login({ ...du }));
    expect(me).toMatchObject({ id: existing.user.id, email: existing.email, discordLinked: true });
    expect(await userCount()).toBe(before);
  });

  it('a verified e-mail no account uses is kept; link_required only while an account uses it', async () => {
    const email = `free-${Date.now()}@discord.test`;
    const first = await profileOf(await login(discordUser({ email, verified: true })));
    expect(first.email).toBe(email);
    // another Discord user vouching for the same e-mail now meets that account
    expectError(await login(discordUser({ email: email.toUpperCase(), verified: true })), 'link_required');
  });

  it('does not link on an unverified e-mail: a separate account without e-mail is created', async () => {
    const existing = await registerUser(t.url);
    const me = await profileOf(await login(discordUser({ email: existing.email, verified: false })));
    expect(me.id).not.toBe(existing.user.id);
    expect(me.email).toBeNull();
  });

  it('?client=desktop returns to spades://auth/callback?token=…', async () => {
    const loc = await login(discordUser(), 'desktop');
    expect(loc.protocol).toBe('spades:');
    expect(loc.href.startsWith('spades://auth/callback?token=')).toBe(true);
    await profileOf(loc);
  });

  it('the state cookie: HttpOnly, SameSite=Lax, path /api/auth/discord, short-lived, Secure over https; cleared by the callback', async () => {
    const plain = stateCookie(await api(t.url, 'GET', '/api/auth/discord'));
    expect(plain.attrs).toEqual(
      expect.arrayContaining(['httponly', 'samesite=lax', 'path=/api/auth/discord', 'max-age=600']),
    );
    expect(plain.attrs).not.toContain('secure');
    // behind a TLS-terminating proxy (TRUST_PROXY) the request is https: the cookie is Secure
    const https = stateCookie(
      await api(t.url, 'GET', '/api/auth/discord', { headers: { 'x-forwarded-proto': 'https' } }),
    );
    expect(https.attrs).toContain('secure');

    const start = await startLogin();
    const back = discord.authorize(start.authorizeUrl, discordUser());
    const { res } = await callback(`${back.pathname}${back.search}`, start.cookie);
    const cleared = stateCookie(res);
    expect(cleared.value).toBe('');
    expect(cleared.attrs).toEqual(expect.arrayContaining(['path=/api/auth/discord', 'httponly']));
    expect(cleared.attrs.some((a) => a.startsWith('expires=thu, 01 jan 1970'))).toBe(true);
  });

  it('login CSRF: a callback without the state cookie, or with the cookie of another login, is rejected', async () => {
    const before = await userCount();
    const tokensBefore = discord.tokenRequests.length;
    // the attacker's login (their state and code) replayed in a victim browser that has no cookie
    const attacker = await startLogin();
    const back = discord.authorize(attacker.authorizeUrl, discordUser());
    expectError((await callback(`${back.pathname}${back.search}`)).location, 'state_mismatch');

    // …or in a victim browser that is in the middle of its own login (its cookie is for another state)
    const attacker2 = await startLogin();
    const victim = await startLogin();
    const back2 = discord.authorize(attacker2.authorizeUrl, discordUser());
    expectError((await callback(`${back2.pathname}${back2.search}`, victim.cookie)).location, 'state_mismatch');
    // a forged cookie value does not help either
    const attacker3 = await startLogin();
    const back3 = discord.authorize(attacker3.authorizeUrl, discordUser());
    expectError(
      (await callback(`${back3.pathname}${back3.search}`, `${COOKIE}=${attacker3.state}`)).location,
      'state_mismatch',
    );

    expect(discord.tokenRequests.length).toBe(tokensBefore); // no code was ever exchanged
    expect(await userCount()).toBe(before);
    expect(logLines.some((l) => /Discord login rejected \(state_mismatch\)/.test(l))).toBe(true);
    // the state of a rejected callback is used up: even its own browser cannot replay it
    expectError((await callback(`${back.pathname}${back.search}`, attacker.cookie)).location, 'invalid_state');
  });

  it('a mismatched, missing or reused state redirects to the client with ?error=invalid_state and creates nothing', async () => {
    const before = await userCount();
    const start = await startLogin();
    const back = discord.authorize(start.authorizeUrl, discordUser());
    const code = back.searchParams.get('code')!;
    const state = back.searchParams.get('state')!;
    for (const q of [`code=${code}&state=${state}x`, `code=${code}`, `code=${code}&state=`]) {
      const { res, location } = await callback(`/api/auth/discord/callback?${q}`, start.cookie);
      expectError(location, 'invalid_state');
      expect(res.headers.get('content-type') ?? '').not.toMatch(/json/);
    }
    // the genuine state still works once…
    const ok = await callback(`/api/auth/discord/callback?code=${code}&state=${state}`, start.cookie);
    expect(ok.location.searchParams.get('token')).toEqual(expect.any(String));
    // …and only once
    const reuse = await callback(`/api/auth/discord/callback?code=${code}&state=${state}`, start.cookie);
    expectError(reuse.location, 'invalid_state');
    expect(await userCount()).toBe(before + 1);
    expect(logLines.some((l) => /Discord login rejected \(invalid_state\)/.test(l))).toBe(true);
  });

  it('the provider checks the PKCE verifier: a code issued for another login challenge is refused (error redirect, nothing created)', async () => {
    const before = await userCount();
    const startA = await startLogin();
    const startB = await startLogin();
    const backA = discord.authorize(startA.authorizeUrl, discordUser());
    const { location } = await callback(
      `/api/auth/discord/callback?code=${backA.searchParams.get('code')}&state=${startB.state}`,
      startB.cookie,
    );
    expectError(location, 'discord_failed');
    expect(discord.tokenRequests.at(-1)).toEqual({ ok: false, reason: 'PKCE verifier does not match the challenge' });
    expect(await userCount()).toBe(before);
    expect(logLines.some((l) => /Discord login rejected \(discord_failed\).*token endpoint answered 400/.test(l))).toBe(
      true,
    );
  });

  it('a callback with a valid state but no code is ?error=no_code (not a new login), and uses the state up', async () => {
    const before = await userCount();
    const start = await startLogin('desktop');
    const { location } = await callback(`/api/auth/discord/callback?state=${start.state}`, start.cookie);
    expectError(location, 'no_code', 'spades://auth/callback');
    expect(logLines.some((l) => /Discord login rejected \(no_code\)/.test(l))).toBe(true);
    const back = discord.authorize(start.authorizeUrl, discordUser());
    expectError((await callback(`${back.pathname}${back.search}`, start.cookie)).location, 'invalid_state');
    expect(await userCount()).toBe(before);
  });

  it('starting a login with provider parameters is a 400 { message }, not a callback', async () => {
    const r = await api(t.url, 'GET', '/api/auth/discord?code=abc&state=def');
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ message: 'A Discord login starts without code or error parameters' });
    expect(r.headers.getSetCookie().some((c) => c.startsWith(`${COOKIE}=`))).toBe(false);
  });

  it('a denied consent redirects back to the client without a token', async () => {
    const start = await startLogin();
    const { location } = await callback(
      `/api/auth/discord/callback?error=access_denied&state=${start.state}`,
      start.cookie,
    );
    expectError(location, 'discord_denied');
  });

  it('failures of a desktop login go back to the app (spades://auth/callback?error=…)', async () => {
    const denied = await startLogin('desktop');
    const r1 = await callback(`/api/auth/discord/callback?error=access_denied&state=${denied.state}`, denied.cookie);
    expectError(r1.location, 'discord_denied', 'spades://auth/callback');
    const noCookie = await startLogin('desktop');
    const back = discord.authorize(noCookie.authorizeUrl, discordUser());
    expectError(
      (await callback(`${back.pathname}${back.search}`)).location,
      'state_mismatch',
      'spades://auth/callback',
    );
    // an unknown state says nothing about the client: the web client
    expectError((await callback(`/api/auth/discord/callback?code=x&state=unknown`)).location, 'invalid_state');
  });

  it('the state lives in the database until its callback uses it (any node, or a restarted one, can finish it)', async () => {
    const start = await startLogin();
    const rows = async () =>
      (await t.dataSource.query(`SELECT count(*)::int AS n FROM discord_login_states WHERE expires_at > now()`))[0].n;
    const before = await rows();
    expect(before).toBeGreaterThan(0);
    const back = discord.authorize(start.authorizeUrl, discordUser());
    expect(
      (await callback(`${back.pathname}${back.search}`, start.cookie)).location.searchParams.get('token'),
    ).toBeTruthy();
    expect(await rows()).toBe(before - 1);
  });

  it('logins started in a loop cannot grow the table: beyond the cap the oldest are evicted', async () => {
    await t.dataSource.query(`DELETE FROM discord_login_states`);
    const store = new PendingLogins(t.dataSource, 3);
    const now = Date.now() + 60_000;
    for (let i = 0; i < 5; i++)
      await store.put(`cap-state-${i}`, { verifier: `v${i}`, client: 'web', expiresAt: now + i * 1000 });
    expect(Number((await t.dataSource.query(`SELECT count(*)::int AS n FROM discord_login_states`))[0].n)).toBe(3);
    expect(await store.take('cap-state-0')).toBeNull();
    expect(await store.take('cap-state-1')).toBeNull();
    expect(await store.take('cap-state-4')).toMatchObject({ verifier: 'v4', client: 'web' });
    expect(await store.take('cap-state-4')).toBeNull(); // single use
  });

  (process.env.TEST_DATABASE_URL ? it : it.skip)(
    'a login started on one node finishes on another node of the same deployment, once only',
    async () => {
      const start = await startLogin();
      const other = await createTestApp({
        env: {
          ...discord.env(),
          DATABASE_SCHEMA: t.config.databaseSchema,
          JWT_SECRET: t.config.jwtSecret,
          NODE_ID: 'discord-other',
        },
      });
      try {
        const back = discord.authorize(start.authorizeUrl, discordUser());
        const res = await api(other.url, 'GET', `${back.pathname}${back.search}`, {
          headers: { cookie: start.cookie },
        });
        expect(res.status).toBe(302);
        expect(new URL(res.headers.get('location')!).searchParams.get('token')).toBeTruthy();
        // used up: the same callback again, on the first node, fails
        expectError((await callback(`${back.pathname}${back.search}`, start.cookie)).location, 'invalid_state');
      } finally {
        await other.close();
      }
    },
  );
});
