/**
 * Bot vs bot benchmark: `npm run bench:bots -- --a strong --b heuristic --games N [--seed S] [--ms M | --samples K] [--quiet]`
 * (--ms: the strong bot's time box per decision, default 40; --samples: a fixed sample count instead, load-independent;
 * --games: an even number ≥ 2, default 200 — exactly N games are played; an odd N is refused with exit code 2)
 *
 * Duplicate deals (duplicate.ts): games are played in pairs on the same deal seeds (hand k of both games uses the same seed,
 * so the same first dealer and the same cards), with the teams' seats swapped: in the first game A holds seats
 * 0 & 2, in the second seats 1 & 3. PARTNERS, default settings (REG, nil on, to 500 / −100).
 * The 95% interval is computed over pairs (each pair scores 0, ½ or 1 for A), which is what duplicate play
 * makes independent (normal approximation; Wilson's interval when every pair scored the same). Last output line: JSON { games, winRateA, ci95Low, ci95High, msPerMoveP50, msPerMoveP99 }
 * (move times of bot A, wall clock, every action A takes).
 */
declare const process: { argv: string[]; exitCode?: number };
declare const console: { log(...args: unknown[]): void; error(...args: unknown[]): void };
const perf = (globalThis as unknown as { performance: { now(): number } }).performance;

import { DEFAULT_SETTINGS, GameSettings } from '../src/rules';
import type { Bot } from '../src/bots';
import { getBot } from '../src/bots';
import { heuristicBot } from '../src/bots/heuristic';
import { createStrongBot } from '../src/bots/strong';
import { benchArgs } from './args';
import { duplicateMatch, parseGames } from './duplicate';

const args = benchArgs(['a', 'b', 'games', 'seed', 'ms', 'samples'], ['quiet']);
const arg = (name: string, def: string): string => args.text(name, def);

function resolveBot(name: string, ms: number, samples: number): Bot {
  if (name === 'heuristic') return heuristicBot;
  if (name === 'strong') {
    // --samples N: a fixed number of sampled deals per decision (load-independent); else the --ms time box
    return samples > 0
      ? createStrongBot({ maxMs: 1e9, maxSamples: samples, minSamples: samples })
      : createStrongBot({ maxMs: ms });
  }
  const b = getBot(name);
  if (!b) throw new Error(`unknown bot ${name} (random, basic, heuristic, strong)`);
  return b;
}

function timed(bot: Bot, times: number[]): Bot {
  return {
    name: bot.name,
    act(view, rng) {
      const t0 = perf.now();
      const a = bot.act(view, rng);
      times.push(perf.now() - t0);
      return a;
    },
  };
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i];
}

function main(): void {
  const aName = arg('a', 'heuristic');
  const bName = arg('b', 'random');
  let games: number;
  try {
    games = parseGames(arg('games', '200'));
  } catch (e) {
    console.error((e as Error).message);
    process.exitCode = 2;
    return;
  }
  const baseSeed = Number(arg('seed', '1'));
  const ms = Number(arg('ms', '40'));
  const samples = Number(arg('samples', '0'));
  const quiet = args.has('quiet');
  const settings: GameSettings = { ...DEFAULT_SETTINGS, specialRules: { ...DEFAULT_SETTINGS.specialRules } };
  const times: number[] = [];
  const A = timed(resolveBot(aName, ms, samples), times);
  const B = resolveBot(bName, ms, samples);
  const pairs = games / 2;
  const t0 = Date.now();
  const {
    games: played,
    winsA,
    pairScores,
  } = duplicateMatch(A, B, settings, games, baseSeed, (done, playedSoFar, wins) => {
    if (!quiet && done % Math.max(1, Math.floor(pairs / 10)) === 0) {
      console.log(
        `${playedSoFar} games, A=${aName} wins ${(wins / playedSoFar).toFixed(3)}, ${((Date.now() - t0) / 1000).toFixed(1)} s`,
      );
    }
  });
  const n = pairScores.length;
  const mean = pairScores.reduce((a, b) => a + b, 0) / n;
  const variance = n > 1 ? pairScores.reduce((a, b) => a + (b - mean) * (b - mean), 0) / (n - 1) : 0;
  let half = 1.96 * Math.sqrt(variance / n);
  let low = mean - half;
  let high = mean + half;
  if (variance === 0) {
    // every pair scored the same (e.g. 1.0): the normal interval degenerates, use Wilson's over the pairs
    const z = 1.96;
    const centre = (mean + (z * z) / (2 * n)) / (1 + (z * z) / n);
    half = (z * Math.sqrt((mean * (1 - mean)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
    low = centre - half;
    high = centre + half;
  }
  times.sort((x, y) => x - y);
  const round = (x: number, d: number): number => Math.round(x * 10 ** d) / 10 ** d;
  console.log(
    JSON.stringify({
      games: played,
      winRateA: round(winsA / played, 4),
      ci95Low: round(Math.max(0, low), 4),
      ci95High: round(Math.min(1, high), 4),
      msPerMoveP50: round(quantile(times, 0.5), 3),
      msPerMoveP99: round(quantile(times, 0.99), 3),
    }),
  );
}

main();
