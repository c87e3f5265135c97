/**
 * Bidding of the heuristic bot: hand evaluation on suit masks.
 *
 * - `estimateTricks`: spade length and honours, side aces and kings (discounted in long suits), queens with
 *   length, and ruffing values of voids / singletons / doubletons with spare trumps.
 * - `nilDanger`: how likely a nil is to be broken (spade honours and length, unguarded side honours).
 * - `chooseBid`: the legal bid nearest the estimate, or nil when safe enough (WHIZ, 4 OR NIL, SUICIDE adapt
 *   the thresholds); blind nil only when the side is far behind near the end of the game.
 */
import { highBit, popcount, SPADES } from '../../fast/hand';

const A = 12;
const K = 11;
const Q = 10;
const J = 9;

function has(m: number, r: number): boolean {
  return ((m >> r) & 1) === 1;
}

/** Expected tricks of a 13-card hand given as 4 suit masks (index 0 = spades). */
export function estimateTricks(h: ArrayLike<number>, offset = 0): number {
  const sp = h[offset + SPADES];
  const ns = popcount(sp);
  let t = 0;
  let spadeHonours = 0;
  if (has(sp, A)) {
    t += 1;
    spadeHonours++;
  }
  if (has(sp, K)) {
    t += ns >= 2 ? 0.95 : 0.3;
    spadeHonours++;
  }
  if (has(sp, Q)) {
    t += ns >= 3 ? 0.75 : ns === 2 ? 0.3 : 0.1;
    spadeHonours++;
  }
  if (has(sp, J) && ns >= 4) {
    t += 0.4;
    spadeHonours++;
  }
  if (ns > 3) t += (ns - 3) * 0.85;
  // small spades not already counted as length winners can ruff
  let spare = Math.max(0, Math.min(ns, 3) - spadeHonours);
  for (let s = 1; s < 4; s++) {
    const m = h[offset + s];
    const n = popcount(m);
    if (has(m, A)) t += n <= 4 ? 0.95 : n <= 6 ? 0.8 : 0.55;
    if (has(m, K)) t += n >= 2 ? (n <= 4 ? 0.75 : 0.5) : 0.2;
    if (has(m, Q) && n >= 3 && n <= 4) t += 0.3;
    if (spare > 0) {
      if (n === 0) {
        const v = Math.min(spare, 2);
        t += v * 0.8;
        spare -= v;
      } else if (n === 1) {
        t += 0.55;
        spare--;
      } else if (n === 2) {
        t += 0.2;
      }
    }
  }
  return t;
}

/** Risk score of a nil with this hand (0 = perfectly safe; ≳2 = bad). */
export function nilDanger(h: ArrayLike<number>, offset = 0): number {
  const sp = h[offset + SPADES];
  const ns = popcount(sp);
  let d = 0;
  if (has(sp, A)) d += 10;
  if (has(sp, K)) d += ns >= 3 ? 1.5 : 2.5;
  if (has(sp, Q)) d += ns >= 3 ? 0.8 : 1.2;
  if (has(sp, J)) d += 0.5;
  if (ns >= 4) d += (ns - 3) * 0.9;
  if (ns > 0 && highBit(sp) >= 8) d += 0.3;
  for (let s = 1; s < 4; s++) {
    const m = h[offset + s];
    const n = popcount(m);
    if (n === 0) continue;
    let low = 0;
    for (let r = 0; r <= 5; r++) if (has(m, r)) low++; // 2..7 are guards
    const weights = [0, 0, 0, 0, 0, 0, 0, 0.05, 0.15, 0.3, 0.55, 1.0, 1.5]; // 8,9,10,J,Q,K,A
    for (let r = 6; r <= 12; r++) {
      if (!has(m, r)) continue;
      let w = weights[r];
      if (r === A && n >= 5) w += 0.5; // long suits: the ace will be forced
      d += Math.max(w * 0.25, w - 0.3 * low);
    }
    if (n >= 6) d += 0.3;
  }
  return d;
}

export interface BidContext {
  /** Regular bids allowed now (from common's legalBids). */
  legal: readonly number[];
  partners: boolean;
  /** Bids so far per seat (null = not yet). */
  bids: readonly (number | null)[];
  seat: number;
  /** Variant name: REG, WHIZ, MIRROR, SUICIDE, 4 OR NIL, … */
  option: string;
  /** Accumulated bags of the bot's side. */
  bags: number;
}

/** The bid chosen for a visible hand (one of ctx.legal). */
export function chooseBid(h: ArrayLike<number>, ctx: BidContext, offset = 0): number {
  const legal = ctx.legal;
  if (legal.length === 1) return legal[0];
  const est = estimateTricks(h, offset);
  const danger = nilDanger(h, offset);
  const partner = (ctx.seat + 2) & 3;
  const partnerBid = ctx.partners ? ctx.bids[partner] : null;
  const nilLegal = legal.includes(0);
  let nilLimit = 1.1;
  if (ctx.option === 'SUICIDE' && partnerBid === null) nilLimit = 1.8; // one of us must bid nil
  if (ctx.option === '4 OR NIL') nilLimit = est < 2.2 ? 2.0 : 1.2;
  if (ctx.option === 'WHIZ') nilLimit = 1.3;
  if (partnerBid === 0) nilLimit = 0.35; // two nils in a team: only with a hopeless hand for tricks
  if (nilLegal && danger <= nilLimit && est < 2.6) return 0;
  let target = est + (ctx.bags >= 7 ? 0.35 : 0);
  if (partnerBid === 0) target += 0.25;
  let want = Math.max(1, Math.round(target - 0.15));
  // keep the table total sane: if the others already bid a lot, shade down
  let others = 0;
  for (let s = 0; s < 4; s++) if (s !== ctx.seat && ctx.bids[s] !== null) others += ctx.bids[s] as number;
  if (others + want > 14) want = Math.max(1, want - Math.ceil((others + want - 14) / 2));
  let best = -1;
  for (const b of legal) {
    if (b === 0) continue;
    if (
      best < 0 ||
      Math.abs(b - want) < Math.abs(best - want) ||
      (Math.abs(b - want) === Math.abs(best - want) && b < best)
    )
      best = b;
  }
  return best >= 0 ? best : legal[0];
}
