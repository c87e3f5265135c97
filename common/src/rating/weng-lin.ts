/**
 * Weng-Lin Bayesian rating updates (Weng & Lin 2011, "A Bayesian Approximation Method for Online Ranking",
 * the algorithms behind OpenSkill). A player's skill is a Gaussian N(mu, sigma²); a team's skill is the sum of
 * its members' (mu and sigma² add up). One update takes the teams of one game with their ranks (1 = best,
 * equal ranks = tie) and returns each member's new (mu, sigma).
 *
 *  - `plackettLuce` (Algorithm 4): one model of the whole finishing order, O(teams²). Used for every rated game.
 *  - `bradleyTerryFull` (Algorithm 1): every pair of teams compared separately. Kept for the comparison in
 *    README.md (bench/ratings.bench.ts).
 *
 * Pure math, no dependencies (common may import nothing at run time).
 */

export interface Gaussian {
  mu: number;
  sigma: number;
}

export interface WengLinOptions {
  /** Performance noise of one player (half the initial sigma in OpenSkill's defaults). */
  beta: number;
  /** Additive dynamics per game: sigma² += tau² before the update, so sigma never freezes. */
  tau: number;
  /** Lower bound of the sigma shrink factor (keeps sigma > 0). */
  kappa: number;
}

interface TeamRating {
  mu: number;
  sigmaSq: number;
  rank: number;
}

function prepare(teams: Gaussian[][], opts: WengLinOptions): Gaussian[][] {
  if (!(opts.tau > 0)) return teams;
  const tauSq = opts.tau * opts.tau;
  return teams.map((t) => t.map((p) => ({ mu: p.mu, sigma: Math.sqrt(p.sigma * p.sigma + tauSq) })));
}

function teamRatings(teams: Gaussian[][], ranks: number[]): TeamRating[] {
  if (teams.length < 2 || ranks.length !== teams.length) throw new RangeError('need ≥ 2 teams and one rank per team');
  return teams.map((t, i) => {
    if (t.length === 0) throw new RangeError('empty team');
    return {
      mu: t.reduce((s, p) => s + p.mu, 0),
      sigmaSq: t.reduce((s, p) => s + p.sigma * p.sigma, 0),
      rank: ranks[i],
    };
  });
}

function applyTeam(team: Gaussian[], t: TeamRating, omega: number, delta: number, kappa: number): Gaussian[] {
  return team.map((p) => {
    const share = (p.sigma * p.sigma) / t.sigmaSq;
    return { mu: p.mu + share * omega, sigma: p.sigma * Math.sqrt(Math.max(1 - share * delta, kappa)) };
  });
}

/**
 * Plackett-Luce update. `teams[i]` are the members' ratings, `ranks[i]` the team's finishing rank (lower is
 * better, equal = tie). Returns the members' new ratings in the same shape.
 */
export function plackettLuce(teamsIn: Gaussian[][], ranks: number[], opts: WengLinOptions): Gaussian[][] {
  const teams = prepare(teamsIn, opts);
  const tr = teamRatings(teams, ranks);
  const betaSq = opts.beta * opts.beta;
  const c = Math.sqrt(tr.reduce((s, t) => s + t.sigmaSq + betaSq, 0));
  const e = tr.map((t) => Math.exp(t.mu / c));
  // sumQ[q]: strength of every team that finished at q's rank or worse; a[q]: teams tied with q
  const sumQ = tr.map((q) => tr.reduce((s, t, i) => (t.rank >= q.rank ? s + e[i] : s), 0));
  const a = tr.map((q) => tr.filter((t) => t.rank === q.rank).length);
  return teams.map((team, i) => {
    let omega = 0;
    let delta = 0;
    tr.forEach((q, qi) => {
      if (q.rank > tr[i].rank) return;
      const quotient = e[i] / sumQ[qi];
      omega += (qi === i ? 1 - quotient : -quotient) / a[qi];
      delta += (quotient * (1 - quotient)) / a[qi];
    });
    const t = tr[i];
    const gamma = Math.sqrt(t.sigmaSq) / c;
    return applyTeam(team, t, omega * (t.sigmaSq / c), gamma * delta * (t.sigmaSq / (c * c)), opts.kappa);
  });
}

function phi(x: number): number {
  // standard normal density
  return Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
}

function Phi(x: number): number {
  // standard normal CDF (Abramowitz-Stegun 7.1.26 through erf; |error| < 1.5e-7)
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-z * z);
  return x >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
}

/** Thurstone-Mosteller full pairing (Weng-Lin Algorithm 2 with draws as ties of zero margin). For the comparison. */
export function thurstoneMostellerFull(teamsIn: Gaussian[][], ranks: number[], opts: WengLinOptions): Gaussian[][] {
  const teams = prepare(teamsIn, opts);
  const tr = teamRatings(teams, ranks);
  const betaSq = opts.beta * opts.beta;
  return teams.map((team, i) => {
    let omega = 0;
    let delta = 0;
    tr.forEach((q, qi) => {
      if (qi === i) return;
      const c = Math.sqrt(tr[i].sigmaSq + q.sigmaSq + 2 * betaSq);
      const gamma = Math.sqrt(tr[i].sigmaSq) / c;
      if (q.rank === tr[i].rank) return; // ties carry no information in this comparison variant
      const sign = q.rank > tr[i].rank ? 1 : -1;
      const x = (sign * (tr[i].mu - q.mu)) / c;
      const v = phi(x) / Math.max(Phi(x), 1e-12);
      const w = v * (v + x);
      omega += sign * (tr[i].sigmaSq / c) * v;
      delta += gamma * (tr[i].sigmaSq / (c * c)) * w;
    });
    return applyTeam(team, tr[i], omega, delta, opts.kappa);
  });
}

/** Bradley-Terry full pairing (Weng-Lin Algorithm 1). For the comparison. */
export function bradleyTerryFull(teamsIn: Gaussian[][], ranks: number[], opts: WengLinOptions): Gaussian[][] {
  const teams = prepare(teamsIn, opts);
  const tr = teamRatings(teams, ranks);
  const betaSq = opts.beta * opts.beta;
  return teams.map((team, i) => {
    let omega = 0;
    let delta = 0;
    tr.forEach((q, qi) => {
      if (qi === i) return;
      const c = Math.sqrt(tr[i].sigmaSq + q.sigmaSq + 2 * betaSq);
      const p = 1 / (1 + Math.exp((q.mu - tr[i].mu) / c));
      const s = q.rank > tr[i].rank ? 1 : q.rank === tr[i].rank ? 0.5 : 0;
      const gamma = Math.sqrt(tr[i].sigmaSq) / c;
      omega += (tr[i].sigmaSq / c) * (s - p);
      delta += gamma * (tr[i].sigmaSq / (c * c)) * p * (1 - p);
    });
    return applyTeam(team, tr[i], omega, delta, opts.kappa);
  });
}
