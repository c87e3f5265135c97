/**
 * The replay's position and playback: stepping by card / trick / hand, play and pause at a speed (one step per
 * STEP_MS at 1×), and the keyboard (replay-view's replayKeyAction).
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { frameAt, handStart, handStartOf, lastPosition, nextStop, prevStop, type ReplayTimeline } from './replay-model';
import { replayKeyAction, STEP_MS, type ReplayStepper } from './replay-view';

export function useReplayPlayback(t: ReplayTimeline) {
  const [pos, setPos] = useState(() => t.handStarts[0] ?? 0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<number>(1);
  const end = lastPosition(t);
  const frame = useMemo(() => frameAt(t, pos), [t, pos]);

  const step = useCallback((f: ReplayStepper) => setPos((p) => f(t, p)), [t]);
  const forward = useCallback(() => step(nextStop), [step]);
  const back = useCallback(() => step(prevStop), [step]);
  const togglePlay = useCallback(() => setPlaying((p) => !p), []);

  useEffect(() => {
    if (!playing) return;
    if (pos >= end) {
      setPlaying(false);
      return;
    }
    const timer = setTimeout(forward, STEP_MS / speed);
    return () => clearTimeout(timer);
  }, [playing, pos, end, speed, forward]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const action = replayKeyAction(e, e.target as HTMLElement | null);
      if (!action) return;
      if (action === 'toggle') togglePlay();
      else step(action);
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [step, togglePlay]);

  const handCount = t.doc.hands.length;
  const curHand = frame.handNumber || 1;
  const goHand = useCallback((n: number) => setPos(handStart(t, Math.max(1, Math.min(handCount, n)))), [t, handCount]);
  const atHandStart = pos === handStartOf(t, pos);
  const toEnd = useCallback(() => setPos(end), [end]);

  return {
    pos,
    end,
    frame,
    playing,
    togglePlay,
    speed,
    setSpeed,
    step,
    forward,
    back,
    handCount,
    curHand,
    goHand,
    atHandStart,
    toEnd,
  };
}

export type ReplayPlayback = ReturnType<typeof useReplayPlayback>;
