import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { STARTING_COINS, User } from '@spades/common';
import { FakeDiscord, FakeDiscordUser } from './support/fake-discord';
import { api, createTestApp, registerUser, TestApp } from './support/test-app';

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

  beforeAll(async () => {
    await discord.start();
    t = await createTestApp({ env: discord.env() });
  });
  afterAll(async () => {
    await t?.close();
    await discord.stop();
  });

  const userCount = async () => Number((await t.dataSource.query(`SELECT count(*)::int AS n FROM users`))[0].n);

  /** Browser: start → provider consent → callback; returns the final redirect Location. */
  async function login(user: FakeDiscordUser, client?: 'desktop'): Promise<URL> {
    const start = await api(t.url, 'GET', `/api/auth/discord${client ? '?client=desktop' : ''}`);
    expect(start.status).toBe(302);
    const back = discord.authorize(start.headers.get('location')!, user);
    const cb = await api(t.url, 'GET', `${back.pathname}${back.search}`);
    expect(cb.status).toBe(302);
    return new URL(cb.headers.get('location')!);
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

  it('links to an existing account with the same verified e-mail instead of creating one', async () => {
    const existing = await registerUser(t.url);
    const before = await userCount();
    const me = await profileOf(await login(discordUser({ email: existing.email.toUpperCase(), verified: true })));
    expect(me.id).toBe(existing.user.id);
    expect(me.discordLinked).toBe(true);
    expect(await userCount()).toBe(before);
    // password login still works for the linked account
    expect(
      (await api(t.url, 'POST', '/api/auth/login', { body: { email: existing.email, password: existing.password } }))
        .status,
    ).toBe(200);
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

  it('rejects a mismatched, missing or reused state with 400 and creates nothing', async () => {
    const before = await userCount();
    const start = await api(t.url, 'GET', '/api/auth/discord');
    const back = discord.authorize(start.headers.get('location')!, discordUser());
    const code = back.searchParams.get('code')!;
    const state = back.searchParams.get('state')!;
    for (const q of [`code=${code}&state=${state}x`, `code=${code}`, `code=${code}&state=`]) {
      const r = await api(t.url, 'GET', `/api/auth/discord/callback?${q}`);
      expect(r.status).toBe(400);
      expect((r.body as { message: string }).message).toMatch(/Invalid or expired Discord login state/);
    }
    // the genuine state still works once…
    const ok = await api(t.url, 'GET', `/api/auth/discord/callback?code=${code}&state=${state}`);
    expect(ok.status).toBe(302);
    // …and only once
    const reuse = await api(t.url, 'GET', `/api/auth/discord/callback?code=${code}&state=${state}`);
    expect(reuse.status).toBe(400);
    expect(await userCount()).toBe(before + 1);
  });

  it('the provider checks the PKCE verifier: a code issued for another login challenge is refused (502, nothing created)', async () => {
    const before = await userCount();
    const startA = await api(t.url, 'GET', '/api/auth/discord');
    const startB = await api(t.url, 'GET', '/api/auth/discord');
    const backA = discord.authorize(startA.headers.get('location')!, discordUser());
    const stateB = new URL(startB.headers.get('location')!).searchParams.get('state')!;
    const r = await api(
      t.url,
      'GET',
      `/api/auth/discord/callback?code=${backA.searchParams.get('code')}&state=${stateB}`,
    );
    expect(r.status).toBe(502);
    expect(r.body).toEqual({ message: 'Discord login failed. Please try again.' });
    expect(discord.tokenRequests.at(-1)).toEqual({ ok: false, reason: 'PKCE verifier does not match the challenge' });
    expect(await userCount()).toBe(before);
  });

  it('a denied consent redirects back to the client without a token', async () => {
    const start = await api(t.url, 'GET', '/api/auth/discord');
    const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
    const r = await api(t.url, 'GET', `/api/auth/discord/callback?error=access_denied&state=${state}`);
    expect(r.status).toBe(302);
    const loc = new URL(r.headers.get('location')!);
    expect(loc.searchParams.get('token')).toBeNull();
    expect(loc.searchParams.get('error')).toBe('discord_denied');
  });
});
