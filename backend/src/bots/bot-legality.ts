/** The safety net under every bot answer: is it an action the viewer may take now (the engine's legality)? */
import { legalBids, legalCards, type GameAction, type PlayerView } from '@spades/common';

/** Whether `action` is one the viewer may take now (same legality functions as the engine). */
export function isLegalBotAction(view: PlayerView, action: GameAction | null | undefined): action is GameAction {
  if (!action || typeof action !== 'object' || view.viewer === 'spectator') return false;
  switch (action.type) {
    case 'reveal':
      return view.phase === 'BIDDING' && view.turn === view.viewer && action.seat === view.viewer && view.handHidden;
    case 'bid': {
      if (action.seat !== view.viewer) return false;
      const lb = legalBids(view);
      if (action.blind) return lb.blindNil && action.bid === 0;
      return lb.bids.includes(action.bid);
    }
    case 'play':
      return (
        action.seat === view.viewer &&
        legalCards(view).some((c) => c.suit === action.card?.suit && c.rank === action.card?.rank)
      );
    default:
      return false;
  }
}
