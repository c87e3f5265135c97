import { describe, expect, it } from 'vitest';
import type { JsonStore } from './json-store';
import { memoryLogger } from './logger';
import { DEV_API_BASE, normalizeApiBase, parseSettings, startupServer, type Settings } from './settings';

function memStore(initial?: Settings): JsonStore<Settings> & { value?: Settings; writes: number } {
  const s = {
    value: initial,
    writes: 0,
    read: () => s.value,
    write: (v: Settings) => {
      s.value = v;
      s.writes++;
      return true;
    },
  };
  return s;
}

const base = { env: {}, argv: ['spades'], log: memoryLogger() };

describe('normalizeApiBase', () => {
  it.each([
    ['https://play.example.org', 'https://play.example.org'],
    ['https://play.example.org/', 'https://play.example.org'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['https://host.example/spades/', 'https://host.example/spades'],
    ['  https://a.example  ', 'https://a.example'],
  ])('%s → %s', (raw, expected) => expect(normalizeApiBase(raw)).toBe(expected));

  it.each([
    'ftp://x.example',
    'javascript:alert(1)',
    'file:///x',
    'https://u:p@x.example',
    'https://x.example/?a=1',
    'https://x.example/#f',
    'nope',
    '',
    42,
  ])('rejects %s', (raw) => expect(normalizeApiBase(raw)).toBeUndefined());
});

describe('startupServer', () => {
  it('development: SPADES_API_URL is selected', () => {
    const store = memStore({ apiBase: 'https://stored.example' });
    expect(
      startupServer({ ...base, packaged: false, env: { SPADES_API_URL: 'http://127.0.0.1:4000/' }, store }),
    ).toEqual({
      address: 'http://127.0.0.1:4000',
      select: true,
    });
  });
  it('development: falls back to the legacy stored setting, then localhost:3000 (added, not forced)', () => {
    expect(startupServer({ ...base, packaged: false, store: memStore({ apiBase: 'https://stored.example' }) })).toEqual(
      {
        address: 'https://stored.example',
        select: false,
      },
    );
    expect(startupServer({ ...base, packaged: false, store: memStore() })).toEqual({
      address: DEV_API_BASE,
      select: false,
    });
  });
  it('development: an invalid SPADES_API_URL is ignored with a warning', () => {
    const log = memoryLogger();
    expect(
      startupServer({ ...base, log, packaged: false, env: { SPADES_API_URL: 'javascript:1' }, store: memStore() })
        ?.address,
    ).toBe(DEV_API_BASE);
    expect(log.lines[0]).toMatch(/SPADES_API_URL/);
  });
  it('production: no server anywhere → undefined (the first run shows the chooser); the environment is ignored', () => {
    expect(
      startupServer({ ...base, env: { SPADES_API_URL: 'http://127.0.0.1:4000' }, packaged: true, store: memStore() }),
    ).toBeUndefined();
    expect(startupServer({ ...base, packaged: true, store: memStore(), defaultApiBase: '' })).toBeUndefined();
  });
  it('production: a legacy stored apiBase moves into the server list once', () => {
    const store = memStore({ apiBase: 'https://stored.example', autoUpdate: false });
    expect(startupServer({ ...base, packaged: true, store })).toEqual({
      address: 'https://stored.example',
      select: false,
    });
    expect(store.value).toEqual({ autoUpdate: false });
    expect(startupServer({ ...base, packaged: true, store })).toBeUndefined();
  });
  it("production: a community build's default server is offered", () => {
    expect(
      startupServer({ ...base, packaged: true, store: memStore(), defaultApiBase: 'https://community.example/' }),
    ).toEqual({
      address: 'https://community.example',
      select: false,
    });
  });
  it('production: --server=<url> is selected; --server=default selects the build default; invalid ones are ignored', () => {
    const store = memStore();
    expect(
      startupServer({ ...base, argv: ['spades', '--server=https://mine.example/'], packaged: true, store }),
    ).toEqual({
      address: 'https://mine.example',
      select: true,
    });
    expect(
      startupServer({
        ...base,
        argv: ['spades', '--server=default'],
        packaged: true,
        store,
        defaultApiBase: 'https://community.example',
      }),
    ).toEqual({ address: 'https://community.example', select: true });
    const log = memoryLogger();
    expect(
      startupServer({ ...base, log, argv: ['spades', '--server=file:///x'], packaged: true, store }),
    ).toBeUndefined();
    expect(log.lines[0]).toMatch(/--server=/);
    expect(store.writes).toBe(0);
  });
});

describe('parseSettings', () => {
  it('accepts and normalises a stored apiBase, rejects junk', () => {
    expect(parseSettings({ apiBase: 'https://x.example/' })).toEqual({ apiBase: 'https://x.example' });
    expect(parseSettings({})).toEqual({});
    expect(parseSettings({ autoUpdate: false })).toEqual({ autoUpdate: false });
    expect(parseSettings({ autoUpdate: 'no' })).toBeUndefined();
    expect(parseSettings({ apiBase: 'file:///x' })).toBeUndefined();
    expect(parseSettings([1])).toBeUndefined();
    expect(parseSettings(null)).toBeUndefined();
  });
});
