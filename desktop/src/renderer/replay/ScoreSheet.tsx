/** Per hand: bids / tricks per side, the hand's score and the running totals; a hand's number jumps to it. */
import type { GameReplay } from '@spades/common';
import { seatColor } from '../table/model';
import { deltaText, playerName, sideBid } from './replay-view';

export function ScoreSheet({
  doc,
  current,
  onPick,
}: {
  doc: GameReplay;
  current: number;
  onPick: (h: number) => void;
}) {
  const partners = doc.settings.gameMode === 'PARTNERS';
  const sides = partners ? [0, 1] : [0, 1, 2, 3];
  const sideName = (i: number) => (partners ? (i === 0 ? 'Red' : 'Blue') : playerName(doc, i));
  return (
    <section className="panel replay-panel" aria-label="Score sheet">
      <h2 className="h4">Score sheet</h2>
      <div className="table-scroll">
        <table className="summary-solo score-sheet">
          <thead>
            <tr>
              <th>#</th>
              {sides.map((i) => (
                <th key={i} className={`team-${seatColor(doc.settings.gameMode, i)}`}>
                  <span className="dot" /> {sideName(i)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {doc.hands.map((h) => (
              <tr key={h.handNumber} className={h.handNumber === current ? 'current' : ''}>
                <td>
                  <button
                    type="button"
                    className="link-btn num"
                    onClick={() => onPick(h.handNumber)}
                    aria-label={`Go to hand ${h.handNumber}`}
                  >
                    {h.handNumber}
                  </button>
                </td>
                {sides.map((i) => {
                  const sd = h.score.sides.find((x) => x.side === i);
                  return (
                    <td key={i} className="num">
                      <span className="muted small">
                        {sideBid(h, i, partners)} · {sd?.tricks ?? 0}
                      </span>
                      <br />
                      <span className={(sd?.delta ?? 0) >= 0 ? 'pos' : 'neg'}>{deltaText(sd?.delta)}</span>{' '}
                      <strong>{sd?.scoreAfter ?? 0}</strong>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
