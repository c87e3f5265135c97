/**
 * Property tests: thousands of random complete games (random/basic bots) over every combination of
 * mode, bidding variant, special rule and nil toggles.
 */
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { basicBot, Bot, mulberry32, randomBot, randomSeed } from '../bots';
import { Card, DECK } from './cards';
import { Seat } from './deal';
import { apply, createGame, GameAction } from './engine';
import { BiddingOption, DEFAULT_SETTINGS, GameMode, GameSettings, Gimmick, validateSettings } from './settings';
import { GameState } from './state';
import { legalBids, legalCards, viewFor, Viewer } from './view';

const code = (c: Card) => c.suit + c.rank;
/** Cheap assertion for hot loops (vitest's expect is comparatively slow). */
function check(cond: unknown, msg: string): asserts cond {
  if (!cond) throw new Error(`property violated: ${msg}`);
}
const clone = <T>(o: T): T => JSON.parse(JSON.stringify(o)) as T;
function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

type Variant = { biddingOption: BiddingOption; gimmick: Gimmick | null };
const VARIANTS: Variant[] = [
  { biddingOption: 'REG', gimmick: null },
  { biddingOption: 'WHIZ', gimmick: null },
  { biddingOption: 'MIRROR', gimmick: null },
  ...(['SUICIDE', '4 OR NIL', 'BID 3', 'BID HEARTS', 'CRAZY ACES'] as Gimmick[]).map((g) => ({ biddingOption: 'GIMMICK' as const, gimmick: g })),
];
const SPECIALS = [{ screamer: false, assassin: false }, { screamer: true, assassin: false }, { screamer: false, assassin: true }];
const NILS = [{ allowNil: true, allowBlindNil: false }, { allowNil: true, allowBlindNil: true }, { allowNil: false, allowBlindNil: false }];

/** Every valid combination of mode × variant × special rule × nil toggles. */
const COMBOS: GameSettings[] = [];
for (const gameMode of ['PARTNERS', 'SOLO'] as GameMode[]) {
  for (const v of VARIANTS) {
    for (const sp of SPECIALS) {
      for (const nil of NILS) {
        const s: GameSettings = { ...DEFAULT_SETTINGS, gameMode, ...v, minPoints: -100, maxPoints: 200, specialRules: { ...nil, ...sp } };
        const r = validateSettings(s);
        if (r.ok) COMBOS.push(r.settings);
      }
    }
  }
}

/** Independent scoring oracle (written separately from scoring.ts) for one side. */
function oracleDelta(bids: number[], blind: boolean[], tricks: number[], seats: number[], bagsBefore: number): { delta: number; bags: number } {
  let bid = 0, got = 0, nil = 0;
  for (const s of seats) {
    got += tricks[s];
    if (bids[s] === 0) nil += (tricks[s] === 0 ? 1 : -1) * (blind[s] ? 200 : 100);
    else bid += bids[s];
  }
  let delta = nil;
  let bags = bagsBefore;
  if (got >= bid) {
    delta += 10 * bid + (got - bid);
    bags += got - bid;
  } else delta -= 10 * bid;
  const penalties = Math.floor(bags / 10);
  return { delta: delta - 100 * penalties, bags: bags - 10 * penalties };
}

function cardsIn(o: unknown, out: string[] = []): string[] {
  if (Array.isArray(o)) for (const x of o) cardsIn(x, out);
  else if (o && typeof o === 'object') {
    const r = o as Record<string, unknown>;
    if (typeof r.suit === 'string' && typeof r.rank === 'number' && Object.keys(r).length === 2) out.push(r.suit + r.rank);
    else for (const v of Object.values(r)) cardsIn(v, out);
  }
  return out;
}

function checkViews(s: GameState): void {
  const viewers: Viewer[] = [0, 1, 2, 3, 'spectator'];
  for (const viewer of viewers) {
    const v = viewFor(s, viewer);
    const seen = new Set(cardsIn(v));
    for (const seat of [0, 1, 2, 3] as Seat[]) {
      const ownVisible = viewer === seat && !v.handHidden;
      if (ownVisible) continue;
      for (const c of s.hands[seat]) check(!seen.has(code(c)), `view of ${viewer} leaks ${code(c)} of seat ${seat}`);
    }
    if (s.handSeed) check(!JSON.stringify(v).includes(s.handSeed), 'view leaks the seed');
  }
}

/** Random (mostly illegal) probe actions: must return an error and leave the state unchanged, or be legal. */
function probe(s: GameState, rng: () => number): void {
  const r = Math.floor(rng() * 5);
  const seat = Math.floor(rng() * 5) as Seat;
  let action: GameAction;
  if (r === 0) action = { type: 'deal', seed: randomSeed(rng) };
  else if (r === 1) action = { type: 'reveal', seat };
  else if (r === 2) action = { type: 'bid', seat, bid: Math.floor(rng() * 16) - 1, blind: rng() < 0.3 };
  else action = { type: 'play', seat, card: DECK[Math.floor(rng() * 52)] };
  const before = clone(s);
  const frozen = deepFreeze(clone(s));
  const res = apply(frozen, action);
  expect(frozen).toEqual(before);
  if (!res.ok) {
    expect(typeof res.error).toBe('string');
    return;
  }
  // A successful probe must be exactly what legalBids / legalCards / reveal rules allow.
  if (action.type === 'deal') throw new Error('deal accepted mid-hand');
  if (action.type === 'reveal') {
    expect(s.phase).toBe('BIDDING');
    expect(s.revealed[action.seat]).toBe(false);
  } else if (action.type === 'bid') {
    expect(s.turn).toBe(action.seat);
    const lb = legalBids(viewFor(s, action.seat));
    if (action.blind) expect(lb.blindNil && action.bid === 0 || (!s.revealed[action.seat] && action.bid === 0)).toBe(true);
    else expect(lb.bids).toContain(action.bid);
  } else {
    expect(s.turn).toBe(action.seat);
    expect(legalCards(viewFor(s, action.seat)).map(code)).toContain(code(action.card));
  }
}

/** Plays a complete game checking invariants; `thorough` adds view-leak checks and illegal-action probes. */
function playChecked(settings: GameSettings, bots: Bot[], seed: number, thorough: boolean): GameState {
  const rng = mulberry32(seed);
  let s = createGame(settings);
  let hands = 0;
  while (s.phase !== 'COMPLETED') {
    expect(hands).toBeLessThan(400); // termination
    const prevScores = s.scores.slice();
    const prevBags = s.bags.slice();
    const d = apply(s, { type: 'deal', seed: randomSeed(rng) });
    expect(d.ok).toBe(true);
    if (!d.ok) throw new Error(d.error);
    s = d.state;
    hands++;
    const dealt = new Set(s.hands.flat().map(code));
    expect(dealt.size).toBe(52);
    const played: string[] = [];
    let steps = 0;
    while (s.phase === 'BIDDING' || s.phase === 'PLAYING') {
      if (thorough && hands <= 2 && steps % 4 === 0) {
        checkViews(s);
        probe(s, rng);
      }
      const seat = s.turn as Seat;
      // the legal options for a bot are never empty
      const view = viewFor(s, seat);
      if (s.phase === 'PLAYING') check(legalCards(view).length > 0, 'no legal card');
      else check(legalBids(view).bids.length + (legalBids(view).blindNil ? 1 : 0) > 0, 'no legal bid');
      const action = bots[seat].act(view, rng);
      check(action, 'bot returned no action');
      const r = apply(s, action as GameAction);
      if (!r.ok) throw new Error(`bot action rejected: ${r.error}`);
      const n = r.state;
      steps++;
      // card conservation: unplayed + current trick + completed tricks × 4 = 52
      check(n.hands.reduce((a, h) => a + h.length, 0) + n.trick.length + 4 * n.trickNumber === 52, 'card count');
      if (n.trickNumber > s.trickNumber) {
        const t = n.lastTrick!;
        check(t.cards.length === 4, 'trick of 4');
        check(new Set(t.cards.map((x) => x.seat)).size === 4, 'trick from 4 seats');
        for (const x of t.cards) played.push(code(x.card));
      }
      s = n;
    }
    // all 52 dealt cards were played exactly once
    expect(played.length).toBe(52);
    expect(new Set(played)).toEqual(dealt);
    // scores change exactly by the hand's deltas, which match the oracle
    const rec = s.history[s.history.length - 1];
    expect(rec.tricksPerSeat.reduce((a, b) => a + b, 0)).toBe(13);
    for (const side of rec.sides) {
      expect(s.scores[side.side]).toBe(prevScores[side.side] + side.delta);
      const o = oracleDelta(rec.bids, rec.blind, rec.tricksPerSeat, side.seats, prevBags[side.side]);
      expect(side.delta).toBe(o.delta);
      expect(s.bags[side.side]).toBe(o.bags);
      expect(s.bags[side.side]).toBeLessThan(10);
    }
  }
  // end condition and winner
  const top = Math.max(...s.scores);
  expect(s.scores.some((x) => x >= settings.maxPoints || x <= settings.minPoints)).toBe(true);
  expect(s.scores.filter((x) => x === top).length).toBe(1);
  const winner = settings.gameMode === 'PARTNERS' ? s.result!.winnerTeam : s.result!.winnerSeat;
  expect(s.scores[winner as number]).toBe(top);
  expect(s.scores).toEqual(s.history.reduce((acc, h) => acc.map((v, i) => v + h.sides[i].delta), s.scores.map(() => 0)));
  return s;
}

const botsArb = fc.array(fc.constantFrom(randomBot, basicBot), { minLength: 4, maxLength: 4 });

describe('random complete games (properties)', () => {
  it(`every combination (${COMBOS.length}) of mode × variant × special rule × nil toggles, thorough checks`, () => {
    expect(COMBOS.length).toBeGreaterThan(100);
    for (const settings of COMBOS) {
      fc.assert(
        fc.property(fc.integer(), botsArb, (seed, bots) => {
          playChecked(settings, bots, seed, true);
        }),
        { numRuns: 4 },
      );
    }
  }, 120_000);

  it('random settings (any bounds), random bots: 1500 games', () => {
    const settingsArb = fc
      .record({
        combo: fc.constantFrom(...COMBOS),
        minPoints: fc.constantFrom(-250, -200, -150, -100),
        maxPoints: fc.constantFrom(100, 150, 200, 250, 300, 350, 400, 450, 500, 550, 600, 650),
      })
      .map(({ combo, minPoints, maxPoints }) => ({ ...combo, minPoints, maxPoints }));
    let games = 0;
    fc.assert(
      fc.property(settingsArb, fc.integer(), botsArb, (settings, seed, bots) => {
        playChecked(settings, bots, seed, false);
        games++;
      }),
      { numRuns: 1500 },
    );
    expect(games).toBeGreaterThanOrEqual(1500);
  }, 120_000);
});
