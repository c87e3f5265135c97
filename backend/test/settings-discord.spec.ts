/**
 * Issue #25: the host's registration mode also governs accounts created by a Discord sign-in (against a loopback
 * Discord, real database): while registration is closed or by invite code only, a Discord user without an account
 * is sent back with `?error=registration_refused&message=<why>` and no account is created; a Discord user who
 * already has an account still signs in.
 */
import { REGISTRATION_MESSAGES } from '@spades/common';
import { FakeDiscord, FakeDiscordUser } from './support/fake-discord';
import { api, createTestApp, HttpResult, registerUser, RegisteredUser, TestApp } from './support/test-app';

const COOKIE = 'spades_discord_state';

describe('registration mode and Discord sign-ups', () => {
  let t: TestApp;
  let admin: RegisteredUser;
  const discord = new FakeDiscord();

  beforeAll(async () => {
    await discord.start();
    t = await createTestApp({ env: { ...discord.env(), TRUST_PROXY: 'loopback' } });
    admin = await registerUser(t.url);
    await t.dataSource.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.user.id]);
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
  const registration = async (mode: string) =>
    expect(
      (
        await api(t.url, 'PUT', '/api/admin/settings', {
          token: admin.token,
          body: { changes: { registration: mode }, reason: 'test' },
        })
      ).status,
    ).toBe(200);
  const accounts = async (discordId: string) =>
    Number((await t.dataSource.query(`SELECT count(*)::int AS n FROM users WHERE discord_id = $1`, [discordId]))[0].n);

  it('refuses new Discord accounts while closed or by invitation, and still signs existing ones in', async () => {
    const known: FakeDiscordUser = { id: '812345678901234561', username: 'knownowl' };
    expect((await login(known)).searchParams.get('token')).toEqual(expect.any(String));

    await registration('closed');
    const stranger: FakeDiscordUser = { id: '812345678901234562', username: 'newowl' };
    const closed = await login(stranger);
    expect(closed.searchParams.get('token')).toBeNull();
    expect(closed.searchParams.get('error')).toBe('registration_refused');
    expect(closed.searchParams.get('message')).toBe(REGISTRATION_MESSAGES.closed);
    expect(await accounts(stranger.id)).toBe(0);
    expect((await login(known)).searchParams.get('token')).toEqual(expect.any(String));

    await registration('invite');
    const invite = await login(stranger);
    expect(invite.searchParams.get('error')).toBe('registration_refused');
    expect(invite.searchParams.get('message')).toBe(REGISTRATION_MESSAGES.inviteRequired);
    expect(await accounts(stranger.id)).toBe(0);

    await registration('open');
    expect((await login(stranger)).searchParams.get('token')).toEqual(expect.any(String));
    expect(await accounts(stranger.id)).toBe(1);
  });
});
