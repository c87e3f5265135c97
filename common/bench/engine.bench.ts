/**
 * Engine benchmark: random-legal play of complete hands (deal → bidding → 13 tricks → scoring) on one core.
 *
 * Two measurements, same random policy (uniform over the legal bids in order, blind nil as one more option,
 * forced bids placed automatically; the k-th legal card in card-index order, k = ⌊rng·n⌋), same SHA-256
 * seeded deals (`shuffledIndicesFromSeed`, the function behind `dealFromSeed`):
 *  - reference: the public pure API — `apply()` with `deal`, `bid`, `play` actions, legal moves from
 *    `computeLegalBids` / `computeLegalCards` (the functions `apply` validates with), immutable states;
 *  - fast path: the bitmask engine in src/fast (FastHand), which the headline `handsPerSecond` reports.
 * Before timing, both paths play the same hands with the same seeds and rng streams and their bids,
 * tricks per seat and score deltas are compared (`identical` in the output).
 *
 * Prints progress lines, then ONE JSON line (the last line of the output).
 * Usage: npm run bench:engine [-- --seconds 6]
 */
import {
  apply,
  cardIndex,
  computeLegalBids,
  computeLegalCards,
  createGame,
  DEFAULT_SETTINGS,
  firstDealerFromSeed,
  GameSettings,
  GameState,
  Seat,
  shuffledIndicesFromSeed,
} from '../src/rules';
import { mulberry32, randomSeed } from '../src/bots/prng';
import { FastHand, fastRules, fastBidRules, randomHandFast } from '../src/fast';
import { benchArgs } from './args';

declare const process: { argv: string[]; version: string };
declare const performance: { now(): number };
declare const console: { log(...args: unknown[]): void };

const args = benchArgs(['seconds']);
const arg = (name: string, fallback: string): string => args.text(name, fallback);

const totalSeconds = Number(arg('seconds', '6'));
const settings: GameSettings = {
  ...DEFAULT_SETTINGS,
  minPoints: -250,
  maxPoints: 650,
  specialRules: { ...DEFAULT_SETTINGS.specialRules, allowBlindNil: true },
};

interface HandOutcome {
  bids: number[];
  tricks: number[];
  deltas: number[];
}

// ---------------------------------------------------------------- reference engine (public API)
const base = createGame(settings);

function referenceHand(seed: Uint8Array, rng: () => number): HandOutcome {
  const d = apply(base, { type: 'deal', seed });
  if (!d.ok) throw new Error(d.error);
  let s: GameState = d.state;
  while (s.phase === 'BIDDING') {
    const seat = s.turn as Seat;
    const lb = computeLegalBids(s.settings, seat, s.hands[seat], s.bids, s.revealed[seat]);
    const k = Math.floor(rng() * (lb.bids.length + (lb.blindNil ? 1 : 0)));
    const r =
      k === lb.bids.length
        ? apply(s, { type: 'bid', seat, bid: 0, blind: true })
        : apply(s, { type: 'bid', seat, bid: lb.bids[k] });
    if (!r.ok) throw new Error(r.error);
    s = r.state;
  }
  while (s.phase === 'PLAYING') {
    const seat = s.turn as Seat;
    const legal = computeLegalCards(s.settings, s.hands[seat], s.trick, s.spadesBroken);
    legal.sort((a, b) => cardIndex(a) - cardIndex(b));
    const r = apply(s, { type: 'play', seat, card: legal[Math.floor(rng() * legal.length)] });
    if (!r.ok) throw new Error(r.error);
    s = r.state;
  }
  const rec = s.history[s.history.length - 1];
  return { bids: rec.bids, tricks: rec.tricksPerSeat, deltas: rec.sides.map((x) => x.delta) };
}

// ---------------------------------------------------------------- fast path
const fh = new FastHand().setRules(fastRules(settings));
const bidRules = fastBidRules(settings);
const deltas = new Int32Array(4);

let handNo = 0;
/** One hand on the fast path; the dealer rotates as in a real game (the equivalence check uses the first-dealer rule instead). */
function fastHand(seed: Uint8Array, rng: () => number, dealer: number = handNo++ & 3): void {
  const deck = shuffledIndicesFromSeed(seed);
  const hands = fh.hands;
  hands.fill(0);
  for (let i = 0; i < 52; i++) {
    const c = deck[i];
    hands[((i / 13) | 0) * 4 + ((c / 13) | 0)] |= 1 << (c % 13);
  }
  randomHandFast(fh, bidRules, dealer, rng);
  fh.scoreDeltas(deltas);
}

function fastOutcome(seed: Uint8Array, rng: () => number): HandOutcome {
  fastHand(seed, rng, firstDealerFromSeed(seed));
  const n = settings.gameMode === 'PARTNERS' ? 2 : 4;
  return { bids: Array.from(fh.bids), tricks: Array.from(fh.tricks), deltas: Array.from(deltas.subarray(0, n)) };
}

// ---------------------------------------------------------------- equivalence check on the same hands
const CHECK_HANDS = 300;
let identical = true;
{
  const seedRng = mulberry32(7);
  for (let h = 0; h < CHECK_HANDS; h++) {
    const seed = randomSeed(seedRng);
    const a = referenceHand(seed, mulberry32(1000 + h));
    const b = fastOutcome(seed, mulberry32(1000 + h));
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      identical = false;
      console.log(`MISMATCH on hand ${h}: reference ${JSON.stringify(a)} fast ${JSON.stringify(b)}`);
      break;
    }
  }
  console.log(`equivalence check: ${CHECK_HANDS} hands, identical=${identical}`);
}

// ---------------------------------------------------------------- timing
function time(
  label: string,
  seconds: number,
  fn: (seed: Uint8Array, rng: () => number) => unknown,
): { hands: number; seconds: number } {
  const rng = mulberry32(12345);
  const seeds: Uint8Array[] = [];
  for (let i = 0; i < 4096; i++) seeds.push(randomSeed(rng));
  const warmEnd = performance.now() + 300;
  let i = 0;
  while (performance.now() < warmEnd) fn(seeds[i++ & 4095], rng);
  let hands = 0;
  const t0 = performance.now();
  let nextReport = t0 + 1000;
  for (;;) {
    for (let k = 0; k < 256; k++) fn(seeds[hands++ & 4095], rng);
    const now = performance.now();
    if (now >= nextReport) {
      console.log(`... ${label}: ${hands} hands in ${((now - t0) / 1000).toFixed(1)} s`);
      nextReport += 1000;
    }
    if (now - t0 >= seconds * 1000) return { hands, seconds: (now - t0) / 1000 };
  }
}

const ref = time('reference apply()', totalSeconds * 0.4, referenceHand);
const fast = time('fast path', totalSeconds * 0.6, (seed, rng) => fastHand(seed, rng));
console.log(
  JSON.stringify({
    handsPerSecond: Math.round(fast.hands / fast.seconds),
    hands: fast.hands,
    seconds: Number(fast.seconds.toFixed(3)),
    path: 'fast (src/fast bitmask engine) with SHA-256 seeded deals and scoring',
    referenceHandsPerSecond: Math.round(ref.hands / ref.seconds),
    referenceHands: ref.hands,
    referenceSeconds: Number(ref.seconds.toFixed(3)),
    identical,
    checkedHands: CHECK_HANDS,
    settings: 'PARTNERS REG, nil + blind nil',
    node: process.version,
  }),
);
