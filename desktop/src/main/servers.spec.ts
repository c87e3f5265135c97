// The server list with Electron's safeStorage and the network injected: adding (checked through the
// server-info endpoint), validating, switching, per-server sessions (encrypted), forgetting.
import { describe, expect, it } from 'vitest';
import { PROTOCOL_VERSION } from '../../../common/src/protocol/server-info';
import type { JsonStore } from './json-store';
import { memoryLogger } from './logger';
import {
  createServerRegistry,
  parseServersFile,
  protocolMismatchMessage,
  validateServerInfo,
  type FetchJson,
  type ServersFile,
} from './servers';

const info = (name: string, extra: Record<string, unknown> = {}) => ({
  kind: 'spades',
  name,
  icon: 'https://cdn.example/icon.png',
  description: `${name} plays on Fridays`,
  version: '1.4.0',
  protocolVersion: PROTOCOL_VERSION,
  signIn: ['password', 'discord'],
  registration: 'open',
  ...extra,
});

function setup(opts: { answers?: Record<string, unknown>; encryption?: boolean; initial?: ServersFile } = {}) {
  const store: JsonStore<ServersFile> & { value?: ServersFile } = {
    value: opts.initial,
    read: () => (store.value ? parseServersFile(JSON.parse(JSON.stringify(store.value))) : undefined),
    write: (v) => ((store.value = JSON.parse(JSON.stringify(v)) as ServersFile), true),
  };
  const answers = opts.answers ?? {};
  const fetched: string[] = [];
  const fetchJson: FetchJson = async (url) => {
    fetched.push(url);
    if (!(url in answers)) throw new Error('ECONNREFUSED');
    const a = answers[url];
    return a && typeof a === 'object' && 'status' in a
      ? (a as { status: number; json: unknown })
      : { status: 200, json: a };
  };
  const safeStorage = {
    isEncryptionAvailable: () => opts.encryption ?? true,
    encryptString: (s: string) => Buffer.from(`enc:${[...s].reverse().join('')}`),
    decryptString: (b: Buffer) => {
      const t = b.toString();
      if (!t.startsWith('enc:')) throw new Error('bad ciphertext');
      return [...t.slice(4)].reverse().join('');
    },
  };
  let n = 0;
  const log = memoryLogger();
  const make = () =>
    createServerRegistry({
      store,
      safeStorage,
      fetchJson,
      newId: () => `id${++n}`,
      now: () => new Date('2026-11-27T00:00:00Z'),
      log,
    });
  return { registry: make(), make, store, fetched, log };
}

const ONE = 'https://one.example/api/server-info';
const TWO = 'http://127.0.0.1:4001/api/server-info';

describe('server registry', () => {
  it('adds a server only after its server-info says it is a Spades server speaking our protocol', async () => {
    const { registry, fetched } = setup({ answers: { [ONE]: info('One') } });
    const r = await registry.add('one.example/');
    expect(fetched).toEqual([ONE]);
    expect(r).toMatchObject({
      ok: true,
      address: 'https://one.example',
      info: { name: 'One' },
      server: { id: 'id1', name: 'One', current: false, signedIn: false },
    });
    expect(registry.list()).toHaveLength(1);
    // adding again refreshes, never duplicates
    await registry.add('https://ONE.example');
    expect(registry.list()).toHaveLength(1);
  });

  it('refuses with a clear message: bad address, unreachable, not Spades, another protocol version', async () => {
    const { registry } = setup({
      answers: {
        'https://web.example/api/server-info': { status: 404, json: { message: 'Not Found' } },
        'https://other.example/api/server-info': { kind: 'chess', name: 'x' },
        'https://new.example/api/server-info': info('Newer', { protocolVersion: PROTOCOL_VERSION + 1 }),
        'https://old.example/api/server-info': info('Older', { protocolVersion: PROTOCOL_VERSION - 1 }),
      },
    });
    await expect(registry.add('ftp://x')).resolves.toMatchObject({
      ok: false,
      error: 'invalid_address',
      message: expect.stringContaining('not a server address'),
    });
    await expect(registry.add('down.example')).resolves.toMatchObject({
      ok: false,
      error: 'unreachable',
      message: 'Could not reach https://down.example (ECONNREFUSED).',
    });
    await expect(registry.add('web.example')).resolves.toMatchObject({ ok: false, error: 'not_spades' });
    await expect(registry.add('other.example')).resolves.toMatchObject({ ok: false, error: 'not_spades' });
    await expect(registry.add('new.example')).resolves.toMatchObject({
      ok: false,
      error: 'protocol_mismatch',
      message: expect.stringContaining('Update the app'),
    });
    await expect(registry.add('old.example')).resolves.toMatchObject({
      ok: false,
      error: 'protocol_mismatch',
      message: expect.stringContaining('Ask its host'),
    });
    expect(registry.list()).toEqual([]);
  });

  it('keeps one session per server, encrypted at rest, and switches between them', async () => {
    const { registry, make, store } = setup({ answers: { [ONE]: info('One'), [TWO]: info('Two') } });
    const one = (await registry.add('one.example')) as { server: { id: string } };
    const two = (await registry.add('http://127.0.0.1:4001')) as { server: { id: string } };
    expect(registry.setSession('no.current.server')).toBe(false); // nothing current yet
    registry.switchTo(one.server.id);
    expect(registry.setSession('jwt.one.token')).toBe(true);
    registry.switchTo(two.server.id);
    expect(registry.bootState()).toMatchObject({ server: { name: 'Two', current: true }, token: null });
    registry.setSession('jwt.two.token');
    expect(JSON.stringify(store.value)).not.toMatch(/jwt\.(one|two)/);
    // a new run (app restart) decrypts from disk
    const again = make();
    expect(again.bootState()).toMatchObject({ server: { name: 'Two' }, token: 'jwt.two.token' });
    again.switchTo(one.server.id);
    expect(again.bootState().token).toBe('jwt.one.token');
    expect(again.list().map((s) => [s.name, s.signedIn, s.current])).toEqual([
      ['One', true, true],
      ['Two', true, false],
    ]);
    // signing out clears only that server's session
    again.setSession(null);
    expect(again.bootState().token).toBeNull();
    expect(again.byId(two.server.id)?.signedIn).toBe(true);
    expect(again.setSession('bad token with spaces')).toBe(false);
  });

  it('without encryption (no keyring) sessions last for the run only, never stored in the clear', async () => {
    const { registry, make, store, log } = setup({ encryption: false, answers: { [ONE]: info('One') } });
    const one = (await registry.add('one.example')) as { server: { id: string } };
    registry.switchTo(one.server.id);
    registry.setSession('jwt.plain.token');
    expect(registry.bootState().token).toBe('jwt.plain.token');
    expect(JSON.stringify(store.value)).not.toContain('jwt.plain');
    expect(make().bootState().token).toBeNull();
    expect(log.lines.join('\n')).toMatch(/cannot encrypt/);
  });

  it('forgets a server with its session; forgetting the current one leaves none current', async () => {
    const { registry } = setup({ answers: { [ONE]: info('One'), [TWO]: info('Two') } });
    const one = (await registry.add('one.example')) as { server: { id: string } };
    await registry.add('http://127.0.0.1:4001');
    registry.switchTo(one.server.id);
    registry.setSession('jwt.one.token');
    expect(registry.forget(one.server.id)).toBe(true);
    expect(registry.forget(one.server.id)).toBe(false);
    expect(registry.current()).toBeNull();
    expect(registry.list().map((s) => s.name)).toEqual(['Two']);
    expect(registry.switchTo('nope')).toBeNull();
  });

  it('seeds a server without a check (named by its host) and refreshes it later', async () => {
    const { registry } = setup({ answers: { [ONE]: info('One') } });
    const s = registry.seed('https://one.example/');
    expect(s).toMatchObject({ name: 'one.example', address: 'https://one.example' });
    expect(registry.seed('https://one.example')?.id).toBe(s!.id);
    await registry.refresh(s!.id);
    expect(registry.byId(s!.id)?.name).toBe('One');
    expect(registry.seed('nope://x')).toBeNull();
  });

  it('checks a foreign server text: control characters stripped, limits, icon only http(s)', () => {
    const v = validateServerInfo(
      info('A\u202eB\u0007', {
        icon: 'javascript:alert(1)',
        description: 'x'.repeat(600),
        signIn: ['password', 'sms'],
        registration: 'weird',
      }),
    );
    expect(v).toMatchObject({ name: 'A B', icon: null, signIn: ['password'], registration: 'open' });
    expect(v!.description).toHaveLength(500);
    expect(validateServerInfo({ ...info('x'), protocolVersion: '1' })).toBeUndefined();
    expect(validateServerInfo({ ...info(''), name: '' })).toBeUndefined();
    expect(protocolMismatchMessage('S', 3, 2)).toMatch(/newer.*protocol 3.*speaks 2/);
  });

  it("keeps a server's sign-in buttons (issue #26): well-formed entries only, labels cleaned; none from an older server", () => {
    const v = validateServerInfo(
      info('A', {
        signIn: ['password', 'discord', 'github', 'oidc', 'sms'],
        providers: [
          { id: 'discord', label: 'Discord', kind: 'discord' },
          { id: 'corp', label: 'Company\u202e SSO', kind: 'oidc' },
          { id: 'corp', label: 'Again', kind: 'oidc' },
          { id: 'github', label: 'G'.repeat(60), kind: 'github' },
          { id: 'Bad Id', label: 'x', kind: 'oidc' },
          { id: 'discord', label: 'Fake', kind: 'oidc' },
          { id: 'other', label: 'Fake Discord', kind: 'discord' },
          { id: 'sms', label: 'Text me', kind: 'sms' },
          { id: 'nolabel', label: '', kind: 'oidc' },
          'github',
        ],
      }),
    );
    expect(v!.signIn).toEqual(['password', 'discord', 'github', 'oidc']);
    expect(v!.providers).toEqual([
      { id: 'discord', label: 'Discord', kind: 'discord' },
      { id: 'corp', label: 'Company  SSO', kind: 'oidc' },
      { id: 'github', label: 'G'.repeat(40), kind: 'github' },
    ]);
    expect(validateServerInfo(info('B'))!.providers).toEqual([]);
    const many = Array.from({ length: 40 }, (_, i) => ({ id: `p${i}`, label: `P${i}`, kind: 'oidc' }));
    expect(validateServerInfo(info('C', { providers: many }))!.providers).toHaveLength(32);
  });

  it('ignores a damaged servers.json entry by entry', () => {
    const parsed = parseServersFile({
      current: 'gone',
      servers: [
        { id: 'a', address: 'https://a.example', name: 'A' },
        { id: 'b', address: 'ftp://b', name: 'B' },
        { id: 'a', address: 'https://c.example', name: 'C' },
        7,
      ],
    });
    expect(parsed).toMatchObject({ current: null, servers: [{ id: 'a', name: 'A', icon: null }] });
    expect(parseServersFile([])).toBeUndefined();
  });
});
