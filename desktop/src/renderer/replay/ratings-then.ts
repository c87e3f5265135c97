/**
 * Issue #31 item 8: the replay shows each player's rating as it was when the game was played (the rating before
 * the game, from GET /api/ratings/games/:id/:n), not their current one. Unrated games (or a viewer who may not
 * read it, e.g. a share link without an account) show none.
 */
import { useEffect, useState } from 'react';
import type { GameRatingsResponse } from '@spades/common';
import { api } from '../lib/api';

export interface RatingThen {
  rating: number;
  provisional: boolean;
}

/** Per seat: the rating the seat's player had then, or null (none known). */
export function useRatingsThen(gameId: string, gameNumber: number, rated: boolean): (RatingThen | null)[] {
  const [bySeat, setBySeat] = useState<(RatingThen | null)[]>([null, null, null, null]);
  useEffect(() => {
    setBySeat([null, null, null, null]);
    if (!rated) return;
    let live = true;
    api
      .get<GameRatingsResponse>(`/api/ratings/games/${encodeURIComponent(gameId)}/${gameNumber}`)
      .then((b) => {
        if (!live) return;
        const out: (RatingThen | null)[] = [null, null, null, null];
        for (const c of Array.isArray(b?.changes) ? b.changes : []) {
          if (c.seat >= 0 && c.seat < 4)
            out[c.seat] = { rating: c.ratingBefore, provisional: c.provisionalBefore === true };
        }
        setBySeat(out);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [gameId, gameNumber, rated]);
  return bySeat;
}
