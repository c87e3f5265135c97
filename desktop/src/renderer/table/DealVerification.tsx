/**
 * "Verify deal": recomputes the four hands from the revealed seed with common's dealFromSeed and checks
 * seedCommitment(seed) against the commitment published before the hand (result-model's checkRevealedDeal).
 */
import { useMemo } from 'react';
import { CheckCircle2, XCircle } from 'lucide-react';
import { rankCode, type Card } from '@spades/common';
import { cardLabel, suitSymbol } from './CardFace';
import type { SeatModel } from './model';
import { seatColor } from './model';
import { checkRevealedDeal } from './result-model';

export function DealVerification({
  seed,
  commitment,
  myDealt,
  mySeat,
  seats,
}: {
  seed: string;
  commitment: string | null;
  myDealt: Card[] | null;
  mySeat: number | null;
  seats: (SeatModel | null)[];
}) {
  const result = useMemo(
    () => checkRevealedDeal(seed, commitment, myDealt, mySeat),
    [seed, commitment, myDealt, mySeat],
  );
  if (!result) return <p className="form-error">The revealed seed is not valid.</p>;
  return (
    <div className="verify" aria-live="polite">
      <div className={`verify-line ${result.commitmentMatches ? 'ok' : 'bad'}`}>
        {result.commitmentMatches ? <CheckCircle2 size={18} /> : <XCircle size={18} />}
        <span>
          {result.commitmentMatches
            ? 'Deal verified: the revealed seed matches the commitment published before the hand.'
            : 'Mismatch: the revealed seed does not match the published commitment.'}
        </span>
      </div>
      {result.handMatches !== null && (
        <div className={`verify-line ${result.handMatches ? 'ok' : 'bad'}`}>
          {result.handMatches ? <CheckCircle2 size={18} /> : <XCircle size={18} />}
          <span>
            {result.handMatches
              ? 'Your 13 cards are exactly the ones this seed deals to your seat.'
              : 'Your cards differ from the recomputed deal.'}
          </span>
        </div>
      )}
      <dl className="hashes">
        <dt>Commitment</dt>
        <dd className="mono">{commitment ?? '—'}</dd>
        <dt>sha256(seed)</dt>
        <dd className="mono">{result.recomputed}</dd>
        <dt>Seed</dt>
        <dd className="mono">{seed}</dd>
      </dl>
      <div className="verify-hands">
        {result.hands.map((h, s) => (
          <div key={s} className="verify-hand">
            <span className={`dot team-${seatColor('PARTNERS', s)}`} />
            <span className="small">{seats[s]?.username ?? `Seat ${s + 1}`}</span>
            <div className="mini-cards" role="group" aria-label={h.map(cardLabel).join('; ')}>
              {h.map((c) => (
                <span
                  key={`${c.suit}${c.rank}`}
                  className={`chip-card ${c.suit === 'H' || c.suit === 'D' ? 'red' : ''}`}
                >
                  {rankCode(c.rank)}
                  {suitSymbol(c.suit)}
                </span>
              ))}
            </div>
          </div>
        ))}
      </div>
    </div>
  );
}
