/**
 * Renders the real TablePage against a fake socket (records emits, lets the test play the server) and a
 * mocked fetch (GET /api/games/:id answers the current TableView).
 */
import { act, render } from '@testing-library/react';
import { vi } from 'vitest';
import { MemoryRouter, Route, Routes } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { DEFAULT_SETTINGS, type Card } from '@spades/common';
import { SessionContextForTests, type SessionValue } from '../session/session';
import { SocketContextForTests, type SocketValue } from '../socket/socket';
import { ToastProvider } from '../components/ui';
import { TablePage } from '../table/TablePage';
import type { User } from '../lib/types';

export const c = (suit: Card['suit'], rank: Card['rank']): Card => ({ suit, rank });
const SUITS: Card['suit'][] = ['S', 'H', 'D', 'C'];
export const thirteen = (): Card[] =>
  Array.from({ length: 13 }, (_, i) => c(SUITS[i % 4], ((i % 13) + 2) as Card['rank']));

/** A server TableView for user u{mySeat}. */
export function tableView(over: Record<string, unknown> = {}): Record<string, unknown> {
  const seat = (i: number) => ({
    id: `u${i}`,
    username: `P${i}`,
    name: `P${i}`,
    avatar: null,
    image: null,
    type: 'human',
    position: i,
    team: i % 2 ? 2 : 1,
    tricks: 0,
    bid: null,
    blind: false,
    handCount: 13,
    isDealer: i === 3,
    hand: null,
    timeouts: 0,
  });
  return {
    id: 'g1',
    gameId: 'g1',
    status: 'WAITING',
    mySeat: 0,
    hostId: 'u0',
    rated: false,
    players: [0, 1, 2, 3].map(seat),
    hands: [[], [], [], []],
    handCounts: [0, 0, 0, 0],
    handHidden: false,
    bidding: {
      bids: [null, null, null, null],
      blind: [false, false, false, false],
      autoBid: [false, false, false, false],
      currentBidderIndex: null,
    },
    play: {
      currentTrick: [],
      trickLeaderIndex: null,
      trickNumber: 0,
      currentPlayerIndex: null,
      spadesBroken: false,
      tricks: [0, 0, 0, 0],
      lastTrick: null,
      trickPending: false,
    },
    dealerIndex: 3,
    handNumber: 0,
    handCommitment: null,
    team1TotalScore: 0,
    team2TotalScore: 0,
    team1Bags: 0,
    team2Bags: 0,
    playerScores: [0, 0, 0, 0],
    playerBags: [0, 0, 0, 0],
    settings: DEFAULT_SETTINGS,
    spectators: [],
    seatReplacements: [],
    lastHandSummary: null,
    chat: [],
    serverTime: Date.now(),
    ...over,
  };
}

/** The table in BIDDING for hand n, my turn (seat 0) with 13 cards. */
export function biddingView(n: number, over: Record<string, unknown> = {}) {
  return tableView({
    status: 'BIDDING',
    handNumber: n,
    handCommitment: `commit-${n}`,
    hands: [thirteen(), [], [], []],
    handCounts: [13, 13, 13, 13],
    bidding: {
      bids: [null, null, null, null],
      blind: [false, false, false, false],
      autoBid: [false, false, false, false],
      currentBidderIndex: 0,
    },
    ...over,
  });
}

type Listener = (...args: unknown[]) => void;
export interface TimedEmit {
  event: string;
  payload: unknown;
  ack: (err: Error | null, res?: unknown) => void;
}

export class FakeSocket {
  connected = true;
  connect = vi.fn(() => {
    this.connected = true;
  });
  listeners = new Map<string, Set<Listener>>();
  /** emits through socket.timeout(ms).emit(event, payload, ack). */
  timed: TimedEmit[] = [];
  on(ev: string, fn: Listener) {
    if (!this.listeners.has(ev)) this.listeners.set(ev, new Set());
    this.listeners.get(ev)!.add(fn);
    return this;
  }
  off(ev: string, fn: Listener) {
    this.listeners.get(ev)?.delete(fn);
    return this;
  }
  timeout() {
    return {
      emit: (event: string, payload: unknown, ack: TimedEmit['ack']) => {
        this.timed.push({ event, payload, ack });
      },
    };
  }
  /** The server sends an event. */
  serve(ev: string, payload: unknown) {
    act(() => {
      for (const fn of [...(this.listeners.get(ev) ?? [])]) fn(payload);
    });
  }
}

export interface Harness {
  socket: FakeSocket;
  emits: { event: string; args: unknown[] }[];
  setServerTable(v: Record<string, unknown>): void;
}

export const USER = (i: number): User =>
  ({ id: `u${i}`, username: `P${i}`, email: `p${i}@x.test`, avatar: null, coins: 1_000_000 }) as User;

/** Renders /table/g1 as user u{me}; call `await settle()` (or advance fake timers) for the first load. */
export function renderTable(initial: Record<string, unknown>, me = 0): Harness {
  let serverTable = initial;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    if (url.includes('/api/games/g1') && !/\/(join|leave|spectate|invite-bot|remove-bot)/.test(url)) {
      return new Response(JSON.stringify(serverTable), {
        status: 200,
        headers: { 'Content-Type': 'application/json' },
      });
    }
    return new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  const socket = new FakeSocket();
  const emits: Harness['emits'] = [];
  const user = USER(me);
  const session = { status: 'authenticated', user, token: 't' } as unknown as SessionValue;
  const sock = {
    socket,
    connecting: false,
    connected: true,
    authenticated: true,
    ready: true,
    error: null,
    onlineIds: new Set<string>(),
    lobbyMessages: [],
    emit: (event: string, ...args: unknown[]) => {
      emits.push({ event, args });
      return true;
    },
    clearError: () => undefined,
  } as unknown as SocketValue;
  // the table reads the user list (issue #31: blocked players' chat lines)
  const queries = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queries}>
      <MemoryRouter initialEntries={['/table/g1']}>
        <ToastProvider>
          <SessionContextForTests.Provider value={session}>
            <SocketContextForTests.Provider value={sock}>
              <Routes>
                <Route path="/table/:gameId" element={<TablePage />} />
                <Route path="/" element={<p>lobby</p>} />
              </Routes>
            </SocketContextForTests.Provider>
          </SessionContextForTests.Provider>
        </ToastProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return {
    socket,
    emits,
    setServerTable: (v) => {
      serverTable = v;
    },
  };
}

/** Lets pending fetches and effects run (with fake timers: advances them by `ms`). */
export async function settle(ms = 0): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}
