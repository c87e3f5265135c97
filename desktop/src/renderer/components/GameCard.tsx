import { Check, Eye, X, Bot, LogIn, Lock } from 'lucide-react';
import { formatCoins } from '@spades/common';
import { modeBadge, statusBadge, type GameListItem } from '../lib/types';
import { Avatar, CoinIcon } from './ui';
import { RatingBadge } from './rating';

/** Issue #31: "Nil ✓", "Blind nil ✗" in words (was the cryptic "bn ×"); read as "Blind nil not allowed". */
function Allowed({ label, on }: { label: string; on: boolean }) {
  return (
    <span className={`allowed ${on ? 'yes' : 'no'}`} title={`${label} ${on ? 'allowed' : 'not allowed'}`}>
      {label}
      {on ? <Check size={14} aria-hidden="true" /> : <X size={14} aria-hidden="true" />}
      <span className="sr-only">{on ? ' allowed' : ' not allowed'}</span>
    </span>
  );
}

/** §2 game card: min/max points, nil and 'bn' ticks, buy-in, seats, status, mode and special-rule badges. */
export function GameCard({
  game,
  selfId,
  onJoin,
  onWatch,
  onOpen,
}: {
  game: GameListItem;
  selfId?: string;
  onJoin: (seat: number) => void;
  onWatch: () => void;
  onOpen: () => void;
}) {
  const mode = modeBadge(game);
  const status = statusBadge(game.status);
  const seated = game.players.some((p) => p?.id === selfId);
  const free = game.players.filter((p) => !p).length;
  const waiting = game.status === 'WAITING';
  const teamClass = (i: number) =>
    game.gameMode === 'PARTNERS' ? (i % 2 === 0 ? 'team-red' : 'team-blue') : `solo-${i}`;
  return (
    <article className="game-card" aria-label={`Game ${game.id}`} data-testid="game-card">
      <header className="game-card-head">
        <div className="badges">
          <span className={`badge ${status === 'WAITING' ? 'badge-neutral' : 'badge-amber'}`}>{status}</span>
          <span className={`badge badge-${mode.tone}`}>{mode.label}</span>
          <span className="badge badge-dim">{game.gameMode}</span>
          {game.assassin && <span className="badge badge-outline">ASSASSIN</span>}
          {game.screamer && <span className="badge badge-outline">SCREAMER</span>}
          {game.private && (
            <span className="badge badge-outline" title="Private table: invitation only">
              <Lock size={11} aria-hidden="true" /> PRIVATE
            </span>
          )}
        </div>
        <div className="buyin" aria-label={`Buy-in ${formatCoins(game.buyIn)}`}>
          <CoinIcon /> <span className="num">{formatCoins(game.buyIn)}</span>
        </div>
      </header>
      <div className="game-card-meta">
        <span className="points num" title={`Points ${game.minPoints} to ${game.maxPoints}`}>
          {game.minPoints}/{game.maxPoints}
        </span>
        <Allowed label="Nil" on={game.allowNil} />
        <Allowed label="Blind nil" on={game.allowBlindNil} />
      </div>
      <div className="seat-strip">
        {game.players.map((p, i) =>
          p ? (
            <div key={i} className={`seat-chip ${teamClass(i)}`} title={p.username}>
              <Avatar src={p.avatar} id={p.id} name={p.username} size={26} isBot={p.type === 'bot'} />
              <span className="seat-chip-name">{p.username}</span>
              {p.type === 'bot' ? <Bot size={12} aria-label="bot" /> : <RatingBadge userId={p.id} />}
            </div>
          ) : (
            <button
              key={i}
              type="button"
              className={`seat-chip empty ${teamClass(i)}`}
              disabled={!waiting || seated}
              onClick={() => onJoin(i)}
              aria-label={`${waiting && !seated ? 'Join' : 'Empty'} seat ${i + 1}`}
            >
              <span className="seat-empty-dot" />
              <span className="seat-chip-name">{waiting && !seated ? 'Join' : 'Empty'}</span>
            </button>
          ),
        )}
      </div>
      <footer className="game-card-foot">
        <span className="muted small">{free > 0 ? `${free} seat${free === 1 ? '' : 's'} open` : 'Table full'}</span>
        <div className="row gap-2">
          {seated ? (
            <button type="button" className="btn btn-primary btn-sm" onClick={onOpen}>
              <LogIn size={14} /> Return to table
            </button>
          ) : (
            <>
              <button type="button" className="btn btn-ghost btn-sm" onClick={onWatch}>
                <Eye size={14} /> Watch
              </button>
              {waiting && free > 0 && (
                <button
                  type="button"
                  className="btn btn-primary btn-sm"
                  onClick={() => onJoin(game.players.findIndex((p) => !p))}
                >
                  Join
                </button>
              )}
            </>
          )}
        </div>
      </footer>
    </article>
  );
}
