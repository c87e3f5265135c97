import { percent } from '@spades/common';
import type { Stats } from './types';

export { percent };

export function statsPercentages(s: Stats): { winPct: number; nilPct: number; blindNilPct: number } {
  return {
    winPct: percent(s.gamesWon, s.gamesPlayed),
    nilPct: percent(s.nilsMade, s.nilsBid),
    blindNilPct: percent(s.blindNilsMade, s.blindNilsBid),
  };
}

/** Bags per game shown with one decimal (the server sends it; we recompute when it is missing). */
export function bagsPerGame(s: Stats): string {
  const v = s.bagsPerGame || (s.gamesPlayed ? s.totalBags / s.gamesPlayed : 0);
  return (Math.round(v * 10) / 10).toFixed(1);
}
