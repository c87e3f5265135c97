import { describe, expect, it } from 'vitest';
import type { JsonStore } from './json-store';
import { memoryLogger } from './logger';
import { DEFAULT_API_BASE, DEV_API_BASE, normalizeApiBase, parseSettings, resolveApiBase, type Settings } from './settings';

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

  it.each(['ftp://x.example', 'javascript:alert(1)', 'file:///x', 'https://u:p@x.example', 'https://x.example/?a=1', 'https://x.example/#f', 'nope', '', 42])(
    'rejects %s',
    (raw) => expect(normalizeApiBase(raw)).toBeUndefined(),
  );
});

describe('resolveApiBase', () => {
  it('development: SPADES_API_URL wins', () => {
    const store = memStore({ apiBase: 'https://stored.example' });
    expect(resolveApiBase({ ...base, packaged: false, env: { SPADES_API_URL: 'http://127.0.0.1:4000/' }, store })).toBe('http://127.0.0.1:4000');
  });
  it('development: falls back to the stored setting, then localhost:3000', () => {
    expect(resolveApiBase({ ...base, packaged: false, store: memStore({ apiBase: 'https://stored.example' }) })).toBe('https://stored.example');
    expect(resolveApiBase({ ...base, packaged: false, store: memStore() })).toBe(DEV_API_BASE);
  });
  it('development: an invalid SPADES_API_URL is ignored with a warning', () => {
    const log = memoryLogger();
    expect(resolveApiBase({ ...base, log, packaged: false, env: { SPADES_API_URL: 'javascript:1' }, store: memStore() })).toBe(DEV_API_BASE);
    expect(log.lines[0]).toMatch(/SPADES_API_URL/);
  });
  it('production ignores the environment and uses the stored setting, else the default', () => {
    const env = { SPADES_API_URL: 'http://127.0.0.1:4000' };
    expect(resolveApiBase({ ...base, env, packaged: true, store: memStore({ apiBase: 'https://stored.example' }) })).toBe('https://stored.example');
    expect(resolveApiBase({ ...base, env, packaged: true, store: memStore() })).toBe(DEFAULT_API_BASE);
  });
  it('production: the build-time default replaces the constant', () => {
    expect(resolveApiBase({ ...base, packaged: true, store: memStore(), defaultApiBase: 'https://community.example/' })).toBe('https://community.example');
    expect(resolveApiBase({ ...base, packaged: true, store: memStore(), defaultApiBase: '' })).toBe(DEFAULT_API_BASE);
  });
  it('production: --server=<url> is used and stored; --server=default clears it', () => {
    const store = memStore();
    expect(resolveApiBase({ ...base, argv: ['spades', '--server=https://mine.example/'], packaged: true, store })).toBe('https://mine.example');
    expect(store.value).toEqual({ apiBase: 'https://mine.example' });
    expect(resolveApiBase({ ...base, packaged: true, store })).toBe('https://mine.example');
    expect(resolveApiBase({ ...base, argv: ['spades', '--server=default'], packaged: true, store })).toBe(DEFAULT_API_BASE);
    expect(store.value).toEqual({});
  });
  it('production: an invalid --server is ignored and not stored', () => {
    const store = memStore();
    expect(resolveApiBase({ ...base, argv: ['spades', '--server=file:///x'], packaged: true, store })).toBe(DEFAULT_API_BASE);
    expect(store.writes).toBe(0);
  });
});

describe('parseSettings', () => {
  it('accepts and normalises a stored apiBase, rejects junk', () => {
    expect(parseSettings({ apiBase: 'https://x.example/' })).toEqual({ apiBase: 'https://x.example' });
    expect(parseSettings({})).toEqual({});
    expect(parseSettings({ apiBase: 'file:///x' })).toBeUndefined();
    expect(parseSettings([1])).toBeUndefined();
    expect(parseSettings(null)).toBeUndefined();
  });
});
