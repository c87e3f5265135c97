/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw wire payloads */
/**
 * Games integration helpers: short timers, real socket.io clients that record EVERY payload they receive
 * and (optionally) play automatically from their own `game_update` view only (like a real client).
 */
import { restoreRecord } from '../../src/games/table.delta';
import { ChildDb, childDb, ChildServer } from './support/child';
import { Card, dealFromSeed, fromHex, seedCommitment } from '@spades/common';
import { AccountRef, CoinsService } from '../../src/coins/coins.service';
import {
  api,
  connectSocket,
  createTestApp,
  registerUser,
  RegisteredUser,
  TestApp,
  TestSocket,
} from '../support/test-app';

/**
 * The life cycle every games integration suite shares: short timers (plus `timers`), one app, a balanced ledger
 * after each test, every socket client closed at the end. `onApp` hands the app to the suite (which keeps its own
 * `t`); `client()` connects a new registered player, `track()` closes clients created another way.
 */
export function gamesSuite(
  onApp: (t: TestApp) => void,
  timers: Record<string, string> = {},
): { client(): Promise<Client>; track(...c: Client[]): void } {
  let app: TestApp | undefined;
  const clients: Client[] = [];
  beforeAll(async () => {
    useFastTimers(timers);
    app = await createTestApp();
    onApp(app);
  });
  afterEach(async () => {
    await expectLedgerBalanced((sql) => app!.dataSource.query(sql));
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await app?.close();
  });
  return {
    async client() {
      const c = await Client.create(app!.url);
      clients.push(c);
      return c;
    },
    track: (...c) => void clients.push(...c),
  };
}

/** Short timers for the integration suites (read by the games module when the app boots). */
export function useFastTimers(over: Record<string, string> = {}): void {
  Object.assign(process.env, {
    TURN_TIMEOUT_MS: '20000',
    TRICK_DISPLAY_MS: '5',
    HAND_SUMMARY_MS: '30',
    RESULT_MS: '400',
    SEAT_REPLACEMENT_MS: '60000',
    BOT_DELAY_MIN_MS: '1',
    BOT_DELAY_MAX_MS: '3',
    BOT_LEVEL: process.env.GAMES_TEST_BOT_LEVEL ?? 'basic',
    ...over,
  });
}

export const SETTINGS = {
  gameMode: 'PARTNERS',
  biddingOption: 'REG',
  gamePlayOption: 'REG',
  minPoints: -100,
  maxPoints: 100,
  buyIn: 100000,
  specialRules: { allowNil: true, allowBlindNil: false, screamer: false, assassin: false },
};

export interface Received {
  event: string;
  payload: any;
  /** Hand number the client believed current when the payload arrived. */
  hand: number;
}

export type Strategy = (view: any) => { bid: number } | null;

/** Even seats bid the most, odd seats the least non-nil bid: one side is set, the game ends fast. */
export const endFast: Strategy = (view) => {
  const bids: number[] = view.legalBids.bids;
  const nonNil = bids.filter((b) => b > 0);
  const pool = nonNil.length ? nonNil : bids;
  return { bid: view.mySeat % 2 === 0 ? Math.max(...pool) : Math.min(...pool) };
};

export class Client {
  received: Received[] = [];
  hand = 0;
  view: any = null;
  auto = false;
  strategy: Strategy = endFast;
  /** Bid blind nil whenever it is offered. */
  blindNil = false;
  errors: string[] = [];
  /** Own hand per hand number, as received in new_hand_started / game_update. */
  ownHands = new Map<number, Card[]>();
  private acted = new Set<string>();
  private seq = 0;

  constructor(
    readonly user: RegisteredUser,
    public socket: TestSocket,
  ) {
    this.attach(socket);
  }

  static async create(url: string): Promise<Client> {
    const user = await registerUser(url);
    return new Client(user, await connectSocket(url, user.token));
  }

  get id(): string {
    return this.user.user.id;
  }

  attach(socket: TestSocket): void {
    this.socket = socket;
    (socket as any).onAny((event: string, payload: any) => {
      if ((event === 'new_hand_started' || event === 'game_update') && typeof payload?.handNumber === 'number') {
        this.hand = payload.handNumber;
      }
      this.received.push({ event, payload, hand: this.hand });
      if (event === 'error') this.errors.push(payload?.message);
      if (event === 'chat_message' && this.view && payload?.gameId === this.view.id && payload.message) {
        // like a real client: the chat arrives message by message; incremental game_updates leave it out
        const chat = this.view.chat ?? [];
        if (!chat.some((m: any) => m.id === payload.message.id))
          this.view = { ...this.view, chat: [...chat, payload.message] };
      }
      if (event === 'game_update') {
        const prev = this.view && this.view.id === payload.id ? this.view : null;
        // an incremental game_update omits what did not change (history, chat): keep the previous ones
        this.view = {
          ...payload,
          history: payload.history ?? prev?.history ?? [],
          chat: payload.chat ?? prev?.chat ?? [],
        };
        if (payload.mySeat !== null && payload.hands?.[payload.mySeat]?.length === 13 && !payload.handHidden) {
          this.ownHands.set(payload.handNumber, payload.hands[payload.mySeat]);
        }
        if (this.auto) this.maybeAct();
      }
    });
  }

  async reconnect(url: string): Promise<void> {
    this.socket.close();
    this.acted.clear(); // an action emitted on the old socket may have been lost
    this.attach(await connectSocket(url, this.user.token));
  }

  emit(event: string, payload: unknown): Promise<any> {
    return new Promise((resolve) => (this.socket as any).emit(event, payload, (ack: unknown) => resolve(ack)));
  }

  http(url: string, method: string, path: string, body?: unknown) {
    return api(url, method, path, { token: this.user.token, body });
  }

  /** Acts once per situation when it is this client's turn, from the received view only. */
  maybeAct(): void {
    const v = this.view;
    if (!v || v.mySeat === null || v.currentPlayerIndex !== v.mySeat) return;
    const key = `${v.id}:${v.gameNumber}:${v.handNumber}:${v.status}:${v.bidding.bids.join(',')}:${v.play.trickNumber}:${v.play.currentTrick.length}:${v.handHidden}`;
    if (this.acted.has(key)) return;
    if (v.status === 'BIDDING' && v.handHidden && this.blindNil && v.legalBids?.blindNil) {
      this.acted.add(key);
      void this.emit('make_bid', { gameId: v.id, bid: 0, blind: true, actionId: `n${++this.seq}` });
    } else if (v.status === 'BIDDING' && v.handHidden) {
      this.acted.add(key);
      void this.emit('reveal_cards', { gameId: v.id, actionId: `r${++this.seq}` });
    } else if (v.status === 'BIDDING' && v.legalBids) {
      this.acted.add(key);
      const choice = this.strategy(v) ?? { bid: v.legalBids.bids[0] };
      void this.emit('make_bid', { gameId: v.id, bid: choice.bid, actionId: `b${++this.seq}` });
    } else if (v.status === 'PLAYING' && v.legalCards.length) {
      this.acted.add(key);
      void this.emit('play_card', { gameId: v.id, card: v.legalCards[0], actionId: `p${++this.seq}` });
    }
  }

  events(name: string): any[] {
    return this.received.filter((r) => r.event === name).map((r) => r.payload);
  }

  waitFor(pred: () => boolean, timeoutMs = 30000, what = 'condition'): Promise<void> {
    return new Promise((resolve, reject) => {
      const t0 = Date.now();
      const iv = setInterval(() => {
        if (pred()) {
          clearInterval(iv);
          resolve();
        } else if (Date.now() - t0 > timeoutMs) {
          clearInterval(iv);
          reject(
            new Error(`timeout waiting for ${what} (${this.user.user.username}); last status ${this.view?.status}`),
          );
        }
      }, 10);
    });
  }

  close(): void {
    this.socket.close();
  }
}

const TRICK_KEYS = new Set(['currentTrick', 'trick', 'lastTrick', 'cards']);

/** Cards in a payload outside trick contexts (a played card is public). */
export function privateCards(x: unknown, out: Card[] = [], key = ''): Card[] {
  if (TRICK_KEYS.has(key)) return out;
  if (Array.isArray(x)) x.forEach((v) => privateCards(v, out));
  else if (x && typeof x === 'object') {
    const o = x as Record<string, unknown>;
    if (typeof o.suit === 'string' && typeof o.rank === 'number')
      out.push({ suit: o.suit as Card['suit'], rank: o.rank as Card['rank'] });
    for (const [k, v] of Object.entries(o)) privateCards(v, out, k);
  }
  return out;
}

/** Verifies the revealed seeds: sha256(seed) = commitment and dealFromSeed(seed)[seat] = the hand received. */
export function checkFairness(c: Client, seat: number): number {
  let checked = 0;
  const commitments = new Map<number, string>();
  for (const p of c.events('new_hand_started')) commitments.set(p.handNumber, p.commitment);
  for (const h of c.events('hand_completed')) {
    expect(seedCommitment(h.seed)).toBe(h.commitment);
    expect(commitments.get(h.handNumber)).toBe(h.commitment);
    const dealt = dealFromSeed(fromHex(h.seed)!);
    const own = c.ownHands.get(h.handNumber);
    if (own) {
      expect(dealt[seat]).toEqual(own);
      checked++;
    }
  }
  return checked;
}

/**
 * Redaction over everything a client received: outside trick contexts a player may only ever see cards of
 * its own hand of that hand number (from the revealed seed); a spectator none at all.
 */
export function checkRedaction(c: Client, seat: number | 'spectator', seeds: Map<number, string>): number {
  let n = 0;
  for (const r of c.received) {
    const cards = privateCards(r.payload);
    if (seat === 'spectator') {
      expect(cards).toEqual([]);
    } else if (cards.length) {
      const seed = seeds.get(r.hand);
      if (!seed) throw new Error(`no revealed seed for hand ${r.hand}`);
      const mine = new Set(dealFromSeed(fromHex(seed)!)[seat].map((x) => `${x.suit}${x.rank}`));
      for (const card of cards) {
        if (!mine.has(`${card.suit}${card.rank}`))
          throw new Error(`${r.event} to seat ${seat} leaks ${card.suit}${card.rank}`);
      }
    }
    n++;
  }
  return n;
}

export function seedsOf(c: Client): Map<number, string> {
  const m = new Map<number, string>();
  for (const h of c.events('hand_completed')) m.set(h.handNumber, h.seed);
  return m;
}

/**
 * Coins invariant after every test: all balances (users, escrows, house) sum to 0, none negative but the
 * house, every account's balance is the sum of its ledger entries, and every transfer's entries sum to 0
 * (no coin appears or disappears outside the double-entry ledger).
 */
export async function expectLedgerBalanced(query: (sql: string) => Promise<any[]>): Promise<void> {
  const [sum] = await query(`SELECT COALESCE(SUM(balance),0)::text AS s FROM coin_accounts`);
  expect(Number(sum.s)).toBe(0);
  const [neg] = await query(`SELECT count(*)::int AS n FROM coin_accounts WHERE kind <> 'house' AND balance < 0`);
  expect(neg.n).toBe(0);
  const drift = await query(
    `SELECT a.key, a.balance::text AS balance, COALESCE(SUM(e.amount), 0)::text AS entries
       FROM coin_accounts a LEFT JOIN coin_entries e ON e.account_id = a.id
      GROUP BY a.id, a.key, a.balance
     HAVING a.balance <> COALESCE(SUM(e.amount), 0)`,
  );
  expect(drift).toEqual([]);
  const unbalanced = await query(
    `SELECT transfer_id FROM coin_entries GROUP BY transfer_id HAVING SUM(amount) <> 0 OR count(*) <> 2`,
  );
  expect(unbalanced).toEqual([]);
}

/** Test-only coin movement THROUGH the ledger (CoinsService.transfer inside a transaction), e.g. to drain a wallet. */
export async function moveCoins(
  t: TestApp,
  from: AccountRef,
  to: AccountRef,
  amount: number,
  reason = 'test_adjustment',
): Promise<void> {
  const coins = t.app.get(CoinsService);
  await t.dataSource.transaction((m) => coins.transfer(m, from, to, amount, reason));
}

/** The stored table row: snapshot version (`seq`) and snapshot. */
/**
 * The table as stored: the last snapshot plus the events after it, replayed (lean persistence), and the seq of
 * the last stored event.
 */
export async function storedTable(t: TestApp, gameId: string): Promise<{ seq: number; snapshot: any }> {
  return storedTableIn((sql, params) => t.dataSource.query(sql, params), gameId);
}

export async function storedTableIn(
  q: (sql: string, params?: unknown[]) => Promise<any[]>,
  gameId: string,
): Promise<{ seq: number; snapshot: any }> {
  const [row] = await q(`SELECT seq, snapshot FROM games WHERE id = $1`, [gameId]);
  if (!row) return row;
  const events = await q(`SELECT seq, actions, delta FROM game_events WHERE game_id = $1 AND seq > $2 ORDER BY seq`, [
    gameId,
    row.seq,
  ]);
  return {
    seq: events.length ? Number(events[events.length - 1].seq) : Number(row.seq),
    snapshot: restoreRecord(row.snapshot, events, 100),
  };
}

/** Test surgery on a stopped server's table: stores `edit(record)` as the snapshot that includes every event. */
export async function rewriteStoredTable(
  q: (sql: string, params?: unknown[]) => Promise<any[]>,
  gameId: string,
  edit: (rec: any) => void,
): Promise<void> {
  const { seq, snapshot } = await storedTableIn(q, gameId);
  edit(snapshot);
  await q(`UPDATE games SET snapshot = $2, seq = $3 WHERE id = $1`, [gameId, JSON.stringify(snapshot), seq]);
}

/**
 * Waits until the table only waits for a human (a `turn` timer is the only running flow and no seat
 * replacement is due before it): nothing changes by itself until that human acts or the long turn timer runs out.
 */
export async function waitHumanTurn(
  t: TestApp,
  gameId: string,
  timeoutMs = 20000,
): Promise<{ seq: number; snapshot: any }> {
  const t0 = Date.now();
  for (;;) {
    const row = await storedTable(t, gameId);
    const s = row.snapshot;
    if (s.flow?.kind === 'turn' && !s.trickPending) return row;
    if (Date.now() - t0 > timeoutMs)
      throw new Error(`table ${gameId} never waited for a human (flow ${JSON.stringify(s.flow)})`);
    await new Promise((r) => setTimeout(r, 15));
  }
}

/** 'u joined the game.' messages a client received. */
export function joinedMessages(c: Client, username: string): any[] {
  return c
    .events('chat_message')
    .filter((m) => m.message.userId === 'system' && m.message.message === `${username} joined the game.`);
}

/** State of a suite that forks real server processes (crash tests): a fresh database per test, clients closed and the server killed after it. */
export interface ForkedServers {
  db: ChildDb;
  server: ChildServer | null;
  clients: Client[];
}

export function forkedServerSuite(): ForkedServers {
  const f = { server: null, clients: [] } as unknown as ForkedServers;
  beforeEach(() => {
    useFastTimers();
    f.db = childDb();
  });
  afterEach(async () => {
    for (const c of f.clients.splice(0)) c.close();
    await f.server?.kill();
    f.server = null;
    await f.db.cleanup();
  });
  return f;
}
