import { memo, useId } from 'react';
import { rankCode, type Card, type Suit } from '@spades/common';

const SUIT_SYMBOL: Record<Suit, string> = { S: '♠', H: '♥', D: '♦', C: '♣' };
const SUIT_NAME: Record<Suit, string> = { S: 'spades', H: 'hearts', D: 'diamonds', C: 'clubs' };
const RANK_NAME: Record<number, string> = { 11: 'jack', 12: 'queen', 13: 'king', 14: 'ace' };

/**
 * A card's accessible name starts with what it shows (issue #31: voice control users say what they see), then
 * says it in words: "A♠, ace of spades", "10♥, 10 of hearts".
 */
export function cardLabel(c: Card): string {
  return `${rankCode(c.rank)}${SUIT_SYMBOL[c.suit]}, ${RANK_NAME[c.rank] ?? String(c.rank)} of ${SUIT_NAME[c.suit]}`;
}
export function suitSymbol(s: Suit): string {
  return SUIT_SYMBOL[s];
}
const isRed = (s: Suit) => s === 'H' || s === 'D';

/** Pip layouts (x, y in a 100×140 box) for number cards. */
const PIPS: Record<number, [number, number][]> = {
  2: [
    [50, 30],
    [50, 110],
  ],
  3: [
    [50, 30],
    [50, 70],
    [50, 110],
  ],
  4: [
    [32, 30],
    [68, 30],
    [32, 110],
    [68, 110],
  ],
  5: [
    [32, 30],
    [68, 30],
    [50, 70],
    [32, 110],
    [68, 110],
  ],
  6: [
    [32, 30],
    [68, 30],
    [32, 70],
    [68, 70],
    [32, 110],
    [68, 110],
  ],
  7: [
    [32, 30],
    [68, 30],
    [50, 50],
    [32, 70],
    [68, 70],
    [32, 110],
    [68, 110],
  ],
  8: [
    [32, 30],
    [68, 30],
    [50, 50],
    [32, 70],
    [68, 70],
    [50, 90],
    [32, 110],
    [68, 110],
  ],
  9: [
    [32, 28],
    [68, 28],
    [32, 56],
    [68, 56],
    [50, 70],
    [32, 84],
    [68, 84],
    [32, 112],
    [68, 112],
  ],
  10: [
    [32, 28],
    [68, 28],
    [50, 42],
    [32, 56],
    [68, 56],
    [32, 84],
    [68, 84],
    [50, 98],
    [32, 112],
    [68, 112],
  ],
};

/** A crisp SVG card face drawn from rank + suit (no image files). */
export const CardFace = memo(function CardFace({ card, className = '' }: { card: Card; className?: string }) {
  // issue #31: the four-colour deck option sets --suit-D / --suit-C (table/options.css); two colours by default
  const color = `var(--suit-${card.suit}, ${isRed(card.suit) ? '#c81e1e' : '#111827'})`;
  const sym = SUIT_SYMBOL[card.suit];
  const r = rankCode(card.rank);
  const face = card.rank >= 11 && card.rank <= 13;
  // The rank is written once as text and drawn again from it (<use>): the card's visible text is its rank once,
  // which its name ("A♠, ace of spades") contains (axe label-content-name-mismatch on the hand's buttons).
  const rid = `rank${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  return (
    <svg className={`card-svg ${className}`} viewBox="0 0 100 140" role="img" aria-label={cardLabel(card)}>
      <rect x="1" y="1" width="98" height="138" rx="8" fill="#fdfdfb" stroke="#cbd5e1" strokeWidth="1.2" />
      <g style={{ fill: color }} fontFamily="Georgia, 'Times New Roman', serif" fontWeight="700">
        <text id={rid} x="8" y="22" fontSize={r === '10' ? 17 : 20} textAnchor="start">
          {r}
        </text>
        <text x="8" y="40" fontSize="16">
          {sym}
        </text>
        <g transform="rotate(180 50 70)">
          <use href={`#${rid}`} />
          <text x="8" y="40" fontSize="16">
            {sym}
          </text>
        </g>
        {card.rank === 14 ? (
          <text x="50" y="88" fontSize={card.suit === 'S' ? 58 : 46} textAnchor="middle">
            {sym}
          </text>
        ) : face ? (
          <>
            <rect
              x="24"
              y="24"
              width="52"
              height="92"
              rx="4"
              fill="none"
              style={{ stroke: color }}
              strokeWidth="1.4"
              opacity="0.55"
            />
            <rect
              x="27"
              y="27"
              width="46"
              height="86"
              rx="3"
              className={`face-bg-${card.suit}`}
              fill={isRed(card.suit) ? '#fde8e8' : '#e8ecf4'}
            />
            <use href={`#${rid}`} transform="translate(50 78) scale(2) translate(-13 -22)" />
            <text x="50" y="104" fontSize="18" textAnchor="middle">
              {sym}
            </text>
          </>
        ) : (
          (PIPS[card.rank] ?? []).map(([x, y], i) => (
            <text
              key={i}
              x={x}
              y={y + 7}
              fontSize="20"
              textAnchor="middle"
              transform={y > 70 ? `rotate(180 ${x} ${y})` : undefined}
            >
              {sym}
            </text>
          ))
        )}
      </g>
    </svg>
  );
});

export const CardBack = memo(function CardBack({ className = '' }: { className?: string }) {
  return (
    <svg className={`card-svg ${className}`} viewBox="0 0 100 140" role="img" aria-label="Face-down card">
      <defs>
        <pattern id="cb-pat" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <rect width="10" height="10" fill="#1e3a8a" />
          <rect width="5" height="10" fill="#1d4ed8" opacity="0.55" />
        </pattern>
      </defs>
      <rect x="1" y="1" width="98" height="138" rx="8" fill="#f8fafc" stroke="#cbd5e1" />
      <rect x="7" y="7" width="86" height="126" rx="5" fill="url(#cb-pat)" />
      <rect x="7" y="7" width="86" height="126" rx="5" fill="none" stroke="#93c5fd" strokeWidth="1.5" />
      <text x="50" y="82" fontSize="34" textAnchor="middle" fill="#e0e7ff" opacity="0.9">
        ♠
      </text>
    </svg>
  );
});
