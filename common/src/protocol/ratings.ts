/**
 * Ratings HTTP contracts (issue #11). Ratings are displayed as `displayRating(mu)` with `?` while provisional
 * (see common/src/rating). Completion rate = rated games finished in the seat / rated games started, in percent
 * (one decimal), null before the first rated game.
 */

/** One player's rating card: GET /api/ratings?ids=a,b,c and inside the other responses. */
export interface RatingSummary {
  userId: string;
  rating: number;
  provisional: boolean;
  /** Rated games that changed the rating. */
  ratedGames: number;
  /** Rated games started (settled) and finished in the seat. */
  gamesStarted: number;
  gamesFinished: number;
  completionRate: number | null;
  /** ISO time until which the player may not play rated games, null when not banned. */
  bannedUntil: string | null;
}

export interface RatingsResponse {
  ratings: RatingSummary[];
}

/** One rated game in a player's history (oldest first). `rating` is the rating after the game. */
export interface RatingHistoryPoint {
  gameId: string;
  gameNumber: number;
  mode: 'PARTNERS' | 'SOLO';
  at: string;
  rating: number;
  delta: number;
  left: boolean;
  /** Place in the game (1 = best), null for an abandoned game. */
  place: number | null;
}

/** GET /api/ratings/:userId/history */
export interface RatingHistoryResponse {
  summary: RatingSummary;
  history: RatingHistoryPoint[];
}

export interface GameRatingChange {
  userId: string;
  seat: number;
  ratingBefore: number;
  ratingAfter: number;
  /** Issue #31: provisional (`1500?`) before and after this game; absent from older servers. */
  provisionalBefore?: boolean;
  provisionalAfter?: boolean;
  delta: number;
  left: boolean;
}

/** GET /api/ratings/games/:gameId/:gameNumber — empty `changes` until the game is settled (or when unrated). */
export interface GameRatingsResponse {
  gameId: string;
  gameNumber: number;
  changes: GameRatingChange[];
}

/** GET /api/admin/collusion (admins only): pairs that meet unusually often, with the coins that moved between them. */
export interface CollusionPair {
  userA: { id: string; username: string; ratedGames: number };
  userB: { id: string; username: string; ratedGames: number };
  gamesTogether: number;
  gamesAsPartners: number;
  gamesAsOpponents: number;
  /** gamesTogether / the smaller of the two players' rated games in the window, percent. */
  sharePercent: number;
  /** Net coins A won minus B's, halved, over the games where they were opponents (positive: coins flowed to A). */
  coinFlowToA: number;
}

export interface CollusionReport {
  since: string;
  minGames: number;
  minSharePercent: number;
  pairs: CollusionPair[];
}
