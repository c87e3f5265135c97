import { useState } from 'react';
import { Crown } from 'lucide-react';
import { useSocket } from '../socket/socket';

let claimSeq = 0;

/**
 * "Claim the rest" (issue #31): shown only when the server says this seat can claim (`TableView.canClaim`, common's
 * claim check on the seat's own view — it needs no other hand, so it tells nothing more) and it is the player's
 * turn. The server checks again and plays the remaining tricks out at once; a refusal arrives as the socket's
 * `error` (the table shows it as a toast).
 */
export function ClaimButton({
  gameId,
  canClaim,
  tricksLeft,
}: {
  gameId: string;
  canClaim: boolean;
  tricksLeft: number;
}) {
  const sock = useSocket();
  const [sent, setSent] = useState<string | null>(null);
  const key = `${gameId}:${tricksLeft}`;
  if (!canClaim || sent === key) return null;
  const claim = () => {
    setSent(key);
    sock.emit('claim', { gameId, actionId: `claim-${Date.now().toString(36)}-${claimSeq++}` });
  };
  return (
    <button
      type="button"
      className="btn btn-primary btn-sm claim-btn"
      onClick={claim}
      title="Every remaining trick is certain to be yours"
    >
      <Crown size={15} aria-hidden="true" /> Claim the rest ({tricksLeft})
    </button>
  );
}
