/**
 * Claim the rest (issue #31, "TRAM"): whether the seat to play can prove that it wins EVERY remaining trick of the
 * hand, and with which cards in which order.
 *
 * DECISION — what is proven, precisely:
 * - Only the claimer's own knowledge is used: `claimPlan` takes the seat's redacted `PlayerView` (its hand, the
 *   cards already played — `handTricks` and the current trick — and the public counts). The other three seats
 *   are assumed to hold ANY split of the unseen cards, any seat possibly void in any suit (voids shown in earlier
 *   tricks are not used: that only makes the check stricter). So offering a claim leaks nothing about the other
 *   hands, and the client could compute it from the same view; the server decides with the same function on
 *   `viewFor(state, seat)` and refuses a claim it does not prove.
 * - The claim is a fixed PLAN: the claimer plays `plan[0]`, `plan[1]`, … in that order (each legal when its turn
 *   comes), and for EVERY legal play of the other three seats (partner included: the claim is the seat's own, not
 *   the team's) the claimer wins every remaining trick, the one in progress included. Only offered on the
 *   claimer's turn while PLAYING.
 * - Proof rules (sound, not complete): a led card wins when no unseen card of its suit is higher and, for a
 *   non-spade, no other seat can still hold a spade. Leading spades first draws them: after k spade leads no seat
 *   holds a spade once k ≥ min(unseen spades, largest other hand). In the trick in progress the claimer's card
 *   must beat the cards already played and no unseen card may beat it (any later seat may be void).
 *   The property test (claim.spec.ts) checks the guarantee by enumerating every legal play-out on real hands.
 *
 * `claimPlayout` turns a proven claim into engine actions on the real state (the other seats play their lowest
 * legal card): the server applies them through `apply`, so scoring, events and restarts are unchanged.
 */
import { Card, cardIndex, compareCards, DECK } from './cards';
import type { Seat } from './deal';
import { apply, GameAction } from './engine';
import { computeLegalCards, playError, trickWinner } from './legal';
import type { GameState, TrickCard } from './state';
import { PlayerView, viewFor } from './view';

type ClaimView = Pick<
  PlayerView,
  'viewer' | 'phase' | 'turn' | 'hand' | 'trick' | 'spadesBroken' | 'handTricks' | 'handCounts' | 'settings'
>;

/** Why a claim is refused (typed; the server answers these texts). */
export const ClaimError = {
  NOT_PLAYING: 'NOT_PLAYING',
  NOT_YOUR_TURN: 'NOT_YOUR_TURN',
  NOT_CERTAIN: 'NOT_CERTAIN',
} as const;
export type ClaimErrorCode = (typeof ClaimError)[keyof typeof ClaimError];

const CLAIM_MESSAGES: Record<ClaimErrorCode, string> = {
  NOT_PLAYING: 'You can only claim during the play of a hand',
  NOT_YOUR_TURN: 'You can only claim on your turn',
  NOT_CERTAIN: 'You cannot claim: the remaining tricks are not certain to be yours',
};

export function claimErrorMessage(code: ClaimErrorCode): string {
  return CLAIM_MESSAGES[code];
}

/** The reason a claim by the view's seat is refused, or null when `claimPlan` proves it. */
export function claimRefusal(view: ClaimView): ClaimErrorCode | null {
  if (view.phase !== 'PLAYING' || view.viewer === 'spectator' || !view.hand || view.hand.length === 0)
    return ClaimError.NOT_PLAYING;
  if (view.turn !== view.viewer) return ClaimError.NOT_YOUR_TURN;
  return claimPlan(view) ? null : ClaimError.NOT_CERTAIN;
}

/** The claimer's cards in play order when the view's seat provably wins every remaining trick, else null. */
export function claimPlan(view: ClaimView): Card[] | null {
  const me = view.viewer;
  if (view.phase !== 'PLAYING' || me === 'spectator' || view.turn !== me || !view.hand || view.hand.length === 0)
    return null;
  const unseen = new Array<boolean>(52).fill(true);
  for (const c of view.hand) unseen[cardIndex(c)] = false;
  for (const t of view.handTricks ?? []) for (const tc of t.cards) unseen[cardIndex(tc.card)] = false;
  for (const tc of view.trick) unseen[cardIndex(tc.card)] = false;
  const u = new Unseen(unseen);
  let otherMax = 0;
  for (let s = 0; s < 4; s++) if (s !== me) otherMax = Math.max(otherMax, view.handCounts[s] ?? 13);
  // most spades any other seat can hold: the unseen spades, at most a whole hand
  const spadeRounds = Math.min(u.count('S'), otherMax);

  if (view.trick.length === 0) return leadPlan(view, view.hand, view.spadesBroken, u, spadeRounds);
  for (const y of sortDesc(computeLegalCards(view.settings, view.hand, view.trick, view.spadesBroken))) {
    if (!winsCurrent(view.trick, y, u)) continue;
    const rest = view.hand.filter((c) => c !== y);
    const tail = leadPlan(view, rest, view.spadesBroken || y.suit === 'S', u, spadeRounds);
    if (tail) return [y, ...tail];
  }
  return null;
}

/** Unseen cards: the highest unseen rank per suit and the count per suit. */
class Unseen {
  private readonly top: Record<string, number> = { S: 0, H: 0, D: 0, C: 0 };
  private readonly n: Record<string, number> = { S: 0, H: 0, D: 0, C: 0 };
  constructor(unseen: boolean[]) {
    for (const c of DECK) {
      if (!unseen[cardIndex(c)]) continue;
      this.n[c.suit]++;
      if (c.rank > this.top[c.suit]) this.top[c.suit] = c.rank;
    }
  }
  /** Whether an unseen card of `card`'s suit ranks higher. */
  higher(card: Card): boolean {
    return this.top[card.suit] > card.rank;
  }
  count(suit: string): number {
    return this.n[suit];
  }
}

/** Whether `y`, played now to the trick in progress, wins it whatever the seats after the claimer play. */
function winsCurrent(trick: readonly TrickCard[], y: Card, u: Unseen): boolean {
  const led = trick[0].card.suit;
  const best = trick.find((t) => t.seat === trickWinner(trick))!.card;
  const later = 3 - trick.length;
  if (y.suit === led) {
    if (best.suit !== led || y.rank < best.rank) return false;
    if (later === 0) return true;
    // a later seat may follow higher, or (void in the led suit) trump
    return !u.higher(y) && (led === 'S' || u.count('S') === 0);
  }
  if (y.suit !== 'S') return false;
  if (best.suit === 'S' && best.rank > y.rank) return false;
  return later === 0 || !u.higher(y);
}

/** Leads for the rest of the hand (the claimer wins every trick, so it leads each), or null. */
function leadPlan(
  view: ClaimView,
  hand: readonly Card[],
  broken: boolean,
  u: Unseen,
  spadeRounds: number,
): Card[] | null {
  let left = sortDesc(hand);
  const plan: Card[] = [];
  let spadeLeads = 0;
  while (left.length > 0) {
    const othersMayHoldSpades = spadeLeads < spadeRounds;
    const pick = left.find(
      (x) =>
        (x.suit === 'S' || !othersMayHoldSpades) &&
        !u.higher(x) &&
        playError(view.settings, left, [], broken, x) === null,
    );
    if (!pick) return null;
    plan.push(pick);
    left = left.filter((c) => c !== pick);
    if (pick.suit === 'S') {
      broken = true;
      spadeLeads++;
    }
  }
  return plan;
}

/** Spades first, then by rank, high to low (a stable, readable play order). */
function sortDesc(cards: readonly Card[]): Card[] {
  return cards
    .slice()
    .sort((a, b) =>
      (a.suit === 'S') !== (b.suit === 'S') ? (a.suit === 'S' ? -1 : 1) : b.rank - a.rank || compareCards(a, b),
    );
}

/**
 * The engine actions that play out a proven claim on the real state: the claimer's plan, the other seats their
 * lowest legal card. Null when `seat` cannot claim. Every action is legal in turn (checked with `apply`).
 */
export function claimPlayout(state: GameState, seat: Seat): GameAction[] | null {
  const plan = claimPlan(viewFor(state, seat));
  if (!plan) return null;
  const actions: GameAction[] = [];
  let s = state;
  let next = 0;
  while (s.phase === 'PLAYING') {
    const turn = s.turn as Seat;
    if (turn === seat && next >= plan.length) return null;
    const card =
      turn === seat
        ? plan[next++]
        : computeLegalCards(s.settings, s.hands[turn], s.trick, s.spadesBroken).sort(compareLow)[0];
    const action: GameAction = { type: 'play', seat: turn, card };
    const r = apply(s, action);
    if (!r.ok) return null; // cannot happen for a proven plan (property-tested); refuse rather than half-play
    actions.push(action);
    s = r.state;
  }
  return actions;
}

function compareLow(a: Card, b: Card): number {
  return (a.suit === 'S' ? 1 : 0) - (b.suit === 'S' ? 1 : 0) || a.rank - b.rank || compareCards(a, b);
}
