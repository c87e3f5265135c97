import { formatCoinsExact } from '@spades/common';
import { Modal } from './ui';
import { Sparkles, Trophy, Users } from 'lucide-react';

export const STARTING_COINS = 5_000_000;

/**
 * §4/§9: shown once to a user with exactly the starting coins (5000000, or the host's `startingCoins`, issue #25) and
 * 0 games played, unless dismissed.
 */
export function shouldShowWelcome(
  user: { coins: number } | null,
  gamesPlayed: number | null,
  dismissed: boolean,
  startingCoins: number = STARTING_COINS,
): boolean {
  if (!user || dismissed || gamesPlayed === null) return false;
  return user.coins === startingCoins && gamesPlayed === 0;
}

export function WelcomeDialog({
  open,
  onDismiss,
  coins = STARTING_COINS,
}: {
  open: boolean;
  onDismiss: () => void;
  coins?: number;
}) {
  return (
    <Modal
      open={open}
      onOpenChange={(o) => !o && onDismiss()}
      title="Welcome to Spades!"
      className="modal-sm welcome"
      hideClose
    >
      <div className="welcome-coins">
        <span className="gold big">{formatCoinsExact(coins)}</span>
        <span className="muted">starting coins</span>
      </div>
      <p>As a new player you received {formatCoinsExact(coins)} coins. Quick tips:</p>
      <ul className="tips">
        <li>
          <Sparkles size={18} aria-hidden="true" /> Create or join a game in the lobby.
        </li>
        <li>
          <Users size={18} aria-hidden="true" /> Play with friends or make new ones.
        </li>
        <li>
          <Trophy size={18} aria-hidden="true" /> Track your progress on the leaderboard.
        </li>
      </ul>
      <div className="modal-actions">
        <button type="button" className="btn btn-primary btn-block" onClick={onDismiss} autoFocus>
          Let's Play!
        </button>
      </div>
    </Modal>
  );
}
