/**
 * The game's result: the winners, SOLO places or PARTNERS scores, the coins won, the player's own coin result,
 * the last hand explained, rating changes, Play Again / Leave, the replay link and the leaving countdown.
 */
import { KeepPartner } from '../components/KeepPartner';
import { Film, Trophy } from 'lucide-react';
import { Link } from 'react-router';
import { formatCoinsExact, type GameSettings } from '@spades/common';
import { Modal } from '../components/ui';
import type { HandScoreSummaryModel, SeatModel } from './model';
import { RatingChangeLine } from '../components/rating';
import { LastHandSummary, MyCoinResult } from './ResultParts';
import { gamePayouts, gameWinners, ordinal, resultTitle, soloStandings, type GameOverModel } from './result-model';

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
  lastHand = null,
  buyIn = 0,
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
  /** Issue #31: the game's last hand, explained beside the totals. */
  lastHand?: HandScoreSummaryModel | null;
  /** The buy-in, for the player's own coin result. */
  buyIn?: number;
}) {
  const name = (i: number) => seats[i]?.username ?? `Seat ${i + 1}`;
  const winners = gameWinners(result, gameMode);
  const payouts = gamePayouts(result, settings);
  const iWon = mySeat !== null && winners.includes(mySeat);
  const title = resultTitle(result, gameMode, winners, name);
  return (
    <Modal
      open
      onOpenChange={() => undefined}
      title={title}
      className={`${lastHand ? 'modal-md' : 'modal-sm'} result`}
      dismissable={false}
      hideClose
    >
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
                <strong className="gold num coins">
                  {payouts && payouts[seat] > 0 ? `+${formatCoinsExact(payouts[seat])}` : '0'}
                </strong>
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
      {mySeat !== null && (
        <MyCoinResult rated={result.rated} buyIn={buyIn} payout={payouts ? (payouts[mySeat] ?? 0) : null} />
      )}
      {lastHand && <LastHandSummary summary={lastHand} gameMode={gameMode} seats={seats} />}
      {result.rated && ratingGame && (
        <RatingChangeLine gameId={ratingGame.gameId} gameNumber={ratingGame.gameNumber} names={name} />
      )}
      <KeepPartner />
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
