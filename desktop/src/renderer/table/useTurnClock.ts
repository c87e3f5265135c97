/**
 * Issue #31 item 1: the turn timer of the seat to act, for the whole turn (not only its last seconds). The
 * server sends the deadline of a human's turn (`turnExpiresAt`, server clock); the turn's length is the time left
 * when the deadline was first seen (the server's TURN_TIMEOUT_MS, less the latency), so the ring empties evenly.
 */
import { useRef } from 'react';
import { useCountdown } from '../lib/hooks';
import type { TableModel } from './model';

export interface TurnClock {
  seat: number;
  secondsLeft: number;
  totalSeconds: number;
}

export function useTurnClock(table: TableModel | null): TurnClock | null {
  const acting =
    !!table &&
    (table.status === 'BIDDING' || table.status === 'PLAYING') &&
    table.turn !== null &&
    table.turnExpiresAt !== null;
  const deadline = acting ? table.turnExpiresAt! - table.clockOffset : null;
  const left = useCountdown(deadline);
  const total = useRef<{ deadline: number; seconds: number } | null>(null);
  if (deadline === null || left === null || !table || table.turn === null) return null;
  if (total.current?.deadline !== deadline) total.current = { deadline, seconds: Math.max(1, left) };
  return { seat: table.turn, secondsLeft: left, totalSeconds: Math.max(total.current.seconds, left) };
}
