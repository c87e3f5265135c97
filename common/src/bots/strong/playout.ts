import type { FastHand } from '../../fast/hand';
import { heuristicCard } from '../heuristic/play';

/** Finishes the hand in `sim` with the heuristic policy for every seat (each reads only its own hand). */
export function playoutHeuristic(sim: FastHand): void {
  while (sim.trickNo < 13) sim.play(heuristicCard(sim, sim.turn));
}

const deltas = new Int32Array(4);
const after = new Int32Array(4);

/** Points-equivalent of winning (or losing) the game with this hand. */
export const GAME_END_VALUE = 400;

/**
 * Value of a finished hand for seat `me`: PARTNERS our score change minus theirs; SOLO ours minus the others'
 * mean; plus ±GAME_END_VALUE when the hand ends the game (a side reaches maxPoints or drops to minPoints, the
 * unique top score wins, as rules/scoring.ts gameOutcome).
 */
export function handValue(sim: FastHand, me: number): number {
  sim.scoreDeltas(deltas);
  const n = sim.partners ? 2 : 4;
  const mySide = sim.partners ? me & 1 : me;
  let ended = false;
  let top = -Infinity;
  let topCount = 0;
  let topSide = -1;
  for (let i = 0; i < n; i++) {
    const v = sim.scores[i] + deltas[i];
    after[i] = v;
    if (v >= sim.maxPoints || v <= sim.minPoints) ended = true;
    if (v > top) {
      top = v;
      topCount = 1;
      topSide = i;
    } else if (v === top) topCount++;
  }
  let value: number;
  if (sim.partners) value = deltas[mySide] - deltas[1 - mySide];
  else {
    let others = 0;
    for (let s = 0; s < 4; s++) if (s !== me) others += deltas[s];
    value = deltas[me] - others / 3;
  }
  if (ended && topCount === 1)
    value += topSide === mySide ? GAME_END_VALUE : sim.partners ? -GAME_END_VALUE : -GAME_END_VALUE / 2;
  return value;
}
