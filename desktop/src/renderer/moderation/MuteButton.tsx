import { Volume2, VolumeX } from 'lucide-react';
import { useNotify } from '../components/ui';
import { errorText } from '../lib/api';
import { setPlayerMuted, useModeration } from './moderation-store';

/** Mute / Unmute a player for oneself (issue #25): their chat lines are hidden for me in lobby and table chat. */
export function MuteButton({
  userId,
  username,
  className = 'btn btn-ghost',
}: {
  userId: string;
  username: string;
  className?: string;
}) {
  const { mutedIds } = useModeration();
  const notify = useNotify();
  const muted = mutedIds.has(userId);
  return (
    <button
      type="button"
      className={className}
      aria-pressed={muted}
      onClick={() =>
        void setPlayerMuted(userId, !muted).then(
          () =>
            notify(
              muted ? `You unmuted ${username}` : `You muted ${username}: their chat lines are hidden for you`,
              'info',
            ),
          (e: unknown) => notify(errorText(e, muted ? 'Could not unmute' : 'Could not mute')),
        )
      }
    >
      {muted ? <Volume2 size={16} aria-hidden="true" /> : <VolumeX size={16} aria-hidden="true" />}{' '}
      {muted ? 'Unmute' : 'Mute'}
    </button>
  );
}
