/** "Verify deal": recomputed in this browser from the revealed seed with common's verifyDeal. */
import { useEffect, useMemo, useState } from 'react';
import { CheckCircle2, ShieldCheck, XCircle } from 'lucide-react';
import { verifyDeal, type GameReplay, type ReplayHand } from '@spades/common';
import { seatColor } from '../table/model';
import { cardText } from './replay-model';
import { playerName } from './replay-view';

export function VerifyDeal({ hand, doc }: { hand: ReplayHand; doc: GameReplay }) {
  const [open, setOpen] = useState(false);
  const check = useMemo(() => (open ? verifyDeal(hand) : null), [open, hand]);
  useEffect(() => setOpen(false), [hand]);
  const line = (ok: boolean, good: string, bad: string) => (
    <div className={`verify-line ${ok ? 'ok' : 'bad'}`}>
      {ok ? <CheckCircle2 size={18} /> : <XCircle size={18} />}
      <span>{ok ? good : bad}</span>
    </div>
  );
  return (
    <div className="verify-box">
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        onClick={() => setOpen((v) => !v)}
        aria-expanded={open}
      >
        <ShieldCheck size={16} /> Verify deal
      </button>
      {check && (
        <div className="verify" aria-live="polite" aria-label={`Deal verification of hand ${hand.handNumber}`}>
          {line(
            check.commitmentOk,
            'Deal verified: sha256(seed) equals the commitment published before the hand.',
            'Mismatch: the seed does not match the commitment.',
          )}
          {line(
            check.dealOk,
            'The seed deals exactly the four hands shown.',
            'The hands shown differ from the recomputed deal.',
          )}
          {line(
            check.playsOk,
            `Every card played came from its player's dealt hand (${hand.tricks.length} tricks).`,
            'A card played was not in its player\u2019s dealt hand.',
          )}
          <dl className="hashes">
            <dt>Commitment</dt>
            <dd className="mono">{hand.commitment}</dd>
            <dt>Seed</dt>
            <dd className="mono">{hand.seed}</dd>
          </dl>
          {check.recomputed && (
            <div className="verify-hands">
              {check.recomputed.map((h, s) => (
                <div key={s} className="verify-hand">
                  <span className={`dot team-${seatColor(doc.settings.gameMode, s)}`} />
                  <span className="small">{playerName(doc, s)}</span>
                  <div className="mini-cards" aria-label={h.map(cardText).join(' ')}>
                    {h.map((c) => (
                      <span
                        key={`${c.suit}${c.rank}`}
                        className={`chip-card ${c.suit === 'H' || c.suit === 'D' ? 'red' : ''}`}
                      >
                        {cardText(c)}
                      </span>
                    ))}
                  </div>
                </div>
              ))}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
