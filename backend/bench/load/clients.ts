/**
 * Client process of `bench:load` (forked by load.bench.ts; never inside the server): real socket.io clients for a
 * slice of the tables. It registers the users, creates the tables (one human + three bots, or four humans, plus
 * optional spectators), plays at the scheduled rate from what each socket received (legal moves from common's
 * rules, the same functions the server uses) and times every human action from emit to its ack and to the
 * first update that shows it. Also drives the bare echo baseline and the reconnect storm. With several server
 * nodes (`--nodes`) the sockets go round-robin over them, each HTTP request to a random one.
 * Talks to the orchestrator over IPC (`process.send`); see the Command type.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { io, Socket } from 'socket.io-client';
import { Card, computeLegalBids, computeLegalCards, GameSettings } from '@spades/common';
import { chooseBid, SeatScheduler, ViewKey, viewKeyOf } from './stats';
import { randomBytes } from 'node:crypto';

type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- raw wire payloads

export type Command =
  | {
      cmd: 'setup';
      /** The server nodes (one URL per node); socket g of the run (table · sockets per table + seat) uses urls[g % n]. */
      urls: string[];
      tables: number[];
      humans: 1 | 4;
      spectators: number;
      rate: number;
      totalTables: number;
      batch: number;
      runId: string;
      /** HTTP requests: 'sticky' = to the node of the user's socket (the nginx example hashes /api/ and /socket.io/ alike), 'random' = any node. */
      http: 'sticky' | 'random';
    }
  | { cmd: 'mark' }
  | { cmd: 'collect' }
  | { cmd: 'storm-prepare'; timeoutMs: number }
  | { cmd: 'storm'; timeoutMs: number }
  | { cmd: 'echo'; url: string; sockets: number; tableOffset: number; humans: number; rate: number; seconds: number }
  | { cmd: 'close-game' }
  | { cmd: 'stop' };

export interface Collected {
  actions: number;
  botActions: number;
  ackMs: number[];
  updateMs: number[];
  errors: number;
  errorSamples: string[];
  tablesPlaying: number;
  /** CPU of this client process since `mark` (100 = one core): a saturated client would distort the figures. */
  cpuPct: number;
  /** Per ackMs sample: the index in `where` of the socket that sent it. */
  ackWhere: number[];
  /** This client process's event-loop delay p99 since `mark`, ms. */
  eventLoopP99Ms: number;
  /** Per socket of this process: its table and the index of the node it is connected to. */
  where: [gameId: string, node: number][];
  /** Bytes of the server's events received by this process's sockets since `mark`, by event (socket.io text encoding). */
  rxBytes: Record<string, number>;
}

export const BENCH_SETTINGS: GameSettings = {
  gameMode: 'PARTNERS',
  biddingOption: 'REG',
  gimmick: null,
  minPoints: -100,
  maxPoints: 500,
  buyIn: 100_000,
  specialRules: { allowNil: true, allowBlindNil: false, screamer: false, assassin: false },
};

/** Throw-away accounts of one run: a random password per client process (never reused, never logged). */
const PASSWORD = randomBytes(12).toString('base64url');
const send = (m: unknown) => process.send?.(m);

// ------------------------------------------------------------------ counters (reset by `mark`)

let measuring = false;
let actions = 0;
let botActions = 0;
let ackMs: number[] = [];
let ackWhere: number[] = [];
let updateMs: number[] = [];
let rxBytes: Record<string, number> = {};
let errors = 0;
const errorSamples: string[] = [];
let paused = false;
let markCpu = process.cpuUsage();
let markAt = performance.now();
/** This client process's own event-loop delay: time it adds to every ack it times (reported beside the figures). */
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
const loopDelayP99Ms = () => Math.round((loopDelay.count ? loopDelay.percentile(99) / 1e6 : 0) * 10) / 10;

function error(what: string): void {
  errors++;
  if (errorSamples.length < 20) errorSamples.push(what);
}

// ------------------------------------------------------------------ HTTP / socket helpers

interface User {
  id: string;
  token: string;
  username: string;
}

/**
 * The nodes' URLs. `--http sticky` (default): a user's HTTP requests go to the node of their socket, like behind the
 * nginx example (the same address hash for /api/ and /socket.io/), so a table is created through its host's node
 * and the server's placement decides whether it stays there. `--http random`: each request to a node drawn at
 * random, independently of the sockets (a balancer without sticky sessions: more forwarding).
 */
let urls: string[] = [];
let stickyHttp = false;
/** With sticky HTTP: the node of each user's socket. */
const userNode = new Map<string, string>();
const httpUrl = (userId?: string) =>
  (stickyHttp && userId && userNode.get(userId)) || urls[Math.floor(Math.random() * urls.length)];

async function register(username: string): Promise<User> {
  const url = httpUrl();
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(`${url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, email: `${username.toLowerCase()}@bench.test`, password: PASSWORD }),
      });
      const body = (await res.json()) as Any;
      if (res.status !== 201) throw new Error(`register ${res.status}: ${body.message}`);
      return { id: body.user.id, token: body.token, username };
    } catch (e) {
      if (attempt >= 3) throw e;
      await sleep(500 * (attempt + 1));
    }
  }
}

async function api(user: User, method: string, path: string, body: unknown): Promise<Any> {
  const res = await fetch(`${httpUrl(user.id)}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as Any;
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${json.message ?? ''}`);
  return json;
}

function connect(url: string, auth: Record<string, unknown>, reconnection: boolean): Promise<Socket> {
  const socket = io(url, {
    auth,
    transports: ['websocket'],
    forceNew: true,
    reconnection,
    reconnectionDelay: 1000,
    reconnectionDelayMax: 5000,
    timeout: 30000,
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('socket: no authenticated event in 60 s')), 60000);
    socket.once('authenticated', (p: Any) => {
      clearTimeout(timer);
      if (p?.success) resolve(socket);
      else reject(new Error(`socket authentication failed: ${p?.message}`));
    });
    socket.once('connect_error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

function connectEcho(url: string, room: string): Promise<Socket> {
  const socket = io(url, { auth: { room }, transports: ['websocket'], forceNew: true, reconnection: false });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

function emitAck(socket: Socket, event: string, payload: unknown, timeoutMs = 60000): Promise<Any> {
  return new Promise((resolve) => {
    socket
      .timeout(timeoutMs)
      .emit(event, payload, (err: Error | null, ack: Any) =>
        resolve(err ? { ok: false, message: `${event}: no ack` } : ack),
      );
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `fn` over `items` with at most `limit` in flight. */
async function pool<T>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

const code = (c: { suit: string; rank: number }) => `${c.suit}${c.rank}`;

// ------------------------------------------------------------------ tables

/** Per table: which seats are bots, and the cards / bids already counted (only the table's first socket counts). */
class Table {
  gameId = '';
  bots = [false, false, false, false];
  hand = -1;
  counted = new Set<string>();
  countedBids = [false, false, false, false];
  closed = false;

  constructor(readonly index: number) {}

  newHand(handNumber: number): void {
    if (handNumber === this.hand) return;
    this.hand = handNumber;
    this.counted.clear();
    this.countedBids = [false, false, false, false];
  }

  countCard(seat: number, c: { suit: string; rank: number }): void {
    const k = code(c);
    if (this.counted.has(k)) return;
    this.counted.add(k);
    this.count(seat);
  }

  countBids(bids: readonly (number | null)[]): void {
    for (let s = 0; s < 4; s++) {
      if (bids[s] !== null && bids[s] !== undefined && !this.countedBids[s]) {
        this.countedBids[s] = true;
        this.count(s);
      }
    }
  }

  private count(seat: number): void {
    if (!measuring) return;
    actions++;
    if (this.bots[seat]) botActions++;
  }
}

interface Pending {
  kind: 'bid' | 'card';
  t0: number;
  card?: string;
  acked: boolean;
  updated: boolean;
  window: boolean;
}

/** One socket at a table: a human seat (plays) or a spectator (watches). */
class Member {
  socket!: Socket;
  mySeat: number | null;
  status = '';
  handNumber = 0;
  hand: Card[] = [];
  handHidden = false;
  bids: (number | null)[] = [null, null, null, null];
  trick: { playerIndex: number; suit: string; rank: number }[] = [];
  trickPending = false;
  spadesBroken = false;
  turn: number | null = null;
  settings: GameSettings = BENCH_SETTINGS;
  lastKey = '';
  timer: NodeJS.Timeout | null = null;
  /** The scheduled time of the next action, once a turn reserved it. */
  slot: number | null = null;
  pending: Pending | null = null;
  seq = 0;
  lastEventAt = 0;
  /** Storm: the view before the drop and the moment the same view came back. */
  before: ViewKey | null = null;
  recoveredAt: number | null = null;
  mismatch: string | null = null;

  constructor(
    readonly table: Table,
    readonly user: User,
    seat: number | null,
    readonly counts: boolean,
    readonly scheduler: SeatScheduler | null,
    /** Index of the node this socket connects to. */
    readonly node = 0,
    /** Index of this socket in the process's `members` (`Collected.where`). */
    readonly index = 0,
  ) {
    this.mySeat = seat;
  }

  get isPlayer(): boolean {
    return this.scheduler !== null;
  }

  attach(socket: Socket): void {
    this.socket = socket;
    // the fan-out's size: every server event as socket.io writes it (packet type + JSON of [event, ...args])
    socket.onAny((event: string, ...args: unknown[]) => {
      if (measuring) rxBytes[event] = (rxBytes[event] ?? 0) + 1 + Buffer.byteLength(JSON.stringify([event, ...args]));
    });
    const on = (event: string, fn: (p: Any) => void) =>
      socket.on(event, (p: Any) => {
        this.lastEventAt = Date.now();
        if (p?.gameId !== undefined && this.table.gameId && p.gameId !== this.table.gameId) return;
        fn(p);
      });
    on('game_update', (v) => this.onView(v));
    on('new_hand_started', (p) => {
      this.handNumber = p.handNumber;
      if (this.counts) this.table.newHand(p.handNumber);
      if (this.mySeat !== null) this.hand = (p.hands?.[this.mySeat] ?? []).slice();
      this.handHidden = !!p.handHidden;
      this.bids = [null, null, null, null];
      this.trick = [];
      this.trickPending = false;
      this.spadesBroken = false;
      this.status = 'BIDDING';
      this.turn = p.currentBidderIndex ?? null;
      this.maybeAct();
    });
    on('bidding_ready', (p) => {
      this.turn = p.currentBidderIndex ?? null;
      this.maybeAct();
    });
    on('bidding_update', (p) => this.onBids(p.bids, p.currentBidderIndex ?? null));
    on('bidding_complete', (p) => this.onBids(p.bids, this.turn));
    on('play_start', (p) => {
      this.status = 'PLAYING';
      this.trick = p.currentTrick ?? [];
      this.turn = p.currentPlayerIndex ?? null;
      this.maybeAct();
    });
    on('play_update', (p) => {
      this.status = 'PLAYING';
      this.trick = p.currentTrick ?? [];
      this.turn = p.currentPlayerIndex ?? null;
      this.spadesBroken = !!p.spadesBroken;
      this.onTrickCards(this.trick);
      this.maybeAct();
    });
    on('trick_complete', (p) => {
      this.onTrickCards(p.trick?.cards ?? []);
      this.trick = [];
      this.trickPending = true;
      this.turn = p.trick?.winnerIndex ?? this.turn;
      this.maybeAct();
    });
    on('clear_trick', () => {
      this.trickPending = false;
    });
    on('hand_completed', () => {
      this.status = 'HAND_COMPLETED';
      this.turn = null;
      if (this.isPlayer) socket.emit('start_new_hand', { gameId: this.table.gameId });
    });
    on('game_over', () => {
      this.status = 'COMPLETED';
      this.turn = null;
      if (this.isPlayer) socket.emit('play_again', { gameId: this.table.gameId });
    });
    on('game_closed', () => {
      this.table.closed = true;
      this.status = 'CLOSED';
    });
    socket.on('error', (p: Any) => error(`error event: ${p?.event ?? '?'}: ${p?.message ?? p}`));
    socket.on('disconnect', (reason) => {
      if (!stormActive && !stopping) error(`disconnect: ${reason}`);
    });
    socket.on('authenticated', (p: Any) => {
      // after a reconnect (the first one is awaited by connect()): back to the table with the exact view
      if (stormActive && p?.success) this.rejoin();
    });
  }

  rejoin(): void {
    const gameId = this.table.gameId;
    const event = this.isPlayer ? 'join_game' : 'join_game_as_spectator';
    void emitAck(this.socket, event, { gameId }).then((ack) => {
      if (!ack?.ok) error(`${event} after reconnect: ${ack?.message}`);
    });
  }

  private onBids(bids: (number | null)[] | undefined, turn: number | null): void {
    if (Array.isArray(bids)) {
      this.bids = bids.slice();
      if (this.counts) this.table.countBids(bids);
      const p = this.pending;
      if (p && p.kind === 'bid' && !p.updated && this.mySeat !== null && bids[this.mySeat] !== null) this.updated(p);
    }
    this.turn = turn;
    this.maybeAct();
  }

  private onTrickCards(cards: readonly { playerIndex: number; suit: string; rank: number }[]): void {
    for (const c of cards) {
      if (this.counts) this.table.countCard(c.playerIndex, c);
      if (c.playerIndex === this.mySeat) {
        const k = code(c);
        const i = this.hand.findIndex((h) => code(h) === k);
        if (i >= 0) this.hand.splice(i, 1);
        const p = this.pending;
        if (p && p.kind === 'card' && !p.updated && p.card === k) this.updated(p);
      }
    }
  }

  private onView(v: Any): void {
    if (!this.table.gameId) this.table.gameId = v.id;
    this.settings = v.settings ?? this.settings;
    this.status = v.status;
    this.handNumber = v.handNumber;
    if (this.counts) {
      this.table.newHand(v.handNumber);
      this.table.bots = (v.players ?? []).map((p: Any) => p?.type === 'bot');
    }
    if (v.mySeat !== null && v.mySeat !== undefined) this.mySeat = v.mySeat;
    this.hand = this.mySeat !== null ? (v.hands?.[this.mySeat] ?? []).slice() : [];
    this.handHidden = !!v.handHidden;
    this.bids = (v.bidding?.bids ?? [null, null, null, null]).slice();
    this.trickPending = !!v.play?.trickPending;
    this.trick = this.trickPending ? [] : (v.play?.currentTrick ?? []);
    this.spadesBroken = !!v.play?.spadesBroken;
    this.turn = v.currentPlayerIndex ?? null;
    if (v.status === 'BIDDING' || v.status === 'PLAYING') {
      this.onBids(this.bids, this.turn);
      this.onTrickCards(v.play?.currentTrick ?? []);
      if (v.play?.lastTrick) this.onTrickCards(v.play.lastTrick.cards ?? []);
    }
    if (stormActive && this.before && this.recoveredAt === null) this.checkRecovered(v);
    this.maybeAct();
  }

  // ---------------------------------------------------------------- playing

  private turnKey(): string {
    const bidsMade = this.bids.filter((b) => b !== null).length;
    // a full trick (4 cards) on display is the same turn as the empty next trick once trick_complete arrives
    return `${this.handNumber}:${this.status}:${bidsMade}:${this.hand.length}:${this.trick.length % 4}`;
  }

  private myTurn(): boolean {
    return (
      this.isPlayer &&
      this.mySeat !== null &&
      this.turn === this.mySeat &&
      (this.status === 'BIDDING' || (this.status === 'PLAYING' && this.hand.length > 0))
    );
  }

  maybeAct(): void {
    if (paused || this.timer || !this.myTurn() || (this.pending && !this.pending.acked)) return;
    const key = this.turnKey();
    if (key === this.lastKey) return;
    const now = performance.now();
    // the slot stays reserved until an action uses it (a turn seen twice must not take two slots)
    this.slot ??= this.scheduler!.next(now);
    this.timer = setTimeout(
      () => {
        this.timer = null;
        if (paused || !this.myTurn() || (this.pending && !this.pending.acked)) return this.maybeAct();
        const current = this.turnKey();
        if (current === this.lastKey) return;
        this.slot = null;
        this.act(current);
      },
      Math.max(0, this.slot - now),
    );
  }

  private act(key: string): void {
    const gameId = this.table.gameId;
    const seat = this.mySeat!;
    this.lastKey = key;
    const actionId = `${this.user.username}-${++this.seq}`;
    if (this.status === 'BIDDING') {
      if (this.handHidden) {
        this.socket.emit('reveal_cards', { gameId, actionId: `${actionId}r` });
        return;
      }
      const legal = computeLegalBids(this.settings, seat as 0, this.hand, this.bids, true).bids;
      if (!legal.length) return;
      const bid = chooseBid(this.hand, legal);
      this.send(
        'make_bid',
        { gameId, bid, actionId },
        { kind: 'bid', t0: 0, acked: false, updated: false, window: measuring },
      );
    } else {
      const trick =
        this.trick.length >= 4
          ? []
          : this.trick.map((c) => ({ seat: c.playerIndex as 0, card: { suit: c.suit, rank: c.rank } as Card }));
      const legal = computeLegalCards(this.settings, this.hand, trick, this.spadesBroken);
      if (!legal.length) return;
      const card = legal[Math.floor(Math.random() * legal.length)];
      this.send(
        'play_card',
        { gameId, card, actionId },
        { kind: 'card', t0: 0, card: code(card), acked: false, updated: false, window: measuring },
      );
    }
  }

  private send(event: string, payload: Any, p: Pending): void {
    this.pending = p;
    p.t0 = performance.now();
    this.socket.timeout(30000).emit(event, payload, (err: Error | null, ack: Any) => {
      if (err) error(`${event}: no ack within 30 s`);
      else if (!ack?.ok) error(`${event}: ${ack?.message}`);
      else if (p.window && measuring) {
        ackMs.push(performance.now() - p.t0);
        ackWhere.push(this.index);
      }
      p.acked = true;
      if (err || !ack?.ok) this.lastKey = ''; // refused: try again on the next update
      this.maybeAct();
    });
  }

  private updated(p: Pending): void {
    p.updated = true;
    if (p.window && measuring) updateMs.push(performance.now() - p.t0);
  }

  // ---------------------------------------------------------------- storm

  /** Waiting for one of our humans (no trick on display, nothing scheduled): nothing changes until it acts. */
  quiet(): boolean {
    if (this.table.closed) return true;
    if (this.status !== 'BIDDING' && this.status !== 'PLAYING') return false;
    if (this.trickPending || (this.pending && !this.pending.acked)) return false;
    return this.turn !== null && !this.table.bots[this.turn];
  }

  snapshot(): ViewKey {
    return {
      handNumber: this.handNumber,
      hand: this.hand.map(code).sort(),
      bids: this.bids.slice(),
      trick: this.trick.map((c) => `${c.playerIndex}:${code(c)}`),
      turn: this.turn,
    };
  }

  private checkRecovered(v: Any): void {
    const a = JSON.stringify(viewKeyOf(v as Parameters<typeof viewKeyOf>[0], this.mySeat));
    const e = JSON.stringify(this.before);
    if (a === e) {
      this.recoveredAt = performance.now();
      this.mismatch = null;
    } else this.mismatch = `expected ${e} got ${a}`;
  }
}

// ------------------------------------------------------------------ setup

let members: Member[] = [];
let tables: Table[] = [];
let stormActive = false;
let stopping = false;

async function setup(c: Extract<Command, { cmd: 'setup' }>): Promise<void> {
  const t0 = performance.now();
  const interval = SeatScheduler.intervalFor(c.rate, c.totalTables, c.humans);
  const perTable = c.humans + c.spectators;
  // 1. users (argon2 on the server: keep a few registrations in flight). A table's spectator sockets share one
  // account (one person watching from several devices): each socket still gets that table's events, and a storm of
  // thousands of sockets does not need thousands of registrations
  const accounts = c.humans + (c.spectators > 0 ? 1 : 0);
  urls = c.urls;
  stickyHttp = c.http === 'sticky';
  // socket k of table ti is the run's socket ti · perTable + k: round-robin over the nodes
  const nodeOf = (ti: number, k: number) => (ti * perTable + k) % urls.length;
  const names: string[] = [];
  for (const ti of c.tables) for (let k = 0; k < accounts; k++) names.push(benchUsername(c.runId, ti, k));
  const users: User[] = new Array(names.length);
  await pool(names, 8, async (name, i) => {
    users[i] = await register(name);
  });
  const tRegistered = performance.now();
  tables = c.tables.map((i) => new Table(i));
  members = [];
  const byTable: Member[][] = [];
  c.tables.forEach((ti, j) => {
    const list: Member[] = [];
    // one schedule per table, shared by its human seats
    const sched = new SeatScheduler(interval, Math.random() * interval);
    for (let k = 0; k < perTable; k++) {
      const human = k < c.humans;
      const user = users[j * accounts + Math.min(k, c.humans)];
      const index = members.length + list.length;
      list.push(new Member(tables[j], user, human ? k : null, k === 0, human ? sched : null, nodeOf(ti, k), index));
      if (!userNode.has(user.id)) userNode.set(user.id, c.urls[nodeOf(ti, k)]);
    }
    byTable.push(list);
    members.push(...list);
  });
  // 2. tables over HTTP, in parallel batches, BEFORE any socket connects: a server that broadcasts every lobby change
  // to every socket would otherwise bury the setup under its own lobby traffic (a seated human gets its exact view
  // from join_game below, like any client that connects to a running table)
  await pool(byTable, c.batch, async (list) => {
    const host = list[0];
    const created = await api(host.user, 'POST', '/api/games', BENCH_SETTINGS);
    const gameId = created.id as string;
    host.table.gameId = gameId;
    for (let s = 1; s < 4; s++) {
      if (s < c.humans) await api(list[s].user, 'POST', `/api/games/${gameId}/join`, { seat: s });
      else await api(host.user, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex: s });
    }
    if (list.length > c.humans) await api(list[c.humans].user, 'POST', `/api/games/${gameId}/spectate`, {});
    await api(host.user, 'POST', `/api/games/${gameId}/start`, {});
  });
  const tCreated = performance.now();
  // 3. sockets: connect, then join_game (players) / join_game_as_spectator: the exact view, and play from there
  await pool(members, 50, async (m) => {
    const s = await connect(c.urls[m.node], { token: m.user.token }, true);
    m.attach(s);
    const event = m.isPlayer ? 'join_game' : 'join_game_as_spectator';
    const ack = await emitAck(s, event, { gameId: m.table.gameId });
    if (!ack.ok) throw new Error(`${event}: ${ack.message}`);
  });
  const tConnected = performance.now();
  send({
    cmd: 'ready',
    registerMs: Math.round(tRegistered - t0),
    createMs: Math.round(tCreated - tRegistered),
    connectMs: Math.round(tConnected - tCreated),
  });
}

function cpuSinceMark(): number {
  const u = process.cpuUsage(markCpu);
  return Math.round(((u.user + u.system) / 1000 / Math.max(1, performance.now() - markAt)) * 100);
}

function collect(): Collected {
  return {
    actions,
    botActions,
    ackMs,
    updateMs,
    errors,
    errorSamples,
    tablesPlaying: tables.filter((t) => !t.closed).length,
    cpuPct: cpuSinceMark(),
    ackWhere,
    eventLoopP99Ms: loopDelayP99Ms(),
    where: members.map((m) => [m.table.gameId, m.node]),
    rxBytes,
  };
}

// ------------------------------------------------------------------ storm

async function stormPrepare(timeoutMs: number): Promise<void> {
  paused = true;
  for (const m of members) {
    if (m.timer) clearTimeout(m.timer);
    m.timer = null;
  }
  const t0 = Date.now();
  for (;;) {
    const now = Date.now();
    const waiting = members.filter((m) => !m.quiet()).length;
    const lastEvent = Math.max(0, ...members.map((m) => m.lastEventAt));
    if (waiting === 0 && now - lastEvent > 500) break;
    if (now - t0 > timeoutMs) {
      send({ cmd: 'storm-ready', ok: false, notQuiet: waiting });
      return;
    }
    await sleep(100);
  }
  for (const m of members) {
    m.before = m.table.closed ? null : m.snapshot();
    m.recoveredAt = null;
    m.mismatch = null;
  }
  send({ cmd: 'storm-ready', ok: true, sockets: members.length });
}

async function storm(timeoutMs: number): Promise<void> {
  stormActive = true;
  const watched = members.filter((m) => m.before);
  const t0 = performance.now();
  // drop every transport at once: socket.io-client sees "transport close" and reconnects with its usual backoff
  for (const m of members) (m.socket.io as unknown as { engine: { close(): void } }).engine.close();
  while (performance.now() - t0 < timeoutMs && watched.some((m) => m.recoveredAt === null)) await sleep(50);
  const missing = watched.filter((m) => m.recoveredAt === null);
  const last = Math.max(0, ...watched.map((m) => (m.recoveredAt ?? t0) - t0));
  for (const m of missing.slice(0, 3)) error(`storm: not back with its view: ${m.mismatch ?? 'no game_update'}`);
  if (missing.length) errors += Math.max(0, missing.length - 3);
  stormActive = false;
  paused = false;
  for (const m of members) {
    m.before = null;
    m.lastKey = '';
    m.maybeAct();
  }
  send({
    cmd: 'storm-done',
    recoveryMs: missing.length ? null : last,
    recovered: watched.length - missing.length,
    sockets: watched.length,
  });
}

// ------------------------------------------------------------------ echo baseline

async function echo(c: Extract<Command, { cmd: 'echo' }>): Promise<void> {
  const sockets: Socket[] = [];
  const list = Array.from({ length: c.sockets }, (_x, i) => i);
  await pool(list, 50, async (i) => {
    sockets[i] = await connectEcho(c.url, `t${c.tableOffset + Math.floor(i / Math.max(1, c.humans))}`);
  });
  const samples: number[] = [];
  let echoErrors = 0;
  let credit = 0;
  let next = 0;
  let last = performance.now();
  const end = last + c.seconds * 1000;
  loopDelay.reset();
  loopDelay.enable();
  await new Promise<void>((resolve) => {
    const tick = setInterval(() => {
      const now = performance.now();
      credit += ((now - last) / 1000) * c.rate;
      last = now;
      while (credit >= 1) {
        credit -= 1;
        const s = sockets[next++ % sockets.length];
        const t0 = performance.now();
        s.timeout(30000).emit('act', { n: next }, (err: Error | null) => {
          if (err) echoErrors++;
          else samples.push(performance.now() - t0);
        });
      }
      if (now >= end) {
        clearInterval(tick);
        resolve();
      }
    }, 10);
  });
  await sleep(500);
  for (const s of sockets) s.close();
  send({ cmd: 'echo-done', ackMs: samples, errors: echoErrors, eventLoopP99Ms: loopDelayP99Ms() });
}

// ------------------------------------------------------------------ IPC

process.on('message', (c: Command) => {
  const run = async () => {
    switch (c.cmd) {
      case 'setup':
        return setup(c);
      case 'mark':
        measuring = true;
        actions = 0;
        botActions = 0;
        ackMs = [];
        ackWhere = [];
        updateMs = [];
        rxBytes = {};
        markCpu = process.cpuUsage();
        markAt = performance.now();
        loopDelay.reset();
        loopDelay.enable();
        return send({ cmd: 'marked' });
      case 'collect':
        measuring = false;
        return send({ cmd: 'collected', ...collect() });
      case 'storm-prepare':
        return stormPrepare(c.timeoutMs);
      case 'storm':
        return storm(c.timeoutMs);
      case 'echo':
        return echo(c);
      case 'close-game':
        stopping = true;
        paused = true;
        for (const m of members) {
          if (m.timer) clearTimeout(m.timer);
          m.socket?.close();
        }
        return send({ cmd: 'closed' });
      case 'stop':
        stopping = true;
        process.exit(0);
    }
  };
  run().catch((e: unknown) => send({ cmd: 'failed', message: e instanceof Error ? e.message : String(e) }));
});
process.on('disconnect', () => process.exit(0));

/** Letters and digits that no look-alike rule of `nameKey` (common/src/protocol/text.ts) folds together. */
const NAME_DIGITS = '23456789abcdefghjkpqstuxyz';
const distinct = (n: number): string => {
  let out = '';
  do {
    out = NAME_DIGITS[n % NAME_DIGITS.length] + out;
    n = Math.floor(n / NAME_DIGITS.length);
  } while (n > 0);
  return out;
};

/**
 * The bench account of table `ti`, socket `k`: unique under the server's look-alike rule (issue #24), which
 * refused base-36 names such as table 1 (`…1x0`) next to table 18 (`…ix0`) as "already taken".
 */
export function benchUsername(runId: string, ti: number, k: number): string {
  return `lb${distinct(parseInt(runId, 16) || 0)}${distinct(ti)}x${distinct(k)}`.slice(0, 20);
}
