/** The host's start, confirmed: empty seats will get bots, or bots are seated; either way the game is unrated. */
import { Modal } from '../components/ui';
import type { StartWarning } from './derived';

export function StartWarnings({
  warning,
  onCancel,
  onStart,
}: {
  warning: StartWarning;
  onCancel: () => void;
  onStart: () => void;
}) {
  return (
    <>
      <Modal
        open={warning?.kind === 'empty'}
        onOpenChange={(o) => !o && onCancel()}
        title="Empty seats"
        description={
          warning?.kind === 'empty'
            ? `Coin games require 4 human players. You have ${warning.empty} empty seat(s).`
            : ''
        }
        className="modal-sm"
        hideClose
      >
        <p>If you continue, the game will start with bot players in all empty seats and the game will not be rated.</p>
        <div className="modal-actions">
          <button type="button" className="btn btn-ghost" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" onClick={onStart}>
            Play with Bots
          </button>
        </div>
      </Modal>
      <Modal
        open={warning?.kind === 'bots'}
        onOpenChange={(o) => !o && onCancel()}
        title="Bot Players Detected"
        description={
          warning?.kind === 'bots'
            ? `This table has ${warning.bots} bot player(s). The game will start, but it will not be rated.`
            : ''
        }
        className="modal-sm"
        hideClose
      >
        <div className="modal-actions">
          <button type="button" className="btn btn-ghost" onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className="btn btn-primary" onClick={onStart}>
            Start Game
          </button>
        </div>
      </Modal>
    </>
  );
}
