/**
 * How a simulated human plays: when its seat acts (the per-table rate scheduler), what it bids, and the part of a
 * table view a reconnected client must get back exactly (the storm's view key).
 */
/**
 * When the human seats of one table act (one scheduler per table, shared by its humans). Of every four actions at a
 * table `humans` are human, so humans that act every `interval = 4 · tables / (rate · humans)` seconds give the
 * table its share `rate / tables` of the target (the bots fill the rest at their own pace). A turn that arrives
 * early waits until the next slot; a late one acts at once and the schedule restarts from it (no debt is carried:
 * a slow server gets a lower rate, not a burst).
 */
export class SeatScheduler {
  private last: number | null = null;

  constructor(
    /** Milliseconds between two actions of this seat; 0 = act at once. */
    readonly intervalMs: number,
    /** Offset of the first slot (spreads the tables' slots over one interval). */
    readonly phaseMs = 0,
  ) {}

  static intervalFor(rate: number, tables: number, humans = 1): number {
    return rate > 0 ? (4 * tables * 1000) / (rate * humans) : 0;
  }

  /** The time (same clock as `now`) at which to act on a turn that arrived at `now`; records it as taken. */
  next(now: number): number {
    const slot = this.last === null ? now + this.phaseMs : this.last + this.intervalMs;
    const at = Math.max(slot, now);
    this.last = at;
    return at;
  }
}

/** What a reconnected client must get back exactly (storm): its hand, the bids, the trick on the table, the turn. */
export interface ViewKey {
  handNumber: number;
  /** Own cards as sorted codes ("S14"); [] for spectators. */
  hand: string[];
  bids: (number | null)[];
  /** Cards of the trick in play as "seat:code" ([] while a completed trick is on display). */
  trick: string[];
  turn: number | null;
}

type WireCard = { suit: string; rank: number };
const cardCode = (c: WireCard) => `${c.suit}${c.rank}`;

/** The ViewKey of a `game_update` TableView as seen from `seat` (null: spectator). */
export function viewKeyOf(
  v: {
    handNumber: number;
    hands?: WireCard[][];
    bidding?: { bids: (number | null)[] };
    play?: { trickPending?: boolean; currentTrick?: (WireCard & { playerIndex: number })[] };
    currentPlayerIndex?: number | null;
  },
  seat: number | null,
): ViewKey {
  return {
    handNumber: v.handNumber,
    hand: seat === null ? [] : (v.hands?.[seat] ?? []).map(cardCode).sort(),
    bids: (v.bidding?.bids ?? []).slice(),
    trick: (v.play?.trickPending ? [] : (v.play?.currentTrick ?? [])).map((c) => `${c.playerIndex}:${cardCode(c)}`),
    turn: v.currentPlayerIndex ?? null,
  };
}

/** The legal bid closest to a quick count of likely tricks (aces, side kings, high spades); never nil unless forced. */
export function chooseBid(hand: readonly WireCard[], legal: readonly number[]): number {
  let est = 0;
  for (const c of hand)
    if (c.rank === 14 || (c.rank === 13 && c.suit !== 'S') || (c.suit === 'S' && c.rank >= 11)) est++;
  est = Math.max(1, est);
  const nonNil = legal.filter((b) => b > 0);
  const pool = nonNil.length ? nonNil : legal;
  let best = pool[0];
  for (const b of pool) if (Math.abs(b - est) < Math.abs(best - est)) best = b;
  return best;
}
