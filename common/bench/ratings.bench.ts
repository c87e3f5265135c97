/**
 * Rating models on simulated players of known strength (issue #11): 64 players with hidden skill, 2,000 rated
 * games with four players drawn at random, outcomes from skill + per-game noise. Reports the Spearman rank
 * correlation between hidden skill and each model's rating, per mode and noise level.
 *
 * Prints one line per run, then ONE JSON line (the last line): `{ players, games, seed, model, spearman, runs }`
 * where `spearman` is the production model (Weng-Lin Plackett-Luce) at noise 1 in mixed PARTNERS/SOLO play.
 * Usage: npm run bench:ratings [-- --players 64 --games 2000 --seed 7]
 */
import { RATING_MODELS, simulate, SimMode } from '../src/rating';
import { benchArgs } from './args';

declare const console: { log(...args: unknown[]): void };

const args = benchArgs(['players', 'games', 'seed']);
const arg = (name: string, fallback: string): string => args.text(name, fallback);

const players = Number(arg('players', '64'));
const games = Number(arg('games', '2000'));
const seed = Number(arg('seed', '7'));
const seeds = [seed, seed + 1, seed + 2, seed + 3, seed + 4];
const checkpoints = [250, 500, 1000, 2000].filter((c) => c <= games);

const runs: {
  model: string;
  mode: SimMode;
  noise: number;
  spearman: number;
  curve: { games: number; spearman: number }[];
}[] = [];
for (const mode of ['MIXED', 'PARTNERS', 'SOLO'] as SimMode[]) {
  for (const noise of [0.5, 1, 2]) {
    for (const model of RATING_MODELS) {
      const res = seeds.map((s) => simulate(model, { players, games, seed: s, noise, mode }, checkpoints));
      const avg = (xs: number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 1000) / 1000;
      const spearman = avg(res.map((r) => r.spearman));
      const curve = checkpoints.map((g, i) => ({ games: g, spearman: avg(res.map((r) => r.curve[i].spearman)) }));
      runs.push({ model: model.name, mode, noise, spearman, curve });
      console.log(
        `${mode.padEnd(8)} noise ${noise}  ${model.name.padEnd(36)} spearman ${spearman.toFixed(3)}  curve ${curve.map((c) => `${c.games}:${c.spearman.toFixed(2)}`).join(' ')}`,
      );
    }
  }
}
const headline = runs.find((r) => r.model === 'weng-lin-plackett-luce' && r.mode === 'MIXED' && r.noise === 1);
console.log(
  JSON.stringify({
    players,
    games,
    seeds,
    model: headline?.model,
    mode: 'MIXED',
    noise: 1,
    spearman: headline?.spearman,
    runs,
  }),
);
