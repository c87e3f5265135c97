import { Modal } from './ui';
import { Sparkles, Trophy, Users } from 'lucide-react';

export const STARTING_COINS = 5_000_000;

/** §4/§9: shown once to a user with exactly 5000000 coins and 0 games played, unless dismissed. */
export function shouldShowWelcome(user: { coins: number } | null, gamesPlayed: number | null, dismissed: boolean): boolean {
  if (!user || dismissed || gamesPlayed === null) return false;
  return user.coins === STARTING_COINS && gamesPlayed === 0;
}

export function WelcomeDialog({ open, onDismiss }: { open: boolean; onDismiss: () => void }) {
  return (
    <Modal open={open} onOpenChange={(o) => !o && onDismiss()} title="Welcome to Spades!" className="modal-sm welcome" hideClose>
      <div className="welcome-coins">
        <span className="gold big">5,000,000</span>
        <span className="muted">starting coins</span>
      </div>
      <p>As a new player you received 5,000,000 coins. Quick tips:</p>
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
