import { describe, expect, it, vi } from 'vitest';
import type { DeepLink } from '../shared/bridge';
import {
  createDeepLinkRouter,
  findDeepLinkArg,
  MAX_DEEP_LINK_LENGTH,
  parseDeepLink,
  redactDeepLink,
} from './deep-link';
import { memoryLogger } from './logger';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.c2lnbmF0dXJlLXBhcnQ';

describe('parseDeepLink', () => {
  it('accepts the Discord login callback and maps it to the web route', () => {
    expect(parseDeepLink(`spades://auth/callback?token=${JWT}`)).toEqual({
      ok: true,
      link: { kind: 'auth-callback', token: JWT, path: `/auth/callback?token=${JWT}` },
    });
  });

  it('accepts a trailing slash and an upper-case scheme/host', () => {
    const r = parseDeepLink(`SPADES://Auth/callback/?token=${JWT}`);
    expect(r.ok && r.link.kind).toBe('auth-callback');
  });

  it('accepts table links, with optional spectate=1', () => {
    expect(parseDeepLink('spades://table/game_42-abc')).toEqual({
      ok: true,
      link: { kind: 'table', gameId: 'game_42-abc', spectate: false, path: '/table/game_42-abc' },
    });
    expect(parseDeepLink('spades://table/3f2b9c1e-8d7a-4b6c-9e0f-1a2b3c4d5e6f?spectate=1')).toEqual({
      ok: true,
      link: {
        kind: 'table',
        gameId: '3f2b9c1e-8d7a-4b6c-9e0f-1a2b3c4d5e6f',
        spectate: true,
        path: '/table/3f2b9c1e-8d7a-4b6c-9e0f-1a2b3c4d5e6f?spectate=1',
      },
    });
  });

  it('accepts an invite link (issue #12) and refuses a malformed or combined one', () => {
    const id = '3f2b9c1e-8d7a-4b6c-9e0f-1a2b3c4d5e6f';
    const token = 'KCmBYG2SwRkOoXy1LR-eUfIk';
    expect(parseDeepLink(`spades://table/${id}?invite=${token}`)).toEqual({
      ok: true,
      link: { kind: 'table', gameId: id, spectate: false, invite: token, path: `/table/${id}?invite=${token}` },
    });
    for (const bad of [
      'short',
      'a'.repeat(65),
      'bad%20token%20with%20spaces',
      `${token}&invite=${token}`,
      `${token}&spectate=1`,
      `${token}&x=1`,
    ]) {
      expect(parseDeepLink(`spades://table/${id}?invite=${bad}`).ok).toBe(false);
    }
  });

  it('accepts a failed login (the backend redirects with ?error=) and maps it to the web route', () => {
    expect(parseDeepLink('spades://auth/callback?error=discord_denied')).toEqual({
      ok: true,
      link: { kind: 'auth-error', error: 'discord_denied', path: '/auth/callback?error=discord_denied' },
    });
    expect(parseDeepLink('spades://auth/callback?error=%3Cscript%3E').ok).toBe(false);
    expect(parseDeepLink(`spades://auth/callback?error=x&token=${JWT}`).ok).toBe(false);
  });

  it('a refused login may say why (&message=, issue #25): bounded plain text, kept in the route', () => {
    expect(
      parseDeepLink('spades://auth/callback?error=banned&message=Banned%20until%2012%20May%3A%20cheating'),
    ).toEqual({
      ok: true,
      link: {
        kind: 'auth-error',
        error: 'banned',
        path: '/auth/callback?error=banned&message=Banned%20until%2012%20May%3A%20cheating',
      },
    });
    expect(parseDeepLink(`spades://auth/callback?error=banned&message=${'x'.repeat(301)}`).ok).toBe(false);
    expect(parseDeepLink('spades://auth/callback?error=banned&message=a%0Ab').ok).toBe(false);
    expect(parseDeepLink('spades://auth/callback?error=banned&message=a&message=b').ok).toBe(false);
  });

  it('a link may name its server (issue #30): normalized, one only, http(s) only', () => {
    expect(parseDeepLink('spades://table/g1?invite=AbCdEfGhIjKlMnOpQr&server=https%3A%2F%2FS.example.org%2F')).toEqual({
      ok: true,
      link: {
        kind: 'table',
        gameId: 'g1',
        spectate: false,
        invite: 'AbCdEfGhIjKlMnOpQr',
        path: '/table/g1?invite=AbCdEfGhIjKlMnOpQr',
        server: 'https://s.example.org',
      },
    });
    expect(parseDeepLink(`spades://auth/callback?token=${JWT}&server=http%3A%2F%2F127.0.0.1%3A3000`)).toMatchObject({
      ok: true,
      link: { kind: 'auth-callback', server: 'http://127.0.0.1:3000', path: `/auth/callback?token=${JWT}` },
    });
    expect(parseDeepLink('spades://table/g1?server=javascript%3Aalert(1)').ok).toBe(false);
    expect(parseDeepLink('spades://table/g1?server=').ok).toBe(false);
  });

  it('accepts spades://rules', () => {
    expect(parseDeepLink('spades://rules')).toEqual({ ok: true, link: { kind: 'rules' } });
  });

  it.each([
    ['foreign scheme', `https://auth/callback?token=${JWT}`],
    ['look-alike scheme', `spadesx://auth/callback?token=${JWT}`],
    ['javascript', 'javascript:alert(1)//spades://table/1'],
    ['file', 'file:///etc/passwd'],
    ['no token', 'spades://auth/callback'],
    ['empty token', 'spades://auth/callback?token='],
    ['short token', 'spades://auth/callback?token=abc'],
    ['two tokens', `spades://auth/callback?token=${JWT}&token=${JWT}`],
    ['extra parameter', `spades://auth/callback?token=${JWT}&redirect=https://evil.example`],
    ['token with markup', `spades://auth/callback?token=${JWT}%3Cscript%3E`],
    ['token with quote', `spades://auth/callback?token=${JWT}%22onload%3D`],
    ['raw angle bracket', 'spades://table/<script>alert(1)</script>'],
    ['space', 'spades://table/abc def'],
    ['newline (header/log injection)', 'spades://table/abc\nX-Injected: 1'],
    ['NUL byte', 'spades://table/abc\u0000'],
    ['path traversal', 'spades://table/../../etc/passwd'],
    ['encoded traversal', 'spades://table/%2e%2e%2fadmin'],
    ['encoded slash in id', 'spades://table/abc%2Fdef'],
    ['extra path segment', 'spades://table/abc/def'],
    ['missing game id', 'spades://table/'],
    ['game id too long', `spades://table/${'a'.repeat(65)}`],
    ['bad spectate value', 'spades://table/abc?spectate=true'],
    ['unknown query on table', 'spades://table/abc?next=/admin'],
    ['fragment', 'spades://table/abc#x'],
    ['credentials', 'spades://user:pw@table/abc'],
    ['port', 'spades://table:8080/abc'],
    ['unknown host', 'spades://settings/server?url=https://evil.example'],
    ['callback on another host', `spades://evil/callback?token=${JWT}`],
    ['rules with extras', 'spades://rules/x'],
    ['malformed', 'spades://'],
    ['backslash', 'spades:\\\\table\\abc'],
  ])('rejects %s', (_name, url) => {
    const r = parseDeepLink(url);
    expect(r.ok).toBe(false);
  });

  it('rejects overlong input before parsing it', () => {
    const long = `spades://auth/callback?token=${'a'.repeat(MAX_DEEP_LINK_LENGTH)}`;
    expect(parseDeepLink(long)).toEqual({ ok: false, reason: `longer than ${MAX_DEEP_LINK_LENGTH} characters` });
  });

  it.each([undefined, null, 42, {}, ['spades://rules']])('rejects non-string %j', (v) => {
    expect(parseDeepLink(v)).toEqual({ ok: false, reason: 'not a string' });
  });
});

describe('findDeepLinkArg', () => {
  it('finds the link among Chromium switches (Windows/Linux second-instance argv)', () => {
    const argv = [
      '/opt/Spades/spades',
      '--allow-file-access-from-files',
      '--original-process-start-time=1',
      'spades://table/abc',
    ];
    expect(findDeepLinkArg(argv)).toBe('spades://table/abc');
  });
  it('returns undefined without a link', () => {
    expect(findDeepLinkArg(['/opt/Spades/spades', '--flag', 'https://x.example'])).toBeUndefined();
  });
});

describe('redactDeepLink', () => {
  it('never logs the token', () => {
    expect(redactDeepLink(`spades://auth/callback?token=${JWT}&x=1`)).toBe(
      'spades://auth/callback?token=<redacted>&x=1',
    );
  });
  it('cuts overlong input', () => {
    expect(redactDeepLink('x'.repeat(5000)).length).toBeLessThan(300);
  });
});

describe('createDeepLinkRouter', () => {
  const setup = () => {
    const delivered: DeepLink[] = [];
    const focusWindow = vi.fn();
    const log = memoryLogger();
    const router = createDeepLinkRouter({ deliver: (l) => delivered.push(l), focusWindow, log });
    return { router, delivered, focusWindow, log };
  };

  it('queues links until the renderer is ready, then delivers them in order', () => {
    const { router, delivered, focusWindow } = setup();
    expect(router.handleDeepLink(`spades://auth/callback?token=${JWT}`)).toBe(true);
    expect(router.handleDeepLink('spades://table/g1')).toBe(true);
    expect(delivered).toEqual([]);
    expect(focusWindow).toHaveBeenCalledTimes(2);
    router.rendererReady();
    expect(delivered.map((l) => l.kind)).toEqual(['auth-callback', 'table']);
    router.handleDeepLink('spades://table/g2');
    expect(delivered).toHaveLength(3);
  });

  it('queues again after the renderer is gone (reload)', () => {
    const { router, delivered } = setup();
    router.rendererReady();
    router.rendererGone();
    router.handleDeepLink('spades://table/g1');
    expect(delivered).toEqual([]);
    router.rendererReady();
    expect(delivered).toHaveLength(1);
  });

  it('ignores and logs bad links without focusing or delivering, and without leaking the token', () => {
    const { router, delivered, focusWindow, log } = setup();
    router.rendererReady();
    expect(router.handleDeepLink(`spades://auth/callback?token=${JWT}&evil=1`)).toBe(false);
    expect(router.handleDeepLink('https://evil.example')).toBe(false);
    expect(delivered).toEqual([]);
    expect(focusWindow).not.toHaveBeenCalled();
    expect(log.lines).toHaveLength(2);
    expect(log.lines[0]).toMatch(/^warn ignored deep link .*token=<redacted>/);
    expect(log.lines.join('\n')).not.toContain(JWT);
  });

  it('keeps at most 10 queued links (the latest)', () => {
    const { router, delivered } = setup();
    for (let i = 0; i < 15; i++) router.handleDeepLink(`spades://table/g${i}`);
    router.rendererReady();
    expect(delivered).toHaveLength(10);
    expect(delivered[0]).toMatchObject({ gameId: 'g5' });
  });
});
