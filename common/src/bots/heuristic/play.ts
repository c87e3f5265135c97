/**
 * Card play of the heuristic bot, on the fast representation (so the strong bot can use it in playouts).
 *
 * `heuristicCard(st, me)` reads only what seat `me` may know: its own hand (`st.hands[me*4..]`), the cards
 * played this hand, the voids the rules revealed, bids, tricks and the trick in progress. It never reads other
 * seats' hands (in a bot's knowledge state they are empty anyway). It always returns one of `me`'s legal cards
 * (`st.legalSuits`, proven identical to the reference legality in fast.spec.ts).
 *
 * Priorities: own nil (duck) > cover partner's nil > set the opponents when they need (almost) every remaining
 * trick > make our contract (cash winners, second hand low, third hand high, don't overtake a partner's card
 * that holds, ruff cheaply) > attack opponents' nils (lead low, duck under a nil that is winning) > once our
 * contract is made, avoid bags (play the highest card that loses, dump dangerous high cards).
 */
import type { FastHand } from '../../fast/hand';

// Local copies of the bit helpers: this is the playouts' inner loop, and imported bindings compiled by some
// loaders (esbuild/tsx) are getter calls.
const SPADES = 0;
const FULL_SUIT = 0x1fff;
function cardSuit(card: number): number {
  return (card / 13) | 0;
}
function lowBit(x: number): number {
  return 31 - Math.clz32(x & -x);
}
function highBit(x: number): number {
  return 31 - Math.clz32(x);
}
function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

const buf = new Int8Array(13);

function unseen(st: FastHand, me: number, s: number): number {
  return FULL_SUIT & ~(st.played[s] | st.hands[me * 4 + s]);
}

function isVoid(st: FastHand, seat: number, s: number): boolean {
  return ((st.voids >> (seat * 4 + s)) & 1) === 1;
}

/** Ordering key for "cheapest": non-spades before spades, then rank. */
function cost(card: number): number {
  return (cardSuit(card) === SPADES ? 100 : 0) + (card % 13);
}

/**
 * Whether `card` (winning or about to win the trick) is likely to hold against the players still to play after
 * `me`. The partner counts as friendly when `partnerFriendly`.
 */
function holds(st: FastHand, me: number, card: number, partnerFriendly: boolean): boolean {
  const nLater = 3 - st.trickLen;
  if (nLater <= 0) return true;
  const s = cardSuit(card);
  const r = card % 13;
  const lead = st.trickLen === 0 ? s : st.leadSuit;
  const higher = unseen(st, me, s) >> (r + 1) !== 0;
  const spUn = unseen(st, me, SPADES);
  const leadLeft = popcount(unseen(st, me, lead));
  const partner = (me + 2) & 3;
  for (let k = 1; k <= nLater; k++) {
    const seat = (me + k) & 3;
    if (partnerFriendly && st.partners && seat === partner) continue;
    const voidLead = isVoid(st, seat, lead);
    const voidSpades = isVoid(st, seat, SPADES);
    if (s === lead) {
      if (!voidLead && higher) return false;
      if (s !== SPADES && spUn !== 0 && !voidSpades && (voidLead || leadLeft < 2)) return false;
    } else if (higher && !voidSpades && (voidLead || leadLeft < 2)) {
      return false;
    }
  }
  return true;
}

function sideContract(st: FastHand, side: number): number {
  let bid = 0;
  if (st.partners) {
    if (st.bids[side] > 0) bid += st.bids[side];
    if (st.bids[side + 2] > 0) bid += st.bids[side + 2];
  } else if (st.bids[side] > 0) bid = st.bids[side];
  return bid;
}

function sideTricks(st: FastHand, side: number): number {
  return st.partners ? st.tricks[side] + st.tricks[side + 2] : st.tricks[side];
}

function nilAlive(st: FastHand, seat: number): boolean {
  return st.bids[seat] === 0 && st.tricks[seat] === 0;
}

/** Position of `seat` in the current trick relative to me: true when it has already played. */
function hasPlayed(st: FastHand, me: number, seat: number): boolean {
  const back = (me - seat) & 3; // 1 = right before me
  return back >= 1 && back <= st.trickLen;
}

/** Lowest card to give away: in suit, the lowest; when void, a low non-spade (short suits first). */
function lowDiscard(st: FastHand, me: number, n: number): number {
  let best = buf[0];
  let bestScore = 1e9;
  const spadesHeld = st.hands[me * 4] !== 0;
  for (let i = 0; i < n; i++) {
    const c = buf[i];
    const s = cardSuit(c);
    const r = c % 13;
    let score = r;
    if (s === SPADES) score += 40;
    else {
      const len = popcount(st.hands[me * 4 + s]);
      if (s !== st.leadSuit && spadesHeld && len <= 2) score -= 3 - len; // shorten towards a void to ruff
      if (st.trickLen > 0 && s !== st.leadSuit) {
        const un = unseen(st, me, s);
        if (un === 0 || r > highBit(un)) score += 20; // keep bosses
      }
    }
    if (score < bestScore) {
      bestScore = score;
      best = c;
    }
  }
  return best;
}

/** Highest card that does not win the trick now, or -1. Dumps high non-spades first when void. */
function highestLoser(st: FastHand, n: number): number {
  let best = -1;
  let bestScore = -1e9;
  for (let i = 0; i < n; i++) {
    const c = buf[i];
    if (st.trickLen > 0 && st.beatsCurrent(c)) continue;
    const s = cardSuit(c);
    const score = (c % 13) + (s === SPADES ? -5 : 0);
    if (score > bestScore) {
      bestScore = score;
      best = c;
    }
  }
  return best;
}

function cheapestWinner(st: FastHand, me: number, n: number, mustHold: boolean): number {
  let best = -1;
  for (let i = 0; i < n; i++) {
    const c = buf[i];
    if (!st.beatsCurrent(c)) continue;
    if (mustHold && !holds(st, me, c, true)) continue;
    if (best < 0 || cost(c) < cost(best)) best = c;
  }
  return best;
}

function highestWinner(st: FastHand, n: number): number {
  let best = -1;
  for (let i = 0; i < n; i++) {
    const c = buf[i];
    if (!st.beatsCurrent(c)) continue;
    if (best < 0 || c % 13 > best % 13 || (cardSuit(c) === SPADES && cardSuit(best) !== SPADES)) best = c;
  }
  return best;
}

function lowestCard(n: number, preferNonSpade: boolean): number {
  let best = buf[0];
  for (let i = 1; i < n; i++) {
    const c = buf[i];
    const a = (preferNonSpade && cardSuit(c) === SPADES ? 100 : 0) + (c % 13);
    const b = (preferNonSpade && cardSuit(best) === SPADES ? 100 : 0) + (best % 13);
    if (a < b) best = c;
  }
  return best;
}

/** My own nil: never win a trick if it can be helped. */
function playNil(st: FastHand, me: number, n: number): number {
  if (st.trickLen === 0) {
    // lead the low card with the most unseen cards above it (others must go over it)
    let best = buf[0];
    let bestScore = -1e9;
    for (let i = 0; i < n; i++) {
      const c = buf[i];
      const s = cardSuit(c);
      const r = c % 13;
      if (r !== lowBit(st.hands[me * 4 + s])) continue;
      const above = popcount(unseen(st, me, s) >> (r + 1));
      const score = above * 4 - r - (s === SPADES ? 8 : 0) - (above === 0 ? 100 : 0);
      if (score > bestScore) {
        bestScore = score;
        best = c;
      }
    }
    return best;
  }
  const loser = highestLoser(st, n);
  if (loser >= 0) return loser;
  // every legal card wins now: last to play → take it with the highest; otherwise the lowest, hoping to be overtaken
  if (st.trickLen === 3) return highestWinner(st, n);
  return lowestCard(n, true);
}

/** Partner bid nil and has taken nothing: protect it. Returns -1 when this trick needs no special care. */
function coverPartner(st: FastHand, me: number, partner: number, n: number): number {
  if (st.trickLen === 0) {
    // lead a suit the partner is void in, else our highest card (never a low card into the nil)
    let best = -1;
    let bestScore = -1e9;
    for (let i = 0; i < n; i++) {
      const c = buf[i];
      const s = cardSuit(c);
      const r = c % 13;
      const un = unseen(st, me, s);
      const top = r === highBit(st.hands[me * 4 + s]);
      let score: number;
      if (isVoid(st, partner, s)) score = 50 - r;
      else if (!top) continue;
      else score = r - (un === 0 ? 0 : highBit(un)) + (s === SPADES ? 2 : 0);
      if (score > bestScore) {
        bestScore = score;
        best = c;
      }
    }
    return best >= 0 ? best : highestWinner(st, n);
  }
  if (hasPlayed(st, me, partner)) {
    if (st.winSeat !== partner) return -1; // the nil is safe in this trick
    const w = st.trickLen === 3 ? cheapestWinner(st, me, n, false) : cheapestWinner(st, me, n, true);
    if (w >= 0) return w;
    const hw = highestWinner(st, n);
    return hw >= 0 ? hw : lowDiscard(st, me, n);
  }
  // partner plays after me: win as high as possible so that the partner can duck
  const lead = st.leadSuit;
  if (st.winSeat >= 0) {
    const un = unseen(st, me, lead);
    // the current winner already tops every unseen card of the suit, or it is a ruff: partner is safe
    if (cardSuit(st.winCard) === SPADES && lead !== SPADES) return -1;
    if (cardSuit(st.winCard) === lead && (un === 0 || st.winCard % 13 > highBit(un))) return -1;
  }
  const hw = highestWinner(st, n);
  if (hw >= 0) {
    if (cardSuit(hw) === SPADES && lead !== SPADES) return cheapestWinner(st, me, n, false); // a low ruff is enough
    return hw;
  }
  return -1;
}

/**
 * The card the heuristic plays for seat `me` (whose turn it is) in fast state `st`.
 */
export function heuristicCard(st: FastHand, me: number): number {
  const legal = st.legalSuits(me);
  let n = 0;
  for (let s = 0; s < 4; s++) {
    if (!((legal >> s) & 1)) continue;
    let m = st.hands[me * 4 + s];
    while (m !== 0) {
      buf[n++] = s * 13 + lowBit(m);
      m &= m - 1;
    }
  }
  if (n <= 1) return buf[0];

  if (nilAlive(st, me)) return playNil(st, me, n);
  const partner = (me + 2) & 3;
  if (st.partners && nilAlive(st, partner)) {
    const c = coverPartner(st, me, partner, n);
    if (c >= 0) return c;
  }

  const R = 13 - st.trickNo;
  const mySide = st.sideOf(me);
  const need = sideContract(st, mySide) - sideTricks(st, mySide);
  // setting: an opponent side that needs (almost) every remaining trick
  let setting = false;
  let oppNilSeat = -1;
  for (let seat = 0; seat < 4; seat++) {
    if (seat === me || (st.partners && seat === partner)) continue;
    if (nilAlive(st, seat) && oppNilSeat < 0) oppNilSeat = seat;
  }
  const nSides = st.partners ? 2 : 4;
  for (let side = 0; side < nSides; side++) {
    if (side === mySide) continue;
    const oppNeed = sideContract(st, side) - sideTricks(st, side);
    if (oppNeed > 0 && oppNeed <= R && R - oppNeed <= (need > 0 ? 2 : 1)) setting = true;
  }
  const wantTricks = need > 0 || setting;
  const attackNil = oppNilSeat >= 0 && (need <= 0 || R - need >= 2);

  if (attackNil) {
    if (st.trickLen === 0) {
      // lead low in a suit the nil still holds
      let best = -1;
      let bestScore = 1e9;
      for (let i = 0; i < n; i++) {
        const c = buf[i];
        const s = cardSuit(c);
        if (isVoid(st, oppNilSeat, s)) continue;
        const score = (c % 13) + (s === SPADES ? 6 : 0);
        if (score < bestScore) {
          bestScore = score;
          best = c;
        }
      }
      if (best >= 0) return best;
    } else if (hasPlayed(st, me, oppNilSeat)) {
      if (st.winSeat === oppNilSeat) {
        const l = highestLoser(st, n);
        if (l >= 0) return l;
      }
    } else if (st.trickLen > 0 && st.winSeat !== (st.partners ? partner : -1)) {
      // the nil plays after me: stay low so that it has to go over
      const lowInSuit = lowestCard(n, true);
      if (cardSuit(lowInSuit) === st.leadSuit || !wantTricks) return lowInSuit;
    }
  }

  if (wantTricks) return playForTricks(st, me, partner, n);
  return playToLose(st, me, n);
}

function playForTricks(st: FastHand, me: number, partner: number, n: number): number {
  if (st.trickLen === 0) return leadForTricks(st, me, partner, n);
  if (st.partners && st.winSeat === partner) {
    if (holds(st, me, st.winCard, true)) return lowDiscard(st, me, n);
    const w = cheapestWinner(st, me, n, true);
    return w >= 0 ? w : lowDiscard(st, me, n);
  }
  if (st.trickLen === 3) {
    const w = cheapestWinner(st, me, n, false);
    return w >= 0 ? w : lowDiscard(st, me, n);
  }
  const safe = cheapestWinner(st, me, n, true);
  if (safe >= 0) return safe;
  const any = cheapestWinner(st, me, n, false);
  if (any < 0) return lowDiscard(st, me, n);
  if (st.trickLen === 2) {
    // third hand high (when following); a ruff stays cheap
    if (cardSuit(any) !== st.leadSuit) return any;
    return highestWinner(st, n);
  }
  // second hand low, but ruff when void
  if (cardSuit(any) === SPADES && st.leadSuit !== SPADES) return any;
  return lowDiscard(st, me, n);
}

function leadForTricks(st: FastHand, me: number, partner: number, n: number): number {
  // 1. cash a winner
  let best = -1;
  let bestScore = -1e9;
  const spUn = unseen(st, me, SPADES);
  for (let i = 0; i < n; i++) {
    const c = buf[i];
    const s = cardSuit(c);
    const r = c % 13;
    if (r !== highBit(st.hands[me * 4 + s])) continue;
    const un = unseen(st, me, s);
    if (un !== 0 && r < highBit(un)) continue;
    let score: number;
    if (s === SPADES) {
      score = 5 + popcount(st.hands[me * 4]) - popcount(spUn);
    } else {
      if (spUn !== 0 && (un === 0 || popcount(un) < 3)) continue;
      let ruffRisk = false;
      for (let seat = 0; seat < 4; seat++) {
        if (seat === me || (st.partners && seat === partner)) continue;
        if (isVoid(st, seat, s) && !isVoid(st, seat, SPADES) && spUn !== 0) ruffRisk = true;
      }
      if (ruffRisk) continue;
      score = 10 + popcount(un);
    }
    if (score > bestScore) {
      bestScore = score;
      best = c;
    }
  }
  if (best >= 0) return best;
  // 2. lead low from the most promising suit
  bestScore = -1e9;
  for (let i = 0; i < n; i++) {
    const c = buf[i];
    const s = cardSuit(c);
    if (c % 13 !== lowBit(st.hands[me * 4 + s])) continue;
    let score = 0;
    const len = popcount(st.hands[me * 4 + s]);
    if (st.partners && isVoid(st, partner, s) && !isVoid(st, partner, SPADES)) score += 3;
    for (let seat = 0; seat < 4; seat++) {
      if (seat === me || (st.partners && seat === partner)) continue;
      if (isVoid(st, seat, s) && !isVoid(st, seat, SPADES)) score -= 3;
    }
    if (s === SPADES) score -= 2;
    else if (len === 1 && st.hands[me * 4] !== 0) score += 1.5;
    // keep guarded honours: prefer suits where our low card is not the guard of an honour
    const top = highBit(st.hands[me * 4 + s]);
    if (len === 2 && top >= 11) score -= 1;
    score -= (c % 13) * 0.05;
    if (score > bestScore) {
      bestScore = score;
      best = c;
    }
  }
  return best >= 0 ? best : lowestCard(n, true);
}

/** Contract made: lose tricks (avoid bags), dumping high cards while it is safe. */
function playToLose(st: FastHand, me: number, n: number): number {
  if (st.trickLen === 0) {
    let best = -1;
    let bestScore = -1e9;
    for (let i = 0; i < n; i++) {
      const c = buf[i];
      const s = cardSuit(c);
      const r = c % 13;
      if (r !== lowBit(st.hands[me * 4 + s])) continue;
      const above = popcount(unseen(st, me, s) >> (r + 1));
      const score = above * 3 - r - (s === SPADES ? 6 : 0) - (above === 0 ? 100 : 0);
      if (score > bestScore) {
        bestScore = score;
        best = c;
      }
    }
    return best >= 0 ? best : lowestCard(n, true);
  }
  const l = highestLoser(st, n);
  if (l >= 0) return l;
  if (st.trickLen === 3) return highestWinner(st, n);
  return lowestCard(n, true);
}
