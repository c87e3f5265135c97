// Desktop sign-ins carry their server through the browser round trip (the callback link does not name it).
import { describe, expect, it } from 'vitest';
import type { DeepLink } from '../shared/bridge';
import { createDeepLinkRouter } from './deep-link';
import { memoryLogger } from './logger';
import { createLoginRounds, LOGIN_ROUND_TTL_MS, MAX_LOGIN_ROUNDS } from './login-rounds';

const TOKEN = 'abc.def.ghi-123';
const callback: DeepLink = { kind: 'auth-callback', token: TOKEN, path: `/auth/callback?token=${TOKEN}` };

function setup(current: string | null = 'https://home.example') {
  const clock = { now: 1_000_000, current };
  const log = memoryLogger();
  const rounds = createLoginRounds({ currentAddress: () => clock.current, now: () => clock.now, log });
  return { clock, rounds, log };
}

describe('login rounds: the server a desktop sign-in was started on', () => {
  it('a Discord, GitHub or OIDC sign-in (or linking) on the current server gives its callback that server', () => {
    for (const start of [
      '/api/auth/discord?client=desktop',
      '/api/auth/discord?link=t1&client=desktop',
      '/api/auth/oidc/github?client=desktop',
      '/api/auth/oidc/my-idp?link=t2&client=desktop',
    ]) {
      const { rounds } = setup();
      rounds.opened(`https://home.example${start}`);
      expect(rounds.resolve(callback)).toEqual({ ...callback, server: 'https://home.example' });
      // one callback per sign-in
      expect(rounds.resolve(callback)).toEqual(callback);
    }
  });

  it('an error callback too; a server with a path prefix; the latest sign-in wins', () => {
    const { clock, rounds } = setup('https://host.example/spades');
    rounds.opened('https://host.example/spades/api/auth/discord?client=desktop');
    clock.current = 'http://10.0.0.5:3000';
    rounds.opened('http://10.0.0.5:3000/api/auth/oidc/github?client=desktop');
    const error: DeepLink = {
      kind: 'auth-error',
      error: 'discord_denied',
      path: '/auth/callback?error=discord_denied',
    };
    expect(rounds.resolve(error)).toEqual({ ...error, server: 'http://10.0.0.5:3000' });
    expect(rounds.resolve(callback)).toMatchObject({ server: 'https://host.example/spades' });
  });

  it('other addresses are not sign-ins: other servers, other routes, web sign-ins, no server chosen', () => {
    const { clock, rounds } = setup();
    for (const url of [
      'https://discord.com/oauth2/authorize?client=desktop',
      'https://home.example.evil.example/api/auth/discord?client=desktop',
      'https://away.example/api/auth/discord?client=desktop',
      'https://home.example/api/auth/discord',
      'https://home.example/api/auth/discord?client=web',
      'https://home.example/api/auth/discord/callback?client=desktop',
      'https://home.example/api/auth/oidc/a/b?client=desktop',
      'https://home.example/help',
    ])
      rounds.opened(url);
    clock.current = null;
    rounds.opened('https://home.example/api/auth/discord?client=desktop');
    expect(rounds.resolve(callback)).toEqual(callback);
  });

  it('a callback that names its server keeps it and ends that sign-in; table links are left alone', () => {
    const { rounds, log } = setup();
    rounds.opened('https://home.example/api/auth/discord?client=desktop');
    const named = { ...callback, server: 'https://home.example' };
    expect(rounds.resolve(named)).toBe(named);
    expect(rounds.resolve(callback)).toEqual(callback);
    rounds.opened('https://home.example/api/auth/discord?client=desktop');
    const other = { ...callback, server: 'https://away.example' };
    expect(rounds.resolve(other)).toBe(other);
    expect(log.lines.at(-1)).toMatch(/^warn login callback names https:\/\/away\.example/);
    const table: DeepLink = { kind: 'table', gameId: 'g1', spectate: false, path: '/table/g1' };
    expect(rounds.resolve(table)).toBe(table);
  });

  it('forgets a sign-in after LOGIN_ROUND_TTL_MS and keeps at most MAX_LOGIN_ROUNDS', () => {
    const { clock, rounds } = setup();
    rounds.opened('https://home.example/api/auth/discord?client=desktop');
    clock.now += LOGIN_ROUND_TTL_MS + 1;
    expect(rounds.resolve(callback)).toEqual(callback);
    for (let i = 0; i < MAX_LOGIN_ROUNDS + 3; i++) {
      clock.current = `https://s${i}.example`;
      rounds.opened(`https://s${i}.example/api/auth/discord?client=desktop`);
    }
    const servers = Array.from(
      { length: MAX_LOGIN_ROUNDS + 1 },
      () => (rounds.resolve(callback) as { server?: string }).server,
    );
    expect(servers).toEqual([
      ...Array.from({ length: MAX_LOGIN_ROUNDS }, (_, i) => `https://s${MAX_LOGIN_ROUNDS + 2 - i}.example`),
      undefined,
    ]);
  });

  it('through the router: the callback of a sign-in started on another server goes to the gate', () => {
    const { clock, rounds } = setup();
    const delivered: DeepLink[] = [];
    const asked: string[] = [];
    const router = createDeepLinkRouter({
      deliver: (l) => delivered.push(l),
      focusWindow: () => undefined,
      gate: {
        hasCurrent: () => clock.current !== null,
        isForCurrent: (l) => !('server' in l) || !l.server || l.server === clock.current,
        request: (l) => {
          asked.push(l.server);
          return { kind: 'servers', path: '/servers' };
        },
      },
      logins: rounds,
      log: memoryLogger(),
    });
    router.rendererReady();
    rounds.opened('https://home.example/api/auth/discord?client=desktop');
    router.handleDeepLink(`spades://auth/callback?token=${TOKEN}`);
    expect(delivered.at(-1)).toEqual({ ...callback, server: 'https://home.example' });
    rounds.opened('https://home.example/api/auth/discord?client=desktop');
    clock.current = 'https://away.example'; // the player switched servers while the browser was open
    router.handleDeepLink(`spades://auth/callback?token=${TOKEN}`);
    expect(asked).toEqual(['https://home.example']);
  });
});
