/**
 * The table-playing logic of a client process: per table the seats and the actions counted, per socket its view of
 * the table (from the events it receives), its turns at the scheduled rate, the timing of its actions, and its part
 * in the storm (the view before the drop, the same view back).
 */
import { performance } from 'node:perf_hooks';
import { Socket } from 'socket.io-client';
import { Card, computeLegalBids, computeLegalCards, GameSettings } from '@spades/common';
import { chooseBid, SeatScheduler, ViewKey, viewKeyOf } from './stats';
import { BENCH_SETTINGS } from './clients.protocol';
import { Any, emitAck, User } from './clients.http';
import { counters, error, flags } from './clients.state';

const code = (c: { suit: string; rank: number }) => `${c.suit}${c.rank}`;

/** Per table: which seats are bots, and the cards / bids already counted (only the table's first socket counts). */
export class Table {
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
    if (!counters.measuring) return;
    counters.actions++;
    if (this.bots[seat]) counters.botActions++;
  }
}

export interface Pending {
  kind: 'bid' | 'card';
  t0: number;
  card?: string;
  acked: boolean;
  updated: boolean;
  window: boolean;
}

/** One socket at a table: a human seat (plays) or a spectator (watches). */
export class Member {
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
      if (counters.measuring)
        counters.rxBytes[event] =
          (counters.rxBytes[event] ?? 0) + 1 + Buffer.byteLength(JSON.stringify([event, ...args]));
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
      if (!flags.stormActive && !flags.stopping) error(`disconnect: ${reason}`);
    });
    socket.on('authenticated', (p: Any) => {
      // after a reconnect (the first one is awaited by connect()): back to the table with the exact view
      if (flags.stormActive && p?.success) this.rejoin();
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
    if (flags.stormActive && this.before && this.recoveredAt === null) this.checkRecovered(v);
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
    if (flags.paused || this.timer || !this.myTurn() || (this.pending && !this.pending.acked)) return;
    const key = this.turnKey();
    if (key === this.lastKey) return;
    const now = performance.now();
    // the slot stays reserved until an action uses it (a turn seen twice must not take two slots)
    this.slot ??= this.scheduler!.next(now);
    this.timer = setTimeout(
      () => {
        this.timer = null;
        if (flags.paused || !this.myTurn() || (this.pending && !this.pending.acked)) return this.maybeAct();
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
        { kind: 'bid', t0: 0, acked: false, updated: false, window: counters.measuring },
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
        { kind: 'card', t0: 0, card: code(card), acked: false, updated: false, window: counters.measuring },
      );
    }
  }

  private send(event: string, payload: Any, p: Pending): void {
    this.pending = p;
    p.t0 = performance.now();
    this.socket.timeout(30000).emit(event, payload, (err: Error | null, ack: Any) => {
      if (err) error(`${event}: no ack within 30 s`);
      else if (!ack?.ok) error(`${event}: ${ack?.message}`);
      else if (p.window && counters.measuring) {
        counters.ackMs.push(performance.now() - p.t0);
        counters.ackWhere.push(this.index);
      }
      p.acked = true;
      if (err || !ack?.ok) this.lastKey = ''; // refused: try again on the next update
      this.maybeAct();
    });
  }

  private updated(p: Pending): void {
    p.updated = true;
    if (p.window && counters.measuring) counters.updateMs.push(performance.now() - p.t0);
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
