/**
 * `heuristic` bot: bids from hand evaluation and plays with card counting (see bid.ts and play.ts).
 * It only ever receives a PlayerView; legality comes from common (`legalBids` / `legalCards`).
 */
import type { Card } from '../../rules/cards';
import type { GameAction } from '../../rules/engine';
import { legalBids, legalCards, PlayerView } from '../../rules/view';
import type { Seat } from '../../rules/deal';
import { cardsToMasks, fromCard } from '../../fast/hand';
import type { Bot } from '../types';
import { reportBotFallback } from '../fallback';
import { chooseBid } from './bid';
import { knowledgeFromView } from './knowledge';
import { heuristicCard } from './play';

export { estimateTricks, nilDanger, chooseBid } from './bid';
export type { BidContext } from './bid';
export { heuristicCard } from './play';
export { knowledgeFromView } from './knowledge';

export function variantOption(view: Pick<PlayerView, 'settings'>): string {
  const s = view.settings;
  return s.biddingOption === 'GIMMICK' && s.gimmick ? s.gimmick : s.biddingOption;
}

/** Blind nil only as a comeback: the side is far behind and an opponent is close to winning. */
export function wantsBlindNil(view: PlayerView, seat: Seat): boolean {
  const partners = view.settings.gameMode === 'PARTNERS';
  if (partners && view.bids[(seat + 2) % 4] === 0) return false;
  const mine = view.scores[partners ? seat % 2 : seat];
  let best = -Infinity;
  for (let i = 0; i < view.scores.length; i++)
    if (i !== (partners ? seat % 2 : seat)) best = Math.max(best, view.scores[i]);
  return best - mine >= 200 && best >= view.settings.maxPoints - 130;
}

const handMasks = new Int32Array(4);

export function heuristicBid(view: PlayerView, seat: Seat, hand: readonly Card[], legal: readonly number[]): number {
  cardsToMasks(hand, handMasks, 0);
  const partners = view.settings.gameMode === 'PARTNERS';
  return chooseBid(handMasks, {
    legal,
    partners,
    bids: view.bids,
    seat,
    option: variantOption(view),
    bags: view.bags[partners ? seat % 2 : seat] ?? 0,
  });
}

/** The heuristic decision for the viewer (null when it is not its turn). */
export function heuristicAct(view: PlayerView): GameAction | null {
  const seat = view.viewer;
  if (seat === 'spectator' || view.turn !== seat) return null;
  if (view.phase === 'BIDDING') {
    const lb = legalBids(view);
    if (view.handHidden) {
      if (lb.blindNil && wantsBlindNil(view, seat)) return { type: 'bid', seat, bid: 0, blind: true };
      return { type: 'reveal', seat };
    }
    if (lb.bids.length === 0) return null;
    const bid = heuristicBid(view, seat, view.hand ?? [], lb.bids);
    if (lb.bids.includes(bid)) return { type: 'bid', seat, bid };
    // safety net: never reached unless the bid evaluation has a bug (observable, throws in strict mode)
    reportBotFallback({ bot: 'heuristic', kind: 'bid', chosen: bid, used: lb.bids[0] });
    return { type: 'bid', seat, bid: lb.bids[0] };
  }
  if (view.phase === 'PLAYING') {
    const legal = legalCards(view);
    if (legal.length === 0) return null;
    if (legal.length === 1) return { type: 'play', seat, card: legal[0] };
    const c = heuristicCard(knowledgeFromView(view), seat);
    for (const card of legal) if (fromCard(card) === c) return { type: 'play', seat, card };
    // safety net: never reached unless the play policy has a bug (observable, throws in strict mode)
    reportBotFallback({ bot: 'heuristic', kind: 'card', chosen: c, used: legal[0] });
    return { type: 'play', seat, card: legal[0] };
  }
  return null;
}

export const heuristicBot: Bot = {
  name: 'heuristic',
  act(view: PlayerView): GameAction | null {
    return heuristicAct(view);
  },
};
