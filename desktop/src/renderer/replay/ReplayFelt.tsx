/** The table seen from above: the four seats (the live table's SeatBadge) with their dealt hands, and the trick. */
import type { Card, GameReplay } from '@spades/common';
import { TrickArea } from '../table/TrickArea';
import { SeatBadge } from '../table/Seat';
import { positionOf } from '../table/model';
import { cardText, type ReplayFrame } from './replay-model';
import type { RatingThen } from './ratings-then';
import { playerName } from './replay-view';

export function ReplayFelt({
  doc,
  frame,
  ratingsThen,
}: {
  doc: GameReplay;
  frame: ReplayFrame;
  ratingsThen: (RatingThen | null)[];
}) {
  const dealt = frame.hand?.cards ?? [[], [], [], []];
  return (
    <div className="felt replay-felt">
      {[0, 1, 2, 3].map((s) => {
        const where = positionOf(s, 0);
        return (
          <section key={s} className={`replay-seat rs-${where}`} aria-label={`${playerName(doc, s)}'s hand`}>
            <SeatBadge
              table={frame.table}
              seat={s}
              player={frame.table.seats[s]}
              isTurn={frame.table.turn === s && (frame.table.status === 'BIDDING' || frame.table.status === 'PLAYING')}
              turnSecondsLeft={null}
              replacementLeft={null}
              canJoin={false}
              onJoin={() => undefined}
              canInviteBot={false}
              onInviteBot={() => undefined}
              canRemoveBot={false}
              ratingThen={ratingsThen[s]}
              onRemoveBot={() => undefined}
            />
            <MiniHand dealt={dealt[s] ?? []} left={frame.hands[s] ?? []} />
          </section>
        );
      })}
      <TrickArea
        className="replay-trick"
        label="Cards on the table"
        cards={frame.trick}
        winner={frame.winner}
        mySeat={null}
        banner={frame.winner !== null ? playerName(doc, frame.winner) + ' wins the trick!' : null}
      />
    </div>
  );
}

/** A seat's dealt hand: the cards still held, and the ones already played (faded). */
function MiniHand({ dealt, left }: { dealt: Card[]; left: Card[] }) {
  const held = new Set(left.map((c) => `${c.suit}${c.rank}`));
  return (
    <div
      className="replay-hand mini-cards"
      role="group"
      aria-label={`Holds ${left.length ? left.map(cardText).join(' ') : 'no cards'}`}
    >
      {dealt.map((c) => {
        const k = `${c.suit}${c.rank}`;
        return (
          <span
            key={k}
            className={`chip-card ${c.suit === 'H' || c.suit === 'D' ? 'red' : ''} ${held.has(k) ? '' : 'played'}`}
            aria-hidden="true"
          >
            {cardText(c)}
          </span>
        );
      })}
    </div>
  );
}
