/**
 * Issue #27, e2e: scripted tournament players from node — real accounts (HTTP), a real socket.io client each. They
 * register over HTTP, take their reserved seat with `join_game` when `tournament_match_ready` arrives, and play the
 * server's legal bids and cards from their own `game_update` view. Bids end a game in one hand (default min points
 * -100): even seats bid the most, odd seats the least non-nil bid (the idea of backend/test/tournaments/scripted-player.ts,
 * without its backend test harness).
 */
import { io, type Socket } from 'socket.io-client';
import { apiRegister, base } from './helpers';

type Ack = { ok: boolean; message?: string; [k: string]: unknown };

interface View {
  id: string;
  status: string;
  mySeat: number | null;
  currentPlayerIndex: number | null;
  handHidden?: boolean;
  gameNumber?: number;
  handNumber?: number;
  bidding: { bids: (number | null)[] };
  play: { trickNumber: number; currentTrick: unknown[] };
  legalBids?: { bids: number[] } | null;
  legalCards?: unknown[];
}

export class TournamentBot {
  readonly errors: string[] = [];
  readonly joined = new Set<string>();
  private readonly acted = new Set<string>();
  private seq = 0;

  private constructor(
    readonly id: string,
    readonly username: string,
    readonly token: string,
    private readonly socket: Socket,
  ) {
    socket.onAny((event: string, payload: unknown) => this.onEvent(event, payload));
  }

  static async create(prefix: string): Promise<TournamentBot> {
    const u = await apiRegister(prefix);
    const socket = io(base(), { auth: { token: u.token }, transports: ['websocket'], forceNew: true });
    await new Promise<void>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error('bot socket: no authenticated event')), 10_000);
      socket.once('authenticated', () => {
        clearTimeout(t);
        resolve();
      });
    });
    return new TournamentBot(u.id, u.username, u.token, socket);
  }

  async http<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${base()}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${this.token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json().catch(() => null)) as T & { message?: string };
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${JSON.stringify(json)}`);
    return json;
  }

  close(): void {
    this.socket.close();
  }

  private emit(event: string, payload: unknown): Promise<Ack> {
    return new Promise((resolve) => this.socket.emit(event, payload, (r: Ack) => resolve(r)));
  }

  private onEvent(event: string, payload: unknown): void {
    if (event === 'tournament_match_ready') {
      const p = payload as { gameId: string };
      if (this.joined.has(p.gameId)) return;
      this.joined.add(p.gameId);
      void this.emit('join_game', { gameId: p.gameId }).then((a) => {
        if (!a.ok) this.errors.push(`join ${p.gameId}: ${a.message}`);
      });
    } else if (event === 'game_update') {
      this.act(payload as View);
    }
  }

  private act(v: View): void {
    if (!v || v.mySeat === null || v.mySeat === undefined || !this.joined.has(v.id)) return;
    const seat = v.mySeat;
    if (v.status === 'HAND_COMPLETED') {
      const key = `${v.id}:${v.gameNumber}:${v.handNumber}:next`;
      if (this.acted.has(key)) return;
      this.acted.add(key);
      void this.emit('start_new_hand', { gameId: v.id });
      return;
    }
    if (v.currentPlayerIndex !== seat) return;
    const key = `${v.id}:${v.gameNumber}:${v.handNumber}:${v.status}:${(v.bidding?.bids ?? []).join(',')}:${v.play?.trickNumber}:${v.play?.currentTrick?.length}:${v.handHidden}`;
    if (this.acted.has(key)) return;
    if (v.status === 'BIDDING' && v.handHidden) {
      this.acted.add(key);
      void this.emit('reveal_cards', { gameId: v.id });
    } else if (v.status === 'BIDDING') {
      const legal = v.legalBids?.bids ?? [];
      if (!legal.length) return;
      this.acted.add(key);
      const nonNil = legal.filter((b) => b > 0);
      const pool = nonNil.length ? nonNil : legal;
      const bid = seat % 2 === 0 ? Math.max(...pool) : Math.min(...pool);
      void this.emit('make_bid', { gameId: v.id, bid, actionId: `b${++this.seq}` }).then((a) => {
        if (!a.ok) this.errors.push(`bid: ${a.message}`);
      });
    } else if (v.status === 'PLAYING') {
      const legal = v.legalCards ?? [];
      if (!legal.length) return;
      this.acted.add(key);
      void this.emit('play_card', { gameId: v.id, card: legal[0], actionId: `p${++this.seq}` }).then((a) => {
        if (!a.ok) this.errors.push(`play: ${a.message}`);
      });
    }
  }
}
