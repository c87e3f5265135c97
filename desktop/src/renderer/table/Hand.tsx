import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { cardEquals, type Card } from '@spades/common';
import { CardBack, CardFace, cardLabel } from './CardFace';

import { DEAL_STEP_MS } from './timing';

/**
 * The player's own hand, fanned. Unplayable cards (common's legalCards) are greyed and not clickable.
 * Keyboard: ← → move between cards, Enter/Space plays the focused card.
 */
export function Hand({
  cards,
  hidden,
  hiddenCount,
  legal,
  canPlay,
  pendingCard,
  onPlay,
  dealKey,
  width,
  cardWidth = 88,
  animate = false,
  onDealt,
}: {
  cards: Card[];
  hidden: boolean;
  hiddenCount: number;
  legal: Card[];
  canPlay: boolean;
  pendingCard: Card | null;
  onPlay: (c: Card) => void;
  dealKey: string;
  width: number;
  cardWidth?: number;
  animate?: boolean;
  /** Called when the deal animation's last card has landed. */
  onDealt?: () => void;
}) {
  const [focus, setFocus] = useState(0);
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const n = hidden ? hiddenCount : cards.length;
  const cardW = 'var(--card-w)';
  // Overlap so that the fan fits the available width.
  const step = useMemo(() => {
    const w = Math.max(240, width);
    return n <= 1 ? 0 : Math.min(cardWidth * 0.62, (w - cardWidth - 16) / (n - 1));
  }, [n, width, cardWidth]);
  useEffect(() => {
    if (focus >= n) setFocus(Math.max(0, n - 1));
  }, [n, focus]);
  // Keyboard players keep their place: when the focused card was played (it leaves the DOM, the focus would
  // fall to the page body) or the turn comes back, the focus returns to the hand, unless it moved elsewhere.
  const handRef = useRef<HTMLDivElement | null>(null);
  const keepFocus = useRef(false);
  useEffect(() => {
    if (!keepFocus.current || hidden || n === 0) return;
    const active = document.activeElement;
    if (active && active !== document.body && !handRef.current?.contains(active)) return;
    const i = Math.min(focus, n - 1);
    if (refs.current[i] && active !== refs.current[i]) refs.current[i]?.focus();
  }, [n, canPlay, hidden]);
  const isLegal = (c: Card) => legal.some((l) => cardEquals(l, c));
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowRight' || e.key === 'ArrowLeft') {
      e.preventDefault();
      const next = Math.min(n - 1, Math.max(0, focus + (e.key === 'ArrowRight' ? 1 : -1)));
      setFocus(next);
      refs.current[next]?.focus();
    }
  };
  if (n === 0) return <div className="hand empty-hand" aria-hidden="true" />;
  const mid = (n - 1) / 2;
  return (
    <div
      className="hand"
      ref={handRef}
      role="toolbar"
      aria-label={hidden ? 'Your cards (face down)' : 'Your hand'}
      onFocus={() => {
        keepFocus.current = true;
      }}
      onBlur={(e) => {
        // a card removed from the DOM blurs with no related target: keep the wish to return
        if (e.relatedTarget instanceof Node && !e.currentTarget.contains(e.relatedTarget)) keepFocus.current = false;
      }}
      onKeyDown={onKey}
      onAnimationEnd={(e) => {
        if (animate && (e.target as HTMLElement).dataset?.lastCard === 'true') onDealt?.();
      }}
      style={{ width: step * (n - 1) + cardWidth }}
    >
      {Array.from({ length: n }, (_, i) => {
        const off = i - mid;
        const style = {
          left: `calc(50% + ${off * step}px - ${cardW} / 2)`,
          transform: `rotate(${off * 1.4}deg) translateY(${off * off * 0.35}px)`,
          animationDelay: `${i * DEAL_STEP_MS}ms`,
          zIndex: i + 1,
        };
        if (hidden) {
          return (
            <div
              key={`${dealKey}-b${i}`}
              className={`hand-card ${animate ? 'dealt' : ''}`}
              style={style}
              data-last-card={i === n - 1 ? 'true' : undefined}
            >
              <CardBack />
            </div>
          );
        }
        const c = cards[i];
        const playable = canPlay && isLegal(c);
        const pending = pendingCard !== null && cardEquals(pendingCard, c);
        return (
          <button
            key={`${dealKey}-${c.suit}${c.rank}`}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            className={`hand-card ${animate ? 'dealt' : ''} ${playable ? 'playable' : ''} ${canPlay && !playable ? 'unplayable' : ''} ${pending ? 'pending' : ''}`}
            style={style}
            data-last-card={i === n - 1 ? 'true' : undefined}
            tabIndex={i === focus ? 0 : -1}
            aria-disabled={!playable}
            aria-label={`${cardLabel(c)}${canPlay ? (playable ? ', playable' : ', not playable') : ''}`}
            onFocus={() => setFocus(i)}
            onClick={() => playable && onPlay(c)}
          >
            <CardFace card={c} />
          </button>
        );
      })}
    </div>
  );
}
