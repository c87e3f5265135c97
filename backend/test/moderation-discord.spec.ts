/**
 * Issue #25: a banned account's Discord sign-in is refused like a password sign-in: the browser goes back to the
 * client with `?error=banned&message=Banned until … UTC: <reason>` and no token; once the ban is lifted the same
 * Discord account signs in again (against a loopback Discord, real database).
 */
import { banMessage } from '@spades/common';
import { FakeDiscord, FakeDiscordUser } from './support/fake-discord';
import { api, createTestApp, HttpResult, registerUser, RegisteredUser, TestApp } from './support/test-app';

const COOKIE = 'spades_discord_state';

describe('Discord sign-in of a banned account', () => {
  let t: TestApp;
  let mod: RegisteredUser;
  const discord = new FakeDiscord();

  beforeAll(async () => {
    await discord.start();
    t = await createTestApp({ env: { ...discord.env(), TRUST_PROXY: 'loopback' } });
    mod = await registerUser(t.url);
    await t.dataSource.query(`UPDATE users SET role = 'moderator' WHERE id = $1`, [mod.user.id]);
  });
  afterAll(async () => {
    await t?.close();
    await discord.stop();
  });

  const cookieOf = (r: HttpResult) =>
    r.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${COOKIE}=`))!
      .split(';')[0];

  /** start → provider consent → callback with the state cookie; the final redirect's Location. */
  async function login(user: FakeDiscordUser): Promise<URL> {
    const start = await api(t.url, 'GET', '/api/auth/discord');
    expect(start.status).toBe(302);
    const back = discord.authorize(start.headers.get('location')!, user);
    const res = await api(t.url, 'GET', `${back.pathname}${back.search}`, { headers: { cookie: cookieOf(start) } });
    expect(res.status).toBe(302);
    return new URL(res.headers.get('location')!);
  }

  it('refuses with ?error=banned and the reason and end, and admits again once lifted', async () => {
    const du: FakeDiscordUser = { id: '912345678901234567', username: 'bannedone', global_name: 'Banned One' };
    const first = await login(du);
    const token = first.searchParams.get('token')!;
    const me = await api(t.url, 'GET', '/api/auth/profile', { token });
    expect(me.status).toBe(200);

    const ban = await api(t.url, 'POST', `/api/admin/players/${me.body.id}/sanctions`, {
      token: mod.token,
      body: { kind: 'ban', minutes: 120, reason: 'harassment' },
    });
    expect(ban.status).toBe(200);
    const refused = await login(du);
    expect(`${refused.origin}${refused.pathname}`).toBe('http://localhost:5173/auth/callback');
    expect(refused.searchParams.get('token')).toBeNull();
    expect(refused.searchParams.get('error')).toBe('banned');
    expect(refused.searchParams.get('message')).toBe(banMessage({ reason: 'harassment', endsAt: ban.body.endsAt }));
    // the token from before the ban is dead too
    expect((await api(t.url, 'GET', '/api/auth/profile', { token })).status).toBe(401);

    const lift = await api(t.url, 'POST', `/api/admin/sanctions/${ban.body.id}/lift`, {
      token: mod.token,
      body: { reason: 'appeal accepted' },
    });
    expect(lift.status).toBe(200);
    const again = await login(du);
    expect(again.searchParams.get('error')).toBeNull();
    expect(again.searchParams.get('token')).toEqual(expect.any(String));
  });
});
