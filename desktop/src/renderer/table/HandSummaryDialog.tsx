/** "Hand N complete": each side's bids, tricks, score, total and bags, the deal's verification, the countdown. */
import { useState } from 'react';
import { ShieldCheck } from 'lucide-react';
import type { Card } from '@spades/common';
import { Modal } from '../components/ui';
import type { HandScoreSummaryModel, SeatModel } from './model';
import { seatColor } from './model';
import { DealVerification } from './DealVerification';
import { bagsShown, summaryBidText as bidText } from './result-model';

export function HandSummaryDialog({
  summary,
  secondsLeft,
  gameMode,
  seats,
  commitment,
  myDealt,
  mySeat,
  onClose,
}: {
  summary: HandScoreSummaryModel;
  secondsLeft: number | null;
  gameMode: 'PARTNERS' | 'SOLO';
  seats: (SeatModel | null)[];
  commitment: string | null;
  myDealt: Card[] | null;
  mySeat: number | null;
  onClose: () => void;
}) {
  const [verify, setVerify] = useState(false);
  const name = (i: number) => seats[i]?.username ?? `Seat ${i + 1}`;
  return (
    <Modal
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Hand ${summary.handNumber || ''} complete`}
      className="modal-md summary"
      dismissable={false}
      hideClose
    >
      {gameMode === 'PARTNERS' ? (
        <div className="summary-teams">
          {[0, 1].map((team) => {
            const seatsOf = [team, team + 2];
            const score = team === 0 ? summary.team1Score : summary.team2Score;
            const total = team === 0 ? summary.team1TotalScore : summary.team2TotalScore;
            const bags = team === 0 ? summary.team1Bags : summary.team2Bags;
            return (
              <section key={team} className={`summary-team team-${team === 0 ? 'red' : 'blue'}`}>
                <h3 className="h4">{team === 0 ? 'Red team' : 'Blue team'}</h3>
                {seatsOf.map((s) => (
                  <div key={s} className="stat-row">
                    <span>{name(s)}</span>
                    <span className="num">
                      bid {bidText(summary.bids[s])} · took {summary.tricksPerPlayer[s] ?? 0}
                    </span>
                  </div>
                ))}
                <div className="summary-score">
                  <span className={`num delta ${score >= 0 ? 'pos' : 'neg'}`}>{score >= 0 ? `+${score}` : score}</span>
                  <span className="muted small">this hand</span>
                </div>
                <div className="stat-row">
                  <span className="muted">Total</span>
                  <strong className="num">{total}</strong>
                </div>
                <div className="stat-row">
                  <span className="muted">Bags</span>
                  <strong className="num">{bagsShown(bags)}</strong>
                </div>
              </section>
            );
          })}
        </div>
      ) : (
        <table className="summary-solo">
          <thead>
            <tr>
              <th>Player</th>
              <th>Bid</th>
              <th>Took</th>
              <th>Hand</th>
              <th>Total</th>
              <th>Bags</th>
            </tr>
          </thead>
          <tbody>
            {[0, 1, 2, 3].map((s) => (
              <tr key={s}>
                <td>
                  <span className={`dot team-${seatColor('SOLO', s)}`} /> {name(s)}
                </td>
                <td className="num">{bidText(summary.bids[s])}</td>
                <td className="num">{summary.tricksPerPlayer[s] ?? 0}</td>
                <td className="num">{summary.playerScores[s] ?? 0}</td>
                <td className="num">{summary.playerTotalScores[s] ?? 0}</td>
                <td className="num">{bagsShown(summary.playerBags[s] ?? 0)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {summary.seed && (
        <div className="verify-box">
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            onClick={() => setVerify((v) => !v)}
            aria-expanded={verify}
          >
            <ShieldCheck size={16} /> Verify deal
          </button>
          {verify && (
            <DealVerification
              seed={summary.seed}
              commitment={commitment ?? summary.commitment}
              myDealt={myDealt}
              mySeat={mySeat}
              seats={seats}
            />
          )}
        </div>
      )}
      <p className="muted small center countdown" role="timer">
        Next hand in <strong className="num">{secondsLeft ?? 0}</strong> s
      </p>
    </Modal>
  );
}
