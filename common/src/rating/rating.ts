/**
 * Skill ratings of rated games (issue #11): Weng-Lin Plackett-Luce on an Elo-like scale (OpenSkill's defaults
 * × 60: mu 1500, sigma 500, beta 250, tau 5), with
 *  - inactivity: sigma grows with the days since the player's last rated game (capped at the initial sigma);
 *  - provisional players (sigma above RATING_PROVISIONAL_SIGMA) shown with `?` and kept off the leaderboard;
 *  - leavers: a player who left the game (or lost the seat to timeouts) is rated as the loser; a leaver's
 *    partner never loses rating for it.
 * The same functions run on the server (settlement) and in the client (display rules). See README.md.
 */
import { Gaussian, plackettLuce, WengLinOptions } from './weng-lin';

export const RATING_MU0 = 1500;
export const RATING_SIGMA0 = 500;
export const RATING_OPTIONS: WengLinOptions = { beta: 250, tau: 5, kappa: 0.0001 };
/**
 * A player is provisional (`1500?`) while their effective sigma is above this: about 20 rated games from new
 * (sigma 500 → ~357 after 20 games, ~187 after 100 in the simulation of README.md).
 */
export const RATING_PROVISIONAL_SIGMA = 360;
/**
 * Sigma growth per day of inactivity: sigma² += 26² · days, capped at 500. A settled player (sigma ~190) is
 * provisional again after ~5 months away, back at the initial uncertainty after ~11 months.
 */
export const RATING_IDLE_SIGMA_PER_DAY = 26;
const DAY_MS = 86_400_000;

export interface PlayerRating {
  mu: number;
  sigma: number;
  /** Epoch ms of the player's last rated game (null: never rated). */
  ratedAt: number | null;
}

export function newRating(): PlayerRating {
  return { mu: RATING_MU0, sigma: RATING_SIGMA0, ratedAt: null };
}

/** Sigma after inactivity: sqrt(sigma² + c²·days since the last rated game), at most the initial sigma. */
export function effectiveSigma(r: PlayerRating, now: number): number {
  if (r.ratedAt === null || now <= r.ratedAt) return Math.min(r.sigma, RATING_SIGMA0);
  const days = (now - r.ratedAt) / DAY_MS;
  return Math.min(
    RATING_SIGMA0,
    Math.sqrt(r.sigma * r.sigma + RATING_IDLE_SIGMA_PER_DAY * RATING_IDLE_SIGMA_PER_DAY * days),
  );
}

export function isProvisional(r: PlayerRating, now: number): boolean {
  return effectiveSigma(r, now) > RATING_PROVISIONAL_SIGMA;
}

/** The number players see: the mean skill, rounded. */
export function displayRating(mu: number): number {
  return Math.round(mu);
}

/** `1523` or `1523?` (provisional). */
export function formatRating(rating: number, provisional: boolean): string {
  return `${rating}${provisional ? '?' : ''}`;
}

/** `+14`, `−9` (U+2212), `±0`. */
export function formatRatingChange(delta: number): string {
  if (delta > 0) return `+${delta}`;
  if (delta < 0) return `\u2212${-delta}`;
  return '\u00b10';
}

export interface RatedSeat {
  seat: number;
  rating: PlayerRating;
  /** Place from the game result (1 = best; PARTNERS: the team's place, 1 or 2). */
  place: number;
  /** Left the game or lost the seat to timeouts. */
  left: boolean;
}

export interface RatingChange {
  seat: number;
  /** Before the game, with inactivity applied to sigma. */
  before: Gaussian;
  after: Gaussian;
  /** displayRating(after.mu) − displayRating(before.mu). */
  delta: number;
}

function changes(seats: RatedSeat[], before: Gaussian[], after: Gaussian[]): RatingChange[] {
  return seats.map((s, i) => ({
    seat: s.seat,
    before: before[i],
    after: after[i],
    delta: displayRating(after[i].mu) - displayRating(before[i].mu),
  }));
}

/**
 * Rates one game. PARTNERS: seats 0 & 2 against 1 & 3, two teams ranked by their place. SOLO: four players
 * ranked by place (ties share a rank). Leavers: in SOLO every leaver is ranked below every other player (ties
 * among leavers, and a leaver never gains); in PARTNERS a leaver gets the update of the game in which their team lost, their partner the
 * actual result but never a lower mu. Everyone else gets the actual result. Returns one change per input seat.
 */
export function rateGame(
  mode: 'PARTNERS' | 'SOLO',
  seats: RatedSeat[],
  now: number,
  opts: WengLinOptions = RATING_OPTIONS,
): RatingChange[] {
  const before: Gaussian[] = seats.map((s) => ({ mu: s.rating.mu, sigma: effectiveSigma(s.rating, now) }));
  if (mode === 'SOLO') {
    const worst = Math.max(...seats.map((s) => s.place)) + 1;
    const ranks = seats.map((s) => (s.left ? worst : s.place));
    const out = plackettLuce(
      before.map((g) => [g]),
      ranks,
      opts,
    ).map((t, i) =>
      // leavers tied for last among themselves: a weak leaver tied with a strong one must not gain from it
      seats[i].left && t[0].mu > before[i].mu ? { mu: before[i].mu, sigma: t[0].sigma } : t[0],
    );
    return changes(seats, before, out);
  }
  const teamIdx = [0, 1].map((t) => seats.map((s, i) => (s.seat % 2 === t ? i : -1)).filter((i) => i >= 0));
  if (teamIdx.some((t) => t.length === 0)) throw new RangeError('PARTNERS needs players on both teams');
  const teams = teamIdx.map((t) => t.map((i) => before[i]));
  const place = teamIdx.map((t) => seats[t[0]].place);
  const actual = plackettLuce(teams, place, opts);
  const after: Gaussian[] = [...before];
  teamIdx.forEach((t, ti) => t.forEach((i, k) => (after[i] = actual[ti][k])));
  teamIdx.forEach((t, ti) => {
    const leavers = t.filter((i) => seats[i].left);
    if (!leavers.length) return;
    const lostRanks = ti === 0 ? [2, 1] : [1, 2];
    const lost = place[ti] > place[1 - ti] ? actual : plackettLuce(teams, lostRanks, opts);
    t.forEach((i, k) => {
      if (seats[i].left) after[i] = lost[ti][k];
      else if (after[i].mu < before[i].mu) after[i] = { mu: before[i].mu, sigma: after[i].sigma };
    });
  });
  return changes(seats, before, after);
}

/** Spearman rank correlation (average ranks for ties). */
export function spearman(a: number[], b: number[]): number {
  if (a.length !== b.length || a.length < 2) throw new RangeError('need two series of equal length ≥ 2');
  const rank = (xs: number[]): number[] => {
    const idx = xs.map((x, i) => [x, i] as const).sort((p, q) => p[0] - q[0]);
    const r = new Array<number>(xs.length);
    for (let i = 0; i < idx.length;) {
      let j = i;
      while (j + 1 < idx.length && idx[j + 1][0] === idx[i][0]) j++;
      for (let k = i; k <= j; k++) r[idx[k][1]] = (i + j) / 2 + 1;
      i = j + 1;
    }
    return r;
  };
  const ra = rank(a);
  const rb = rank(b);
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const ma = mean(ra);
  const mb = mean(rb);
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < ra.length; i++) {
    num += (ra[i] - ma) * (rb[i] - mb);
    da += (ra[i] - ma) ** 2;
    db += (rb[i] - mb) ** 2;
  }
  return num / Math.sqrt(da * db);
}
