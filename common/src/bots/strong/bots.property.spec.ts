import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  apply,
  createGame,
  GameAction,
  GameSettings,
  GameState,
  legalBids,
  legalCards,
  PlayerView,
  Seat,
  sortHand,
  viewFor,
} from '../../rules';
import { mulberry32, randomSeed } from '../prng';
import { basicBot } from '../basic';
import { randomBot } from '../random';
import type { Bot } from '../types';
import { heuristicBot } from '../heuristic';
import { createStrongBot } from './index';
import { allVariants, variantName } from '../../fast/variants';
import { botFallbackCount, setBotFallbackStrict } from '../fallback';

const VARIANTS = allVariants();
/** Strong bot with a fixed, small number of samples: deterministic and fast enough for property tests. */
const strongLite = createStrongBot({ maxMs: 1e9, maxSamples: 3, minSamples: 3 });
const strongFixed = createStrongBot({ maxMs: 1e9, maxSamples: 24, minSamples: 24 });

/** Legal for the view, by common's legality functions (the same ones `apply` uses). */
function isLegal(view: PlayerView, a: GameAction | null): boolean {
  if (!a || view.viewer === 'spectator' || ('seat' in a && a.seat !== view.viewer)) return false;
  if (view.turn !== view.viewer) return false;
  if (a.type === 'reveal') return view.phase === 'BIDDING' && view.handHidden && view.bids[view.viewer] === null;
  if (a.type === 'bid') {
    const lb = legalBids(view);
    return a.blind === true ? lb.blindNil && a.bid === 0 : lb.bids.includes(a.bid);
  }
  if (a.type === 'play') return legalCards(view).some((c) => c.suit === a.card.suit && c.rank === a.card.rank);
  return false;
}

interface Tally {
  actions: number;
  blindNils: number;
  reveals: number;
  nils: number;
}

/** Plays one hand from a deal with the given bots, asserting that every action is legal for the view. */
function playCheckedHand(
  s0: GameState,
  bots: readonly Bot[],
  rng: () => number,
  tally?: Tally,
): { state: GameState; actions: number } {
  let s = s0;
  let actions = 0;
  while (s.phase === 'BIDDING' || s.phase === 'PLAYING') {
    const seat = s.turn as Seat;
    const view = viewFor(s, seat);
    const a = bots[seat].act(view, rng);
    if (!isLegal(view, a)) {
      throw new Error(
        `${bots[seat].name} returned an illegal action ${JSON.stringify(a)} in ${variantName(s.settings)}`,
      );
    }
    const r = apply(s, a as GameAction);
    if (!r.ok) throw new Error(`${bots[seat].name}: engine refused ${JSON.stringify(a)}: ${r.error}`);
    if (tally && a) {
      if (a.type === 'reveal') tally.reveals++;
      if (a.type === 'bid' && a.bid === 0) tally[a.blind ? 'blindNils' : 'nils']++;
    }
    s = r.state;
    actions++;
  }
  if (tally) tally.actions += actions;
  return { state: s, actions };
}

/** Plays a COMPLETE game (to game end) with every action checked; fails if it does not end within 200 hands. */
function playCheckedGame(settings: GameSettings, bots: readonly Bot[], rng: () => number, tally: Tally): GameState {
  let s = createGame(settings);
  while (s.phase !== 'COMPLETED') {
    if (s.handNumber >= 200) throw new Error(`game did not end in 200 hands: ${variantName(settings)}`);
    const d = apply(s, { type: 'deal', seed: randomSeed(rng) });
    if (!d.ok) throw new Error(d.error);
    s = playCheckedHand(d.state, bots, rng, tally).state;
  }
  expect(s.result).not.toBeNull();
  return s;
}

const ALL_BOTS: readonly Bot[] = [randomBot, basicBot, heuristicBot, strongLite];
const newTally = (): Tally => ({ actions: 0, blindNils: 0, reveals: 0, nils: 0 });

describe('every bot only returns legal actions in complete games of every variant (strict: no silent fallback)', () => {
  let wasStrict = false;
  let fallbacksBefore = 0;
  beforeAll(() => {
    wasStrict = setBotFallbackStrict(true); // a bot choosing an illegal card/bid throws instead of playing legal[0]
    fallbacksBefore = botFallbackCount();
  });
  afterAll(() => {
    setBotFallbackStrict(wasStrict);
  });

  it('covers every mode, bidding option, gimmick, special rule and nil / blind nil toggle', () => {
    const names = new Set(VARIANTS.map(variantName));
    for (const mode of ['PARTNERS', 'SOLO']) {
      for (const opt of ['REG', 'WHIZ', 'MIRROR', '4 OR NIL', 'BID 3', 'BID HEARTS', 'CRAZY ACES']) {
        for (const rule of ['', ' SCREAMER', ' ASSASSIN']) expect(names.has(`${mode} ${opt} nil${rule}`)).toBe(true);
      }
      for (const opt of ['REG', '4 OR NIL'])
        for (const rule of ['', ' SCREAMER', ' ASSASSIN'])
          expect(names.has(`${mode} ${opt} nil+blind${rule}`)).toBe(true);
      expect(names.has(`${mode} REG no-nil`)).toBe(true);
    }
    expect(names.has('PARTNERS SUICIDE nil+blind')).toBe(true);
    expect(names.has('SOLO SUICIDE nil')).toBe(false);
  });

  it.each(ALL_BOTS.map((b) => [b.name, b] as const))(
    '%s: all four seats, one complete game per variant',
    (_name, bot) => {
      const tally = newTally();
      for (let vi = 0; vi < VARIANTS.length; vi++)
        playCheckedGame(VARIANTS[vi], [bot, bot, bot, bot], mulberry32(vi * 7919 + bot.name.length), tally);
      expect(tally.actions).toBeGreaterThan(VARIANTS.length * 52);
      if (bot !== basicBot) expect(tally.nils).toBeGreaterThan(0); // basic bids the value nearest 4: never a chosen nil
      // where blind nil is possible: random bids blind nil or bids without looking; the others look first
      if (bot === randomBot) expect(tally.blindNils).toBeGreaterThan(0);
      else expect(tally.reveals).toBeGreaterThan(0);
      expect(botFallbackCount()).toBe(fallbacksBefore);
    },
    60_000,
  );

  it('property: random lineups of random / basic / heuristic / strong in random variants play complete games legally', () => {
    const tally = newTally();
    let games = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: VARIANTS.length - 1 }),
        fc.array(fc.integer({ min: 0, max: ALL_BOTS.length - 1 }), { minLength: 4, maxLength: 4 }),
        fc.integer(),
        (vi, lineup, seed) => {
          playCheckedGame(
            VARIANTS[vi],
            lineup.map((i) => ALL_BOTS[i]),
            mulberry32(seed),
            tally,
          );
          games++;
        },
      ),
      { numRuns: 1500 },
    );
    expect(games).toBe(1500);
    expect(tally.blindNils).toBeGreaterThan(0);
    expect(tally.reveals).toBeGreaterThan(0);
    expect(botFallbackCount()).toBe(fallbacksBefore);
  }, 60_000);
});

/**
 * Swaps unplayed cards of the same suit between the hands of seats other than `me` (keeps every count and
 * every void the play revealed): a different hidden deal that the seat cannot tell apart.
 */
function permuteHidden(s: GameState, me: Seat, rng: () => number): GameState {
  const hands = s.hands.map((h) => h.slice());
  const others = ([0, 1, 2, 3] as Seat[]).filter((x) => x !== me);
  for (let k = 0; k < 40; k++) {
    const a = others[Math.floor(rng() * 3)];
    const b = others[Math.floor(rng() * 3)];
    if (a === b || hands[a].length === 0) continue;
    const i = Math.floor(rng() * hands[a].length);
    const suit = hands[a][i].suit;
    const js = hands[b].map((c, j) => (c.suit === suit ? j : -1)).filter((j) => j >= 0);
    if (js.length === 0) continue;
    const j = js[Math.floor(rng() * js.length)];
    const t = hands[a][i];
    hands[a][i] = hands[b][j];
    hands[b][j] = t;
  }
  return { ...s, hands: hands.map((h, seat) => (seat === me ? s.hands[seat] : sortHand(h))) };
}

describe('bots see only their seat’s view', () => {
  it('a view contains no unplayed card of another seat', () => {
    const rng = mulberry32(99);
    let s = createGame(VARIANTS[0]);
    const d = apply(s, { type: 'deal', seed: randomSeed(rng) });
    if (!d.ok) throw new Error(d.error);
    s = d.state;
    let checked = 0;
    while (s.phase === 'BIDDING' || s.phase === 'PLAYING') {
      const seat = s.turn as Seat;
      const json = JSON.stringify(viewFor(s, seat).hand);
      const all = JSON.stringify(viewFor(s, seat));
      for (const other of [0, 1, 2, 3] as Seat[]) {
        if (other === seat) continue;
        for (const c of s.hands[other]) {
          expect(json.includes(JSON.stringify(c))).toBe(false);
          // an unplayed card of another seat can appear nowhere in the view
          expect(all.includes(JSON.stringify(c))).toBe(false);
          checked++;
        }
      }
      const a = heuristicBot.act(viewFor(s, seat), rng);
      const r = apply(s, a as GameAction);
      if (!r.ok) throw new Error(r.error);
      s = r.state;
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('decisions are identical when the hidden hands are permuted consistently with the view', () => {
    let compared = 0;
    let differentDeals = 0;
    for (let g = 0; g < 12; g++) {
      const settings = VARIANTS[(g * 11) % VARIANTS.length];
      const rng = mulberry32(1000 + g);
      const d = apply(createGame(settings), { type: 'deal', seed: randomSeed(rng) });
      if (!d.ok) throw new Error(d.error);
      let s = d.state;
      while (s.phase === 'BIDDING' || s.phase === 'PLAYING') {
        const seat = s.turn as Seat;
        const permuted = permuteHidden(s, seat, rng);
        if (JSON.stringify(permuted.hands) !== JSON.stringify(s.hands)) differentDeals++;
        const v1 = viewFor(s, seat);
        const v2 = viewFor(permuted, seat);
        expect(v2).toEqual(v1);
        for (const bot of [heuristicBot, strongFixed]) {
          const a1 = bot.act(v1, mulberry32(g * 31 + compared));
          const a2 = bot.act(v2, mulberry32(g * 31 + compared));
          expect(a2).toEqual(a1);
        }
        compared++;
        const a = strongLite.act(v1, rng);
        const r = apply(s, a as GameAction);
        if (!r.ok) throw new Error(r.error);
        s = r.state;
      }
    }
    expect(compared).toBeGreaterThan(500);
    expect(differentDeals).toBeGreaterThan(300);
  }, 60_000);
});
