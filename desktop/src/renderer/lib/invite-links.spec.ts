import { describe, expect, it } from 'vitest';
import type { InviteLink } from '@spades/common';
import { inviteLinks } from './invite-links';

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
