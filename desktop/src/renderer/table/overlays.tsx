import { useMemo, useState } from 'react';
import { CheckCircle2, Film, ShieldCheck, Trophy, XCircle } from 'lucide-react';
import { Link } from 'react-router';
import { rankCode, dealFromSeed, formatCoinsExact, normalizeSeed, payoutsFor, seedCommitment, cardEquals, sortHand, type Card, type GameSettings } from '@spades/common';
import { Modal } from '../components/ui';
import { cardLabel, suitSymbol } from './CardFace';
import type { HandScoreSummaryModel, SeatModel } from './model';
import { seatColor } from './model';
import { RatingChangeLine } from '../components/rating';

export function BiddingPanel({ bids, onBid, disabled }: { bids: number[]; onBid: (b: number) => void; disabled: boolean }) {
  return (
    <div className="table-panel bid-panel" role="dialog" aria-label="Make your bid">
      <h2 className="panel-title">Your bid</h2>
      <div className="bid-grid">
        {bids.map((b) => (
          <button key={b} type="button" className={`bid-btn ${b === 0 ? 'nil' : ''}`} onClick={() => onBid(b)} disabled={disabled} aria-label={b === 0 ? 'Bid nil' : `Bid ${b}`}>
            {b === 0 ? 'Nil' : b}
          </button>
        ))}
      </div>
      {bids.length === 0 && <p className="muted small">Waiting for your forced bid…</p>}
    </div>
  );
}

export function BlindNilPrompt({ onYes, onNo }: { onYes: () => void; onNo: () => void }) {
  return (
    <div className="table-panel blind-panel" role="alertdialog" aria-label="Bid blind nil?">
      <h2 className="panel-title">Bid blind nil?</h2>
      <p className="muted small">Your cards stay hidden. +200 if you take no trick, −200 otherwise.</p>
      <div className="row gap-2 center-row">
        {/* the safe choice has the focus: Enter alone never commits a ±200 bid */}
        <button type="button" className="btn btn-ghost" onClick={onNo} autoFocus>
          No
        </button>
        <button type="button" className="btn btn-gold" onClick={onYes}>
          Yes
        </button>
      </div>
    </div>
  );
}

/**
 * "Verify deal": recomputes the four hands from the revealed seed with common's dealFromSeed and checks
 * seedCommitment(seed) against the commitment published before the hand.
 */
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
  const result = useMemo(() => {
    const bytes = normalizeSeed(seed);
    if (!bytes) return null;
    const recomputed = seedCommitment(bytes);
    const hands = dealFromSeed(bytes);
    const mine = mySeat !== null && myDealt && myDealt.length === 13 ? sortHand(myDealt) : null;
    const handMatches = mine && mySeat !== null ? mine.every((c, i) => cardEquals(c, hands[mySeat][i])) : null;
    return { recomputed, hands, commitmentMatches: commitment !== null && recomputed === commitment.toLowerCase(), handMatches };
  }, [seed, commitment, myDealt, mySeat]);
  if (!result) return <p className="form-error">The revealed seed is not valid.</p>;
  return (
    <div className="verify" aria-live="polite">
      <div className={`verify-line ${result.commitmentMatches ? 'ok' : 'bad'}`}>
        {result.commitmentMatches ? <CheckCircle2 size={18} /> : <XCircle size={18} />}
        <span>{result.commitmentMatches ? 'Deal verified: the revealed seed matches the commitment published before the hand.' : 'Mismatch: the revealed seed does not match the published commitment.'}</span>
      </div>
      {result.handMatches !== null && (
        <div className={`verify-line ${result.handMatches ? 'ok' : 'bad'}`}>
          {result.handMatches ? <CheckCircle2 size={18} /> : <XCircle size={18} />}
          <span>{result.handMatches ? 'Your 13 cards are exactly the ones this seed deals to your seat.' : 'Your cards differ from the recomputed deal.'}</span>
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
            <div className="mini-cards" aria-label={h.map(cardLabel).join(', ')}>
              {h.map((c) => (
                <span key={`${c.suit}${c.rank}`} className={`chip-card ${c.suit === 'H' || c.suit === 'D' ? 'red' : ''}`}>
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
  const bidText = (b: number | undefined) => (b === undefined ? '–' : b === -1 ? 'BN (−1)' : b === 0 ? 'Nil' : String(b));
  return (
    <Modal open onOpenChange={(o) => !o && onClose()} title={`Hand ${summary.handNumber || ''} complete`} className="modal-md summary" dismissable={false} hideClose>
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
                  <strong className="num">{((bags % 10) + 10) % 10}</strong>
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
                <td className="num">{(((summary.playerBags[s] ?? 0) % 10) + 10) % 10}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {summary.seed && (
        <div className="verify-box">
          <button type="button" className="btn btn-secondary btn-sm" onClick={() => setVerify((v) => !v)} aria-expanded={verify}>
            <ShieldCheck size={16} /> Verify deal
          </button>
          {verify && <DealVerification seed={summary.seed} commitment={commitment ?? summary.commitment} myDealt={myDealt} mySeat={mySeat} seats={seats} />}
        </div>
      )}
      <p className="muted small center countdown" role="timer">
        Next hand in <strong className="num">{secondsLeft ?? 0}</strong> s
      </p>
    </Modal>
  );
}

export interface GameOverModel {
  winningTeam: 'team1' | 'team2' | null;
  winningPlayer: number | null;
  places: number[] | null;
  finalScores: number[];
  rated: boolean;
  payouts: number[] | null;
}

const ordinal = (n: number) => `${n}${n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'}`;

/** SOLO seats by place (the server's places; else by score, ties sharing a place), best first. */
export function soloStandings(result: Pick<GameOverModel, 'places' | 'finalScores'>): { seat: number; place: number }[] {
  const seats = [0, 1, 2, 3];
  const score = (i: number) => result.finalScores[i] ?? 0;
  const place = (i: number) => result.places?.[i] ?? 1 + seats.filter((j) => score(j) > score(i)).length;
  return seats.map((seat) => ({ seat, place: place(seat) })).sort((a, b) => a.place - b.place || a.seat - b.seat);
}

export function ResultDialog({
  result,
  secondsLeft,
  seats,
  mySeat,
  gameMode,
  settings,
  waitingText,
  onPlayAgain,
  onLeave,
  replayHref,
  ratingGame,
}: {
  result: GameOverModel;
  secondsLeft: number | null;
  seats: (SeatModel | null)[];
  mySeat: number | null;
  gameMode: 'PARTNERS' | 'SOLO';
  settings: GameSettings;
  waitingText: string | null;
  onPlayAgain: () => void;
  onLeave: () => void;
  /** The finished game's replay (issue #12). */
  replayHref?: string;
  /** Issue #11: the rated game whose rating changes to show (+14 / −9). */
  ratingGame?: { gameId: string; gameNumber: number } | null;
}) {
  const name = (i: number) => seats[i]?.username ?? `Seat ${i + 1}`;
  const winners =
    gameMode === 'PARTNERS'
      ? result.winningTeam === 'team1'
        ? [0, 2]
        : result.winningTeam === 'team2'
          ? [1, 3]
          : []
      : result.winningPlayer !== null
        ? [result.winningPlayer]
        : [];
  // Clarification 2: coins actually won (server payouts; else common's payoutsFor for the places).
  const payouts = result.payouts ?? (result.rated && result.places ? payoutsFor(settings, { places: result.places }) : null);
  const iWon = mySeat !== null && winners.includes(mySeat);
  const title = winners.length === 0 ? 'Game over' : gameMode === 'PARTNERS' ? `${result.winningTeam === 'team1' ? 'Red' : 'Blue'} team wins!` : `${name(winners[0])} wins!`;
  return (
    <Modal open onOpenChange={() => undefined} title={title} className="modal-sm result" dismissable={false} hideClose>
      <div className={`result-hero ${iWon ? 'won' : ''}`}>
        <Trophy size={44} aria-hidden="true" />
        <p>{winners.map(name).join(' & ') || '—'}</p>
      </div>
      {gameMode === 'SOLO' ? (
        // SOLO: places 1–4 (ties share a place), each with its score and the coins the place won.
        <ol className="result-places" aria-label="Places">
          {soloStandings(result).map(({ seat, place }) => (
            <li key={seat} className={`stat-row ${seat === mySeat ? 'me' : ''}`}>
              <span>
                <strong className="place">{ordinal(place)}</strong> {name(seat)}
              </span>
              <span className="row gap-2">
                <span className="num">{result.finalScores[seat] ?? 0} pts</span>
                <strong className="gold num coins">{payouts && payouts[seat] > 0 ? `+${formatCoinsExact(payouts[seat])}` : '0'}</strong>
              </span>
            </li>
          ))}
        </ol>
      ) : (
        <div className="result-scores">
          {result.finalScores.map((s, i) => (
            <div key={i} className="stat-row">
              <span>{i === 0 ? 'Red team' : 'Blue team'}</span>
              <strong className="num">{s}</strong>
            </div>
          ))}
        </div>
      )}
      {gameMode === 'PARTNERS' && payouts && payouts.some((p) => p > 0) ? (
        <div className="result-coins">
          {payouts.map((p, i) =>
            p > 0 ? (
              <div key={i} className="stat-row">
                <span>{name(i)}</span>
                <strong className="gold num">+{formatCoinsExact(p)}</strong>
              </div>
            ) : null,
          )}
        </div>
      ) : gameMode === 'SOLO' && payouts && payouts.some((p) => p > 0) ? null : (
        <p className="muted small center">{result.rated ? 'No coins won.' : 'Unrated game: no coins moved.'}</p>
      )}
      {result.rated && ratingGame && <RatingChangeLine gameId={ratingGame.gameId} gameNumber={ratingGame.gameNumber} names={name} />}
      {waitingText ? (
        <p className="center">{waitingText}</p>
      ) : (
        <div className="modal-actions">
          <button type="button" className="btn btn-ghost" onClick={onLeave}>
            Leave
          </button>
          <button type="button" className="btn btn-primary" onClick={onPlayAgain} autoFocus>
            Play Again
          </button>
        </div>
      )}
      {replayHref && (
        <p className="center replay-link">
          <Link to={replayHref} className="btn btn-ghost btn-sm">
            <Film size={16} /> Watch replay
          </Link>
        </p>
      )}
      <p className="muted small center countdown" role="timer">
        Leaving the table in <strong className="num">{secondsLeft ?? 0}</strong> s
      </p>
    </Modal>
  );
}
