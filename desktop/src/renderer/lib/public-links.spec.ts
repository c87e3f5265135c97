import { describe, expect, it } from 'vitest';
import type { InviteLink, ReplayShareLink } from '@spades/common';
import { inviteLinks, replayShareUrl } from './public-links';

const server = (configured: boolean): InviteLink => ({
  gameId: 'g 1',
  token: 'tok/en',
  url: 'http://localhost:3000/table/g%201?invite=tok%2Fen',
  appUrl: 'spades://table/g%201?invite=tok%2Fen',
  configured,
});

describe('invite links (issue #31 item 3)', () => {
  it('without a configured public address: built from the address the player uses, the app form names that server', () => {
    expect(inviteLinks(server(false), 'http://192.168.1.20:8080/')).toEqual({
      url: 'http://192.168.1.20:8080/table/g%201?invite=tok%2Fen',
      appUrl: `spades://table/g%201?server=${encodeURIComponent('http://192.168.1.20:8080')}&invite=tok%2Fen`,
    });
  });

  it('with CLIENT_URL set: the configured address wins', () => {
    const l = { ...server(true), url: 'https://spades.example.org/table/g%201?invite=tok%2Fen' };
    expect(inviteLinks(l, 'http://10.0.0.5:3000')).toEqual({
      url: 'https://spades.example.org/table/g%201?invite=tok%2Fen',
      appUrl: `spades://table/g%201?server=${encodeURIComponent('https://spades.example.org')}&invite=tok%2Fen`,
    });
  });

  it('an older server (no flag) is treated as not configured; no address known: the server form', () => {
    const { configured: _c, ...old } = server(false);
    expect(inviteLinks(old, 'https://play.example.net').url).toBe(
      'https://play.example.net/table/g%201?invite=tok%2Fen',
    );
    expect(inviteLinks(server(false), '').url).toBe('http://localhost:3000/table/g%201?invite=tok%2Fen');
  });
});

describe('replay share links (issue #31: like invite links)', () => {
  const share = (configured: boolean | undefined, url = 'http://spades.default.invalid'): ReplayShareLink => ({
    id: '11111111-1111-4111-8111-111111111111',
    gameId: 'g1',
    gameNumber: 2,
    createdAt: '2026-11-26T21:00:00.000Z',
    token: 't.s',
    path: '/replay/g1?game=2&share=t.s',
    url: `${url}/replay/g1?game=2&share=t.s`,
    configured,
  });

  it('without a configured public address: the address the player uses (web origin or desktop server)', () => {
    expect(replayShareUrl(share(false), 'http://192.168.1.20:8080/')).toBe(
      'http://192.168.1.20:8080/replay/g1?game=2&share=t.s',
    );
  });

  it('with CLIENT_URL set: the server-built link as is', () => {
    expect(replayShareUrl(share(true, 'https://spades.example.org/play'), 'http://10.0.0.5:3000')).toBe(
      'https://spades.example.org/play/replay/g1?game=2&share=t.s',
    );
  });

  it('an older server (no path, no flag): the route of its url after the address in use; none known: its url', () => {
    const { path: _p, configured: _c, ...old } = share(undefined);
    expect(replayShareUrl(old, 'https://play.example.net')).toBe('https://play.example.net/replay/g1?game=2&share=t.s');
    expect(replayShareUrl(share(false), '')).toBe('http://spades.default.invalid/replay/g1?game=2&share=t.s');
  });

  it('by default: the page origin on the web', () => {
    expect(replayShareUrl(share(false))).toBe(`${window.location.origin}/replay/g1?game=2&share=t.s`);
  });
});
