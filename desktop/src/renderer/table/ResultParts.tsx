/**
 * Issue #31 item 2: the result dialog explains the last hand (why a side went from 40 to 0) and the player's own
 * coins. Presentational parts of ResultDialog.tsx.
 */
import { formatCoinsExact } from '@spades/common';
import type { HandScoreSummaryModel, SeatModel } from './model';
import { seatColor } from './model';

/** A score with a true minus sign (−170), like the changes beside it. */
const score = (n: number) => (n < 0 ? `\u2212${-n}` : String(n));
const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : '0');
const bidText = (b: number | undefined) =>
  b === undefined ? '–' : b === -1 ? 'blind nil' : b === 0 ? 'nil' : String(b);

interface SideRow {
  side: number;
  seats: number[];
  delta: number;
  scoreAfter: number;
  /** null: not known (an older server sends the change only). */
  contractPoints: number | null;
  bagsTaken: number | null;
  nilPoints: number;
  bagPenalty: number;
}

/** The last hand per side: each player's bid and tricks, then contract, bags, nil points and penalties. */
export function LastHandSummary({
  summary,
  gameMode,
  seats,
}: {
  summary: HandScoreSummaryModel;
  gameMode: 'PARTNERS' | 'SOLO';
  seats: (SeatModel | null)[];
}) {
  const name = (i: number) => seats[i]?.username ?? `Seat ${i + 1}`;
  const sides: SideRow[] = summary.sides?.length
    ? summary.sides
    : // an older server: no breakdown, the hand's change per side only
      (gameMode === 'PARTNERS' ? [0, 1] : [0, 1, 2, 3]).map((side) => ({
        side,
        seats: gameMode === 'PARTNERS' ? [side, side + 2] : [side],
        delta:
          gameMode === 'PARTNERS'
            ? side === 0
              ? summary.team1Score
              : summary.team2Score
            : (summary.playerScores[side] ?? 0),
        scoreAfter:
          gameMode === 'PARTNERS'
            ? side === 0
              ? summary.team1TotalScore
              : summary.team2TotalScore
            : (summary.playerTotalScores[side] ?? 0),
        contractPoints: null,
        bagsTaken: null,
        nilPoints: 0,
        bagPenalty: 0,
      }));
  return (
    <section className="last-hand" aria-labelledby="last-hand-title">
      <h3 id="last-hand-title" className="h4">
        Last hand{summary.handNumber ? ` (hand ${summary.handNumber})` : ''}
      </h3>
      <div className="last-hand-sides">
        {sides.map((s) => {
          const color = gameMode === 'PARTNERS' ? (s.side === 0 ? 'red' : 'blue') : seatColor('SOLO', s.side);
          const title = gameMode === 'PARTNERS' ? (s.side === 0 ? 'Red team' : 'Blue team') : name(s.side);
          const before = s.scoreAfter - s.delta;
          const parts: [string, number][] = [];
          if (s.contractPoints !== null) parts.push(['Contract', s.contractPoints]);
          if (s.bagsTaken) parts.push(['Bags', s.bagsTaken]);
          if (s.nilPoints)
            parts.push([`Nil${s.seats.some((x) => summary.bids[x] === -1) ? ' / blind nil' : ''}`, s.nilPoints]);
          if (s.bagPenalty) parts.push(['Bag penalty (10 bags)', s.bagPenalty]);
          return (
            <div key={s.side} className={`last-hand-side team-${color}`} data-testid="last-hand-side">
              <strong>{title}</strong>
              <ul className="last-hand-players">
                {s.seats.map((seat) => (
                  <li key={seat}>
                    {name(seat)}: bid {bidText(summary.bids[seat])}, took {summary.tricksPerPlayer[seat] ?? 0}
                  </li>
                ))}
              </ul>
              {parts.length > 0 && (
                <dl className="last-hand-points">
                  {parts.map(([label, v]) => (
                    <div key={label} className={v < 0 ? 'neg' : ''}>
                      <dt>{label}</dt>
                      <dd className="num">{signed(v)}</dd>
                    </div>
                  ))}
                </dl>
              )}
              <p className="last-hand-total num">
                {score(before)} → {score(s.scoreAfter)}{' '}
                <span className={`delta-inline ${s.delta >= 0 ? 'pos' : 'neg'}`}>({signed(s.delta)})</span>
              </p>
            </div>
          );
        })}
      </div>
    </section>
  );
}

/** The player's own coins: what the buy-in became (a rated game), or that no coins moved. */
export function MyCoinResult({ rated, buyIn, payout }: { rated: boolean; buyIn: number; payout: number | null }) {
  if (!rated) return null;
  const won = payout ?? 0;
  const net = won - buyIn;
  return (
    <p className={`my-coins ${net > 0 ? 'won' : net < 0 ? 'lost' : ''}`} data-testid="my-coins">
      {net > 0
        ? `You won ${formatCoinsExact(won)} coins (+${formatCoinsExact(net)} after your ${formatCoinsExact(buyIn)} buy-in).`
        : net < 0
          ? won > 0
            ? `You got ${formatCoinsExact(won)} coins back: \u2212${formatCoinsExact(-net)} after your ${formatCoinsExact(buyIn)} buy-in.`
            : `You lost your buy-in: \u2212${formatCoinsExact(buyIn)} coins.`
          : `You got your ${formatCoinsExact(buyIn)} buy-in back.`}
    </p>
  );
}
