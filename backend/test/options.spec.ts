/**
 * Per-player options (issue #31): GET/PUT /api/users/me/options against a real database — defaults for a new
 * account, partial updates merged and kept per account, bad input refused with 400 `{ message }` and nothing stored,
 * no access without a token.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { DEFAULT_PLAYER_OPTIONS, OPTIONS_ERRORS, PLAYER_OPTIONS_PATH, type PlayerOptions } from '@spades/common';
import { api, createTestApp, registerUser, RegisteredUser, TestApp } from './support/test-app';

describe('player options', () => {
  let t: TestApp;
  let a: RegisteredUser;
  let b: RegisteredUser;
  beforeAll(async () => {
    t = await createTestApp();
    a = await registerUser(t.url);
    b = await registerUser(t.url);
  });
  afterAll(async () => {
    await t?.close();
  });
  const get = (who: RegisteredUser) => api<PlayerOptions>(t.url, 'GET', PLAYER_OPTIONS_PATH, { token: who.token });
  const put = (who: RegisteredUser, body: unknown) =>
    api<PlayerOptions & { message?: string }>(t.url, 'PUT', PLAYER_OPTIONS_PATH, { token: who.token, body });

  it('a new account gets the defaults', async () => {
    const r = await get(a);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(DEFAULT_PLAYER_OPTIONS);
  });

  it('PUT merges a partial change over the stored options, per account', async () => {
    const r1 = await put(a, { fourColourDeck: true, cardSize: 'large' });
    expect(r1.status).toBe(200);
    expect(r1.body).toEqual({ ...DEFAULT_PLAYER_OPTIONS, fourColourDeck: true, cardSize: 'large' });
    const r2 = await put(a, { soundVolume: 0, quickChat: false, reducedMotion: true });
    expect(r2.body).toEqual({
      ...DEFAULT_PLAYER_OPTIONS,
      fourColourDeck: true,
      cardSize: 'large',
      soundVolume: 0,
      quickChat: false,
      reducedMotion: true,
    });
    expect((await get(a)).body).toEqual(r2.body);
    expect((await get(b)).body).toEqual(DEFAULT_PLAYER_OPTIONS); // another account is untouched
  });

  it('refuses bad input with 400 and a message, storing nothing', async () => {
    const before = (await get(a)).body;
    const cases: [unknown, string][] = [
      [{ cardSize: 'huge' }, OPTIONS_ERRORS.cardSize],
      [{ soundVolume: 101 }, OPTIONS_ERRORS.soundVolume],
      [{ soundVolume: 2.5 }, OPTIONS_ERRORS.soundVolume],
      [{ fourColourDeck: 'yes' }, OPTIONS_ERRORS.boolean('fourColourDeck')],
      [{ theme: 'dark' }, OPTIONS_ERRORS.unknown('theme')],
      [{ cardSize: 'normal', admin: true }, OPTIONS_ERRORS.unknown('admin')],
      [[1, 2], OPTIONS_ERRORS.notObject],
    ];
    for (const [body, message] of cases) {
      const r = await put(a, body);
      expect([r.status, r.body.message]).toEqual([400, message]);
    }
    expect((await get(a)).body).toEqual(before);
  });

  it('needs a token', async () => {
    expect((await api(t.url, 'GET', PLAYER_OPTIONS_PATH)).status).toBe(401);
    expect((await api(t.url, 'PUT', PLAYER_OPTIONS_PATH, { body: { cardSize: 'large' } })).status).toBe(401);
  });
});
