import { Card, GameAction, legalBids, legalCards, PlayerView, TrickCard, trickWinner } from '../rules';
import type { Bot } from './types';

/** Would `card` played by `seat` now win the current trick (against the cards played so far)? */
function wouldWin(trick: readonly TrickCard[], seat: TrickCard['seat'], card: Card): boolean {
  if (trick.length === 0) return true;
  return trickWinner([...trick, { seat, card }]) === seat;
}

/** Lowest card, preferring non-spades (keeps trumps). */
function lowest(cards: readonly Card[]): Card {
  let best = cards[0];
  for (const c of cards) {
    const cs = c.suit === 'S' ? 1 : 0;
    const bs = best.suit === 'S' ? 1 : 0;
    if (cs < bs || (cs === bs && c.rank < best.rank)) best = c;
  }
  return best;
}

function highest(cards: readonly Card[]): Card {
  let best = cards[0];
  for (const c of cards) {
    const cs = c.suit === 'S' ? 1 : 0;
    const bs = best.suit === 'S' ? 1 : 0;
    if (cs > bs || (cs === bs && c.rank > best.rank)) best = c;
  }
  return best;
}

/**
 * The spec's simple bot (§5): looks at its cards, bids 4 or the legal bid nearest 4 (ties: the lower;
 * never blind nil), and plays by a simple rule: if it bid nil, the highest card that does not win the
 * trick (else the lowest); otherwise, when the partner (PARTNERS) is already winning the trick, the
 * lowest card; else the lowest card that wins the trick; else the lowest card.
 */
export const basicBot: Bot = {
  name: 'basic',
  act(view: PlayerView, _rng: () => number): GameAction | null {
    const seat = view.viewer;
    if (seat === 'spectator' || view.turn !== seat) return null;
    if (view.phase === 'BIDDING') {
      if (view.handHidden) return { type: 'reveal', seat };
      const { bids } = legalBids(view);
      if (bids.length === 0) return null;
      let best = bids[0];
      for (const b of bids) {
        const d = Math.abs(b - 4);
        const bd = Math.abs(best - 4);
        if (d < bd || (d === bd && b < best)) best = b;
      }
      return { type: 'bid', seat, bid: best };
    }
    if (view.phase === 'PLAYING') {
      const cards = legalCards(view);
      if (cards.length === 0) return null;
      const trick = view.trick;
      if (view.bids[seat] === 0) {
        const losers = cards.filter((c) => !wouldWin(trick, seat, c));
        return { type: 'play', seat, card: losers.length ? highest(losers) : lowest(cards) };
      }
      if (trick.length > 0 && view.settings.gameMode === 'PARTNERS') {
        const current = trickWinner(trick);
        if (current === (seat + 2) % 4) return { type: 'play', seat, card: lowest(cards) };
      }
      if (trick.length > 0) {
        const winners = cards.filter((c) => wouldWin(trick, seat, c));
        if (winners.length) return { type: 'play', seat, card: lowest(winners) };
      }
      return { type: 'play', seat, card: lowest(cards) };
    }
    return null;
  },
};
