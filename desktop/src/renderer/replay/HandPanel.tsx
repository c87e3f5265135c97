/** The current hand: dealer, the bids in order, and its deal verification. */
import type { GameReplay, ReplayHand } from '@spades/common';
import { bidLabel, seatColor } from '../table/model';
import { playerName } from './replay-view';
import { VerifyDeal } from './VerifyDeal';

export function HandPanel({ hand, doc }: { hand: ReplayHand; doc: GameReplay }) {
  const name = (s: number) => playerName(doc, s);
  return (
    <section className="panel replay-panel" aria-label={`Hand ${hand.handNumber}`}>
      <h2 className="h4">Hand {hand.handNumber}</h2>
      <p className="muted small">Dealer: {name(hand.dealer)}</p>
      <ol className="replay-bids" aria-label="Bids in order">
        {hand.bids.map((b) => (
          <li key={b.seat}>
            <span className={`dot team-${seatColor(doc.settings.gameMode, b.seat)}`} /> {name(b.seat)}{' '}
            <strong className="num">{bidLabel(b.bid, b.blind)}</strong>
            {b.blind && <span className="badge badge-outline">blind nil</span>}
            {b.auto && <span className="muted small"> (forced)</span>}
          </li>
        ))}
      </ol>
      <VerifyDeal hand={hand} doc={doc} />
    </section>
  );
}
