/**
 * The next hand after the summary (§4): emit start_new_hand with an ack; on failure reconnect and retry after
 * 1 s. The attempt lives in a ref so that re-renders (closing the summary) do not cancel it; it ends on success,
 * when the server has moved on (new_hand_started, a new hand or another status), or on unmount.
 */
import { useCallback, useEffect, useRef } from 'react';
import type { Ack, GameIdPayload } from '@spades/common';
import type { AppSocket } from '../socket/socket';
import { NEXT_HAND_ACK_TIMEOUT_MS, NEXT_HAND_RETRY_MS } from './timing';

type AckResult = Parameters<Ack>[0];
type Attempt = { hand: number; timer: ReturnType<typeof setTimeout> | null };

export interface NextHand {
  /** Ask for the hand after `hand` (idempotent on the server); a second call for the same hand does nothing. */
  ask: (hand: number) => void;
  stop: () => void;
  /** The hand an attempt is running for, or null. */
  pendingFor: () => number | null;
}

export function useNextHand(gameId: string, socket: AppSocket | null): NextHand {
  const socketRef = useRef(socket);
  socketRef.current = socket;
  const attemptRef = useRef<Attempt | null>(null);

  const stop = useCallback(() => {
    const a = attemptRef.current;
    if (a?.timer) clearTimeout(a.timer);
    attemptRef.current = null;
  }, []);

  const ask = useCallback(
    (hand: number) => {
      if (attemptRef.current?.hand === hand) return;
      stop();
      const attempt: Attempt = { hand, timer: null };
      attemptRef.current = attempt;
      const retry = () => {
        if (attemptRef.current !== attempt) return;
        const s = socketRef.current;
        if (s && !s.connected) s.connect();
        attempt.timer = setTimeout(() => {
          attempt.timer = null;
          send();
        }, NEXT_HAND_RETRY_MS);
      };
      const send = () => {
        if (attemptRef.current !== attempt) return;
        const s = socketRef.current;
        if (!s) return retry();
        // socket.io's typings do not decorate an optional ack with timeout()'s error argument: spell it out.
        const timed = s.timeout(NEXT_HAND_ACK_TIMEOUT_MS);
        const emitTimed = timed.emit as unknown as (
          ev: 'start_new_hand',
          p: GameIdPayload,
          ack: (err: Error | null, res?: AckResult) => void,
        ) => void;
        emitTimed.call(timed, 'start_new_hand', { gameId }, (err, res) => {
          if (attemptRef.current !== attempt) return;
          if (err || !res || res.ok === false) return retry();
          attemptRef.current = null;
        });
      };
      send();
    },
    [gameId, stop],
  );
  useEffect(() => stop, [stop]);

  const pendingFor = useCallback(() => attemptRef.current?.hand ?? null, []);
  return { ask, stop, pendingFor };
}
