// Links that name another server: asked first (never followed silently), declined or accepted.
import { describe, expect, it, vi } from 'vitest';
import { PROTOCOL_VERSION } from '../../../common/src/protocol/server-info';
import type { DeepLink, ServerLinkRequest } from '../shared/bridge';
import { createDeepLinkRouter } from './deep-link';
import { memoryLogger } from './logger';
import { createServerLinkGate } from './server-links';
import { createServerRegistry, parseServersFile, type ServersFile } from './servers';

function setup(reachable: Record<string, string>) {
  let value: ServersFile | undefined;
  const registry = createServerRegistry({
    store: { read: () => (value ? parseServersFile(value) : undefined), write: (v) => ((value = v), true) },
    safeStorage: {
      isEncryptionAvailable: () => true,
      encryptString: (s) => Buffer.from(s),
      decryptString: (b) => b.toString(),
    },
    fetchJson: async (url) => {
      const name = reachable[url.replace('/api/server-info', '')];
      if (!name) throw new Error('unreachable');
      return {
        status: 200,
        json: {
          kind: 'spades',
          name,
          icon: null,
          description: '',
          version: '1',
          protocolVersion: PROTOCOL_VERSION,
          signIn: ['password'],
          registration: 'open',
        },
      };
    },
    newId: (() => {
      let n = 0;
      return () => `s${++n}`;
    })(),
    now: () => new Date(0),
    log: memoryLogger(),
  });
  const openOn = vi.fn((id: string) => void registry.switchTo(id));
  let r = 0;
  const gate = createServerLinkGate({ registry, newId: () => `r${++r}`, openOn, log: memoryLogger() });
  const delivered: DeepLink[] = [];
  const router = createDeepLinkRouter({
    deliver: (l) => delivered.push(l),
    focusWindow: () => {},
    gate,
    log: memoryLogger(),
  });
  router.rendererReady();
  return { registry, gate, openOn, router, delivered };
}

const requestOf = (l: DeepLink | undefined): ServerLinkRequest => {
  if (l?.kind !== 'server-link') throw new Error(`not a server-link: ${JSON.stringify(l)}`);
  return l.request;
};

describe('links that carry their server', () => {
  it('a link for the current server, or without one, opens at once', () => {
    const { registry, router, delivered } = setup({});
    registry.switchTo(registry.seed('https://home.example')!.id);
    router.handleDeepLink('spades://table/g1?server=https%3A%2F%2Fhome.example%2F&spectate=1');
    router.handleDeepLink('spades://table/g2');
    expect(delivered).toEqual([
      { kind: 'table', gameId: 'g1', spectate: true, path: '/table/g1?spectate=1', server: 'https://home.example' },
      { kind: 'table', gameId: 'g2', spectate: false, path: '/table/g2' },
    ]);
  });

  it('a link for a server not added yet asks first; declining changes nothing', async () => {
    const { registry, router, delivered, gate, openOn } = setup({ 'https://away.example': 'Away' });
    registry.switchTo(registry.seed('https://home.example')!.id);
    router.handleDeepLink('spades://table/g9?server=https://away.example&invite=AbCdEfGhIjKlMnOpQr');
    const req = requestOf(delivered[0]);
    expect(req).toMatchObject({
      server: 'https://away.example',
      known: null,
      current: { address: 'https://home.example' },
      target: 'invite',
      gameId: 'g9',
    });
    await expect(gate.answer(req.id, false)).resolves.toBeNull();
    expect(openOn).not.toHaveBeenCalled();
    expect(registry.list()).toHaveLength(1);
    // answered once only
    await expect(gate.answer(req.id, true)).resolves.toMatchObject({
      ok: false,
      message: expect.stringContaining('no longer waiting'),
    });
  });

  it('accepting checks and adds the server, then opens the link on it', async () => {
    const { registry, router, delivered, gate, openOn } = setup({ 'https://away.example': 'Away' });
    router.handleDeepLink('spades://auth/callback?token=abc.def.ghi&server=https%3A%2F%2Faway.example');
    const req = requestOf(delivered[0]);
    expect(req).toMatchObject({ target: 'login', current: null });
    await expect(gate.answer(req.id, true)).resolves.toMatchObject({ ok: true, info: { name: 'Away' } });
    expect(openOn).toHaveBeenCalledWith(expect.any(String), '/auth/callback?token=abc.def.ghi');
    expect(registry.current()).toMatchObject({ name: 'Away', address: 'https://away.example' });
  });

  it('a known server is named in the request; an unreachable one is refused with its reason', async () => {
    const { registry, router, delivered, gate } = setup({});
    registry.switchTo(registry.seed('https://home.example')!.id);
    registry.seed('https://known.example');
    router.handleDeepLink('spades://table/g1?server=https://known.example');
    const req = requestOf(delivered[0]);
    expect(req.known).toMatchObject({ address: 'https://known.example', name: 'known.example' });
    await expect(gate.answer(req.id, true)).resolves.toMatchObject({ ok: false, error: 'unreachable' });
    expect(registry.current()?.address).toBe('https://home.example');
  });

  it('before any server is chosen, a link without server= opens the chooser instead', () => {
    const { router, delivered } = setup({});
    router.handleDeepLink('spades://table/g1?invite=AbCdEfGhIjKlMnOpQr');
    router.handleDeepLink('spades://rules');
    expect(delivered).toEqual([{ kind: 'servers', path: '/servers' }, { kind: 'rules' }]);
  });

  it('malformed server parameters are refused outright', () => {
    const { router, delivered } = setup({});
    for (const bad of [
      'spades://table/g1?server=ftp%3A%2F%2Fx.example',
      'spades://table/g1?server=x.example',
      'spades://table/g1?server=https%3A%2F%2Fa.example&server=https%3A%2F%2Fb.example',
      'spades://table/g1?server=https%3A%2F%2Fu%3Ap%40a.example',
      'spades://rules?server=https%3A%2F%2Fa.example',
    ]) {
      expect(router.handleDeepLink(bad)).toBe(false);
    }
    expect(delivered).toEqual([]);
  });

  it('keeps at most a few pending requests', async () => {
    const { router, delivered, gate } = setup({});
    for (let i = 0; i < 7; i++) router.handleDeepLink(`spades://table/g${i}?server=https://x${i}.example`);
    const first = requestOf(delivered[0]);
    await expect(gate.answer(first.id, false)).resolves.toMatchObject({ ok: false });
    await expect(gate.answer(requestOf(delivered[6]).id, false)).resolves.toBeNull();
  });
});
