/**
 * Duplicate-deal match between two bots (used by bots.bench.ts): games are played in pairs on the same deal
 * seeds (hand k of both games uses the same seed, so the same first dealer and the same cards), with the teams'
 * seats swapped: in the first game A holds seats 0 & 2, in the second seats 1 & 3.
 */
import type { GameSettings } from '../src/rules';
import { mulberry32, playGame, randomSeed } from '../src/bots';
import type { Bot } from '../src/bots';

/**
 * `--games N`: duplicate deals are played in pairs, so N must be an even integer ≥ 2 (exactly N games are
 * played; an odd N used to play N + 1). Throws a RangeError with a clear message otherwise.
 */
export function parseGames(raw: string): number {
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 2 || n % 2 !== 0) {
    throw new RangeError(
      `--games must be an even integer ≥ 2 (duplicate deals are played in pairs), got ${JSON.stringify(raw)}`,
    );
  }
  return n;
}

export interface DuplicateResult {
  /** Games played (= the requested number). */
  games: number;
  /** Games A won (a game stopped at the hand cap counts ½ when the scores are level). */
  winsA: number;
  /** Per pair: 0, ½ or 1 for A. */
  pairScores: number[];
}

export function duplicateMatch(
  A: Bot,
  B: Bot,
  settings: GameSettings,
  games: number,
  baseSeed: number,
  onPair?: (pairsDone: number, played: number, winsA: number) => void,
): DuplicateResult {
  if (!Number.isSafeInteger(games) || games < 2 || games % 2 !== 0)
    throw new RangeError(`games must be an even integer ≥ 2, got ${games}`);
  const pairs = games / 2;
  const pairScores: number[] = [];
  let played = 0;
  let winsA = 0;
  for (let p = 0; p < pairs; p++) {
    const seedRng = mulberry32((baseSeed * 1_000_003 + p) | 0);
    const seeds: Uint8Array[] = [];
    const seedFor = (hand: number): Uint8Array => {
      while (seeds.length < hand) seeds.push(randomSeed(seedRng));
      return seeds[hand - 1];
    };
    let pairScore = 0;
    for (let g = 0; g < 2; g++) {
      const bots = g === 0 ? [A, B, A, B] : [B, A, B, A];
      const aTeam = g === 0 ? 0 : 1;
      const { state } = playGame(settings, {
        bots,
        rng: mulberry32((baseSeed * 7919 + p * 2 + g) | 0),
        seed: seedFor,
        maxHands: 60,
      });
      let score: number;
      if (state.result) score = state.result.winnerTeam === aTeam ? 1 : 0;
      else
        score =
          state.scores[aTeam] > state.scores[1 - aTeam] ? 1 : state.scores[aTeam] < state.scores[1 - aTeam] ? 0 : 0.5;
      winsA += score;
      pairScore += score / 2;
      played++;
    }
    pairScores.push(pairScore);
    onPair?.(p + 1, played, winsA);
  }
  return { games: played, winsA, pairScores };
}
