import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen } from '@testing-library/react';
import type { DesktopBridge } from '../../shared/bridge';
import type { Card } from '@spades/common';
import { biddingView, c, renderTable, settle, tableView } from './table-harness';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  delete window.desktop;
});

const summary = (n: number) => ({
  handNumber: n,
  dealerIndex: 3,
  team1Score: 50,
  team2Score: 40,
  team1Bags: 0,
  team2Bags: 0,
  team1TotalScore: 50,
  team2TotalScore: 40,
  playerScores: [50, 40, 50, 40],
  playerTotalScores: [50, 40, 50, 40],
  playerBags: [0, 0, 0, 0],
  tricksPerPlayer: [3, 2, 2, 6],
  bids: [3, 2, 2, 4],
  seed: null,
  commitment: `commit-${n}`,
});
const handCompleted = (n: number) =>
  tableView({ status: 'HAND_COMPLETED', handNumber: n, handCommitment: `commit-${n}`, lastHandSummary: summary(n) });
const newHand = (n: number) => ({
  gameId: 'g1',
  handNumber: n,
  hands: [],
  handHidden: false,
  dealerIndex: 0,
  currentBidderIndex: 0,
  commitment: `commit-${n}`,
});
const bidPanel = () => screen.queryByRole('dialog', { name: 'Make your bid' });

describe('next hand after the summary (spec §4: retry after 1 s)', () => {
  it('keeps retrying a failed start_new_hand every 1 s after the summary closed, until the server moves on', async () => {
    const h = renderTable(handCompleted(1));
    await settle();
    expect(screen.getByRole('dialog', { name: /Hand 1 complete/ })).toBeInTheDocument();
    await settle(12_250);
    expect(h.socket.timed.map((t) => [t.event, t.payload])).toEqual([['start_new_hand', { gameId: 'g1' }]]);
    expect(screen.queryByRole('dialog', { name: /Hand 1 complete/ })).toBeNull();

    // The ack times out while disconnected: reconnect, and ask again 1 s later.
    h.socket.connected = false;
    act(() => h.socket.timed[0].ack(new Error('operation has timed out')));
    expect(h.socket.connect).toHaveBeenCalledTimes(1);
    await settle(999);
    expect(h.socket.timed).toHaveLength(1);
    await settle(1);
    expect(h.socket.timed).toHaveLength(2);

    // A refusal is retried the same way.
    act(() => h.socket.timed[1].ack(null, { ok: false, message: 'busy' }));
    await settle(1_000);
    expect(h.socket.timed).toHaveLength(3);

    // The server has moved on: a late failure of the pending attempt starts nothing more.
    h.socket.serve('new_hand_started', newHand(2));
    act(() => h.socket.timed[2].ack(new Error('operation has timed out')));
    await settle(5_000);
    expect(h.socket.timed).toHaveLength(3);
  });

  it('asks once when the server accepts', async () => {
    const h = renderTable(handCompleted(1));
    await settle();
    await settle(12_250);
    act(() => h.socket.timed[0].ack(null, { ok: true }));
    await settle(5_000);
    expect(h.socket.timed).toHaveLength(1);
  });

  it('stops retrying when a table update shows the next hand', async () => {
    const h = renderTable(handCompleted(1));
    await settle();
    await settle(12_250);
    act(() => h.socket.timed[0].ack(new Error('operation has timed out')));
    h.socket.serve('game_update', biddingView(2));
    await settle(5_000);
    expect(h.socket.timed).toHaveLength(1);
  });
});

describe('deal animation and bidding_ready (spec §4)', () => {
  const lastCard = () => document.querySelector('[data-last-card="true"]') as HTMLElement;

  it('does not open bidding without bidding_ready, however long the deal took', async () => {
    const h = renderTable(tableView());
    await settle();
    h.socket.serve('game_update', biddingView(1));
    await settle(5_000);
    expect(bidPanel()).toBeNull();
    h.socket.serve('bidding_ready', { gameId: 'g1', currentBidderIndex: 0, currentPlayer: 'u0' });
    expect(bidPanel()).toBeInTheDocument();
  });

  it('runs the deal once per hand: the game_update after bidding_ready does not restart it; the last card opens bidding', async () => {
    const h = renderTable(tableView());
    await settle();
    // The server's order: new_hand_started, bidding_ready, game_update.
    h.socket.serve('new_hand_started', newHand(1));
    h.socket.serve('bidding_ready', { gameId: 'g1', currentBidderIndex: 0, currentPlayer: 'u0' });
    h.socket.serve('game_update', biddingView(1));
    await settle();
    expect(lastCard()).toHaveClass('dealt');
    expect(bidPanel()).toBeNull();
    fireEvent.animationEnd(lastCard());
    expect(bidPanel()).toBeInTheDocument();
    expect(lastCard()).not.toHaveClass('dealt');
    // Another update of the same hand (e.g. a chat line) neither re-deals nor closes bidding.
    h.socket.serve('game_update', biddingView(1, { chat: [] }));
    expect(lastCard()).not.toHaveClass('dealt');
    expect(bidPanel()).toBeInTheDocument();
  });

  it('forces the deal complete after the 3 s fallback', async () => {
    const h = renderTable(tableView());
    await settle();
    h.socket.serve('game_update', biddingView(1));
    h.socket.serve('new_hand_started', newHand(1));
    h.socket.serve('bidding_ready', { gameId: 'g1', currentBidderIndex: 0, currentPlayer: 'u0' });
    await settle(2_900);
    expect(bidPanel()).toBeNull();
    await settle(100);
    expect(bidPanel()).toBeInTheDocument();
  });

  it('opens bidding at once for a hand found in BIDDING on opening the table (no replayed deal)', async () => {
    renderTable(biddingView(3));
    await settle();
    expect(bidPanel()).toBeInTheDocument();
    expect(document.querySelector('.hand-card.dealt')).toBeNull();
  });
});

describe('waiting room', () => {
  it("names the server's host, not whoever sits in seat 0", async () => {
    renderTable(tableView({ hostId: 'u2', mySeat: 1 }), 1);
    await settle();
    expect(screen.getByText('Only P2 can start')).toBeInTheDocument();
    expect(screen.getByText('Waiting for Host')).toBeInTheDocument();
  });
});

describe('the host removes a player before the start (issue #24)', () => {
  const openPlayers = async () => {
    const tab = screen.getByRole('tab', { name: /Players/ });
    fireEvent.mouseDown(tab);
    fireEvent.click(tab);
    await settle();
  };

  it('offers Remove to the host for every other human, posts it, and not once the game runs', async () => {
    renderTable(
      tableView({
        players: [0, 1, 2, 3].map((i) => ({
          id: `u${i}`,
          username: `P${i}`,
          name: `P${i}`,
          avatar: null,
          image: null,
          type: i === 3 ? 'bot' : 'human',
          position: i,
          team: 1,
          tricks: 0,
          bid: null,
          blind: false,
          handCount: 0,
          isDealer: false,
          hand: null,
          timeouts: 0,
        })),
      }),
      0,
    );
    await settle();
    await openPlayers();
    expect(screen.queryByRole('button', { name: 'Remove P0 from the table' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove P3 from the table' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Remove P1 from the table' }));
    await settle();
    const call = vi
      .mocked(globalThis.fetch)
      .mock.calls.find(([u]) => String(u).endsWith('/api/games/g1/remove-player'));
    expect(call?.[1]).toMatchObject({ method: 'POST', body: JSON.stringify({ userId: 'u1' }) });
  });

  it('no Remove for a guest', async () => {
    renderTable(tableView({ mySeat: 1 }), 1);
    await settle();
    await openPlayers();
    expect(screen.queryByRole('button', { name: /^Remove P/ })).toBeNull();
  });

  it('the removed player is told and sent to the lobby', async () => {
    const h = renderTable(tableView({ mySeat: 1 }), 1);
    await settle();
    act(() => h.socket.serve('removed_from_table', { gameId: 'g1', reason: 'The host removed you from this table' }));
    await settle();
    expect(screen.getByText('lobby')).toBeInTheDocument();
    expect(screen.getByText('The host removed you from this table')).toBeInTheDocument();
  });
});

describe('rotate overlay (spec §2: whenever the window is taller than wide)', () => {
  const size = (w: number, hgt: number) => {
    Object.defineProperty(window, 'innerWidth', { value: w, configurable: true });
    Object.defineProperty(window, 'innerHeight', { value: hgt, configurable: true });
  };
  afterEach(() => size(1024, 768));

  it('shows on a desktop-sized window taller than wide', async () => {
    size(1400, 1600);
    renderTable(tableView());
    await settle();
    expect(screen.getByRole('alertdialog', { name: 'Please Rotate Your Device' })).toBeInTheDocument();
  });

  it('does not show when the window is wider than tall', async () => {
    size(1400, 900);
    renderTable(tableView());
    await settle();
    expect(screen.queryByRole('alertdialog', { name: 'Please Rotate Your Device' })).toBeNull();
  });
});

describe('desktop notifications from the table (issue 6)', () => {
  function installBridge() {
    const notify = vi.fn<DesktopBridge['notify']>().mockResolvedValue(true);
    window.desktop = {
      notify,
      toggleFullScreen: vi.fn(),
      isFullScreen: vi.fn(),
      openExternal: vi.fn(),
      appInfo: vi.fn(),
      getApiBase: () => '',
      onDeepLink: () => () => undefined,
    } as unknown as DesktopBridge;
    return notify;
  }
  const kinds = (notify: ReturnType<typeof installBridge>) => notify.mock.calls.map(([n]) => n.kind);

  it('raises "game starting" when a table you sit at goes from WAITING to BIDDING, with its gameId', async () => {
    const notify = installBridge();
    const h = renderTable(tableView());
    await settle();
    expect(notify).not.toHaveBeenCalled();
    h.socket.serve(
      'game_update',
      biddingView(1, {
        bidding: {
          bids: [null, null, null, null],
          blind: [false, false, false, false],
          autoBid: [false, false, false, false],
          currentBidderIndex: 1,
        },
      }),
    );
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ kind: 'game-starting', gameId: 'g1' }));
    expect(kinds(notify)).toEqual(['game-starting']);
  });

  it('does not raise "game starting" for a table you only watch', async () => {
    const notify = installBridge();
    const h = renderTable(tableView({ mySeat: null, players: [null, null, null, null] }), 5);
    await settle();
    h.socket.serve('game_update', biddingView(1, { mySeat: null, hands: [[], [], [], []] }));
    expect(kinds(notify)).not.toContain('game-starting');
  });

  it('raises "mention" for your name in game chat (case-insensitive, whole word), not for your own or system lines', async () => {
    const notify = installBridge();
    const h = renderTable(tableView());
    await settle();
    const line = (id: string, userId: string, message: string) => ({
      gameId: 'g1',
      message: {
        id,
        gameId: 'g1',
        userId,
        userName: userId === 'system' ? 'System' : `P${userId.slice(1)}`,
        message,
        timestamp: Date.now(),
        isGameMessage: true,
      },
    });
    h.socket.serve('chat_message', line('m1', 'system', 'P0 joined the game.'));
    h.socket.serve('chat_message', line('m2', 'u0', 'p0 here'));
    h.socket.serve('chat_message', line('m3', 'u1', 'P0x is not you'));
    expect(notify).not.toHaveBeenCalled();
    h.socket.serve('chat_message', line('m4', 'u1', 'nice one, p0!'));
    expect(notify).toHaveBeenCalledTimes(1);
    expect(notify).toHaveBeenCalledWith(
      expect.objectContaining({ kind: 'mention', gameId: 'g1', body: 'nice one, p0!' }),
    );
  });

  it('works on the web without a bridge', async () => {
    const h = renderTable(tableView());
    await settle();
    h.socket.serve('game_update', biddingView(1));
    h.socket.serve('chat_message', {
      gameId: 'g1',
      message: { id: 'm1', userId: 'u1', userName: 'P1', message: 'p0?', timestamp: Date.now() },
    });
    expect(screen.getByText('p0?')).toBeInTheDocument();
  });
});

describe('playing a card (server-confirmed)', () => {
  const H = (rank: Card['rank']) => c('H', rank);
  /** PLAYING, bids made; `trick` cards by seats 1..3 (seat 1 led); my turn (seat 0); `hand` is mine. */
  const playing = (hand: Card[], trick: { playerIndex: number; card: Card }[], turn: number, trickNumber: number) =>
    tableView({
      status: 'PLAYING',
      handNumber: 1,
      handCommitment: 'commit-1',
      hands: [hand, [], [], []],
      handCounts: [hand.length, 13 - trickNumber, 13 - trickNumber, 13 - trickNumber],
      bidding: {
        bids: [3, 3, 3, 3],
        blind: [false, false, false, false],
        autoBid: [false, false, false, false],
        currentBidderIndex: null,
      },
      play: {
        currentTrick: trick,
        trickLeaderIndex: trick[0]?.playerIndex ?? turn,
        trickNumber,
        currentPlayerIndex: turn,
        spadesBroken: false,
        tricks: [0, 0, 0, 0],
        lastTrick: null,
        trickPending: false,
      },
    });
  const plays = (h: { emits: { event: string; args: unknown[] }[] }) =>
    h.emits.filter((e) => e.event === 'play_card').map((e) => (e.args[0] as { card: string }).card);

  it('the last player of a trick who wins it can lead the next trick (the turn does not change hands)', async () => {
    const trick = [
      { playerIndex: 1, card: H(2) },
      { playerIndex: 2, card: H(3) },
      { playerIndex: 3, card: H(4) },
    ];
    const h = renderTable(playing([H(14), H(13), c('C', 5)], trick, 0, 0));
    await settle(3_500);
    fireEvent.click(screen.getByRole('button', { name: /^A♥, ace of hearts, playable$/i }));
    expect(plays(h)).toEqual(['AH']);
    // The server takes it: the trick is complete and won by me (seat 0), who also leads the next one.
    h.socket.serve('game_update', playing([H(13), c('C', 5)], [...trick, { playerIndex: 0, card: H(14) }], 0, 0));
    h.socket.serve('game_update', playing([H(13), c('C', 5)], [], 0, 1));
    await settle();
    fireEvent.click(screen.getByRole('button', { name: /^K♥, king of hearts, playable$/i }));
    expect(plays(h)).toEqual(['AH', 'KH']);
  });
});

describe('private tables and invitations at the table (issue #12)', () => {
  it('an empty seat held for an invited player says so and offers no Join to others; PRIVATE badge', async () => {
    const players = [0, 1, 2, 3].map((i) =>
      i === 0
        ? {
            id: 'u0',
            username: 'P0',
            name: 'P0',
            avatar: null,
            image: null,
            type: 'human',
            position: 0,
            team: 1,
            tricks: 0,
            bid: null,
            blind: false,
            handCount: 0,
            isDealer: false,
            hand: null,
            timeouts: 0,
          }
        : null,
    );
    renderTable(
      tableView({
        status: 'WAITING',
        mySeat: null,
        players,
        private: true,
        invitations: [
          { userId: 'u9', username: 'Zed', fromId: 'u0', seatIndex: 2, reservedUntil: Date.now() + 60_000 },
        ],
      }),
      5,
    );
    await settle();
    expect(screen.getByText('Held for Zed')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Join seat 3' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Join seat 2' })).toBeInTheDocument();
    expect(screen.getByText('PRIVATE')).toBeInTheDocument();
  });
});
