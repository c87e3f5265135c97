/**
 * Claim the rest: the property "a claim is offered only when EVERY legal play-out gives the claimer every remaining
 * trick", checked by enumerating every legal play of the other seats through the real engine (`apply`) on random
 * late-hand positions (1–4 tricks left, some with a trick in progress), under the plain, Screamer and Assassin rules.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mulberry32 } from '../bots';
import { Card, cardIndex, DECK, parseCard } from './cards';
import type { Seat } from './deal';
import { apply, createGame } from './engine';
import { computeLegalCards } from './legal';
import { claimPlan, claimPlayout, claimRefusal } from './claim';
import { DEFAULT_SETTINGS, GameSettings } from './settings';
import type { CompletedTrick, GameState } from './state';
import { viewFor } from './view';

const RULES: GameSettings[] = [
  DEFAULT_SETTINGS,
  { ...DEFAULT_SETTINGS, specialRules: { ...DEFAULT_SETTINGS.specialRules, screamer: true } },
  { ...DEFAULT_SETTINGS, specialRules: { ...DEFAULT_SETTINGS.specialRules, assassin: true } },
  { ...DEFAULT_SETTINGS, gameMode: 'SOLO' },
];

function shuffle<T>(xs: T[], rng: () => number): T[] {
  const a = xs.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/**
 * A PLAYING state with `left` tricks to go: `strong` gets mostly high cards (so that claims happen), the cards
 * already played sit in `handTricks`; then `inTrick` cards of the current trick are played legally at random.
 */
function position(settings: GameSettings, seed: number, left: number, inTrick: number, strong: Seat): GameState | null {
  const rng = mulberry32(seed);
  const deck = shuffle(DECK.slice(), rng);
  const live = deck.slice(0, 4 * left);
  const played = deck.slice(4 * left);
  // the strong seat takes the highest of a random half of the live cards (ties: spades first)
  const pool = shuffle(live, rng)
    .slice(0, Math.min(live.length, left * 2))
    .sort((a, b) => b.rank - a.rank || (a.suit === 'S' ? -1 : 1));
  const mine = pool.slice(0, left);
  const rest = shuffle(
    live.filter((c) => !mine.includes(c)),
    rng,
  );
  const hands: Card[][] = [[], [], [], []];
  hands[strong] = mine;
  let k = 0;
  for (let s = 0; s < 4; s++) if (s !== strong) hands[s] = rest.slice(k, (k += left));
  const handTricks: CompletedTrick[] = [];
  for (let t = 0; t < 13 - left; t++) {
    const cards = [0, 1, 2, 3].map((s) => ({ seat: s as Seat, card: played[t * 4 + s] }));
    handTricks.push({ leader: 0, cards, winner: (t % 4) as Seat });
  }
  const tricksWon = [0, 0, 0, 0];
  for (const t of handTricks) tricksWon[t.winner]++;
  const leader = ((strong + 4 - inTrick) % 4) as Seat;
  let s: GameState = {
    ...createGame(settings),
    phase: 'PLAYING',
    handNumber: 1,
    dealer: 0,
    hands,
    revealed: [true, true, true, true],
    bids: [3, 3, 3, 3],
    turn: leader,
    trickLeader: leader,
    trickNumber: 13 - left,
    spadesBroken: played.some((c) => c.suit === 'S') || rng() < 0.3,
    tricksWon,
    lastTrick: handTricks[handTricks.length - 1] ?? null,
    handTricks,
    handSeed: '00'.repeat(32),
    handCommitment: '00'.repeat(32),
  };
  for (let i = 0; i < inTrick; i++) {
    const seat = s.turn as Seat;
    const legal = computeLegalCards(s.settings, s.hands[seat], s.trick, s.spadesBroken);
    const r = apply(s, { type: 'play', seat, card: legal[Math.floor(rng() * legal.length)] });
    if (!r.ok) return null;
    s = r.state;
  }
  return s;
}

/** Every legal play-out with `seat` following `plan`: calls `leaf` with each final state; false if a planned card was illegal. */
function everyPlayout(s: GameState, seat: Seat, plan: readonly Card[], leaf: (end: GameState) => void): boolean {
  if (s.phase !== 'PLAYING') {
    leaf(s);
    return true;
  }
  const turn = s.turn as Seat;
  if (turn === seat) {
    if (plan.length === 0) return false;
    const r = apply(s, { type: 'play', seat, card: plan[0] });
    return r.ok && everyPlayout(r.state, seat, plan.slice(1), leaf);
  }
  for (const card of computeLegalCards(s.settings, s.hands[turn], s.trick, s.spadesBroken)) {
    const r = apply(s, { type: 'play', seat: turn, card });
    if (!r.ok || !everyPlayout(r.state, seat, plan, leaf)) return false;
  }
  return true;
}

describe('claimPlan (property: offered only when every legal play-out gives the claimer every trick)', () => {
  it('holds over random late-hand positions, enumerated through the engine', () => {
    let offered = 0;
    let refused = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 3 }),
        fc.constantFrom(...RULES),
        fc.constantFrom<Seat>(0, 1, 2, 3),
        (seed, left, inTrick, settings, strong) => {
          const s = position(settings, seed, left, inTrick, strong);
          if (!s || s.phase !== 'PLAYING') return;
          const seat = s.turn as Seat;
          const plan = claimPlan(viewFor(s, seat));
          if (!plan) {
            refused++;
            expect(claimRefusal(viewFor(s, seat))).toBe('NOT_CERTAIN');
            expect(claimPlayout(s, seat)).toBeNull();
            return;
          }
          offered++;
          const remaining = 13 - s.trickNumber;
          const before = s.tricksWon[seat];
          let leaves = 0;
          const legal = everyPlayout(s, seat, plan, (end) => {
            leaves++;
            if (end.tricksWon[seat] !== before + remaining) throw new Error(`claim lost a trick (seed ${seed})`);
          });
          expect(legal).toBe(true);
          expect(leaves).toBeGreaterThan(0);
          // the server's play-out: legal, and the claimer takes every trick
          const actions = claimPlayout(s, seat)!;
          let end = s;
          for (const a of actions) {
            const r = apply(end, a);
            expect(r.ok).toBe(true);
            if (r.ok) end = r.state;
          }
          expect(end.phase).not.toBe('PLAYING');
          expect(end.tricksWon[seat]).toBe(before + remaining);
        },
      ),
      { numRuns: 1500 },
    );
    // not vacuous: both outcomes occur often
    expect(offered).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
  });

  it('depends only on what the seat may know: other seats swapping their cards changes nothing', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const s = position(DEFAULT_SETTINGS, seed, 1 + (seed % 4), 0, (seed % 4) as Seat);
      if (!s) continue;
      const seat = s.turn as Seat;
      const others = ([0, 1, 2, 3] as Seat[]).filter((x) => x !== seat);
      const pool = shuffle(
        others.flatMap((o) => s.hands[o]),
        mulberry32(seed),
      );
      const hands = s.hands.slice();
      let k = 0;
      for (const o of others) hands[o] = pool.slice(k, (k += s.hands[o].length));
      expect(claimPlan(viewFor({ ...s, hands }, seat))).toEqual(claimPlan(viewFor(s, seat)));
    }
  });
});

describe('claimPlan (examples)', () => {
  const cards = (...codes: string[]) => codes.map((c) => parseCard(c)!);
  /** A position on trick 13 − left with the given hands, seat 0 to lead, the other cards played. */
  function lead(hands: string[][], spadesBroken = true): GameState {
    const hs = hands.map((h) => cards(...h));
    const inHands = new Set(hs.flat().map(cardIndex));
    const played = DECK.filter((c) => !inHands.has(cardIndex(c)));
    const left = hs[0].length;
    const handTricks: CompletedTrick[] = [];
    for (let t = 0; t < 13 - left; t++)
      handTricks.push({
        leader: 0,
        winner: 1,
        cards: [0, 1, 2, 3].map((s) => ({ seat: s as Seat, card: played[t * 4 + s] })),
      });
    return {
      ...createGame(DEFAULT_SETTINGS),
      phase: 'PLAYING',
      handNumber: 1,
      dealer: 3,
      hands: hs,
      bids: [3, 3, 3, 3],
      revealed: [true, true, true, true],
      turn: 0,
      trickLeader: 0,
      trickNumber: 13 - left,
      spadesBroken,
      tricksWon: [0, 13 - left, 0, 0],
      handTricks,
      handSeed: '00'.repeat(32),
      handCommitment: '00'.repeat(32),
    };
  }

  it('top spades drawn first, then top side cards', () => {
    const s = lead([
      ['AS', 'KS', 'AH'],
      ['2S', '3H', '4D'],
      ['5H', '6D', '7C'],
      ['8H', '9D', '10C'],
    ]);
    expect(claimPlan(viewFor(s, 0))?.map((c) => c.suit + c.rank)).toEqual(['S14', 'S13', 'H14']);
  });

  it('refused when another seat may still hold a spade to trump a side card', () => {
    // three unseen spades could all be in one hand: two spade leads do not draw them
    const s = lead([
      ['AS', 'AH', 'KH'],
      ['2S', '3S', '4S'],
      ['5H', '6D', '7C'],
      ['8H', '9D', '10C'],
    ]);
    expect(claimPlan(viewFor(s, 0))).toBeNull();
    expect(claimRefusal(viewFor(s, 0))).toBe('NOT_CERTAIN');
  });

  it('refused when spades are not broken and a spade would have to be led first', () => {
    const s = lead(
      [
        ['AS', 'AH'],
        ['2S', '3H'],
        ['5H', '6D'],
        ['8H', '9D'],
      ],
      false,
    );
    expect(claimPlan(viewFor(s, 0))).toBeNull();
  });

  it('never offered out of turn or outside the play', () => {
    const s = lead([['AS'], ['2S'], ['5H'], ['8H']]);
    expect(claimRefusal(viewFor(s, 1))).toBe('NOT_YOUR_TURN');
    expect(claimRefusal(viewFor({ ...s, phase: 'HAND_COMPLETED' }, 0))).toBe('NOT_PLAYING');
  });
});
