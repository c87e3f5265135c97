import { describe, expect, it } from 'vitest';
import { desktopTableLink, normalizeServerAddress } from './server-info';

describe('normalizeServerAddress', () => {
  it('adds https to a bare host and drops the trailing slash', () => {
    expect(normalizeServerAddress('spades.example.org')).toBe('https://spades.example.org');
    expect(normalizeServerAddress(' https://Spades.Example.org:8443/play/ ')).toBe(
      'https://spades.example.org:8443/play',
    );
    expect(normalizeServerAddress('http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
    expect(normalizeServerAddress('https://s.example.org:443/')).toBe('https://s.example.org');
    expect(normalizeServerAddress('http://[::1]:8080')).toBe('http://[::1]:8080');
  });

  it('refuses what is not an http(s) address', () => {
    for (const bad of [
      '',
      'ftp://x.org',
      'https://u:p@x.org',
      'https://x.org/?a=1',
      'https://x.org/#f',
      'javascript:alert(1)',
      42,
      'x'.repeat(600),
    ]) {
      expect(normalizeServerAddress(bad)).toBeUndefined();
    }
  });
});

describe('desktopTableLink', () => {
  it('names the server, then the invite or spectate parameter', () => {
    expect(desktopTableLink({ server: 'https://s.example.org/', gameId: 'g1', invite: 'AbCdEfGhIjKlMnOpQr' })).toBe(
      'spades://table/g1?server=https%3A%2F%2Fs.example.org&invite=AbCdEfGhIjKlMnOpQr',
    );
    expect(desktopTableLink({ server: 'http://127.0.0.1:3000', gameId: 'g2', spectate: true })).toBe(
      'spades://table/g2?server=http%3A%2F%2F127.0.0.1%3A3000&spectate=1',
    );
    expect(desktopTableLink({ server: 'https://s.example.org', gameId: 'g3' })).toBe(
      'spades://table/g3?server=https%3A%2F%2Fs.example.org',
    );
  });

  it('throws on a server that is not an address', () => {
    expect(() => desktopTableLink({ server: 'ftp://x', gameId: 'g' })).toThrow();
  });
});
