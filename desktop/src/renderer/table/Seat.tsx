import { Bot, Check, Eye, UserPlus, X } from 'lucide-react';
import { Avatar } from '../components/ui';
import { RatingBadge } from '../components/rating';
import { bidLabel, positionOf, seatColor, seatMark, type SeatModel, type TableModel } from './model';
import { formatMSS } from '../lib/hooks';
import { formatRating } from '@spades/common';
import { ReportButton } from '../moderation/ReportButton';

export function SeatBadge({
  table,
  seat,
  player,
  isTurn,
  turnSecondsLeft,
  turnSeconds = 30,
  replacementLeft,
  heldFor = null,
  canJoin,
  onJoin,
  canInviteBot,
  onInviteBot,
  canRemoveBot,
  onRemoveBot,
  ratingThen,
}: {
  table: TableModel;
  seat: number;
  player: SeatModel | null;
  isTurn: boolean;
  /** Issue #31: the acting seat's turn timer, the whole turn (null: no timer, e.g. a bot's turn). */
  turnSecondsLeft: number | null;
  /** The turn's length in seconds (the ring's full circle). */
  turnSeconds?: number;
  replacementLeft: number | null;
  /** Issue #12: this empty seat is held for an invited player (their name). */
  heldFor?: string | null;
  canJoin: boolean;
  onJoin: () => void;
  canInviteBot: boolean;
  onInviteBot: () => void;
  canRemoveBot: boolean;
  onRemoveBot: () => void;
  /**
   * Issue #31: the rating to show instead of the player's current one (the replay: the rating they had then);
   * null shows none. Left out: the live rating badge.
   */
  ratingThen?: { rating: number; provisional: boolean } | null;
}) {
  const pos = positionOf(seat, table.mySeat);
  const color = seatColor(table.gameMode, seat);
  const mark = player ? seatMark(table, seat) : null;
  const showTimer = turnSecondsLeft !== null;
  const urgent = showTimer && turnSecondsLeft <= 10;
  if (!player) {
    return (
      <div className={`seat seat-${pos} seat-empty team-${color}`} role="group" aria-label={`Seat ${seat + 1}, empty`}>
        <div className="seat-empty-ring" aria-hidden="true">
          <UserPlus size={20} />
        </div>
        <div className="seat-info">
          <span className="seat-name muted">Empty seat</span>
          {heldFor && <span className="seat-replace">Held for {heldFor}</span>}
          {replacementLeft !== null && (
            <span className="seat-replace" aria-live="polite">
              Bot joins in <span className="num">{formatMSS(replacementLeft)}</span>
            </span>
          )}
          <div className="seat-actions">
            {canJoin && (
              <button
                type="button"
                className="btn btn-primary btn-sm"
                onClick={onJoin}
                aria-label={`Join seat ${seat + 1}`}
              >
                Join
              </button>
            )}
            {canInviteBot && (
              <button
                type="button"
                className="btn btn-secondary btn-sm"
                onClick={onInviteBot}
                aria-label={`Invite a bot to seat ${seat + 1}`}
              >
                <Bot size={14} /> Add bot
              </button>
            )}
          </div>
        </div>
      </div>
    );
  }
  const bidText = player.bid === null ? null : `${player.tricks}/${bidLabel(player.bid, player.blind)}`;
  return (
    <div
      className={`seat seat-${pos} team-${color} ${isTurn ? 'is-turn' : ''}`}
      aria-label={`Seat ${seat + 1}: ${player.username}${player.type === 'bot' ? ' (bot)' : ''}${player.isDealer ? ', dealer' : ''}${
        player.bid !== null ? `, bid ${bidLabel(player.bid, player.blind)}, ${player.tricks} tricks` : ''
      }${isTurn ? ', to play' : ''}`}
      role="group"
    >
      <div className="seat-avatar">
        <Avatar src={player.avatar} id={player.id} name={player.username} size={52} isBot={player.type === 'bot'} />
        {showTimer && (
          <span
            className={`turn-timer${urgent ? ' urgent' : ''}`}
            role="timer"
            aria-label={`${turnSecondsLeft} seconds left`}
          >
            <svg viewBox="0 0 36 36" aria-hidden="true">
              <circle cx="18" cy="18" r="16" className="tt-bg" />
              <circle
                cx="18"
                cy="18"
                r="16"
                className="tt-fg"
                style={{
                  strokeDashoffset: `${100 - (Math.min(turnSecondsLeft ?? 0, turnSeconds) / Math.max(1, turnSeconds)) * 100}`,
                }}
                pathLength={100}
              />
            </svg>
            <span className="num">{turnSecondsLeft}</span>
          </span>
        )}
        {player.isDealer && (
          <span className="dealer-chip" title="Dealer" aria-hidden="true">
            D
          </span>
        )}
        {mark && (
          <span className={`seat-mark ${mark}`} role="img" aria-label={mark === 'made' ? 'Bid made' : 'Bid set'}>
            {mark === 'made' ? <Check size={14} strokeWidth={3} /> : <X size={14} strokeWidth={3} />}
          </span>
        )}
      </div>
      <div className="seat-info">
        <span className="seat-name">
          <span className="seat-name-text">{player.username}</span>
          {player.type === 'bot' && <Bot size={13} aria-hidden="true" className="muted" />}
          {player.type === 'human' &&
            (ratingThen === undefined ? (
              <RatingBadge userId={player.id} />
            ) : ratingThen ? (
              <span
                className={`rating-badge num ${ratingThen.provisional ? 'provisional' : ''}`}
                title="Rating when this game was played"
                data-testid="rating-then"
              >
                {formatRating(ratingThen.rating, ratingThen.provisional)}
              </span>
            ) : null)}
        </span>
        <span className="seat-bid num">
          {bidText ?? (table.status === 'BIDDING' ? (isTurn ? 'Bidding…' : 'Waiting') : ' ')}
        </span>
        {canRemoveBot && (
          <button
            type="button"
            className="link-danger"
            onClick={onRemoveBot}
            aria-label={`Remove bot from seat ${seat + 1}`}
          >
            Remove bot
          </button>
        )}
        {/* Issue #25: report a player from their seat (the live table only, never oneself) */}
        {player.type === 'human' && ratingThen === undefined && table.mySeat !== seat && (
          <ReportButton userId={player.id} username={player.username} context={{ kind: 'game', gameId: table.id }} />
        )}
      </div>
    </div>
  );
}

export function SpectatorEye() {
  return <Eye size={14} aria-label="Spectator" className="muted" />;
}
