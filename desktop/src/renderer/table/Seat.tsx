import { Bot, Check, Eye, UserPlus, X } from 'lucide-react';
import { Avatar } from '../components/ui';
import { RatingBadge } from '../components/rating';
import { bidLabel, positionOf, seatColor, seatMark, type SeatModel, type TableModel } from './model';
import { formatMSS } from '../lib/hooks';

export function SeatBadge({
  table,
  seat,
  player,
  isTurn,
  turnSecondsLeft,
  replacementLeft,
  heldFor = null,
  canJoin,
  onJoin,
  canInviteBot,
  onInviteBot,
  canRemoveBot,
  onRemoveBot,
}: {
  table: TableModel;
  seat: number;
  player: SeatModel | null;
  isTurn: boolean;
  turnSecondsLeft: number | null;
  replacementLeft: number | null;
  /** Issue #12: this empty seat is held for an invited player (their name). */
  heldFor?: string | null;
  canJoin: boolean;
  onJoin: () => void;
  canInviteBot: boolean;
  onInviteBot: () => void;
  canRemoveBot: boolean;
  onRemoveBot: () => void;
}) {
  const pos = positionOf(seat, table.mySeat);
  const color = seatColor(table.gameMode, seat);
  const mark = player ? seatMark(table, seat) : null;
  const showTimer = turnSecondsLeft !== null && turnSecondsLeft <= 10;
  if (!player) {
    return (
      <div className={`seat seat-${pos} seat-empty team-${color}`} aria-label={`Seat ${seat + 1}, empty`}>
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
              <button type="button" className="btn btn-primary btn-sm" onClick={onJoin} aria-label={`Join seat ${seat + 1}`}>
                Join
              </button>
            )}
            {canInviteBot && (
              <button type="button" className="btn btn-secondary btn-sm" onClick={onInviteBot} aria-label={`Invite a bot to seat ${seat + 1}`}>
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
          <span className="turn-timer" role="timer" aria-label={`${turnSecondsLeft} seconds left`}>
            <svg viewBox="0 0 36 36" aria-hidden="true">
              <circle cx="18" cy="18" r="16" className="tt-bg" />
              <circle cx="18" cy="18" r="16" className="tt-fg" style={{ strokeDashoffset: `${100 - ((turnSecondsLeft ?? 0) / 10) * 100}` }} pathLength={100} />
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
          <span className={`seat-mark ${mark}`} aria-label={mark === 'made' ? 'Bid made' : 'Bid set'}>
            {mark === 'made' ? <Check size={14} strokeWidth={3} /> : <X size={14} strokeWidth={3} />}
          </span>
        )}
      </div>
      <div className="seat-info">
        <span className="seat-name">
          <span className="seat-name-text">{player.username}</span>
          {player.type === 'bot' && <Bot size={13} aria-hidden="true" className="muted" />}
          {player.type === 'human' && <RatingBadge userId={player.id} />}
        </span>
        <span className="seat-bid num">{bidText ?? (table.status === 'BIDDING' ? (isTurn ? 'Bidding…' : 'Waiting') : ' ')}</span>
        {canRemoveBot && (
          <button type="button" className="link-danger" onClick={onRemoveBot} aria-label={`Remove bot from seat ${seat + 1}`}>
            Remove bot
          </button>
        )}
      </div>
    </div>
  );
}

export function SpectatorEye() {
  return <Eye size={14} aria-label="Spectator" className="muted" />;
}
