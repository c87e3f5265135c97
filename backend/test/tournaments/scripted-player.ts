/**
 * Issue #27: a scripted tournament player — a real account (registered through the HTTP API), a real socket.io
 * client with its token, that registers for a tournament over HTTP (alone or with a friend as partner), listens for
 * `tournament_match_ready`, takes its reserved seat with `join_game` and plays legal bids and cards from ITS OWN
 * `game_update` view until the game is over. Legal moves are computed with common's rules helpers from the view it
 * received (and compared with the server's `legalBids` / `legalCards`: any difference is recorded as an error).
 * Options: a no-show (never joins its match table) and a leaver (`leave_game` after some card plays of one game).
 */
import {
  Card,
  computeLegalBids,
  computeLegalCards,
  mulberry32,
  randomInt,
  type GameOver,
  type GameUpdate,
  type RegisterTournamentInput,
  type Seat,
  type TournamentHistoryItem,
  type TournamentMatchReady,
  type TournamentView,
  type TrickCard,
} from '@spades/common';
import { api, connectSocket, registerUser, type HttpResult, type RegisteredUser } from '../support/test-app';

/** A game action's acknowledgement. */
type AckResult = { ok: true; [k: string]: unknown } | { ok: false; message: string; code?: string };

/** socket.io's untyped surface (the tournament events are not all in the typed event maps). */
interface LooseSocket {
  on(event: string, fn: (payload: unknown) => void): void;
  onAny(fn: (event: string, payload: unknown) => void): void;
  emit(event: string, payload: unknown, ack: (res: AckResult) => void): void;
  close(): void;
  connected: boolean;
}

/** What the player decides to bid: one of `legal` (its own computation). */
export type BidStrategy = (ctx: { seat: number; legal: number[]; hand: readonly Card[]; mode: string }) => number;

/**
 * Ends a game in one hand: in PARTNERS seats 0 and 2 bid 13 each (that side is set far below the minimum), seats 1
 * and 3 the least non-nil bid; in SOLO the even seats bid 13 and the odd ones 1. Deterministic, always legal.
 */
export const endFast: BidStrategy = ({ seat, legal }) => {
  const nonNil = legal.filter((b) => b > 0);
  const pool = nonNil.length ? nonNil : legal;
  return seat % 2 === 0 ? Math.max(...pool) : Math.min(...pool);
};

export interface ScriptedPlayerOptions {
  /** Username prefix. */
  prefix?: string;
  /** Never takes its seat (the match must be a walkover for it / its team). */
  noShow?: boolean;
  /** Leaves its `leaveInMatch`-th game (1-based, default 1) with `leave_game` after this many own card plays. */
  leaveAfterPlays?: number;
  leaveInMatch?: number;
  /** Seed of the card choice (uniform among its legal cards). */
  seed?: number;
  bid?: BidStrategy;
}

/** One table the player joined (or was told to join). */
export interface PlayedGame {
  gameId: string;
  matchId: string;
  tournamentId: string;
  round: number;
  /** Ack of `join_game` (null: not joined — a no-show). */
  joinAck: AckResult | null;
  seat: number | null;
  view: GameUpdate | null;
  over: GameOver | null;
  bids: number;
  plays: number;
  left: boolean;
}

export class ScriptedPlayer {
  /** Every `tournament_match_ready` received, in order. */
  readonly ready: TournamentMatchReady[] = [];
  /** Every `tournament_updated` received (after `watch`). */
  readonly updates: TournamentView[] = [];
  /** Tables by game id. */
  readonly games = new Map<string, PlayedGame>();
  /** Socket `error` events, refused acks and legal-move disagreements with the server: must stay empty. */
  readonly errors: string[] = [];
  private readonly acted = new Set<string>();
  private readonly rng: () => number;
  private seq = 0;
  /** Game ids of the tables it joined, in order. */
  private readonly joined: string[] = [];

  private constructor(
    readonly url: string,
    readonly user: RegisteredUser,
    private readonly socket: LooseSocket,
    readonly opts: ScriptedPlayerOptions,
  ) {
    this.rng = mulberry32(opts.seed ?? 1);
    socket.onAny((event, payload) => this.onEvent(event, payload));
  }

  /** Registers a new account over HTTP and connects its socket (listeners attached before connecting). */
  static async create(url: string, opts: ScriptedPlayerOptions = {}): Promise<ScriptedPlayer> {
    const user = await registerUser(url, opts.prefix ? { username: uniqueUsername(opts.prefix) } : {});
    // events that arrive between `authenticated` and the constructor are replayed to it
    const early: { pending: [string, unknown][] | null } = { pending: [] };
    const socket = await connectSocket(url, user.token, {
      setup: (s) => (s as unknown as LooseSocket).onAny((e, p) => early.pending?.push([e, p])),
    });
    const player = new ScriptedPlayer(url, user, socket as unknown as LooseSocket, opts);
    for (const [e, p] of early.pending ?? []) player.onEvent(e, p);
    early.pending = null;
    return player;
  }

  get id(): string {
    return this.user.user.id;
  }

  get username(): string {
    return this.user.user.username;
  }

  http<T>(method: string, path: string, body?: unknown): Promise<HttpResult<T>> {
    return api<T>(this.url, method, path, { token: this.user.token, body });
  }

  /** Makes `other` and this player friends both ways (POST /api/social/friends/add from each side). */
  async befriend(other: ScriptedPlayer): Promise<void> {
    for (const [a, b] of [
      [this, other],
      [other, this],
    ] as const) {
      const r = await a.http<{ status: string }>('POST', '/api/social/friends/add', { friendId: b.id });
      if (r.status !== 200 && r.status !== 201) throw new Error(`friends/add ${r.status}: ${JSON.stringify(r.body)}`);
    }
  }

  /** POST /api/tournaments/:id/register (with `partnerId`: registers the team). */
  register(tournamentId: string, partner?: ScriptedPlayer): Promise<HttpResult<TournamentView & { message?: string }>> {
    const body: RegisterTournamentInput = partner ? { partnerId: partner.id } : {};
    return this.http('POST', `/api/tournaments/${tournamentId}/register`, body);
  }

  unregister(tournamentId: string): Promise<HttpResult<TournamentView & { message?: string }>> {
    return this.http('POST', `/api/tournaments/${tournamentId}/unregister`, {});
  }

  view(tournamentId: string): Promise<HttpResult<TournamentView>> {
    return this.http('GET', `/api/tournaments/${tournamentId}`);
  }

  history(userId = this.id): Promise<HttpResult<TournamentHistoryItem[]>> {
    return this.http('GET', `/api/users/${userId}/tournaments`);
  }

  /** `watch_tournament` (ack): `tournament_updated` events are recorded in `updates`. */
  watch(tournamentId: string): Promise<AckResult> {
    return this.emit('watch_tournament', { tournamentId });
  }

  emit(event: string, payload: unknown): Promise<AckResult> {
    return new Promise((resolve) => this.socket.emit(event, payload, resolve));
  }

  /** Games this player was told to join, in the order of the `tournament_match_ready` events. */
  gamesOf(tournamentId: string): PlayedGame[] {
    return [...this.games.values()].filter((g) => g.tournamentId === tournamentId);
  }

  waitFor(pred: () => boolean, timeoutMs: number, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const t0 = Date.now();
      const iv = setInterval(() => {
        if (pred()) {
          clearInterval(iv);
          resolve();
        } else if (Date.now() - t0 > timeoutMs) {
          clearInterval(iv);
          reject(new Error(`timeout waiting for ${what} (${this.username})`));
        }
      }, 20);
    });
  }

  close(): void {
    this.socket.close();
  }

  private onEvent(event: string, payload: unknown): void {
    switch (event) {
      case 'error':
        this.errors.push(`error event: ${JSON.stringify(payload)}`);
        return;
      case 'tournament_match_ready':
        this.onMatchReady(payload as TournamentMatchReady);
        return;
      case 'tournament_updated':
        this.updates.push(payload as TournamentView);
        return;
      case 'game_update':
        this.onGameUpdate(payload as GameUpdate);
        return;
      case 'game_over': {
        const g = this.games.get((payload as GameOver).gameId);
        if (g) g.over = payload as GameOver;
        return;
      }
      default:
    }
  }

  private onMatchReady(p: TournamentMatchReady): void {
    this.ready.push(p);
    if (this.games.has(p.gameId)) return; // a repeated notice: already at that table
    const g = this.track(p.gameId, { matchId: p.matchId, tournamentId: p.tournamentId, round: p.round });
    if (!this.opts.noShow) void this.joinTable(g);
  }

  /** Starts following a table (a tournament match's, or any table for a unit check). */
  track(gameId: string, link: { matchId: string; tournamentId: string; round: number }): PlayedGame {
    const known = this.games.get(gameId);
    if (known) return known;
    const g: PlayedGame = {
      gameId,
      ...link,
      joinAck: null,
      seat: null,
      view: null,
      over: null,
      bids: 0,
      plays: 0,
      left: false,
    };
    this.games.set(gameId, g);
    return g;
  }

  /** `join_game` (the reserved seat of a tournament table, or `seat` at a normal table). */
  async joinTable(g: PlayedGame, seat?: number): Promise<AckResult> {
    this.joined.push(g.gameId);
    const ack = await this.emit('join_game', seat === undefined ? { gameId: g.gameId } : { gameId: g.gameId, seat });
    g.joinAck = ack;
    if (!ack.ok) this.errors.push(`join_game ${g.gameId} refused: ${ack.message}`);
    else if (typeof ack.seat === 'number' && g.seat === null) g.seat = ack.seat;
    return ack;
  }

  private onGameUpdate(payload: GameUpdate): void {
    const g = this.games.get(payload.id);
    if (!g || g.left) return;
    // an incremental game_update omits the history and the chat when unchanged: keep the previous ones
    g.view = {
      ...payload,
      history: payload.history ?? g.view?.history ?? [],
      chat: payload.chat ?? g.view?.chat ?? [],
    };
    if (payload.mySeat !== null) g.seat = payload.mySeat;
    this.act(g);
  }

  /** Acts once per situation when it is this player's turn, from its own last view only. */
  private act(g: PlayedGame): void {
    const v = g.view;
    if (!v || v.mySeat === null) return;
    const seat = v.mySeat;
    if (v.status === 'HAND_COMPLETED') {
      const key = `${v.gameNumber}:${v.handNumber}:next`;
      if (!this.acted.has(key)) {
        this.acted.add(key);
        void this.send(g, 'start_new_hand', { gameId: v.id });
      }
      return;
    }
    if (v.currentPlayerIndex !== seat) return;
    const key = `${v.id}:${v.gameNumber}:${v.handNumber}:${v.status}:${v.bidding.bids.join(',')}:${v.play.trickNumber}:${v.play.currentTrick.length}:${v.handHidden}`;
    if (this.acted.has(key)) return;
    const hand = v.hands[seat] ?? [];
    if (v.status === 'BIDDING' && v.handHidden) {
      this.acted.add(key);
      void this.send(g, 'reveal_cards', { gameId: v.id });
    } else if (v.status === 'BIDDING') {
      this.acted.add(key);
      const revealed = true; // the view shows our cards: we looked (or blind nil was never possible)
      const own = computeLegalBids(v.settings, seat as Seat, hand, v.bidding.bids, revealed).bids;
      const server = v.legalBids?.bids ?? [];
      if (!sameNumbers(own, server))
        this.errors.push(`legal bids differ in ${v.id}: own ${own.join(',')} server ${server.join(',')}`);
      const bid = (this.opts.bid ?? endFast)({ seat, legal: own, hand, mode: v.gameMode });
      g.bids++;
      void this.send(g, 'make_bid', { gameId: v.id, bid, actionId: `b${++this.seq}` });
    } else if (v.status === 'PLAYING') {
      this.acted.add(key);
      const trick: TrickCard[] = v.play.currentTrick.map((c) => ({
        seat: c.playerIndex as Seat,
        card: { suit: c.suit, rank: c.rank },
      }));
      const own = computeLegalCards(v.settings, hand, trick, v.play.spadesBroken);
      if (!sameCards(own, v.legalCards))
        this.errors.push(`legal cards differ in ${v.id}: own ${codes(own)} server ${codes(v.legalCards)}`);
      if (!own.length) return;
      if (this.shouldLeave(g)) {
        g.left = true;
        void this.send(g, 'leave_game', { gameId: v.id });
        return;
      }
      const card = own[randomInt(this.rng, own.length)];
      g.plays++;
      void this.send(g, 'play_card', { gameId: v.id, card, actionId: `p${++this.seq}` });
    }
  }

  private shouldLeave(g: PlayedGame): boolean {
    const after = this.opts.leaveAfterPlays;
    if (after === undefined) return false;
    return this.joined.indexOf(g.gameId) + 1 === (this.opts.leaveInMatch ?? 1) && g.plays >= after;
  }

  private async send(g: PlayedGame, event: string, payload: Record<string, unknown>): Promise<void> {
    const ack = await this.emit(event, payload);
    if (!ack.ok) this.errors.push(`${event} in ${g.gameId} refused: ${ack.message}`);
  }
}

let counter = 0;
function uniqueUsername(prefix: string): string {
  counter += 1;
  return `${prefix}${counter}_${Math.random().toString(16).slice(2, 8)}`.slice(0, 20);
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && [...a].sort((x, y) => x - y).every((x, i) => x === [...b].sort((p, q) => p - q)[i]);
}

function codes(cards: readonly Card[]): string {
  return cards
    .map((c) => `${c.rank}${c.suit}`)
    .sort()
    .join(',');
}

function sameCards(a: readonly Card[], b: readonly Card[]): boolean {
  return codes(a) === codes(b);
}
