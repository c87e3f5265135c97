// Issue #30 in Chromium: the renderer as the desktop app runs it, with a test double of the preload bridge that
// plays the main process's part (servers list, per-server sessions, switching by reloading the page, links for
// another server answered by the player), against TWO real backends: the suite's own and a second one this test
// starts on another port. First run → add a server by address → sign in → add the second → sign in there → switch
// back with the first session kept; an invite link for the second server opens its table after confirmation.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { desktopTableLink, normalizeServerAddress, PROTOCOL_VERSION, SERVER_INFO_PATH } from '../../common/src/index';
import { parseDeepLink } from '../src/main/deep-link';
import type { DeepLink, ServerLinkRequest } from '../src/shared/bridge';
import { base, uniqueName } from './helpers';

const SHOT_DIR = process.env.SERVERS_SHOTS_DIR ?? join(__dirname, 'screenshots');

declare global {
  interface Window {
    __fireDeepLink?: (link: DeepLink) => void;
    __probeServer?: (address: string) => Promise<unknown>;
  }
}

let second: ChildProcess | undefined;
let secondBase = '';
let secondData = '';

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => res(port));
    });
  });
}

test.beforeAll(async () => {
  // The second community: the same server build, its own port, database and name (global-setup.ts starts the first).
  const port = await freePort();
  secondData = mkdtempSync(join(tmpdir(), 'spades-e2e-second-'));
  const log = openSync(join(secondData, 'server.log'), 'a');
  secondBase = `http://127.0.0.1:${port}`;
  second = spawn(process.execPath, [resolve(__dirname, '../../backend/dist/main.js')], {
    cwd: resolve(__dirname, '../..'),
    stdio: ['ignore', log, log],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: secondData,
      DATABASE_URL: '',
      CLIENT_URL: secondBase,
      // the page is served by the first server: its origin calls this one
      CORS_ORIGINS: base(),
      LOG_LEVEL: 'warn',
      REGISTER_MAX_PER_IP: '10000',
      SERVER_NAME: 'Second Community',
      SERVER_DESCRIPTION: 'Partners every Friday night. Be kind, bid honest.',
    },
  });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (second.exitCode !== null) throw new Error(`second backend exited (log: ${join(secondData, 'server.log')})`);
    const ok = await fetch(`${secondBase}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('second backend did not become healthy');
});

test.afterAll(async () => {
  second?.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  if (secondData) rmSync(secondData, { recursive: true, force: true });
});

/**
 * The bridge double. Its state (what main keeps in servers.json) lives in the page origin's localStorage under
 * `__stubMain` so it survives the reload a switch causes; `__probeServer` fetches the server-info from Node, as
 * main does (the renderer itself may only reach its current server).
 */
async function installBridge(page: Page): Promise<void> {
  await page.exposeFunction('__probeServer', async (raw: string) => {
    const address = normalizeServerAddress(raw);
    if (!address) return { ok: false, error: 'invalid_address', message: 'That is not a server address.' };
    try {
      const r = await fetch(`${address}${SERVER_INFO_PATH}`);
      const info = (await r.json()) as { kind?: string; protocolVersion?: number; name: string };
      if (info.kind !== 'spades')
        return { ok: false, address, error: 'not_spades', message: `${address} is not a Spades server.` };
      if (info.protocolVersion !== PROTOCOL_VERSION)
        return { ok: false, address, info, error: 'protocol_mismatch', message: 'Another protocol.' };
      return { ok: true, address, info };
    } catch (e) {
      return {
        ok: false,
        address,
        error: 'unreachable',
        message: `Could not reach ${address} (${(e as Error).message}).`,
      };
    }
  });
  await page.addInitScript(() => {
    type Saved = {
      id: string;
      address: string;
      name: string;
      icon: string | null;
      description: string;
      version: string;
    };
    type State = {
      servers: Saved[];
      current: string | null;
      sessions: Record<string, string>;
      pending: Record<string, { server: string; path: string }>;
    };
    const KEY = '__stubMain';
    const read = (): State =>
      JSON.parse(localStorage.getItem(KEY) ?? 'null') ?? { servers: [], current: null, sessions: {}, pending: {} };
    const write = (s: State) => localStorage.setItem(KEY, JSON.stringify(s));
    const view = (s: State, x: Saved) => ({ ...x, signedIn: Boolean(s.sessions[x.id]), current: x.id === s.current });
    const boot = read();
    const current = boot.servers.find((x) => x.id === boot.current) ?? null;
    const listeners = new Set<(l: DeepLink) => void>();
    window.__fireDeepLink = (l) => listeners.forEach((cb) => cb(l));
    const probe = (address: string) =>
      window.__probeServer!(address) as Promise<{ ok: boolean; address?: string; info?: Saved }>;
    const add = async (address: string) => {
      const p = await probe(address);
      if (!p.ok || !p.info || !p.address) return p;
      const s = read();
      let saved = s.servers.find((x) => x.address === p.address);
      if (!saved) {
        saved = {
          id: `s${s.servers.length + 1}`,
          address: p.address,
          name: p.info.name,
          icon: p.info.icon,
          description: p.info.description,
          version: p.info.version,
        };
        s.servers.push(saved);
        write(s);
      }
      return { ...p, server: view(s, saved) };
    };
    const openOn = (id: string, path: string) => {
      const s = read();
      s.current = id;
      write(s);
      window.location.assign(path);
    };
    let token: string | null = current ? (boot.sessions[current.id] ?? null) : null;
    window.desktop = {
      notify: async () => false,
      toggleFullScreen: async () => false,
      isFullScreen: async () => false,
      openExternal: async () => true,
      appInfo: async () => ({
        name: 'Spades',
        version: '0.0.0-test',
        platform: 'linux',
        electron: '0',
        chrome: '0',
        apiBase: current?.address ?? '',
        packaged: true,
      }),
      getApiBase: () => current?.address ?? '',
      onDeepLink: (cb: (l: DeepLink) => void) => {
        listeners.add(cb);
        return () => listeners.delete(cb);
      },
      servers: {
        current: () => (current ? view(boot, current) : null),
        list: async () => {
          const s = read();
          return s.servers.map((x) => view(s, x));
        },
        probe: (address: string) => probe(address) as never,
        add: (address: string) => add(address) as never,
        switchTo: async (id: string) => (openOn(id, '/'), true),
        forget: async (id: string) => {
          const s = read();
          s.servers = s.servers.filter((x) => x.id !== id);
          delete s.sessions[id];
          if (s.current === id) s.current = null;
          write(s);
          return true;
        },
        answerLink: async (requestId: string, accept: boolean) => {
          const s = read();
          const p = s.pending[requestId];
          delete s.pending[requestId];
          write(s);
          if (!p || !accept) return null;
          const r = (await add(p.server)) as { ok: boolean; server?: { id: string } };
          if (r.ok && r.server) openOn(r.server.id, p.path);
          return r as never;
        },
      },
      session: {
        get: () => token,
        set: (t: string | null) => {
          token = t;
          const s = read();
          if (!s.current) return;
          if (t) s.sessions[s.current] = t;
          else delete s.sessions[s.current];
          write(s);
        },
      },
      updates: {
        state: async () => ({ status: 'idle', enabled: true }),
        setEnabled: async (enabled: boolean) => ({ status: enabled ? 'idle' : 'disabled', enabled }),
        restart: async () => false,
        onChange: () => () => undefined,
      },
    };
  });
}

/** What main does with a `spades://` link for another server: the real parser, then a pending request. */
async function fireForeignLink(page: Page, raw: string): Promise<ServerLinkRequest> {
  const parsed = parseDeepLink(raw);
  if (!parsed.ok || parsed.link.kind !== 'table' || !parsed.link.server)
    throw new Error(`not a table link with a server: ${raw}`);
  const link = parsed.link;
  return page.evaluate(
    ({ server, path, gameId, target }) => {
      const s = JSON.parse(localStorage.getItem('__stubMain')!) as {
        servers: { id: string; address: string; name: string }[];
        current: string;
        pending: Record<string, { server: string; path: string }>;
      };
      s.pending.r1 = { server, path };
      localStorage.setItem('__stubMain', JSON.stringify(s));
      const cur = window.desktop!.servers!.current();
      const known = s.servers.find((x) => x.address === server);
      const request = {
        id: 'r1',
        server,
        known: known ? { ...cur!, ...known } : null,
        current: cur,
        target,
        gameId,
      } as ServerLinkRequest;
      window.__fireDeepLink!({ kind: 'server-link', request });
      return request;
    },
    { server: link.server!, path: link.path, gameId: link.gameId, target: link.invite ? 'invite' : 'table' },
  );
}

async function signUp(page: Page, username: string): Promise<void> {
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole('button', { name: "Don't have an account? Create account" }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email address').fill(`${username.toLowerCase()}@example.com`);
  await page.getByLabel('Password').fill('correct-horse-battery');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('heading', { name: 'Available Games' })).toBeVisible();
  await expect(page.getByText(username).first()).toBeVisible();
}

async function api<T>(server: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const r = await fetch(`${server}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await r.json().catch(() => null)) as T;
  if (!r.ok) throw new Error(`${path}: ${r.status} ${JSON.stringify(json)}`);
  return json;
}

test('first run → add a server → sign in → add a second → switch back with the session kept; a foreign invite asks first', async ({
  browser,
}) => {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await ctx.newPage();
  await installBridge(page);
  await page.addInitScript(() => localStorage.setItem('welcomeModalDismissed', 'true'));
  const first = base();

  // First run: no server yet, the chooser is the only page.
  await page.goto(`${first}/`);
  await expect(page).toHaveURL(`${first}/servers`);
  await expect(page.getByRole('heading', { name: 'Join a Spades community' })).toBeVisible();
  await page.getByLabel('Server address').fill('127.0.0.1:1'); // nothing listens there
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(page.getByRole('alert')).toContainText('Could not reach https://127.0.0.1:1');
  await page.getByLabel('Server address').fill(first);
  await page.getByRole('button', { name: 'Check' }).click();
  const found = page.getByLabel('Server found');
  await expect(found).toContainText('Spades');
  await expect(found).toContainText(first);
  await page.screenshot({ path: join(SHOT_DIR, '30-servers-first-run-1366x768.png') });
  await found.getByRole('button', { name: 'Add and open' }).click();

  // Signed out on the new server: sign up there.
  const alice = uniqueName('srvA');
  await signUp(page, alice);
  const firstToken = await page.evaluate(() => window.desktop!.session!.get());
  expect(firstToken).toBeTruthy();
  // the desktop session is kept by "main", never in localStorage
  expect(await page.evaluate(() => localStorage.getItem('sessionToken'))).toBeNull();

  // File › Servers… → add the second community by address.
  await page.evaluate(() => window.__fireDeepLink!({ kind: 'servers', path: '/servers' }));
  await expect(page.getByRole('heading', { name: 'Servers' })).toBeVisible();
  await page.getByLabel('Server address').fill(secondBase);
  await page.getByRole('button', { name: 'Check' }).click();
  await expect(found).toContainText('Second Community');
  await expect(found).toContainText('Partners every Friday night');
  await expect(found).toContainText(/version \d+\.\d+\.\d+ · sign in with password · anyone can create an account/);
  await page.screenshot({ path: join(SHOT_DIR, '31-servers-add-second-1366x768.png') });
  await found.getByRole('button', { name: 'Add and open' }).click();
  const bob = uniqueName('srvB');
  await signUp(page, bob);
  expect(await page.evaluate(() => window.desktop!.getApiBase())).toBe(secondBase);

  // Back to the first server: its session is still there (no sign-in), and it is the first account.
  await page.evaluate(() => window.__fireDeepLink!({ kind: 'servers', path: '/servers' }));
  const list = page.getByRole('list', { name: 'Your servers' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list.getByRole('listitem').filter({ hasText: 'Second Community' })).toContainText('Current');
  await page.screenshot({ path: join(SHOT_DIR, '32-servers-chooser-1366x768.png') });
  await list.getByRole('listitem').filter({ hasText: first }).getByRole('button', { name: 'Switch' }).click();
  await expect(page.getByRole('heading', { name: 'Available Games' })).toBeVisible();
  await expect(page.getByText(alice).first()).toBeVisible();
  await expect(page.getByText(bob)).toHaveCount(0);
  expect(await page.evaluate(() => window.desktop!.session!.get())).toBe(firstToken);

  // A friend on the second server invites us to a private table there: the link names its server.
  const host = uniqueName('hostB');
  const reg = await api<{ token: string }>(secondBase, '/api/auth/register', null, {
    username: host,
    email: `${host.toLowerCase()}@example.com`,
    password: 'correct-horse-battery',
  });
  const game = await api<{ id: string }>(secondBase, '/api/games', reg.token, {
    gameMode: 'PARTNERS',
    biddingOption: 'REG',
    minPoints: -200,
    maxPoints: 500,
    buyIn: 100000,
    private: true,
    specialRules: { allowNil: true, allowBlindNil: false, screamer: false, assassin: false },
  });
  const inviteLink = await api<{ token: string }>(secondBase, `/api/games/${game.id}/invite-link`, reg.token, {});
  const raw = desktopTableLink({ server: secondBase, gameId: game.id, invite: inviteLink.token });
  expect(raw).toBe(`spades://table/${game.id}?server=${encodeURIComponent(secondBase)}&invite=${inviteLink.token}`);
  const request = await fireForeignLink(page, raw);
  expect(request.known).toMatchObject({ name: 'Second Community' });

  // Asked first: the server's name and address, and that it is not the current one. Nothing happened yet.
  const dialog = page.getByRole('dialog', { name: 'This link is for another server' });
  await expect(dialog).toContainText('Second Community');
  await expect(dialog.getByTestId('server-link-address')).toHaveText(secondBase);
  await expect(dialog).toContainText('not the server you are on now');
  await expect(dialog).toContainText(`(Spades, ${first})`);
  await page.screenshot({ path: join(SHOT_DIR, '33-servers-foreign-link-1366x768.png') });
  expect(page.url()).toBe(`${first}/`);
  await dialog.getByRole('button', { name: 'Open on Second Community' }).click();

  // On the second server, seated at the host's table with the session kept there.
  await expect(page).toHaveURL(`${first}/table/${game.id}`);
  await expect(page.getByText('PRIVATE')).toBeVisible();
  expect(await page.evaluate(() => window.desktop!.getApiBase())).toBe(secondBase);
  const table = await api<{ players: ({ username?: string } | null)[] }>(
    secondBase,
    `/api/games/${game.id}`,
    reg.token,
  );
  expect(JSON.stringify(table)).toContain(bob);
  await ctx.close();
});

test('a foreign link can be declined; the web invite page offers "open in the app" with its server', async ({
  browser,
}) => {
  const ctx = await browser.newContext({ viewport: { width: 1366, height: 768 } });
  const page = await ctx.newPage();
  await installBridge(page);
  await page.goto(`${base()}/servers`);
  await page.getByLabel('Server address').fill(base());
  await page.getByRole('button', { name: 'Check' }).click();
  await page.getByLabel('Server found').getByRole('button', { name: 'Add and open' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await fireForeignLink(page, `spades://table/g1?server=${encodeURIComponent(secondBase)}`);
  const dialog = page.getByRole('dialog', { name: 'This link is for another server' });
  await expect(dialog).toContainText('You have not added it yet');
  await dialog.getByRole('button', { name: 'Stay on Spades' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => window.desktop!.getApiBase())).toBe(base());
  const servers = await page.evaluate(() => window.desktop!.servers!.list());
  expect(servers.map((s) => s.address)).toEqual([base()]);
  await ctx.close();

  // The web app (no bridge): a signed-out visitor of an invite link is offered the desktop app, on this server.
  const web = await browser.newPage();
  await web.goto(`${base()}/table/g1?invite=${'A'.repeat(24)}`);
  await expect(web).toHaveURL(/\/login$/);
  const open = web.getByRole('link', { name: 'Open this invitation in the app' });
  await expect(open).toHaveAttribute(
    'href',
    `spades://table/g1?server=${encodeURIComponent(base())}&invite=${'A'.repeat(24)}`,
  );
  await web.close();
});
