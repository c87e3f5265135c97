import { Popover } from 'radix-ui';
import { History } from 'lucide-react';
import type { TrickCard } from '@spades/common';
import { CardFace, cardLabel } from './CardFace';
import { positionOf } from './model';

/**
 * Last trick (issue #31): the previous completed trick — who played what, who won — from the table view's
 * `lastTrick`, which the server replaces when the next trick ends. Cards are laid out as they lay on the table
 * (the viewer at the bottom).
 */
export function LastTrick({
  lastTrick,
  mySeat,
  names,
}: {
  lastTrick: { winnerIndex: number; cards: TrickCard[] } | null;
  mySeat: number | null;
  names: string[];
}) {
  if (!lastTrick || lastTrick.cards.length === 0) return null;
  const winner = names[lastTrick.winnerIndex] ?? `Seat ${lastTrick.winnerIndex + 1}`;
  return (
    <Popover.Root>
      <Popover.Trigger className="btn btn-secondary btn-sm extras-btn" aria-label="Last trick">
        <History size={15} aria-hidden="true" /> <span className="extras-text">Last trick</span>
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          className="popover last-trick"
          sideOffset={8}
          side="bottom"
          align="start"
          aria-label="Last trick"
        >
          <h3 className="h4 last-trick-title">Last trick · {winner} won</h3>
          <div className="last-trick-grid">
            {lastTrick.cards.map((tc) => {
              const who = names[tc.seat] ?? `Seat ${tc.seat + 1}`;
              return (
                <figure
                  key={tc.seat}
                  className={`last-trick-card at-${positionOf(tc.seat, mySeat)} ${tc.seat === lastTrick.winnerIndex ? 'won' : ''}`}
                >
                  <CardFace card={tc.card} />
                  <figcaption title={`${who}: ${cardLabel(tc.card)}`}>{who}</figcaption>
                </figure>
              );
            })}
          </div>
          <ol className="extras-sr">
            {lastTrick.cards.map((tc) => (
              <li key={tc.seat}>
                {names[tc.seat] ?? `Seat ${tc.seat + 1}`} played {cardLabel(tc.card)}
                {tc.seat === lastTrick.winnerIndex ? ' and won the trick' : ''}
              </li>
            ))}
          </ol>
          <Popover.Arrow className="popover-arrow" />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
