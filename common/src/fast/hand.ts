/**
 * Fast engine path for simulation (bots' playouts, benchmarks).
 *
 * Representation: a card is its common `cardIndex` (suit × 13 + rank − 2, suits S,H,D,C = 0..3). A set of
 * cards of one suit is a 13-bit mask (bit r − 2 for rank r), so every hand is four small ints
 * `hands[seat * 4 + suit]` and all bit operations stay within 32 bits. Legality in Spades always selects whole
 * suits of the hand, so legal moves are a 4-bit suit mask (`legalSuits`).
 *
 * `FastHand` is MUTABLE and reusable (`copyFrom`) to avoid allocation in playouts. It models one hand of play
 * (after bidding) with exactly the rules of `common/src/rules` (legal.ts, engine.ts, scoring.ts); the
 * property test `fast.spec.ts` checks identical tricks, winners and scores against the reference engine on the
 * same seeds in every variant.
 *
 * Besides the rules it keeps public knowledge a player at the table has: cards played this hand (`played`) and
 * voids revealed by the rules (`voids`, bit seat × 4 + suit), inferred only from what the rules force, so a
 * sampler that respects them never contradicts the real deal.
 */
import type { Card } from '../rules/cards';
import { DECK } from '../rules/cards';
import type { GameSettings } from '../rules/settings';

export const SPADES = 0;
export const HEARTS = 1;
export const DIAMONDS = 2;
export const CLUBS = 3;
export const FULL_SUIT = 0x1fff;
export const NON_SPADE_SUITS = 0b1110;
export const ALL_SUITS = 0b1111;

export const NIL_POINTS = 100;
export const BLIND_NIL_POINTS = 200;

/** Number of set bits of a 32-bit int. */
export function popcount(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Index of the lowest set bit (x ≠ 0). */
export function lowBit(x: number): number {
  return 31 - Math.clz32(x & -x);
}

/** Index of the highest set bit (x ≠ 0). */
export function highBit(x: number): number {
  return 31 - Math.clz32(x);
}

export function cardSuit(card: number): number {
  return (card / 13) | 0;
}

/** Rank offset 0..12 (2..A). */
export function cardRankBit(card: number): number {
  return card % 13;
}

export function makeCard(suit: number, rankBit: number): number {
  return suit * 13 + rankBit;
}

export function toCard(index: number): Card {
  return DECK[index];
}

export function fromCard(card: Card): number {
  const s = card.suit === 'S' ? 0 : card.suit === 'H' ? 1 : card.suit === 'D' ? 2 : 3;
  return s * 13 + card.rank - 2;
}

/** The 4 suit masks of a list of cards, written into `out[offset..offset+3]`. */
export function cardsToMasks(cards: readonly Card[], out: Int32Array, offset: number): void {
  out[offset] = 0;
  out[offset + 1] = 0;
  out[offset + 2] = 0;
  out[offset + 3] = 0;
  for (const c of cards) {
    const i = fromCard(c);
    out[offset + cardSuit(i)] |= 1 << cardRankBit(i);
  }
}

export interface FastRules {
  partners: boolean;
  screamer: boolean;
  assassin: boolean;
  /** Game end thresholds (for evaluations near the end of a game). */
  maxPoints: number;
  minPoints: number;
}

export function fastRules(settings: GameSettings): FastRules {
  return {
    partners: settings.gameMode === 'PARTNERS',
    screamer: settings.specialRules.screamer,
    assassin: settings.specialRules.assassin,
    maxPoints: settings.maxPoints,
    minPoints: settings.minPoints,
  };
}

export class FastHand {
  partners = true;
  screamer = false;
  assassin = false;
  maxPoints = 500;
  minPoints = -100;
  /** Unplayed cards: [seat * 4 + suit] → 13-bit mask. In a seat's knowledge state, other seats may be 0 (unknown). */
  readonly hands = new Int32Array(16);
  /** Number of unplayed cards per seat (kept even where `hands` is unknown). */
  readonly counts = new Int8Array(4);
  /** Cards played this hand (completed tricks and the current trick), per suit. */
  readonly played = new Int32Array(4);
  /** Known voids: bit seat * 4 + suit. */
  voids = 0;
  /** Bids; 0 = nil. */
  readonly bids = new Int8Array(4);
  readonly blind = new Uint8Array(4);
  readonly tricks = new Int8Array(4);
  /** Cards of the current trick in play order, and who played them. */
  readonly trickCards = new Int8Array(4);
  readonly trickSeats = new Int8Array(4);
  trickLen = 0;
  leadSuit = -1;
  /** Seat and card currently winning the trick in progress. */
  winSeat = -1;
  winCard = -1;
  leader = 0;
  turn = 0;
  /** Completed tricks 0..13. */
  trickNo = 0;
  spadesBroken = false;
  /** Scores and accumulated bags per side before this hand (2 sides in PARTNERS, 4 in SOLO). */
  readonly scores = new Int32Array(4);
  readonly bags = new Int32Array(4);

  setRules(r: FastRules): this {
    this.partners = r.partners;
    this.screamer = r.screamer;
    this.assassin = r.assassin;
    this.maxPoints = r.maxPoints;
    this.minPoints = r.minPoints;
    return this;
  }

  copyFrom(o: FastHand): this {
    this.partners = o.partners;
    this.screamer = o.screamer;
    this.assassin = o.assassin;
    this.maxPoints = o.maxPoints;
    this.minPoints = o.minPoints;
    this.hands.set(o.hands);
    this.counts.set(o.counts);
    this.played.set(o.played);
    this.voids = o.voids;
    this.bids.set(o.bids);
    this.blind.set(o.blind);
    this.tricks.set(o.tricks);
    this.trickCards.set(o.trickCards);
    this.trickSeats.set(o.trickSeats);
    this.trickLen = o.trickLen;
    this.leadSuit = o.leadSuit;
    this.winSeat = o.winSeat;
    this.winCard = o.winCard;
    this.leader = o.leader;
    this.turn = o.turn;
    this.trickNo = o.trickNo;
    this.spadesBroken = o.spadesBroken;
    this.scores.set(o.scores);
    this.bags.set(o.bags);
    return this;
  }

  clone(): FastHand {
    return new FastHand().copyFrom(this);
  }

  /** Starts the play of a hand: full hands known, `leader` leads the first trick. */
  startPlay(leader: number): this {
    this.played.fill(0);
    this.voids = 0;
    this.tricks.fill(0);
    this.trickLen = 0;
    this.leadSuit = -1;
    this.winSeat = -1;
    this.winCard = -1;
    this.leader = leader;
    this.turn = leader;
    this.trickNo = 0;
    this.spadesBroken = false;
    for (let s = 0; s < 4; s++) {
      const b = s * 4;
      this.counts[s] =
        popcount(this.hands[b]) +
        popcount(this.hands[b + 1]) +
        popcount(this.hands[b + 2]) +
        popcount(this.hands[b + 3]);
    }
    return this;
  }

  isOver(): boolean {
    return this.trickNo >= 13;
  }

  /** 4-bit mask of the suits held by `seat`. */
  heldSuits(seat: number): number {
    const b = seat * 4;
    const h = this.hands;
    return (h[b] !== 0 ? 1 : 0) | (h[b + 1] !== 0 ? 2 : 0) | (h[b + 2] !== 0 ? 4 : 0) | (h[b + 3] !== 0 ? 8 : 0);
  }

  /**
   * Suits whose cards `seat` may play now (its whole holding in each allowed suit is legal), exactly as
   * `playError` in rules/legal.ts: follow suit; SCREAMER / ASSASSIN when void or leading; no spade lead
   * before spades are broken unless only spades remain.
   */
  legalSuits(seat: number): number {
    const held = this.heldSuits(seat);
    const hasSpade = (held & 1) !== 0;
    const hasNonSpade = (held & NON_SPADE_SUITS) !== 0;
    if (this.trickLen > 0) {
      const lead = this.leadSuit;
      if ((held >> lead) & 1) return 1 << lead;
      if (this.screamer && hasNonSpade) return held & NON_SPADE_SUITS;
      if (this.assassin && hasSpade) return 1;
      return held;
    }
    if (this.screamer) return hasNonSpade ? held & NON_SPADE_SUITS : held;
    if (this.assassin && this.spadesBroken) return hasSpade ? 1 : held;
    if (!this.spadesBroken && hasNonSpade) return held & NON_SPADE_SUITS;
    return held;
  }

  /** Number of legal cards of `seat` now. */
  legalCount(seat: number): number {
    const ls = this.legalSuits(seat);
    const b = seat * 4;
    let n = 0;
    for (let s = 0; s < 4; s++) if ((ls >> s) & 1) n += popcount(this.hands[b + s]);
    return n;
  }

  /** The k-th legal card of `seat` in card-index order (0 ≤ k < legalCount). */
  legalCardAt(seat: number, k: number): number {
    const ls = this.legalSuits(seat);
    const b = seat * 4;
    for (let s = 0; s < 4; s++) {
      if (!((ls >> s) & 1)) continue;
      let m = this.hands[b + s];
      const n = popcount(m);
      if (k < n) {
        while (k-- > 0) m &= m - 1;
        return s * 13 + lowBit(m);
      }
      k -= n;
    }
    return -1;
  }

  isLegal(seat: number, card: number): boolean {
    const s = cardSuit(card);
    return ((this.legalSuits(seat) >> s) & 1) === 1 && ((this.hands[seat * 4 + s] >> cardRankBit(card)) & 1) === 1;
  }

  /** Would `card` win the trick in progress if played now (true when leading)? */
  beatsCurrent(card: number): boolean {
    if (this.trickLen === 0) return true;
    const s = cardSuit(card);
    const ws = cardSuit(this.winCard);
    if (s === ws) return card > this.winCard;
    return s === SPADES;
  }

  /**
   * Plays `card` for the seat whose turn it is (no legality check: callers pick legal cards). Updates the
   * trick, spades broken, voids revealed by the rules, and completes the trick after the 4th card.
   * Works on knowledge states too (cards of an unknown hand are simply absent from its mask).
   */
  play(card: number): void {
    const seat = this.turn;
    const suit = cardSuit(card);
    const bit = 1 << cardRankBit(card);
    const hi = seat * 4 + suit;
    this.inferVoids(seat, suit);
    this.hands[hi] &= ~bit;
    this.counts[seat]--;
    this.played[suit] |= bit;
    if (this.trickLen === 0) {
      this.leadSuit = suit;
      this.winSeat = seat;
      this.winCard = card;
    } else if (suit === cardSuit(this.winCard) ? card > this.winCard : suit === SPADES) {
      this.winSeat = seat;
      this.winCard = card;
    }
    if (suit === SPADES) this.spadesBroken = true;
    this.trickCards[this.trickLen] = card;
    this.trickSeats[this.trickLen] = seat;
    this.trickLen++;
    if (this.trickLen < 4) {
      this.turn = (seat + 1) & 3;
      return;
    }
    const w = this.winSeat;
    this.tricks[w]++;
    this.trickNo++;
    this.trickLen = 0;
    this.leadSuit = -1;
    this.leader = w;
    this.turn = w;
    this.winSeat = -1;
    this.winCard = -1;
  }

  /** Records the voids that playing a card of `suit` now reveals for `seat` (before the card is played). */
  private inferVoids(seat: number, suit: number): void {
    const v = seat * 4;
    if (this.trickLen > 0) {
      const lead = this.leadSuit;
      if (suit !== lead) {
        this.voids |= 1 << (v + lead);
        // void in the led suit: SCREAMER forces a non-spade when held, ASSASSIN a spade when held
        if (this.screamer && suit === SPADES) this.voids |= NON_SPADE_SUITS << v;
        if (this.assassin && suit !== SPADES) this.voids |= 1 << v;
      }
      return;
    }
    if (this.screamer) {
      if (suit === SPADES) this.voids |= NON_SPADE_SUITS << v;
    } else if (this.assassin && this.spadesBroken) {
      if (suit !== SPADES) this.voids |= 1 << v;
    } else if (!this.spadesBroken && suit === SPADES) {
      this.voids |= NON_SPADE_SUITS << v;
    }
  }

  sideOf(seat: number): number {
    return this.partners ? seat & 1 : seat;
  }

  sideCount(): number {
    return this.partners ? 2 : 4;
  }

  /**
   * Score change of each side for this hand (same rules as rules/scoring.ts scoreHand), written to `out`
   * (length ≥ sideCount); `bagsOut` (optional) receives the accumulated bags after penalties.
   */
  scoreDeltas(out: Int32Array | number[], bagsOut?: Int32Array | number[]): void {
    const n = this.partners ? 2 : 4;
    for (let side = 0; side < n; side++) {
      let bid = 0;
      let tricks = 0;
      let nil = 0;
      const a = side;
      const b = this.partners ? side + 2 : -1;
      for (let k = 0; k < 2; k++) {
        const s = k === 0 ? a : b;
        if (s < 0) continue;
        tricks += this.tricks[s];
        if (this.bids[s] === 0) {
          const v = this.blind[s] ? BLIND_NIL_POINTS : NIL_POINTS;
          nil += this.tricks[s] === 0 ? v : -v;
        } else {
          bid += this.bids[s];
        }
      }
      const made = tricks >= bid;
      const contract = made ? 10 * bid : -10 * bid;
      const bagsTaken = made ? tricks - bid : 0;
      let bagsAfter = this.bags[side] + bagsTaken;
      let penalty = 0;
      while (bagsAfter >= 10) {
        bagsAfter -= 10;
        penalty -= 100;
      }
      out[side] = contract + bagsTaken + nil + penalty;
      if (bagsOut) bagsOut[side] = bagsAfter;
    }
  }
}

/** Fills `st.hands` from four card lists (e.g. `dealFromSeed(seed)`). */
export function setHands(st: FastHand, hands: readonly (readonly Card[])[]): void {
  for (let s = 0; s < 4; s++) cardsToMasks(hands[s], st.hands, s * 4);
}

/** Plays the rest of the hand with uniformly random legal cards (k-th legal card in card-index order, k = ⌊rng·n⌋). */
export function playoutRandom(st: FastHand, rng: () => number): void {
  while (st.trickNo < 13) {
    const seat = st.turn;
    const n = st.legalCount(seat);
    st.play(st.legalCardAt(seat, Math.floor(rng() * n)));
  }
}

/** Deals a uniformly random deal into `st.hands` with `rng` (Fisher–Yates on 52 cards; for benches and playouts). */
export function dealRandom(st: FastHand, rng: () => number, deck: Int8Array = new Int8Array(52)): void {
  for (let i = 0; i < 52; i++) deck[i] = i;
  for (let i = 51; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const t = deck[i];
    deck[i] = deck[j];
    deck[j] = t;
  }
  st.hands.fill(0);
  for (let i = 0; i < 52; i++) {
    const c = deck[i];
    const seat = (i / 13) | 0;
    st.hands[seat * 4 + cardSuit(c)] |= 1 << cardRankBit(c);
  }
}
