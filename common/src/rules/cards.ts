/**
 * Cards, the deck and card codes.
 *
 * Canonical card code: rank then suit letter, e.g. 'AS', '10H', 'QD', '2C'.
 * `parseCard` / `normalizeCard` also accept the spec's forms (§3): suit symbols ♠♥♦♣,
 * letters S/H/D/C (any case), full names ('spades'), and ranks 2-10, J, Q, K, A (or 11-14).
 */

export type Suit = 'S' | 'H' | 'D' | 'C';
export type Rank = 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14;

export interface Card {
  readonly suit: Suit;
  readonly rank: Rank;
}

/** Suit order used for DECK and card indices. */
export const SUITS: readonly Suit[] = ['S', 'H', 'D', 'C'];
export const RANKS: readonly Rank[] = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14];

const SUIT_INDEX: Record<Suit, number> = { S: 0, H: 1, D: 2, C: 3 };

/** Index 0..51 of a card: suit index (S,H,D,C) × 13 + (rank − 2). */
export function cardIndex(card: Card): number {
  return SUIT_INDEX[card.suit] * 13 + (card.rank - 2);
}

/** The 52 distinct cards, in card-index order. Frozen; card objects are shared (never mutate them). */
export const DECK: readonly Card[] = Object.freeze(
  SUITS.flatMap((suit) => RANKS.map((rank) => Object.freeze({ suit, rank }) as Card)),
);

export function cardFromIndex(index: number): Card {
  return DECK[index];
}

export function cardEquals(a: Card, b: Card): boolean {
  return a.suit === b.suit && a.rank === b.rank;
}

const RANK_CODE: Record<number, string> = { 11: 'J', 12: 'Q', 13: 'K', 14: 'A' };

export function rankCode(rank: Rank): string {
  return RANK_CODE[rank] ?? String(rank);
}

export function cardCode(card: Card): string {
  return rankCode(card.rank) + card.suit;
}

const SUIT_ALIASES: Record<string, Suit> = {
  s: 'S',
  h: 'H',
  d: 'D',
  c: 'C',
  '♠': 'S',
  '♥': 'H',
  '♦': 'D',
  '♣': 'C',
  '♤': 'S',
  '♡': 'H',
  '♢': 'D',
  '♧': 'C',
  spade: 'S',
  spades: 'S',
  heart: 'H',
  hearts: 'H',
  diamond: 'D',
  diamonds: 'D',
  club: 'C',
  clubs: 'C',
};

/** Normalises a suit given as letter, symbol or (singular/plural) name; null if unknown. */
export function parseSuit(input: unknown): Suit | null {
  if (typeof input !== 'string') return null;
  const key = input.trim().toLowerCase();
  return Object.prototype.hasOwnProperty.call(SUIT_ALIASES, key) ? SUIT_ALIASES[key] : null;
}

const RANK_ALIASES: Record<string, Rank> = {
  j: 11,
  q: 12,
  k: 13,
  a: 14,
  t: 10,
  jack: 11,
  queen: 12,
  king: 13,
  ace: 14,
};

/** Normalises a rank given as number 2..14 or string '2'..'10', 'J','Q','K','A' (also '11'..'14'); null if unknown. */
export function parseRank(input: unknown): Rank | null {
  if (typeof input === 'number') {
    return Number.isInteger(input) && input >= 2 && input <= 14 ? (input as Rank) : null;
  }
  if (typeof input !== 'string') return null;
  const s = input.trim().toLowerCase();
  if (Object.prototype.hasOwnProperty.call(RANK_ALIASES, s)) return RANK_ALIASES[s];
  if (!/^\d{1,2}$/.test(s)) return null;
  return parseRank(Number(s));
}

/**
 * Parses a card code: 'AS', '10H', 'qd', 'A♠', '10♥', 'A spades' / 'A of spades'. Returns null if invalid.
 */
export function parseCard(code: string): Card | null {
  if (typeof code !== 'string') return null;
  const s = code.trim();
  const m = /^(10|[2-9]|[jqkat]|1[1-4])\s*(?:of\s+)?(.+)$/i.exec(s);
  if (!m) return null;
  const rank = parseRank(m[1]);
  const suit = parseSuit(m[2]);
  if (rank === null || suit === null) return null;
  return DECK[SUIT_INDEX[suit] * 13 + rank - 2];
}

function fastSuitIndex(suit: unknown): number {
  switch (suit) {
    case 'S':
      return 0;
    case 'H':
      return 1;
    case 'D':
      return 2;
    case 'C':
      return 3;
    default:
      return -1;
  }
}

/** Accepts a Card-like object ({suit, rank} in any spec form) or a card code; returns the canonical Card or null. */
export function normalizeCard(input: unknown): Card | null {
  if (typeof input === 'string') return parseCard(input);
  if (typeof input !== 'object' || input === null) return null;
  const o = input as { suit?: unknown; rank?: unknown };
  // fast path for canonical cards
  const si = fastSuitIndex(o.suit);
  const r = o.rank;
  if (si >= 0 && typeof r === 'number' && r >= 2 && r <= 14 && (r | 0) === r) return DECK[si * 13 + r - 2];
  const suit = parseSuit(o.suit);
  const rank = parseRank(o.rank);
  if (suit === null || rank === null) return null;
  return DECK[SUIT_INDEX[suit] * 13 + rank - 2];
}

/** Display order of suits in a sorted hand: ♠ ♥ ♣ ♦ (alternating colours). */
const DISPLAY_SUIT_ORDER: Record<Suit, number> = { S: 0, H: 1, C: 2, D: 3 };

/** Compare for display: suits ♠ ♥ ♣ ♦, within a suit high to low (A first). */
export function compareCards(a: Card, b: Card): number {
  return DISPLAY_SUIT_ORDER[a.suit] - DISPLAY_SUIT_ORDER[b.suit] || b.rank - a.rank;
}

/** Returns a new sorted array (♠ ♥ ♣ ♦, high to low); the input is not modified. */
export function sortHand(hand: readonly Card[]): Card[] {
  return [...hand].sort(compareCards);
}

export function countSuit(hand: readonly Card[], suit: Suit): number {
  let n = 0;
  for (const c of hand) if (c.suit === suit) n++;
  return n;
}

export function hasCard(hand: readonly Card[], card: Card): boolean {
  for (const c of hand) if (c.suit === card.suit && c.rank === card.rank) return true;
  return false;
}
