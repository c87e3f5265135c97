import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { FakeDiscord, FakeDiscordUser } from './support/fake-discord';
import { api, createTestApp, HttpResult, registerUser, TestApp } from './support/test-app';

/** Issue #26: a signed-in player links Discord from the profile (and unlinks it), through the Discord login. */
describe('Linking Discord to an account', () => {
  let t: TestApp;
  const discord = new FakeDiscord();

  beforeAll(async () => {
    await discord.start();
    t = await createTestApp({ env: discord.env() });
  });
  afterAll(async () => {
    await t?.close();
    await discord.stop();
  });

  const cookieOf = (r: HttpResult) =>
    r.headers
      .getSetCookie()
      .find((c) => c.startsWith('spades_discord_state='))!
      .split(';')[0];

  async function login(du: FakeDiscordUser, path = '/api/auth/discord'): Promise<URL> {
    const start = await api(t.url, 'GET', path);
    expect(start.status).toBe(302);
    const back = discord.authorize(start.headers.get('location')!, du);
    const r = await api(t.url, 'GET', `${back.pathname}${back.search}`, { headers: { cookie: cookieOf(start) } });
    expect(r.status).toBe(302);
    return new URL(r.headers.get('location')!);
  }
  const linkUrl = async (token: string) => {
    const r = await api(t.url, 'POST', '/api/auth/identities/discord/link', { token });
    expect(r.status).toBe(200);
    expect(r.body.url).toMatch(/^\/api\/auth\/discord\?link=/);
    return r.body.url as string;
  };
  const discordIdOf = async (id: string) =>
    (await t.dataSource.query(`SELECT discord_id FROM users WHERE id = $1`, [id]))[0].discord_id as string | null;

  it('links, signs in with it, refuses it for another account, and unlinks', async () => {
    const owner = await registerUser(t.url);
    const du: FakeDiscordUser = { id: '934567890123456789', username: 'linkme', global_name: 'Link Me' };
    const before = await api(t.url, 'GET', '/api/auth/identities', { token: owner.token });
    expect(before.body.available).toEqual([{ id: 'discord', label: 'Discord', kind: 'discord' }]);

    const linked = await login(du, await linkUrl(owner.token));
    const me = await api(t.url, 'GET', '/api/auth/profile', { token: linked.searchParams.get('token')! });
    expect(me.body.id).toBe(owner.user.id);
    expect(await discordIdOf(owner.user.id)).toBe(du.id);
    const list = await api(t.url, 'GET', '/api/auth/identities', { token: owner.token });
    expect(list.body.linked.map((l: { provider: string }) => l.provider)).toEqual(['password', 'discord']);
    expect(list.body.available).toEqual([]);

    // Discord now signs in to that account
    const signIn = await login(du);
    expect((await api(t.url, 'GET', '/api/auth/profile', { token: signIn.searchParams.get('token')! })).body.id).toBe(
      owner.user.id,
    );

    // another account cannot take it (the desktop app hears it through its deep link)
    const other = await registerUser(t.url);
    const refused = await login(du, `${await linkUrl(other.token)}&client=desktop`);
    expect(refused.protocol).toBe('spades:');
    expect(refused.searchParams.get('error')).toBe('identity_in_use');
    expect(await discordIdOf(other.user.id)).toBeNull();
    // a ticket is single use
    const url = await linkUrl(other.token);
    await login({ ...du, id: '934567890123456780' }, url);
    expect((await api(t.url, 'GET', url)).status).toBe(400);

    const unlinked = await api(t.url, 'DELETE', '/api/auth/identities/discord', { token: owner.token });
    expect(unlinked.status).toBe(200);
    expect(await discordIdOf(owner.user.id)).toBeNull();
  });

  it('a Discord-only account cannot unlink Discord (its last way to sign in)', async () => {
    const end = await login({ id: '934567890123456781', username: 'onlydisc' });
    const token = end.searchParams.get('token')!;
    const r = await api(t.url, 'DELETE', '/api/auth/identities/discord', { token });
    expect(r.status).toBe(400);
    const list = await api(t.url, 'GET', '/api/auth/identities', { token });
    expect(list.body.linked).toEqual([expect.objectContaining({ provider: 'discord', canUnlink: false })]);
  });
});
