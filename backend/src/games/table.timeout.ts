/**
 * Issue #31: the player whose turn timer ran out is told what the server did for them (`turn_timed_out`, to them
 * only) and how many consecutive timeouts they have left before a bot takes the seat.
 */
import { cardCode, type TurnTimedOut } from '@spades/common';
import type { Effects } from './table.record';

/**
 * Queues `turn_timed_out` for `userId` from the actions the timeout applied for `seat` (the last bid or card of
 * this command; a reveal before a bid is not what the player needs to know). Nothing when no such action exists.
 */
export function timeoutNotice(
  fx: Effects,
  gameId: string,
  userId: string,
  seat: number,
  timeouts: number,
  maxTimeouts: number,
): void {
  let action: TurnTimedOut['action'] | null = null;
  for (const { action: a } of fx.actions) {
    if (a.type === 'bid' && a.seat === seat) action = { type: 'bid', bid: a.bid, blind: a.blind === true };
    else if (a.type === 'play' && a.seat === seat) action = { type: 'play', card: cardCode(a.card) };
  }
  if (!action) return;
  const payload: TurnTimedOut = {
    gameId,
    seatIndex: seat,
    action,
    timeouts,
    maxTimeouts,
    seatLost: timeouts >= maxTimeouts,
  };
  fx.direct.push({ userId, event: 'turn_timed_out', payload });
}
