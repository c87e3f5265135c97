/**
 * Phone portrait (issue #31 item 5, ruling 14): the spec's 'Please Rotate Your Device' overlay stays whenever the
 * window is taller than wide, with a 'Play in portrait' button that dismisses it for good on this device
 * (localStorage) and switches the table to its portrait layout (table.css `.table-page.portrait`: hand at the
 * bottom, partner on top, opponents at the sides, chat in a drawer).
 */
import { useCallback, useState } from 'react';
import { RotateCw } from 'lucide-react';

export const PLAY_IN_PORTRAIT_KEY = 'spades.playInPortrait';

function stored(): boolean {
  try {
    return localStorage.getItem(PLAY_IN_PORTRAIT_KEY) === '1';
  } catch {
    return false;
  }
}

/** Whether this device chose to play in portrait, and the choice. */
export function usePlayInPortrait(): [boolean, () => void] {
  const [on, setOn] = useState(stored);
  const choose = useCallback(() => {
    try {
      localStorage.setItem(PLAY_IN_PORTRAIT_KEY, '1');
    } catch {
      /* private mode: for this page only */
    }
    setOn(true);
  }, []);
  return [on, choose];
}

export function RotateOverlay({ onPlayInPortrait }: { onPlayInPortrait: () => void }) {
  return (
    <div
      className="rotate-overlay"
      role="alertdialog"
      aria-label="Please Rotate Your Device"
      aria-describedby="rotate-overlay-text"
    >
      <RotateCw size={48} aria-hidden="true" />
      <p id="rotate-overlay-text">Please Rotate Your Device</p>
      <button type="button" className="btn btn-secondary" onClick={onPlayInPortrait} autoFocus>
        Play in portrait
      </button>
      <p className="muted small">The table has a portrait layout too; this device will remember the choice.</p>
    </div>
  );
}
