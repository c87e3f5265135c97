/**
 * The single source of truth for what may be bid and played. `apply` validates with these functions,
 * and `legalBids(view)` / `legalCards(view)` are computed by them too.
 */
import type { Card } from './cards';
import type { Seat } from './deal';
import { blindNilOffered, effectiveGimmick, GameSettings } from './settings';
import type { TrickCard } from './state';
import { EngineError, EngineErrorCode } from './errors';

export interface LegalBids {
  /** Regular (non-blind) bids allowed; 0 is nil. Empty when it is not this seat's turn to bid. */
  bids: number[];
  /** Whether a blind nil may be bid now (table allows it, the variant allows nil whatever the cards, and the seat has not seen its cards). */
  blindNil: boolean;
  /** True when exactly one regular bid is possible and no blind nil is offered (now): the engine places it automatically. */
  forced: boolean;
}

const ALL_BIDS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
const NON_NIL_BIDS = ALL_BIDS.slice(1);

/**
 * Whether a blind nil is possible for the seat in principle (ignoring whether it has already looked at
 * its cards): clarification 1 — table allows it and nil is legal whatever the cards: REG with Nil on,
 * 4 OR NIL, SUICIDE unless the partner already bid nil. Never WHIZ, MIRROR, BID 3, BID HEARTS, CRAZY ACES.
 */
export function blindNilPossible(settings: GameSettings, seat: Seat, bids: readonly (number | null)[]): boolean {
  const sr = settings.specialRules;
  if (!sr.allowBlindNil || !sr.allowNil || !blindNilOffered(settings)) return false;
  if (effectiveGimmick(settings) === 'SUICIDE') return bids[(seat + 2) % 4] !== 0;
  return true;
}

/**
 * Regular bids allowed for `seat` holding `hand` given the bids so far (spec §5 + issue decisions 3, 4).
 * In variants where a blind nil is possible the result does not depend on the hand.
 */
export function allowedBids(
  settings: GameSettings,
  seat: Seat,
  hand: readonly Card[],
  bids: readonly (number | null)[],
): number[] {
  const allowNil = settings.specialRules.allowNil;
  switch (settings.biddingOption) {
    case 'REG':
      return allowNil ? ALL_BIDS.slice() : NON_NIL_BIDS.slice();
    case 'WHIZ': {
      let spades = 0;
      let aceOfSpades = false;
      for (const c of hand) {
        if (c.suit === 'S') {
          spades++;
          if (c.rank === 14) aceOfSpades = true;
        }
      }
      if (spades === 0) return [0];
      return allowNil && !aceOfSpades ? [0, spades] : [spades];
    }
    case 'MIRROR':
      return [countWhere(hand, (c) => c.suit === 'S')];
    case 'GIMMICK':
      switch (settings.gimmick) {
        case '4 OR NIL':
          return [0, 4];
        case 'BID 3':
          return [3];
        case 'BID HEARTS':
          return [countWhere(hand, (c) => c.suit === 'H')];
        case 'CRAZY ACES':
          return [3 * countWhere(hand, (c) => c.rank === 14)];
        case 'SUICIDE': {
          const partnerBid = bids[(seat + 2) % 4];
          if (partnerBid === null || partnerBid === undefined) return ALL_BIDS.slice();
          return partnerBid === 0 ? NON_NIL_BIDS.slice() : [0];
        }
        default:
          return allowNil ? ALL_BIDS.slice() : NON_NIL_BIDS.slice();
      }
  }
  return [];
}

function countWhere(hand: readonly Card[], pred: (c: Card) => boolean): number {
  let n = 0;
  for (const c of hand) if (pred(c)) n++;
  return n;
}

/** Legal bids for the seat whose turn it is (hand may be withheld — pass [] — only when blindNilPossible). */
export function computeLegalBids(
  settings: GameSettings,
  seat: Seat,
  hand: readonly Card[],
  bids: readonly (number | null)[],
  revealed: boolean,
): LegalBids {
  const list = allowedBids(settings, seat, hand, bids);
  const blindNil = !revealed && blindNilPossible(settings, seat, bids);
  // forced when the only regular bid is one value and no blind nil is still on offer (a seat that has looked
  // at its cards can no longer bid blind, e.g. the second SUICIDE partner after revealing: nil is forced)
  return { bids: list, blindNil, forced: list.length === 1 && !blindNil };
}

/** Winner of a complete (or partial) trick: highest spade, else highest card of the led suit. */
export function trickWinner(trick: readonly TrickCard[]): Seat {
  let best = trick[0];
  for (let i = 1; i < trick.length; i++) {
    const t = trick[i];
    if (t.card.suit === best.card.suit) {
      if (t.card.rank > best.card.rank) best = t;
    } else if (t.card.suit === 'S') {
      best = t;
    }
  }
  return best.seat;
}

interface HandFacts {
  hasSpade: boolean;
  hasNonSpade: boolean;
  /** Holds a card of the led suit (false when leading). */
  hasLead: boolean;
}

function handFacts(hand: readonly Card[], trick: readonly TrickCard[]): HandFacts {
  const lead = trick.length > 0 ? trick[0].card.suit : null;
  let hasSpade = false;
  let hasNonSpade = false;
  let hasLead = false;
  for (const c of hand) {
    if (c.suit === 'S') hasSpade = true;
    else hasNonSpade = true;
    if (c.suit === lead) hasLead = true;
  }
  return { hasSpade, hasNonSpade, hasLead };
}

function playErrorWith(
  settings: GameSettings,
  f: HandFacts,
  trick: readonly TrickCard[],
  spadesBroken: boolean,
  card: Card,
): EngineErrorCode | null {
  const { screamer, assassin } = settings.specialRules;
  if (trick.length > 0) {
    if (card.suit === trick[0].card.suit) return null;
    if (f.hasLead) return EngineError.MUST_FOLLOW_SUIT;
    // void in the led suit
    if (screamer && card.suit === 'S' && f.hasNonSpade) return EngineError.SCREAMER_NO_SPADES;
    if (assassin && card.suit !== 'S' && f.hasSpade) return EngineError.ASSASSIN_MUST_PLAY_SPADE;
    return null;
  }
  // leading
  if (screamer) {
    return card.suit === 'S' && f.hasNonSpade ? EngineError.SCREAMER_NO_SPADES : null;
  }
  if (assassin && spadesBroken) {
    return card.suit !== 'S' && f.hasSpade ? EngineError.ASSASSIN_MUST_LEAD_SPADES : null;
  }
  if (card.suit === 'S' && !spadesBroken && f.hasNonSpade) return EngineError.SPADES_NOT_BROKEN;
  return null;
}

/**
 * Why `card` (which must be in `hand`) cannot be played now, or null if it can (spec §5, decision 5).
 * `spadesBroken` must already include spades played in the current trick.
 */
export function playError(
  settings: GameSettings,
  hand: readonly Card[],
  trick: readonly TrickCard[],
  spadesBroken: boolean,
  card: Card,
): EngineErrorCode | null {
  return playErrorWith(settings, handFacts(hand, trick), trick, spadesBroken, card);
}

/** The cards of `hand` that may be played now (same rules as apply). */
export function computeLegalCards(
  settings: GameSettings,
  hand: readonly Card[],
  trick: readonly TrickCard[],
  spadesBroken: boolean,
): Card[] {
  const f = handFacts(hand, trick);
  return hand.filter((c) => playErrorWith(settings, f, trick, spadesBroken, c) === null);
}
