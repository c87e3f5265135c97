/**
 * Determinization: deals the cards a seat has not seen (neither in its hand nor played) to the other seats,
 * with each seat's exact card count and every void the rules revealed. Uniform among such deals up to the
 * capacity-proportional assignment; retried on dead ends (voids can make a greedy deal fail).
 */
import type { FastHand } from '../../fast/hand';

const FULL_SUIT = 0x1fff;
function cardSuit(card: number): number {
  return (card / 13) | 0;
}
function cardRankBit(card: number): number {
  return card % 13;
}
function lowBit(x: number): number {
  return 31 - Math.clz32(x & -x);
}

const pool = new Int8Array(52);
const order = new Int8Array(52);
const remaining = new Int32Array(4);

/**
 * Fills `out` (a copy of the knowledge state `st` of seat `me`) with a full deal consistent with it.
 * Returns false if no consistent deal was found (then `out` holds a deal that ignores some voids).
 */
export function sampleDeal(st: FastHand, me: number, rng: () => number, out: FastHand): boolean {
  out.copyFrom(st);
  let n = 0;
  for (let s = 0; s < 4; s++) {
    let m = FULL_SUIT & ~(st.played[s] | st.hands[me * 4 + s]);
    while (m !== 0) {
      pool[n++] = s * 13 + lowBit(m);
      m &= m - 1;
    }
  }
  // most constrained suits first (fewest seats that may hold them), random within a suit
  const eligible = [0, 0, 0, 0];
  for (let s = 0; s < 4; s++) {
    for (let seat = 0; seat < 4; seat++) {
      if (seat !== me && st.counts[seat] > 0 && !((st.voids >> (seat * 4 + s)) & 1)) eligible[s]++;
    }
  }
  let k = 0;
  for (let e = 0; e <= 3; e++) {
    const start = k;
    for (let i = 0; i < n; i++) if (eligible[cardSuit(pool[i])] === e) order[k++] = pool[i];
    for (let i = k - 1; i > start; i--) {
      const j = start + Math.floor(rng() * (i - start + 1));
      const t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
  }
  for (let attempt = 0; attempt < 40; attempt++) {
    if (tryDeal(st, me, rng, out, k, attempt < 39)) return true;
    // reshuffle within groups for the next attempt
    for (let i = k - 1; i > 0; i--) {
      if (eligible[cardSuit(order[i])] !== eligible[cardSuit(order[i - 1])]) continue;
      if (rng() < 0.5) {
        const t = order[i];
        order[i] = order[i - 1];
        order[i - 1] = t;
      }
    }
  }
  return false;
}

function tryDeal(
  st: FastHand,
  me: number,
  rng: () => number,
  out: FastHand,
  n: number,
  respectVoids: boolean,
): boolean {
  for (let seat = 0; seat < 4; seat++) {
    remaining[seat] = seat === me ? 0 : st.counts[seat];
    if (seat !== me) for (let s = 0; s < 4; s++) out.hands[seat * 4 + s] = 0;
  }
  for (let i = 0; i < n; i++) {
    const c = order[i];
    const s = cardSuit(c);
    let total = 0;
    for (let seat = 0; seat < 4; seat++) {
      if (remaining[seat] > 0 && (!respectVoids || !((st.voids >> (seat * 4 + s)) & 1))) total += remaining[seat];
    }
    if (total === 0) {
      if (remaining[0] + remaining[1] + remaining[2] + remaining[3] === 0) return true; // more unseen cards than places
      if (respectVoids) return false;
      continue;
    }
    let r = Math.floor(rng() * total);
    let chosen = -1;
    for (let seat = 0; seat < 4; seat++) {
      if (remaining[seat] > 0 && (!respectVoids || !((st.voids >> (seat * 4 + s)) & 1))) {
        r -= remaining[seat];
        if (r < 0) {
          chosen = seat;
          break;
        }
      }
    }
    out.hands[chosen * 4 + s] |= 1 << cardRankBit(c);
    remaining[chosen]--;
  }
  return true;
}
