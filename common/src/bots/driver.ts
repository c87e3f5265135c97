import { apply, createGame, GameSettings, GameState, viewFor, Seat } from '../rules';
import { randomSeed } from './prng';
import type { Bot } from './types';

export interface DriveOptions {
  /** One bot per seat. */
  bots: readonly Bot[];
  /** Randomness for the bots and (unless `seed` is given) for the deal seeds. */
  rng: () => number;
  /** Deal seed for each hand (hand number 1, 2, …); default: randomSeed(rng). */
  seed?: (handNumber: number) => Uint8Array;
  /** Stop after this many hands even if the game is not over (default 200). */
  maxHands?: number;
  /** Called after every successful action (tests use it to check invariants). */
  onState?: (prev: GameState, next: GameState) => void;
}

export interface DriveResult {
  state: GameState;
  actions: number;
}

/** Drives the current hand of `state` (which must be in BIDDING or PLAYING) to its end with bots. */
export function playHand(state: GameState, opts: DriveOptions): DriveResult {
  let s = state;
  let actions = 0;
  while (s.phase === 'BIDDING' || s.phase === 'PLAYING') {
    const seat = s.turn as Seat;
    const action = opts.bots[seat].act(viewFor(s, seat), opts.rng);
    if (!action) throw new Error(`bot ${opts.bots[seat].name} returned no action for seat ${seat}`);
    const r = apply(s, action);
    if (!r.ok) throw new Error(`bot ${opts.bots[seat].name} made an illegal action: ${r.error}`);
    opts.onState?.(s, r.state);
    s = r.state;
    actions++;
  }
  return { state: s, actions };
}

/** Plays a complete game with bots (test/bench helper; the server drives real games itself). */
export function playGame(settings: GameSettings, opts: DriveOptions): DriveResult {
  let s = createGame(settings);
  let actions = 0;
  const maxHands = opts.maxHands ?? 200;
  while (s.phase !== 'COMPLETED' && s.handNumber < maxHands) {
    const seed = opts.seed ? opts.seed(s.handNumber + 1) : randomSeed(opts.rng);
    const r = apply(s, { type: 'deal', seed });
    if (!r.ok) throw new Error(`deal failed: ${r.error}`);
    opts.onState?.(s, r.state);
    const h = playHand(r.state, opts);
    s = h.state;
    actions += h.actions + 1;
  }
  return { state: s, actions };
}
