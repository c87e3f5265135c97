/**
 * Issue #30 in the renderer, with a test double of the desktop bridge: the session lives in the bridge (never in
 * localStorage), first run goes to the chooser, the chooser checks before it adds, a link for another server asks
 * first, the update banner, and the web's "open in the app" link.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import type { DeepLink, DesktopBridge, SavedServer, ServerProbe, UpdateState } from '../../shared/bridge';
import { clearToken, getToken, KEYS, setToken } from '../lib/storage';
import { initDesktopServer, serverFacts } from './desktop-servers';
import { OpenInApp } from './OpenInApp';
import { ServerLinkHost } from './ServerLinkHost';
import { ServersPage } from './ServersPage';
import { UpdateBanner } from './UpdateBanner';

const home: SavedServer = {
  id: 's1',
  address: 'https://home.example',
  name: 'Home',
  icon: null,
  description: '',
  version: '1.0.0',
  signedIn: true,
  current: true,
};
const info = (name: string, protocolVersion = 1) => ({
  kind: 'spades' as const,
  name,
  icon: null,
  description: `${name} description`,
  version: '2.0.0',
  protocolVersion,
  signIn: ['password' as const, 'discord' as const, 'oidc' as const],
  providers: [
    { id: 'discord', label: 'Discord', kind: 'discord' as const },
    { id: 'corp', label: 'Company SSO', kind: 'oidc' as const },
  ],
  registration: 'open' as const,
});

function installBridge(
  opts: {
    current?: SavedServer | null;
    token?: string | null;
    list?: SavedServer[];
    probe?: (a: string) => ServerProbe;
    update?: UpdateState;
  } = {},
) {
  const deepLinks = new Set<(l: DeepLink) => void>();
  const updateListeners = new Set<(s: UpdateState) => void>();
  let token = opts.token ?? null;
  const b = {
    notify: vi.fn(async () => false),
    toggleFullScreen: vi.fn(async () => false),
    isFullScreen: vi.fn(async () => false),
    openExternal: vi.fn(async () => true),
    appInfo: vi.fn(),
    getApiBase: () => opts.current?.address ?? '',
    onDeepLink: (cb: (l: DeepLink) => void) => (deepLinks.add(cb), () => void deepLinks.delete(cb)),
    servers: {
      current: () => (opts.current === undefined ? home : opts.current),
      list: vi.fn(async () => opts.list ?? []),
      probe: vi.fn(async (a: string) =>
        opts.probe ? opts.probe(a) : ({ ok: true, address: `https://${a}`, info: info('Friday Club') } as ServerProbe),
      ),
      add: vi.fn(
        async (a: string) =>
          ({
            ok: true,
            address: `https://${a}`,
            info: info('Friday Club'),
            server: { ...home, id: 's2', name: 'Friday Club', current: false },
          }) as ServerProbe,
      ),
      switchTo: vi.fn(async () => true),
      forget: vi.fn(async () => true),
      answerLink: vi.fn(async () => null),
    },
    session: { get: () => token, set: vi.fn((t: string | null) => void (token = t)) },
    updates: {
      state: vi.fn(async () => opts.update ?? ({ status: 'idle', enabled: true } as UpdateState)),
      setEnabled: vi.fn(
        async (enabled: boolean) => ({ status: enabled ? 'idle' : 'disabled', enabled }) as UpdateState,
      ),
      restart: vi.fn(async () => true),
      onChange: (cb: (s: UpdateState) => void) => (updateListeners.add(cb), () => void updateListeners.delete(cb)),
    },
  };
  window.desktop = b as unknown as DesktopBridge;
  return {
    b,
    fire: (l: DeepLink) => act(() => deepLinks.forEach((cb) => cb(l))),
    update: (s: UpdateState) => act(() => updateListeners.forEach((cb) => cb(s))),
  };
}

afterEach(() => {
  delete window.desktop;
  window.history.replaceState(null, '', '/');
});

describe('desktop session and first run', () => {
  it('keeps the token in the bridge (main, encrypted), never in localStorage', () => {
    const { b } = installBridge({ token: 'jwt.home.token' });
    expect(getToken()).toBe('jwt.home.token');
    setToken('jwt.new.token');
    expect(b.session.set).toHaveBeenCalledWith('jwt.new.token');
    expect(getToken()).toBe('jwt.new.token');
    clearToken();
    expect(b.session.set).toHaveBeenLastCalledWith(null);
    expect(localStorage.getItem(KEYS.sessionToken)).toBeNull();
  });

  it('first run opens the chooser; an old localStorage token moves into the current server, a cached user of another server goes', () => {
    installBridge({ current: null });
    expect(initDesktopServer()).toBe(true);
    expect(window.location.pathname).toBe('/servers');

    const { b } = installBridge({ current: home, token: null });
    localStorage.setItem(KEYS.sessionToken, 'jwt.legacy.token');
    localStorage.setItem(KEYS.userData, '{"username":"someone-elsewhere"}');
    window.history.replaceState(null, '', '/');
    expect(initDesktopServer()).toBe(false);
    expect(b.session.set).toHaveBeenCalledWith('jwt.legacy.token');
    expect(localStorage.getItem(KEYS.sessionToken)).toBeNull();
    expect(localStorage.getItem(KEYS.userData)).toBeNull();
  });
});

describe('server chooser', () => {
  it('checks an address, shows what the server says, then adds it and switches to it', async () => {
    const { b } = installBridge({ current: null });
    render(
      <MemoryRouter>
        <ServersPage />
      </MemoryRouter>,
    );
    expect(await screen.findByRole('heading', { name: 'Join a Spades community' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Server address'), 'friday.example');
    await userEvent.click(screen.getByRole('button', { name: 'Check' }));
    const found = await screen.findByLabelText('Server found');
    expect(found).toHaveTextContent('Friday Club');
    expect(found).toHaveTextContent(
      'version 2.0.0 · sign in with password, Discord or Company SSO · anyone can create an account',
    );
    expect(b.servers.add).not.toHaveBeenCalled();
    await userEvent.click(screen.getByRole('button', { name: 'Add and open' }));
    await waitFor(() => expect(b.servers.switchTo).toHaveBeenCalledWith('s2'));
  });

  it('names every sign-in: the providers by label, or (a server before issue #26) the bare methods', () => {
    expect(serverFacts({ signIn: ['password'], providers: [] })).toBe('sign in with password');
    expect(serverFacts({ signIn: ['password', 'discord'] })).toBe('sign in with password or Discord');
    expect(serverFacts({ signIn: ['password', 'github', 'oidc'] })).toBe(
      'sign in with password, GitHub or single sign-on',
    );
    expect(
      serverFacts({
        signIn: ['password', 'discord', 'github', 'oidc'],
        providers: [{ label: 'Discord' }, { label: 'Google' }, { label: 'Company SSO' }, { label: 'GitHub' }],
      }),
    ).toBe('sign in with password, Discord, Google, Company SSO or GitHub');
    // read robustly: without 'password' (this server always sends it), the providers alone
    expect(serverFacts({ signIn: ['github'], providers: [{ label: 'GitHub Enterprise' }] })).toBe(
      'sign in with GitHub Enterprise',
    );
  });

  it('says why a server is refused (another protocol version) and adds nothing', async () => {
    const { b } = installBridge({
      probe: (a) => ({
        ok: false,
        address: a,
        error: 'protocol_mismatch',
        message: 'Old Club runs a newer Spades (protocol 2; this app speaks 1). Update the app to play there.',
      }),
      list: [home],
    });
    render(
      <MemoryRouter>
        <ServersPage />
      </MemoryRouter>,
    );
    expect(await screen.findByRole('heading', { name: 'Servers' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Server address'), 'old.example');
    await userEvent.click(screen.getByRole('button', { name: 'Check' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Update the app to play there.');
    expect(screen.queryByRole('button', { name: 'Add and open' })).toBeNull();
    expect(b.servers.add).not.toHaveBeenCalled();
  });

  it('forgets a server after asking; the update setting turns updates off', async () => {
    const other = { ...home, id: 's2', name: 'Away', address: 'https://away.example', current: false, signedIn: false };
    const { b } = installBridge({ list: [home, other] });
    render(
      <MemoryRouter>
        <ServersPage />
      </MemoryRouter>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Forget Away' }));
    await userEvent.click(screen.getByRole('button', { name: 'Forget' }));
    await waitFor(() => expect(b.servers.forget).toHaveBeenCalledWith('s2'));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Check for app updates automatically' }));
    await waitFor(() => expect(b.updates.setEnabled).toHaveBeenCalledWith(false));
  });
});

describe('a link for another server', () => {
  const request = {
    id: 'r1',
    server: 'https://away.example',
    known: null,
    current: home,
    target: 'invite' as const,
    gameId: 'g1',
  };

  it('names the server and its address, says it is not the current one, and declines by default', async () => {
    const { b, fire } = installBridge({
      probe: () => ({ ok: true, address: 'https://away.example', info: info('Away Club') }),
    });
    render(<ServerLinkHost />);
    fire({ kind: 'server-link', request });
    const dialog = await screen.findByRole('dialog', { name: 'This link is for another server' });
    await waitFor(() => expect(dialog).toHaveTextContent('Away Club'));
    expect(dialog).toHaveTextContent('https://away.example');
    expect(dialog).toHaveTextContent('not the server you are on now (Home, https://home.example)');
    expect(dialog).toHaveTextContent('You have not added it yet');
    expect(screen.getByRole('button', { name: 'Stay on Home' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Stay on Home' }));
    expect(b.servers.answerLink).toHaveBeenCalledWith('r1', false);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('opens it there when the player agrees', async () => {
    const { b, fire } = installBridge({
      probe: () => ({ ok: true, address: 'https://away.example', info: info('Away Club') }),
    });
    render(<ServerLinkHost />);
    fire({ kind: 'server-link', request });
    await userEvent.click(await screen.findByRole('button', { name: 'Open on Away Club' }));
    expect(b.servers.answerLink).toHaveBeenCalledWith('r1', true);
  });

  it('a server that cannot be checked says so and cannot be opened', async () => {
    const { fire } = installBridge({
      probe: () => ({
        ok: false,
        address: 'https://away.example',
        error: 'unreachable',
        message: 'Could not reach https://away.example (timeout).',
      }),
    });
    render(<ServerLinkHost />);
    fire({ kind: 'server-link', request });
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not reach https://away.example (timeout).');
    expect(screen.getByRole('button', { name: 'Open on that server' })).toBeDisabled();
  });
});

describe('updates and the web', () => {
  it('"update ready — restart"', async () => {
    const { b, update } = installBridge();
    render(<UpdateBanner />);
    expect(screen.queryByRole('status')).toBeNull();
    update({ status: 'ready', enabled: true, version: '1.3.0' });
    expect(await screen.findByRole('status')).toHaveTextContent('Spades 1.3.0 is ready');
    await userEvent.click(screen.getByRole('button', { name: 'Restart now' }));
    expect(b.updates.restart).toHaveBeenCalled();
  });

  it("says so when the current server no longer speaks this app's protocol", async () => {
    installBridge();
    vi.spyOn(globalThis, 'fetch').mockResolvedValue(
      new Response(JSON.stringify(info('Home Club', 99)), { status: 200 }),
    );
    render(<UpdateBanner />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Home Club now runs a newer Spades (protocol 99; this app speaks 1). Update the app to keep playing there.',
    );
    vi.restoreAllMocks();
  });

  it('no banner while the protocol matches', async () => {
    installBridge();
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(new Response(JSON.stringify(info('Home Club', 1)), { status: 200 }));
    render(<UpdateBanner />);
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    await act(async () => undefined);
    expect(screen.queryByRole('alert')).toBeNull();
    vi.restoreAllMocks();
  });

  it('the web offers the invitation as a desktop link naming this server; the app does not', () => {
    render(<OpenInApp gameId="g1" invite={'A'.repeat(24)} />);
    expect(screen.getByRole('link', { name: 'Open this invitation in the app' })).toHaveAttribute(
      'href',
      `spades://table/g1?server=${encodeURIComponent(window.location.origin)}&invite=${'A'.repeat(24)}`,
    );
    installBridge();
    const { container } = render(<OpenInApp gameId="g2" invite={'B'.repeat(24)} />);
    expect(container).toBeEmptyDOMElement();
  });
});
