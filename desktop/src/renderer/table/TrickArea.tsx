import type { TrickCard } from '@spades/common';
import { CardFace } from './CardFace';
import { positionOf } from './model';

/**
 * The cards on the table (presentational, issue #12): the live table and the replay viewer both draw their trick
 * with it. Each card slides in from its seat (relative to the viewer's seat, `mySeat`; null = seat 0 at the bottom);
 * the winner's card is highlighted and `banner` announces it.
 */
export function TrickArea({
  cards,
  winner,
  mySeat,
  banner,
  label = 'Current trick',
  className = '',
}: {
  cards: TrickCard[];
  winner: number | null;
  mySeat: number | null;
  banner: string | null;
  label?: string;
  className?: string;
}) {
  return (
    <div className={`${className ? `${className} ` : ''}trick-area`} role="group" aria-label={label} aria-live="polite">
      {cards.map((tc) => (
        <div
          key={`${tc.seat}-${tc.card.suit}${tc.card.rank}`}
          className={`trick-card from-${positionOf(tc.seat, mySeat)} ${winner === tc.seat ? 'winner' : ''}`}
        >
          <CardFace card={tc.card} />
        </div>
      ))}
      {banner && (
        <div className="trick-banner" role="status">
          {banner}
        </div>
      )}
    </div>
  );
}
