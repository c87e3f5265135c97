/**
 * Rating models compared on simulated players of known strength (bench/ratings.bench.ts, README.md).
 *
 * Each simulated player has a hidden skill z ~ N(0, 1). In a game every player performs z + N(0, noise²);
 * PARTNERS: the team with the higher summed performance wins; SOLO: places by performance. Four distinct players
 * are drawn uniformly for every game (a lobby without matchmaking). After the games, the Spearman correlation
 * between hidden skill and each model's rating says who ends up ranked right.
 */
import { mulberry32 } from '../bots/prng';
import { RATING_OPTIONS, RatedSeat, rateGame, newRating, PlayerRating, spearman } from './rating';
import { bradleyTerryFull, Gaussian, thurstoneMostellerFull } from './weng-lin';

export type SimMode = 'PARTNERS' | 'SOLO' | 'MIXED';

/** A rating model: state per player, one update per game (seats in order 0..3 with places), a sortable score. */
export interface RatingModel<S> {
  name: string;
  init(): S;
  rate(mode: 'PARTNERS' | 'SOLO', players: S[], places: number[]): S[];
  score(s: S): number;
}

const NOW = 0;

/** The production model: common's rateGame (Weng-Lin Plackett-Luce). */
export const plackettLuceModel: RatingModel<PlayerRating> = {
  name: 'weng-lin-plackett-luce',
  init: newRating,
  rate(mode, players, places) {
    const seats: RatedSeat[] = players.map((rating, seat) => ({ seat, rating, place: places[seat], left: false }));
    return rateGame(mode, seats, NOW).map((c) => ({ mu: c.after.mu, sigma: c.after.sigma, ratedAt: NOW }));
  },
  score: (s) => s.mu,
};

function wengLinVariant(name: string, fn: typeof bradleyTerryFull): RatingModel<Gaussian> {
  return {
    name,
    init: () => ({ mu: 1500, sigma: 500 }),
    rate(mode, players, places) {
      if (mode === 'SOLO')
        return fn(
          players.map((p) => [p]),
          places,
          RATING_OPTIONS,
        ).map((t) => t[0]);
      const out = fn(
        [
          [players[0], players[2]],
          [players[1], players[3]],
        ],
        [places[0], places[1]],
        RATING_OPTIONS,
      );
      return [out[0][0], out[1][0], out[0][1], out[1][1]];
    },
    score: (s) => s.mu,
  };
}

export const bradleyTerryModel = wengLinVariant('weng-lin-bradley-terry-full', bradleyTerryFull);
export const thurstoneMostellerModel = wengLinVariant('weng-lin-thurstone-mosteller-full', thurstoneMostellerFull);

/** Pairwise opponents of a seat with the score (1 win, 0.5 tie, 0 loss): SOLO every other seat; PARTNERS the two opponents as one. */
function pairings(mode: 'PARTNERS' | 'SOLO', seat: number, places: number[]): { opponents: number[]; s: number }[] {
  const score = (o: number) => (places[seat] < places[o] ? 1 : places[seat] === places[o] ? 0.5 : 0);
  if (mode === 'SOLO') return [0, 1, 2, 3].filter((o) => o !== seat).map((o) => ({ opponents: [o], s: score(o) }));
  const opp = [(seat + 1) % 4, (seat + 3) % 4];
  return [{ opponents: opp, s: score(opp[0]) }];
}

/** Elo with a team's rating = the average of its members, K = 32 per pairing (SOLO: K / 3 per opponent). */
export const eloModel: RatingModel<number> = {
  name: 'elo-team-average',
  init: () => 1500,
  rate(mode, players, places) {
    return players.map((r, seat) => {
      const pairs = pairings(mode, seat, places);
      const k = 32 / pairs.length;
      return pairs.reduce((acc, p) => {
        const opp = p.opponents.reduce((s, o) => s + players[o], 0) / p.opponents.length;
        const mine = mode === 'PARTNERS' ? (r + players[(seat + 2) % 4]) / 2 : r;
        return acc + k * (p.s - 1 / (1 + 10 ** ((opp - mine) / 400)));
      }, r);
    });
  },
  score: (s) => s,
};

interface Glicko {
  r: number;
  rd: number;
}

/**
 * Glicko-2 with the "composite opponent" team extension: each player is rated individually against the average
 * rating (and root-mean-square RD) of the opposing team; one rating period per game, volatility fixed at 0.06.
 */
export const glicko2Model: RatingModel<Glicko> = {
  name: 'glicko2-composite-opponent',
  init: () => ({ r: 1500, rd: 350 }),
  rate(mode, players, places) {
    const Q = 173.7178;
    const g = (phi: number) => 1 / Math.sqrt(1 + (3 * phi * phi) / (Math.PI * Math.PI));
    return players.map((me, seat) => {
      const mu = (me.r - 1500) / Q;
      const phi = me.rd / Q;
      let vInv = 0;
      let sum = 0;
      for (const p of pairings(mode, seat, places)) {
        const oppR = p.opponents.reduce((s, o) => s + players[o].r, 0) / p.opponents.length;
        const oppRd = Math.sqrt(p.opponents.reduce((s, o) => s + players[o].rd ** 2, 0) / p.opponents.length);
        const muJ = (oppR - 1500) / Q;
        const gj = g(oppRd / Q);
        const e = 1 / (1 + Math.exp(-gj * (mu - muJ)));
        vInv += gj * gj * e * (1 - e);
        sum += gj * (p.s - e);
      }
      const phiStar = Math.sqrt(phi * phi + 0.06 * 0.06);
      const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + vInv);
      return { r: 1500 + Q * (mu + phiNew * phiNew * sum), rd: Math.min(350, Q * phiNew) };
    });
  },
  score: (s) => s.r,
};

export const RATING_MODELS: RatingModel<unknown>[] = [
  plackettLuceModel as RatingModel<unknown>,
  bradleyTerryModel as RatingModel<unknown>,
  thurstoneMostellerModel as RatingModel<unknown>,
  glicko2Model as RatingModel<unknown>,
  eloModel as RatingModel<unknown>,
];

export interface SimOptions {
  players: number;
  games: number;
  seed: number;
  /** Performance noise per player per game, in units of the spread of hidden skill. */
  noise: number;
  mode: SimMode;
}

export interface SimResult {
  model: string;
  spearman: number;
  /** Spearman after each checkpoint of games. */
  curve: { games: number; spearman: number }[];
}

function gaussian(rng: () => number): number {
  const u = 1 - rng();
  const v = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** One simulated season: the same players and games (same seed) for every model. */
export function simulate<S>(model: RatingModel<S>, o: SimOptions, checkpoints: number[] = []): SimResult {
  const rng = mulberry32(o.seed);
  const skill = Array.from({ length: o.players }, () => gaussian(rng));
  const state = skill.map(() => model.init());
  const curve: SimResult['curve'] = [];
  const corr = () =>
    spearman(
      skill,
      state.map((s) => model.score(s)),
    );
  for (let g = 1; g <= o.games; g++) {
    const pick: number[] = [];
    while (pick.length < 4) {
      const p = Math.floor(rng() * o.players);
      if (!pick.includes(p)) pick.push(p);
    }
    const mode = o.mode === 'MIXED' ? (rng() < 0.5 ? 'PARTNERS' : 'SOLO') : o.mode;
    const perf = pick.map((p) => skill[p] + o.noise * gaussian(rng));
    let places: number[];
    if (mode === 'PARTNERS') {
      const t0 = perf[0] + perf[2];
      const t1 = perf[1] + perf[3];
      places = t0 >= t1 ? [1, 2, 1, 2] : [2, 1, 2, 1];
    } else {
      places = perf.map((x) => 1 + perf.filter((y) => y > x).length);
    }
    const next = model.rate(
      mode,
      pick.map((p) => state[p]),
      places,
    );
    pick.forEach((p, i) => (state[p] = next[i]));
    if (checkpoints.includes(g)) curve.push({ games: g, spearman: corr() });
  }
  return { model: model.name, spearman: corr(), curve };
}
