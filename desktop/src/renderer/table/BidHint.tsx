import { useMemo, useState } from 'react';
import { Lightbulb } from 'lucide-react';
import { bidHint, type PlayerView } from '@spades/common';

/**
 * Bid hint (issue #31): in unrated games, the strong bot's suggested bid for the player's own hand (common's
 * `bidHint`, computed here from the player's own view only). Shown at once with the `bidHint` option on, else
 * behind a "Hint" button. Never in rated games.
 */
export function BidHint({ view, rated, always }: { view: PlayerView | null; rated: boolean; always: boolean }) {
  const [asked, setAsked] = useState<string | null>(null);
  const active =
    !!view &&
    !rated &&
    view.phase === 'BIDDING' &&
    view.viewer !== 'spectator' &&
    view.turn === view.viewer &&
    !!view.hand &&
    !view.handHidden;
  const key = active && view ? `${view.handNumber}:${view.bids.join(',')}` : '';
  const show = active && (always || asked === key);
  // computed once per bidding turn (key): the view object changes with every update, the hand and bids do not
  const hint = useMemo(() => (show && view ? bidHint(view) : null), [show, key]);
  if (!active) return null;
  if (!show) {
    return (
      <button
        type="button"
        className="btn btn-secondary btn-sm extras-btn"
        onClick={() => setAsked(key)}
        aria-label="Show a bid hint"
      >
        <Lightbulb size={15} aria-hidden="true" /> <span className="extras-text">Hint</span>
      </button>
    );
  }
  if (hint === null) return null;
  return (
    <div className="bid-hint" role="status">
      <Lightbulb size={15} aria-hidden="true" /> Suggested bid:{' '}
      <strong className="num">{hint === 0 ? 'Nil' : hint}</strong>
    </div>
  );
}
