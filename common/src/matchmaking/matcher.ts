/**
 * Issue #28: the quick-play matcher. Pure and deterministic given `now`: (state, arrivals, leaves, now) → the new
 * state, the tables formed and the tickets offered bots. No I/O, no clock, no randomness: the server (one node, or
 * the node holding the cluster's matching lock) calls `matchStep` on every tick and acts on its result.
 *
 * Rules:
 * - A ticket is one player or a team of two (partners: PARTNERS mode only). Tickets only meet tickets of the same
 *   queue (mode, pace, stake band).
 * - Tables are formed oldest ticket first (the anchor). The allowed rating spread of a table (highest − lowest
 *   rating of its four players) is the anchor's window, which widens with its wait:
 *   `min(maxSpread, baseSpread + spreadPerSecond · wait/1000)`. The anchor is the longest-waiting member, so the
 *   spread of every table is within the window of the wait of its longest-waiting player.
 * - Teams sit as partners (seats 0+2 or 1+3). Four singles in PARTNERS are balanced: best + worst vs the middle two.
 * - A ticket waiting `botOfferAfterMs` without a table is offered bots once (`botOffers`); it stays queued.
 */

export type QueueMode = 'PARTNERS' | 'SOLO';
export type QueuePace = 'normal' | 'fast';

export interface QueuePlayer {
  userId: string;
  rating: number;
}

export interface QueueTicket {
  /** Unique per ticket (the server uses the leader's user id). */
  id: string;
  /** One player, or two partners (PARTNERS only). */
  players: QueuePlayer[];
  mode: QueueMode;
  pace: QueuePace;
  /** Buy-in of the stake band (tickets meet only at the same stake). */
  stake: number;
  joinedAt: number;
}

export interface MatchmakingConfig {
  /** Rating spread allowed at once. */
  baseSpread: number;
  /** Added per second of the anchor's wait. */
  spreadPerSecond: number;
  /** The widest spread ever allowed. */
  maxSpread: number;
  /** Wait after which a ticket is offered bots. */
  botOfferAfterMs: number;
}

export const DEFAULT_MATCHMAKING_CONFIG: MatchmakingConfig = Object.freeze({
  baseSpread: 100,
  spreadPerSecond: 10,
  maxSpread: 800,
  botOfferAfterMs: 60_000,
});

export interface QueueState {
  /** Waiting tickets, in arrival order. */
  tickets: QueueTicket[];
  /** Ids of tickets already offered bots. */
  offered: string[];
}

export interface FormedTable {
  /** Four user ids by seat; partners are seats 0+2 and 1+3. */
  seats: string[];
  /** The tickets that left the queue for this table. */
  tickets: QueueTicket[];
  mode: QueueMode;
  pace: QueuePace;
  stake: number;
  /** Highest − lowest rating of the four players. */
  spread: number;
  /** The window the spread had to fit in (the anchor's). */
  window: number;
}

export interface MatchStepInput {
  arrivals?: QueueTicket[];
  /** Ticket ids or user ids leaving the queue (a user id removes the whole ticket it belongs to). */
  leaves?: string[];
  now: number;
}

export interface MatchStepResult {
  state: QueueState;
  tables: FormedTable[];
  /** Tickets offered bots in this step (each only once while it waits). */
  botOffers: QueueTicket[];
}

export const EMPTY_QUEUE: QueueState = Object.freeze({ tickets: [], offered: [] }) as QueueState;

/** The spread a ticket's wait allows. */
export function spreadWindow(waitMs: number, cfg: MatchmakingConfig = DEFAULT_MATCHMAKING_CONFIG): number {
  return Math.min(cfg.maxSpread, cfg.baseSpread + (cfg.spreadPerSecond * Math.max(0, waitMs)) / 1000);
}

/** The queue a ticket waits in. */
export function queueKey(t: Pick<QueueTicket, 'mode' | 'pace' | 'stake'>): string {
  return `${t.mode}:${t.pace}:${t.stake}`;
}

function ticketRating(t: QueueTicket): number {
  return t.players.reduce((s, p) => s + p.rating, 0) / t.players.length;
}

function byAge(a: QueueTicket, b: QueueTicket): number {
  return a.joinedAt - b.joinedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Seats four players from 1–4 tickets (teams as partners). */
export function seatPlayers(tickets: QueueTicket[], mode: QueueMode): string[] {
  const teams = tickets.filter((t) => t.players.length === 2);
  const singles = tickets.filter((t) => t.players.length === 1).map((t) => t.players[0]!);
  const seats: (string | null)[] = [null, null, null, null];
  teams.forEach((t, i) => {
    seats[i] = t.players[0]!.userId;
    seats[i + 2] = t.players[1]!.userId;
  });
  if (mode === 'PARTNERS' && teams.length === 0 && singles.length === 4) {
    const s = [...singles].sort((a, b) => b.rating - a.rating || (a.userId < b.userId ? -1 : 1));
    return [s[0]!.userId, s[1]!.userId, s[3]!.userId, s[2]!.userId];
  }
  let k = 0;
  for (let i = 0; i < 4; i++) if (seats[i] === null) seats[i] = singles[k++]!.userId;
  return seats as string[];
}

/** Removes leaving tickets, adds arrivals (a user queued again replaces the ticket that held them). */
function admit(state: QueueState, arrivals: QueueTicket[], leaves: string[]): QueueTicket[] {
  const gone = new Set(leaves);
  for (const a of arrivals) for (const p of a.players) gone.add(p.userId);
  const drop = (t: QueueTicket) => gone.has(t.id) || t.players.some((p) => gone.has(p.userId));
  const kept = state.tickets.filter((t) => !drop(t));
  const seen = new Set(kept.flatMap((t) => t.players.map((p) => p.userId)));
  const ids = new Set(kept.map((t) => t.id));
  for (const a of arrivals) {
    const valid =
      (a.players.length === 1 || (a.players.length === 2 && a.mode === 'PARTNERS')) &&
      new Set(a.players.map((p) => p.userId)).size === a.players.length &&
      !a.players.some((p) => seen.has(p.userId)) &&
      !ids.has(a.id);
    if (!valid) continue; // a later arrival of the same user in one batch: the first one wins
    kept.push(a);
    ids.add(a.id);
    for (const p of a.players) seen.add(p.userId);
  }
  return kept;
}

/** Tries to complete a table around `anchor` from `pool` (same queue, oldest first); null if none fits. */
function formAround(anchor: QueueTicket, pool: QueueTicket[], window: number): QueueTicket[] | null {
  const center = ticketRating(anchor);
  const candidates = pool
    .filter((t) => t !== anchor)
    .sort((a, b) => Math.abs(ticketRating(a) - center) - Math.abs(ticketRating(b) - center) || byAge(a, b));
  const chosen = [anchor];
  let seats = anchor.players.length;
  let lo = Math.min(...anchor.players.map((p) => p.rating));
  let hi = Math.max(...anchor.players.map((p) => p.rating));
  for (const c of candidates) {
    if (seats === 4) break;
    if (seats + c.players.length > 4) continue;
    const clo = Math.min(lo, ...c.players.map((p) => p.rating));
    const chi = Math.max(hi, ...c.players.map((p) => p.rating));
    if (chi - clo > window) continue;
    chosen.push(c);
    seats += c.players.length;
    lo = clo;
    hi = chi;
  }
  return seats === 4 ? chosen : null;
}

/** One matching round. */
export function matchStep(
  state: QueueState,
  input: MatchStepInput,
  cfg: MatchmakingConfig = DEFAULT_MATCHMAKING_CONFIG,
): MatchStepResult {
  const { now } = input;
  let waiting = admit(state, input.arrivals ?? [], input.leaves ?? []).sort(byAge);
  const tables: FormedTable[] = [];
  const groups = new Map<string, QueueTicket[]>();
  for (const t of waiting) {
    const k = queueKey(t);
    const g = groups.get(k);
    if (g) g.push(t);
    else groups.set(k, [t]);
  }
  const used = new Set<string>();
  for (const group of groups.values()) {
    let pool = group;
    for (const anchor of group) {
      if (used.has(anchor.id)) continue;
      const window = spreadWindow(now - anchor.joinedAt, cfg);
      const chosen = formAround(anchor, pool, window);
      if (!chosen) continue;
      for (const c of chosen) used.add(c.id);
      pool = pool.filter((t) => !used.has(t.id));
      const ratings = chosen.flatMap((c) => c.players.map((p) => p.rating));
      tables.push({
        seats: seatPlayers(chosen, anchor.mode),
        tickets: chosen,
        mode: anchor.mode,
        pace: anchor.pace,
        stake: anchor.stake,
        spread: Math.max(...ratings) - Math.min(...ratings),
        window,
      });
    }
  }
  waiting = waiting.filter((t) => !used.has(t.id));
  const ids = new Set(waiting.map((t) => t.id));
  const offered = state.offered.filter((id) => ids.has(id));
  const botOffers: QueueTicket[] = [];
  for (const t of waiting) {
    if (now - t.joinedAt >= cfg.botOfferAfterMs && !offered.includes(t.id)) {
      offered.push(t.id);
      botOffers.push(t);
    }
  }
  return { state: { tickets: waiting, offered }, tables, botOffers };
}

/** Players waiting in one queue. */
export function waitingIn(state: QueueState, key: string): number {
  return state.tickets.filter((t) => queueKey(t) === key).reduce((n, t) => n + t.players.length, 0);
}

/**
 * Estimated wait (ms) for a new ticket: the median of the recent waits of its queue when known, else the time four
 * players take to gather at the bot offer's horizon (the bot offer bounds it).
 */
export function estimateWaitMs(
  recentWaits: number[],
  waitingPlayers: number,
  cfg: MatchmakingConfig = DEFAULT_MATCHMAKING_CONFIG,
): number {
  if (recentWaits.length > 0) {
    const s = [...recentWaits].sort((a, b) => a - b);
    return Math.min(cfg.botOfferAfterMs, s[Math.floor(s.length / 2)]!);
  }
  return waitingPlayers >= 3 ? 5_000 : cfg.botOfferAfterMs;
}
