import { legalBids, legalCards, PlayerView, GameAction } from '../rules';
import type { Bot } from './types';
import { randomInt } from './prng';

/** Uniformly random legal bids (blind nil counts as one more option when offered) and cards. */
export const randomBot: Bot = {
  name: 'random',
  act(view: PlayerView, rng: () => number): GameAction | null {
    const seat = view.viewer;
    if (seat === 'spectator' || view.turn !== seat) return null;
    if (view.phase === 'BIDDING') {
      const lb = legalBids(view);
      const n = lb.bids.length + (lb.blindNil ? 1 : 0);
      if (n === 0) return null;
      const i = randomInt(rng, n);
      if (i === lb.bids.length) return { type: 'bid', seat, bid: 0, blind: true };
      return { type: 'bid', seat, bid: lb.bids[i] };
    }
    if (view.phase === 'PLAYING') {
      const cards = legalCards(view);
      if (cards.length === 0) return null;
      return { type: 'play', seat, card: cards[randomInt(rng, cards.length)] };
    }
    return null;
  },
};
