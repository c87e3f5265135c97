/**
 * Issue #27: the tournament components against a fake socket and a mocked fetch (engine-built views): the page (my
 * match, Take your seat, Watch, live update to the standings), the lobby tab (register with a partner, create a
 * sit-and-go), the app-wide match-ready card, the console's scheduled-tournament form.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  summaryFor,
  summaryOf,
  TABLE_PRESETS,
  tournamentView,
  type PublicServerSettings,
  type TournamentState,
} from '@spades/common';
import {
  driveToEnd,
  everyoneWinsInSeatOrder,
  newTournament,
  startedWith,
  step,
  testConfig,
  testPlayer,
} from '../../../../common/src/tournament/testkit';
import { SessionContextForTests, type SessionValue } from '../session/session';
import { SocketContextForTests, type SocketValue } from '../socket/socket';
import { ToastProvider } from '../components/ui';
import { resetPublicSettingsForTests } from '../lib/server-settings';
import { TournamentBody } from './TournamentPage';
import { SIT_AND_GO_OFF, TournamentsTab } from './TournamentsTab';
import { MatchReadyHost } from './MatchReady';
import { invalidateTournamentLists, mergeBroadcast, useTournament, withTableScores } from './tournament-api';
import { TournamentsPage as ConsoleTournamentsPage, draftToInput, parseSplit } from '../admin/TournamentsPage';

type Listener = (payload: unknown) => void;
class FakeSocket {
  listeners = new Map<string, Set<Listener>>();
  emitted: { event: string; payload: unknown }[] = [];
  on(ev: string, fn: Listener) {
    if (!this.listeners.has(ev)) this.listeners.set(ev, new Set());
    this.listeners.get(ev)!.add(fn);
    return this;
  }
  off(ev: string, fn: Listener) {
    this.listeners.get(ev)?.delete(fn);
    return this;
  }
  emit(event: string, payload: unknown, ack?: (r: unknown) => void) {
    this.emitted.push({ event, payload });
    ack?.({ ok: true });
    return this;
  }
  serve(ev: string, payload: unknown) {
    act(() => {
      for (const fn of [...(this.listeners.get(ev) ?? [])]) fn(payload);
    });
  }
}

type Handler = (url: URL, init: RequestInit | undefined) => unknown;
interface Call {
  method: string;
  path: string;
  body: unknown;
}

function setup(ui: React.ReactNode, route: string, handler: Handler, me = 'u1') {
  const calls: Call[] = [];
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(String(input), 'http://x');
    calls.push({
      method: init?.method ?? 'GET',
      path: url.pathname + url.search,
      body: init?.body ? JSON.parse(String(init.body)) : undefined,
    });
    const body = handler(url, init) ?? {};
    // an error body { status, message }: that HTTP status (a number) or 400
    const error = typeof body === 'object' && body !== null && 'status' in body && 'message' in body;
    const status = error ? (typeof body.status === 'number' ? body.status : 400) : 200;
    return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  });
  const socket = new FakeSocket();
  const session = {
    status: 'authenticated',
    user: { id: me, username: 'User1', email: 'u1@x.test', avatar: null, coins: 1_000_000 },
    token: 't',
    refreshProfile: async () => undefined,
  } as unknown as SessionValue;
  const sock = {
    socket,
    connecting: false,
    connected: true,
    authenticated: true,
    ready: true,
    error: null,
    onlineIds: new Set(),
    lobbyMessages: [],
    emit: () => true,
    clearError: () => undefined,
  } as unknown as SocketValue;
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const tree = (value: SocketValue) => (
    <QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={[route]}>
        <ToastProvider>
          <SessionContextForTests.Provider value={session}>
            <SocketContextForTests.Provider value={value}>{ui}</SocketContextForTests.Provider>
          </SessionContextForTests.Provider>
        </ToastProvider>
      </MemoryRouter>
    </QueryClientProvider>
  );
  const r = render(tree(sock));
  /** The socket drops and comes back (ready false, then true again). */
  const reconnect = () => {
    r.rerender(tree({ ...sock, connected: false, authenticated: false, ready: false }));
    r.rerender(tree({ ...sock }));
  };
  return { socket, calls, reconnect, user: userEvent.setup() };
}

/** GET /api/settings/public of a server with player sit-and-gos on or off. */
function publicSettings(playerSitAndGo: boolean): PublicServerSettings {
  return {
    serverName: 'Owls',
    serverDescription: '',
    serverIcon: null,
    registration: 'open',
    startingCoins: 5_000_000,
    signIns: { discord: false },
    tablePresets: [...TABLE_PRESETS],
    announcement: null,
    tournaments: { playerSitAndGo },
  };
}

function Where() {
  const l = useLocation();
  return <p data-testid="where">{l.pathname + l.search}</p>;
}

/** The page's content without the lobby shell (header, stats), over the real data hook. */
function PageBody() {
  const q = useTournament('t1');
  return q.data ? <TournamentBody v={q.data} viewerId="u1" /> : <p>loading</p>;
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  delete window.desktop;
  resetPublicSettingsForTests();
});

describe('tournament page', () => {
  it('shows my match with Take your seat and the deadline, Watch links, then the standings from a live update', async () => {
    let s: TournamentState = startedWith(testConfig('PARTNERS', 8), 8);
    const mine = s.rounds[0].matches.find((m) =>
      m.entrantIds.some((id) => id === s.entrants.find((e) => e.players.some((p) => p.userId === 'u1'))!.id),
    )!;
    const deadline = Date.now() + 90_000;
    s = step(s, { type: 'match_opened', at: 200, matchId: mine.id, gameId: 'g-mine', seatDeadline: deadline });
    const { socket } = setup(
      <Routes>
        <Route path="/tournaments/:id" element={<PageBody />} />
      </Routes>,
      '/tournaments/t1',
      (url) => (url.pathname === '/api/tournaments/t1' ? tournamentView(s, 'Admin', 'u1') : {}),
    );
    const panel = await screen.findByTestId('next-match');
    expect(panel).toHaveTextContent('Your match · Semi-finals');
    expect(within(panel).getByRole('link', { name: 'Take your seat' })).toHaveAttribute('href', '/table/g-mine?join=1');
    expect(within(panel).getByLabelText('Seat deadline')).toHaveTextContent(/^1:(29|30)$/);
    const label = `Watch Table ${Number(mine.id.slice(-1)) + 1}`;
    expect(screen.getByRole('link', { name: label })).toHaveAttribute('href', '/table/g-mine?spectate=1');
    expect(screen.getAllByTestId('bracket-col')).toHaveLength(2);
    expect(socket.emitted).toContainEqual({ event: 'watch_tournament', payload: { tournamentId: 't1' } });

    // the server finishes it: the watchers get the broadcast view (no `me`)
    s = driveToEnd(startedWith(testConfig('PARTNERS', 8), 8), everyoneWinsInSeatOrder);
    socket.serve('tournament_updated', tournamentView(s, 'Admin', null));
    const standings = await screen.findByTestId('standings');
    expect(within(standings).getAllByRole('row')).toHaveLength(1 + 4);
    expect(screen.queryByTestId('next-match')).toBeNull();
    expect(screen.getAllByTestId('bracket-match').every((m) => m.getAttribute('data-status') === 'DONE')).toBe(true);
    // played tables link their replays (the table itself is gone)
    const replays = screen.getAllByRole('link', { name: /^Replay Table/ });
    expect(replays).toHaveLength(3);
    expect(replays.map((a) => a.getAttribute('href'))).toContain('/replay/g-r2m0');
    expect(screen.queryByRole('link', { name: /^Watch Table/ })).toBeNull();
  });

  it("shows each table's score live from tournament_scores, kept through a broadcast update", async () => {
    let s: TournamentState = startedWith(testConfig('PARTNERS', 8), 8);
    const [m0, m1] = s.rounds[0].matches;
    for (const [m, g] of [
      [m0, 'g-a'],
      [m1, 'g-b'],
    ] as const) {
      s = step(s, { type: 'match_opened', at: 200, matchId: m.id, gameId: g, seatDeadline: Date.now() + 90_000 });
      s = step(s, { type: 'match_started', at: 300, matchId: m.id });
    }
    // the server's GET answers the live scores it knows (here: none until the first hand ended)
    let live: Record<string, Record<string, number>> = {};
    const { socket } = setup(
      <Routes>
        <Route path="/tournaments/:id" element={<PageBody />} />
      </Routes>,
      '/tournaments/t1',
      (url) => (url.pathname === '/api/tournaments/t1' ? tournamentView(s, 'Admin', 'u1', live) : {}),
    );
    const box = async (i: number) => (await screen.findAllByTestId('bracket-match'))[i];
    const scores = async (i: number) =>
      within(await box(i))
        .getAllByTestId('bracket-row')
        .map((r) => r.querySelector('.bracket-score')!.textContent);
    expect(await scores(0)).toEqual(['', '']);
    socket.serve('tournament_scores', {
      tournamentId: 't1',
      matchId: m0.id,
      gameId: 'g-a',
      handNumber: 3,
      scoresBySeat: [142, -37, 142, -37],
    });
    // rows are the match's entrants in seat order
    await waitFor(async () => expect(await scores(0)).toEqual(['142', '-37']));
    live = { [m0.id]: { [m0.entrantIds[0]]: 142, [m0.entrantIds[1]]: -37 } };
    expect(await scores(1)).toEqual(['', '']);
    // another tournament's table, or a table that is not this match's: ignored
    socket.serve('tournament_scores', {
      tournamentId: 't2',
      matchId: m1.id,
      gameId: 'g-b',
      handNumber: 1,
      scoresBySeat: [9, 9, 9, 9],
    });
    socket.serve('tournament_scores', {
      tournamentId: 't1',
      matchId: m1.id,
      gameId: 'g-x',
      handNumber: 1,
      scoresBySeat: [9, 9, 9, 9],
    });
    expect(await scores(1)).toEqual(['', '']);
    // the other table finishes: the broadcast has no live scores, the one shown stays
    s = step(s, {
      type: 'match_played',
      at: 400,
      matchId: m1.id,
      places: { [m1.entrantIds[0]]: 1, [m1.entrantIds[1]]: 2 },
      scores: { [m1.entrantIds[0]]: 250, [m1.entrantIds[1]]: 80 },
    });
    socket.serve('tournament_updated', tournamentView(s, 'Admin', null));
    await waitFor(async () => expect((await box(1)).getAttribute('data-status')).toBe('DONE'));
    expect(await scores(1)).toEqual(['250', '80']);
    expect(await scores(0)).toEqual(['142', '-37']);
  });

  it('a broadcast view keeps the live scores of the matches still played; a table score lands on its match only', () => {
    let s: TournamentState = startedWith(testConfig('SOLO', 8), 8);
    const [m0, m1] = s.rounds[0].matches;
    s = step(s, { type: 'match_opened', at: 1, matchId: m0.id, gameId: 'g-a', seatDeadline: 9e12 });
    s = step(s, { type: 'match_started', at: 2, matchId: m0.id });
    const shown = withTableScores(tournamentView(s, 'Admin', 'u1'), {
      tournamentId: 't1',
      matchId: m0.id,
      gameId: 'g-a',
      handNumber: 2,
      scoresBySeat: [50, 20, -10, 0],
    });
    const four = Object.fromEntries(m0.entrantIds.map((e, i) => [e, [50, 20, -10, 0][i]]));
    expect(shown.rounds[0].matches[0].scores).toEqual(four);
    expect(shown.rounds[0].matches[1].scores).toBeNull();
    // m1 is not playing: a score for it changes nothing
    const same = withTableScores(shown, {
      tournamentId: 't1',
      matchId: m1.id,
      gameId: 'g-b',
      handNumber: 1,
      scoresBySeat: [1, 2, 3, 4],
    });
    expect(same).toBe(shown);
    const merged = mergeBroadcast(tournamentView(s, 'Admin', null), shown);
    expect(merged.rounds[0].matches[0].scores).toEqual(four);
    expect(merged.me).toEqual(shown.me);
  });

  it('a SOLO table lists places and who advances', async () => {
    const s = driveToEnd(startedWith(testConfig('SOLO', 8), 8), everyoneWinsInSeatOrder);
    setup(
      <Routes>
        <Route path="/tournaments/:id" element={<PageBody />} />
      </Routes>,
      '/tournaments/t1',
      (url) => (url.pathname === '/api/tournaments/t1' ? tournamentView(s, 'Admin', 'u1') : {}),
    );
    const cols = await screen.findAllByTestId('bracket-col');
    expect(cols.map((c) => c.getAttribute('aria-label'))).toEqual(['Round 1', 'Final table']);
    const table1 = within(cols[0]).getAllByTestId('bracket-match')[0];
    const rows = within(table1).getAllByTestId('bracket-row');
    expect(rows.map((r) => r.textContent?.slice(0, 3))).toEqual(['1st', '2nd', '3rd', '4th']);
    expect(within(table1).getAllByLabelText('advances')).toHaveLength(2);
  });

  it('a match decided by staff closing its table says "Closed by staff" and has no replay', async () => {
    let s: TournamentState = startedWith(testConfig('PARTNERS', 8), 8);
    const [first, second] = s.rounds[0].matches;
    for (const [m, g] of [
      [first, 'g-closed'],
      [second, 'g-played'],
    ] as const)
      s = step(s, { type: 'match_opened', at: 100, matchId: m.id, gameId: g, seatDeadline: 120_100 });
    s = step(s, { type: 'match_closed', at: 200, matchId: first.id, scores: { [first.entrantIds[0]]: 150 } });
    setup(
      <Routes>
        <Route path="/tournaments/:id" element={<PageBody />} />
      </Routes>,
      '/tournaments/t1',
      (url) => (url.pathname === '/api/tournaments/t1' ? tournamentView(s, 'Admin', 'u1') : {}),
    );
    const [closedBox, otherBox] = within((await screen.findAllByTestId('bracket-col'))[0]).getAllByTestId(
      'bracket-match',
    );
    expect(within(closedBox).getByTestId('bracket-closed')).toHaveTextContent('Closed by staff');
    expect(closedBox).toHaveAttribute('aria-label', 'Table 1: Done, closed by staff');
    expect(within(closedBox).queryByRole('link', { name: /Replay/ })).toBeNull();
    expect(within(otherBox).queryByTestId('bracket-closed')).toBeNull();
    expect(screen.getAllByTestId('bracket-closed')).toHaveLength(1);
  });
});

describe('lobby Tournaments tab', () => {
  it('lists open tournaments; Register with a friend as partner posts the partner; Unregister appears', async () => {
    let s = newTournament(testConfig('PARTNERS', 8, { buyIn: 100_000 }));
    s = step(s, { type: 'registered', at: 1, players: [testPlayer(5)] });
    const { calls, user } = setup(<TournamentsTab />, '/', (url, init) => {
      // the list row says whether the caller is registered (`me`), as the server's does
      if (url.pathname === '/api/tournaments' && url.searchParams.get('status') === 'open')
        return [summaryFor(s, 'Admin', 'u1')];
      if (url.pathname === '/api/users')
        return [{ id: 'u2', username: 'Pal', status: 'friend', online: true, coins: 100, avatar: null }];
      if (url.pathname === '/api/tournaments/t1/register' && init?.method === 'POST') {
        s = step(s, { type: 'registered', at: 2, players: [testPlayer(1), testPlayer(2)] });
        return tournamentView(s, 'Admin', 'u1');
      }
      if (url.pathname === '/api/tournaments/t1') return tournamentView(s, 'Admin', 'u1');
      return {};
    });
    const card = await screen.findByTestId('tournament-card');
    expect(card).toHaveTextContent('PARTNERS · 8 players');
    expect(card).toHaveTextContent('1/8');
    expect(card).toHaveTextContent('1st 65% · 2nd 35%');
    await user.click(within(card).getByRole('button', { name: 'Register' }));
    const dialog = await screen.findByRole('dialog', { name: 'Register for Test cup' });
    await user.selectOptions(within(dialog).getByLabelText('Partner'), 'u2');
    await user.click(within(dialog).getByRole('button', { name: /^Register/ }));
    await waitFor(() =>
      expect(calls).toContainEqual({ method: 'POST', path: '/api/tournaments/t1/register', body: { partnerId: 'u2' } }),
    );
    expect(await within(card).findByRole('button', { name: 'Unregister' })).toBeInTheDocument();
    // the tab reads registration from the list rows: no view per tournament
    expect(calls.filter((c) => c.method === 'GET' && c.path.startsWith('/api/tournaments/'))).toEqual([]);
  });

  it("shows Unregister from the list row's `me` alone, and Register where the row says not registered", async () => {
    let mineT = newTournament(testConfig('SOLO', 8));
    mineT = step(mineT, { type: 'registered', at: 1, players: [testPlayer(1)] });
    const other = { ...summaryFor(newTournament(testConfig('SOLO', 8), 't2'), 'Admin', 'u1'), name: 'Other cup' };
    const { calls } = setup(<TournamentsTab />, '/', (url) =>
      url.pathname === '/api/tournaments' ? [summaryFor(mineT, 'Admin', 'u1'), other] : [],
    );
    const cards = await screen.findAllByTestId('tournament-card');
    expect(cards).toHaveLength(2);
    expect(within(cards[0]).getByRole('button', { name: 'Unregister' })).toBeInTheDocument();
    expect(within(cards[0]).queryByRole('button', { name: 'Register' })).toBeNull();
    expect(within(cards[1]).getByRole('button', { name: 'Register' })).toBeInTheDocument();
    expect(within(cards[1]).queryByRole('button', { name: 'Unregister' })).toBeNull();
    expect(calls.filter((c) => c.path.startsWith('/api/tournaments/'))).toEqual([]);
  });

  it('re-reads the list on tournaments_changed and after a reconnect, no polling in between', async () => {
    let s = newTournament(testConfig('SOLO', 8));
    s = step(s, { type: 'registered', at: 1, players: [testPlayer(5)] });
    const { socket, calls, reconnect } = setup(<TournamentsTab />, '/', (url) =>
      url.pathname === '/api/tournaments' && url.searchParams.get('status') === 'open'
        ? s.status === 'REGISTERING'
          ? [summaryFor(s, 'Admin', 'u1')]
          : []
        : [],
    );
    const listReads = () => calls.filter((c) => c.path === '/api/tournaments?status=open').length;
    const card = await screen.findByTestId('tournament-card');
    expect(card).toHaveTextContent('1/8');
    expect(listReads()).toBe(1);

    // another player registers: the server tells the lobby, the shown list is read again
    s = step(s, { type: 'registered', at: 2, players: [testPlayer(6)] });
    socket.serve('tournaments_changed', { tournaments: [{ id: 't1', status: 'REGISTERING' }] });
    await waitFor(() => expect(screen.getByTestId('tournament-card')).toHaveTextContent('2/8'));
    expect(listReads()).toBe(2);

    // a change to a tournament of another list (not shown, not in this one): the open list is not read
    socket.serve('tournaments_changed', { tournaments: [{ id: 't9', status: 'FINISHED' }] });
    await new Promise((r) => setTimeout(r, 50));
    expect(listReads()).toBe(2);

    // it filled and started: the row leaves the open list (the list that had it is read again)
    s = startedWith(testConfig('SOLO', 8), 8);
    socket.serve('tournaments_changed', { tournaments: [{ id: 't1', status: 'RUNNING' }] });
    await waitFor(() => expect(screen.queryByTestId('tournament-card')).toBeNull());
    expect(listReads()).toBe(3);

    // the socket was away: what changed meanwhile came to nobody, the list is read once
    reconnect();
    await waitFor(() => expect(listReads()).toBe(4));
    expect(socket.listeners.get('tournaments_changed')?.size).toBe(1);
  });

  it('invalidates the list of the new status and any cached list holding the tournament', () => {
    const qc = new QueryClient();
    const row = summaryOf(newTournament(testConfig('SOLO', 8), 't1'), 'Admin');
    qc.setQueryData(['tournaments', 'open'], [row]);
    qc.setQueryData(['tournaments', 'finished'], []);
    expect(invalidateTournamentLists(qc, { tournaments: [{ id: 't1', status: 'RUNNING' }] }).sort()).toEqual([
      'open',
      'running',
    ]);
    expect(invalidateTournamentLists(qc, { tournaments: [{ id: 't2', status: 'CANCELLED' }] })).toEqual(['finished']);
  });

  it('creates a sit-and-go (default split shown) and opens its page', async () => {
    const { calls, user } = setup(
      <>
        <TournamentsTab />
        <Where />
      </>,
      '/',
      (url, init) => {
        if (url.pathname === '/api/tournaments' && init?.method === 'POST')
          return tournamentView(newTournament(testConfig('SOLO', 16), 'new1'), 'User1', 'u1');
        if (url.pathname === '/api/tournaments') return [];
        if (url.pathname === '/api/users') return [];
        return {};
      },
    );
    expect(await screen.findByText('No open tournaments')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create sit-and-go' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create sit-and-go' });
    await user.type(within(dialog).getByLabelText('Name'), 'Night cup');
    await user.click(within(dialog).getByRole('radio', { name: 'Solo' }));
    await user.click(within(dialog).getByRole('radio', { name: '16' }));
    expect(within(dialog).getByLabelText('Prizes')).toHaveTextContent('1st 50% · 2nd 30% · 3rd 20%');
    expect(within(dialog).getByLabelText('Prizes')).toHaveTextContent('1,440,000'); // 16 × 100,000 × 0.9
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/tournaments/new1'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      name: 'Night cup',
      mode: 'SOLO',
      size: 16,
      buyIn: 100_000,
      kind: 'sit_and_go',
    });
  });

  it('hides Create sit-and-go and says why when the host switched it off (public settings)', async () => {
    resetPublicSettingsForTests(publicSettings(false));
    setup(<TournamentsTab />, '/', (url) => (url.pathname === '/api/tournaments' ? [] : {}));
    expect(await screen.findByText('No open tournaments')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create sit-and-go' })).toBeNull();
    expect(screen.getByTestId('sit-and-go-off')).toHaveTextContent(SIT_AND_GO_OFF);
    expect(screen.getByText('Tournaments the staff schedule show here.')).toBeInTheDocument();
  });

  it('offers Create sit-and-go when on; a 403 (switched off since) shows the refusal and re-reads the settings', async () => {
    resetPublicSettingsForTests(publicSettings(true));
    let off = false;
    const { user } = setup(<TournamentsTab />, '/', (url, init) => {
      if (url.pathname === '/api/tournaments' && init?.method === 'POST') {
        off = true;
        return { status: 403, message: 'Players cannot create sit-and-go tournaments on this server' };
      }
      if (url.pathname === '/api/tournaments') return [];
      if (url.pathname === '/api/settings/public') return publicSettings(!off);
      return [];
    });
    expect(await screen.findByText('No open tournaments')).toBeInTheDocument();
    expect(screen.queryByTestId('sit-and-go-off')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Create sit-and-go' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create sit-and-go' });
    await user.type(within(dialog).getByLabelText('Name'), 'Night cup');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(
      await within(dialog).findByText('Players cannot create sit-and-go tournaments on this server'),
    ).toBeInTheDocument();
    // the re-read settings hide the button
    await waitFor(() => expect(screen.getByTestId('sit-and-go-off')).toHaveTextContent(SIT_AND_GO_OFF));
  });
});

let played: string[] = [];
vi.mock('../lib/sound', () => ({ play: (name: string) => played.push(name) }));

describe('match ready', () => {
  beforeEach(() => {
    played = [];
  });

  it('raises the desktop notification and a card; Take your seat opens the table', async () => {
    const notify = vi.fn(async () => true);
    window.desktop = { notify } as unknown as typeof window.desktop;
    const { socket, user } = setup(
      <>
        <MatchReadyHost />
        <Where />
      </>,
      '/',
      () => ({}),
    );
    socket.serve('tournament_match_ready', {
      tournamentId: 't1',
      name: 'Night cup',
      matchId: 'r1m0',
      gameId: 'g-7',
      round: 1,
      seatDeadline: Date.now() + 120_000,
    });
    const card = await screen.findByRole('alertdialog', { name: 'Night cup' });
    expect(card).toHaveTextContent('Night cup: your match is ready');
    expect(card).toHaveTextContent(/seat within (1:5\d|2:0\d)/);
    expect(notify).toHaveBeenCalledWith({
      kind: 'tournament-match',
      title: 'Night cup: your match is ready',
      body: 'Round 1: take your seat before the deadline or the match is forfeited.',
      gameId: 'g-7',
      tournamentId: 't1',
    });
    expect(played).toEqual(['match']);
    await user.click(within(card).getByRole('button', { name: 'Take your seat' }));
    expect(screen.getByTestId('where')).toHaveTextContent('/table/g-7?join=1');
    expect(screen.queryByRole('alertdialog', { name: 'Night cup' })).toBeNull();
  });

  it('in the browser: a web Notification when the page is not in front; its click takes the seat', async () => {
    const shown: { title: string; options: NotificationOptions; onclick: (() => void) | null; close: () => void }[] =
      [];
    class FakeNotification {
      static permission = 'granted';
      onclick: (() => void) | null = null;
      close = vi.fn();
      constructor(title: string, options: NotificationOptions) {
        shown.push(this as never);
        Object.assign(this, { title, options });
      }
    }
    vi.stubGlobal('Notification', FakeNotification);
    vi.spyOn(document, 'hasFocus').mockReturnValue(false);
    const focus = vi.spyOn(window, 'focus').mockImplementation(() => undefined);
    const { socket } = setup(
      <>
        <MatchReadyHost />
        <Where />
      </>,
      '/',
      () => ({}),
    );
    socket.serve('tournament_match_ready', {
      tournamentId: 't1',
      name: 'Night cup',
      matchId: 'r2m0',
      gameId: 'g-8',
      round: 2,
      seatDeadline: Date.now() + 60_000,
    });
    expect(shown).toHaveLength(1);
    expect(shown[0]).toMatchObject({
      title: 'Night cup: your match is ready',
      options: {
        body: 'Round 2: take your seat before the deadline or the match is forfeited.',
        tag: 'tournament-match',
      },
    });
    expect(played).toEqual(['match']);
    act(() => shown[0].onclick!());
    expect(focus).toHaveBeenCalled();
    expect(shown[0].close).toHaveBeenCalled();
    expect(screen.getByTestId('where')).toHaveTextContent('/table/g-8?join=1');
    vi.unstubAllGlobals();
  });

  it('in the browser with the page in front: the card only, no web Notification', () => {
    const made = vi.fn();
    vi.stubGlobal(
      'Notification',
      Object.assign(
        function FakeNotification() {
          made();
        },
        { permission: 'granted' },
      ),
    );
    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
    const { socket } = setup(<MatchReadyHost />, '/', () => ({}));
    socket.serve('tournament_match_ready', {
      tournamentId: 't1',
      name: 'Night cup',
      matchId: 'r2m1',
      gameId: 'g-9',
      round: 2,
      seatDeadline: Date.now() + 60_000,
    });
    expect(screen.getByRole('alertdialog', { name: 'Night cup' })).toBeInTheDocument();
    expect(made).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });

  it('ignores a malformed event', () => {
    const { socket } = setup(<MatchReadyHost />, '/', () => ({}));
    socket.serve('tournament_match_ready', { tournamentId: 't1' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});

describe('console: scheduled tournament form', () => {
  const draft = {
    name: ' Sunday Cup ',
    mode: 'SOLO' as const,
    size: 16 as const,
    buyIn: '500000',
    split: '50, 30, 20',
    startsAt: '2030-01-05T20:00',
    opensAt: '2030-01-05T12:00',
    minEntrants: '8',
    noShowSeconds: '90',
  };
  it('turns the draft into the create request', () => {
    expect(draftToInput(draft)).toEqual({
      ok: true,
      input: {
        kind: 'scheduled',
        name: 'Sunday Cup',
        mode: 'SOLO',
        size: 16,
        buyIn: 500_000,
        prizeSplit: [50, 30, 20],
        startsAt: new Date('2030-01-05T20:00').getTime(),
        registrationOpensAt: new Date('2030-01-05T12:00').getTime(),
        minEntrants: 8,
        noShowMs: 90_000,
      },
    });
  });
  it('refuses a split not summing to 100, registration after the start, a bad minimum or no-show time', () => {
    expect(parseSplit('60 30')).toBeNull();
    expect(parseSplit('65,35')).toEqual([65, 35]);
    expect(draftToInput({ ...draft, split: '60, 30' })).toMatchObject({ ok: false });
    expect(draftToInput({ ...draft, opensAt: '2030-01-06T12:00' })).toMatchObject({
      ok: false,
      message: 'Registration must open before the start',
    });
    expect(draftToInput({ ...draft, minEntrants: '17' })).toMatchObject({ ok: false });
    expect(draftToInput({ ...draft, noShowSeconds: '10' })).toMatchObject({ ok: false });
  });
});

describe('console: tournaments page', () => {
  it('lists, creates a scheduled tournament and cancels one with a reason', async () => {
    const s = newTournament(testConfig('SOLO', 16, { kind: 'scheduled', minEntrants: 8 }));
    const { calls, user } = setup(<ConsoleTournamentsPage />, '/admin/tournaments', (url, init) => {
      if (url.pathname === '/api/tournaments')
        return url.searchParams.get('status') === 'open' ? [summaryOf(s, 'Mod')] : [];
      if (url.pathname === '/api/admin/tournaments' && init?.method === 'POST') return tournamentView(s, 'Mod', null);
      if (url.pathname === '/api/admin/tournaments/t1/cancel') return tournamentView(s, 'Mod', null);
      return {};
    });
    const row = (await screen.findByRole('link', { name: 'Test cup' })).closest('tr')!;
    expect(row).toHaveTextContent('SOLO 16');
    expect(row).toHaveTextContent('0/16 (min 8)');

    await user.click(screen.getByRole('button', { name: 'Create scheduled' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a scheduled tournament' });
    await user.type(within(dialog).getByLabelText('Name'), 'Sunday Cup');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.path === '/api/admin/tournaments')).toBe(true),
    );
    const created = calls.find((c) => c.path === '/api/admin/tournaments')!.body as Record<string, unknown>;
    expect(created).toMatchObject({
      kind: 'scheduled',
      name: 'Sunday Cup',
      mode: 'PARTNERS',
      size: 16,
      buyIn: 100_000,
    });
    expect(created.prizeSplit).toEqual([65, 35]);
    expect(created.noShowMs).toBe(120_000);

    await user.click(within(row).getByRole('button', { name: 'Cancel' }));
    const reason = await screen.findByRole('dialog', { name: 'Cancel Test cup' });
    await user.type(within(reason).getByLabelText(/Reason/), 'Server maintenance');
    await user.click(within(reason).getByRole('button', { name: 'Cancel the tournament' }));
    await waitFor(() =>
      expect(calls).toContainEqual({
        method: 'POST',
        path: '/api/admin/tournaments/t1/cancel',
        body: { reason: 'Server maintenance' },
      }),
    );
  });
});
