import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  DEFAULT_SERVER_SETTINGS,
  type AuditPage,
  type PlayerDetail,
  type ReportDetail,
  type ReportQueuePage,
  type StaffMe,
} from '@spades/common';
import { ToastProvider } from '../components/ui';
import { AdminConsole } from './AdminConsole';
import { settingsChanges } from './SettingsPage';

type Handler = (url: URL, init?: RequestInit) => { status?: number; body: unknown } | undefined;

/** fetch answered per path; every request is recorded. */
function mockApi(handler: Handler) {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://localhost');
    const r = handler(url, init) ?? { status: 404, body: { message: `no mock for ${url.pathname}` } };
    return new Response(JSON.stringify(r.body), {
      status: r.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
}

const admin: StaffMe = { id: 'a1', username: 'host', role: 'admin' };
const moderator: StaffMe = { id: 'm1', username: 'mod', role: 'moderator' };

function renderConsole(url: string) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={[url]}>
        <ToastProvider>
          <Routes>
            <Route path="/admin/*" element={<AdminConsole />} />
            <Route path="/" element={<p>lobby</p>} />
          </Routes>
        </ToastProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const dashboard = {
  at: '2026-11-27T03:00:00.000Z',
  onlineUsers: 7,
  liveTables: 3,
  playingTables: 2,
  waitingTables: 1,
  ratedTables: 1,
  lastMinute: { minutes: 1, actionsPerSecond: 4.5, ackP99Ms: 12, acks: 200 },
  last5Minutes: { minutes: 5, actionsPerSecond: 4, ackP99Ms: 14, acks: 900 },
  series: [],
  cluster: false,
  nodes: [],
  openReports: 2,
};

afterEach(() => vi.restoreAllMocks());

describe('the console shell (issue #25)', () => {
  it('tells a player the console is for staff (GET /api/admin/me answers 403)', async () => {
    mockApi((u) => (u.pathname === '/api/admin/me' ? { status: 403, body: { message: 'Forbidden' } } : undefined));
    renderConsole('/admin');
    expect(await screen.findByRole('heading', { name: 'Moderators and admins only' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Console' })).toBeNull();
  });

  it('shows a moderator the dashboard and hides the admin-only pages', async () => {
    mockApi((u) =>
      u.pathname === '/api/admin/me'
        ? { body: moderator }
        : u.pathname === '/api/admin/dashboard'
          ? { body: dashboard }
          : undefined,
    );
    renderConsole('/admin');
    const nav = await screen.findByRole('navigation', { name: 'Console' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Dashboard', 'Players', 'Tables', 'Reports', 'Tournaments']);
    expect(await screen.findByTestId('kpi-online')).toHaveTextContent('7');
    expect(screen.getByTestId('kpi-reports')).toHaveTextContent('2');
  });

  it('refuses the audit page to a moderator even by URL', async () => {
    mockApi((u) => (u.pathname === '/api/admin/me' ? { body: moderator } : undefined));
    renderConsole('/admin/audit');
    expect(await screen.findByRole('heading', { name: 'Admins only' })).toBeInTheDocument();
  });
});

describe('the audit page', () => {
  it('lists entries and filters by action through the query string', async () => {
    const page: AuditPage = {
      entries: [
        {
          id: '9',
          at: '2026-11-27T03:01:00.000Z',
          actorId: 'a1',
          actorName: 'host',
          action: 'role.grant',
          targetUserId: 'm1',
          targetName: 'mod',
          targetRef: null,
          reason: 'runs the evening tables',
          before: { role: 'user' },
          after: { role: 'moderator' },
        },
      ],
      nextBefore: null,
    };
    const f = mockApi((u) =>
      u.pathname === '/api/admin/me' ? { body: admin } : u.pathname === '/api/admin/audit' ? { body: page } : undefined,
    );
    renderConsole('/admin/audit');
    const row = await screen.findByTestId('audit-row');
    expect(row).toHaveTextContent('role.grant');
    expect(row).toHaveTextContent('runs the evening tables');
    expect(row).toHaveTextContent('{"role":"user"} → {"role":"moderator"}');
    await userEvent.setup().selectOptions(screen.getByLabelText('Action'), 'player.ban');
    await vi.waitFor(() => {
      const urls = f.mock.calls.map(([i]) => new URL(String(i), 'http://localhost'));
      expect(urls.some((u) => u.pathname === '/api/admin/audit' && u.searchParams.get('action') === 'player.ban')).toBe(
        true,
      );
    });
  });
});

describe('the player page', () => {
  it('bans for 24 hours with the reason typed', async () => {
    const player: PlayerDetail = {
      id: 'p1',
      username: 'rude',
      email: 'rude@example.com',
      role: 'user',
      createdAt: '2026-11-01T00:00:00.000Z',
      avatar: null,
      discordLinked: false,
      rating: null,
      coins: { balance: '5000000', ledger: [] },
      games: [],
      reports: [],
      sanctions: [],
      activeMute: null,
      activeBan: null,
      sessions: { online: true, sockets: 1, lastSignInAt: null, sessionsRevokedAt: null },
    };
    const f = mockApi((u, init) => {
      if (u.pathname === '/api/admin/me') return { body: moderator };
      if (u.pathname === '/api/admin/players/p1') return { body: player };
      if (u.pathname === '/api/admin/players/p1/sanctions' && init?.method === 'POST')
        return { status: 201, body: { id: 's1' } };
      return undefined;
    });
    renderConsole('/admin/players/p1');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Ban' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ban rude' });
    await user.selectOptions(within(dialog).getByLabelText('Duration'), '1440');
    await user.type(within(dialog).getByLabelText(/Reason/), 'cheating');
    await user.click(within(dialog).getByRole('button', { name: 'Ban rude' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const post = f.mock.calls.find(
      ([i, init]) => String(i).endsWith('/api/admin/players/p1/sanctions') && init?.method === 'POST',
    );
    expect(JSON.parse(String(post![1]!.body))).toEqual({ kind: 'ban', reason: 'cheating', minutes: 1440 });
    // Coins and roles are for admins: a moderator has no such buttons
    expect(screen.queryByRole('button', { name: 'Coins…' })).toBeNull();
  });
});

describe('coin corrections (admins)', () => {
  it('grants coins as a ledger transfer request with the reason', async () => {
    const player = {
      id: 'p2',
      username: 'lucky',
      email: null,
      role: 'user',
      createdAt: '2026-11-01T00:00:00.000Z',
      avatar: null,
      discordLinked: false,
      rating: null,
      coins: {
        balance: '100',
        ledger: [{ id: 'l1', at: '2026-11-01T00:00:00.000Z', amount: '-4900', reason: 'buy_in', refId: null }],
      },
      games: [],
      reports: null,
      sanctions: [],
      activeMute: null,
      activeBan: null,
      sessions: { online: false, sockets: 0, lastSignInAt: null, sessionsRevokedAt: null },
    } satisfies PlayerDetail;
    const f = mockApi((u, init) => {
      if (u.pathname === '/api/admin/me') return { body: admin };
      if (u.pathname === '/api/admin/players/p2') return { body: player };
      if (u.pathname === '/api/admin/players/p2/coins' && init?.method === 'POST')
        return { body: { transferId: 't1', balance: '2600' } };
      return undefined;
    });
    renderConsole('/admin/players/p2');
    const user = userEvent.setup();
    expect(await screen.findByRole('table', { name: 'Ledger entries' })).toHaveTextContent('−4,900');
    await user.click(screen.getByRole('button', { name: 'Coins…' }));
    const dialog = await screen.findByRole('dialog', { name: "Correct lucky's coins" });
    expect(within(dialog).getByRole('button', { name: 'Grant coins' })).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Amount (whole coins)'), '2,500');
    await user.type(within(dialog).getByLabelText(/Reason/), 'refund of a stuck table');
    await user.click(within(dialog).getByRole('button', { name: 'Grant coins' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const post = f.mock.calls.find(([i, init]) => String(i).endsWith('/coins') && init?.method === 'POST');
    expect(JSON.parse(String(post![1]!.body))).toEqual({
      direction: 'grant',
      amount: 2500,
      reason: 'refund of a stuck table',
    });
  });
});

describe('the reports queue', () => {
  it('shows a report with the captured chat lines, and filters to my reports', async () => {
    const summary = {
      id: '7',
      status: 'open' as const,
      category: 'abusive_chat' as const,
      text: 'insults',
      contextKind: 'lobby_chat' as const,
      targetId: 't1',
      targetName: 'talker',
      reporterId: 'r1',
      reporterName: 'reporter',
      assigneeId: null,
      assigneeName: null,
      createdAt: '2026-11-27T03:00:00.000Z',
      closedAt: null,
    };
    const page: ReportQueuePage = {
      reports: [summary],
      nextBefore: null,
      counts: { open: 1, assigned: 0, resolved: 0, dismissed: 0 },
    };
    const detail: ReportDetail = {
      ...summary,
      context: {
        kind: 'lobby_chat',
        messageId: 'm2',
        lines: [
          { id: 'm1', userId: 'x', username: 'other', message: 'gg', at: '2026-11-27T02:59:00.000Z', reported: false },
          {
            id: 'm2',
            userId: 't1',
            username: 'talker',
            message: 'you are hopeless',
            at: '2026-11-27T03:00:00.000Z',
            reported: true,
          },
        ],
      },
      resolution: null,
      reportsAgainstTarget: 1,
    };
    const f = mockApi((u) =>
      u.pathname === '/api/admin/me'
        ? { body: moderator }
        : u.pathname === '/api/admin/reports'
          ? { body: page }
          : u.pathname === '/api/admin/reports/7'
            ? { body: detail }
            : undefined,
    );
    renderConsole('/admin/reports');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'talker' }));
    const lines = await screen.findByRole('list', { name: 'Lobby chat around the reported line' });
    expect(
      within(lines)
        .getAllByRole('listitem')
        .map((l) => l.getAttribute('data-reported')),
    ).toEqual([null, 'true']);
    expect(screen.getByRole('radio', { name: /^Open/ })).toHaveTextContent('Open 1');
    await user.click(screen.getByRole('checkbox', { name: 'Assigned to me' }));
    await vi.waitFor(() => {
      const urls = f.mock.calls.map(([i]) => new URL(String(i), 'http://localhost'));
      expect(urls.some((u) => u.pathname === '/api/admin/reports' && u.searchParams.get('assignee') === 'm1')).toBe(
        true,
      );
    });
  });
});

describe('settingsChanges', () => {
  it('sends only what differs, lists parsed and an empty banner removing it', () => {
    const s = { ...DEFAULT_SERVER_SETTINGS, announcement: { id: 'x', text: 'Old', level: 'info' as const, at: '' } };
    const draft = {
      serverName: '',
      serverDescription: '',
      serverIcon: '',
      registration: 'invite' as const,
      startingCoins: String(s.startingCoins),
      discord: true,
      tablePresets: [...s.tablePresets],
      announcement: '  ',
      announcementLevel: 'info' as const,
      chatFilter: 'freak\n\n  idiot* ',
      autoMuteThreshold: '3',
      sitAndGo: true,
      noShowSeconds: '120',
    };
    expect(settingsChanges(s, draft)).toEqual({
      registration: 'invite',
      announcement: null,
      chatFilter: ['freak', 'idiot*'],
    });
    // issue #27: the tournaments setting travels as a whole when either part changes
    expect(settingsChanges(s, { ...draft, sitAndGo: false, noShowSeconds: '90' }).tournaments).toEqual({
      playerSitAndGo: false,
      noShowSeconds: 90,
    });
  });
});
