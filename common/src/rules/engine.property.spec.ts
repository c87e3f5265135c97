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
  ...(['SUICIDE', '4 OR NIL', 'BID 3', 'BID HEARTS', 'CRAZY ACES'] as Gimmick[]).map((g) => ({
    biddingOption: 'GIMMICK' as const,
    gimmick: g,
  })),
];
const SPECIALS = [
  { screamer: false, assassin: false },
  { screamer: true, assassin: false },
  { screamer: false, assassin: true },
];
const NILS = [
  { allowNil: true, allowBlindNil: false },
  { allowNil: true, allowBlindNil: true },
  { allowNil: false, allowBlindNil: false },
];

/** Every valid combination of mode × variant × special rule × nil toggles. */
const COMBOS: GameSettings[] = [];
for (const gameMode of ['PARTNERS', 'SOLO'] as GameMode[]) {
  for (const v of VARIANTS) {
    for (const sp of SPECIALS) {
      for (const nil of NILS) {
        const s: GameSettings = {
          ...DEFAULT_SETTINGS,
          gameMode,
          ...v,
          minPoints: -100,
          maxPoints: 200,
          specialRules: { ...nil, ...sp },
        };
        const r = validateSettings(s);
        if (r.ok) COMBOS.push(r.settings);
      }
    }
  }
}

/** Independent scoring oracle (written separately from scoring.ts) for one side. */
function oracleDelta(
  bids: number[],
  blind: boolean[],
  tricks: number[],
  seats: number[],
  bagsBefore: number,
): { delta: number; bags: number } {
  let bid = 0,
    got = 0,
    nil = 0;
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

const CARD_IN_JSON = /"suit":"([SHDC])","rank":(\d+)\}|\{"rank":(\d+),"suit":"([SHDC])"/g;

function cardsInJson(json: string): Set<string> {
  const seen = new Set<string>();
  for (const m of json.matchAll(CARD_IN_JSON)) seen.add(m[1] ? m[1] + m[2] : m[4] + m[3]);
  return seen;
}

/** No view (4 seats and a spectator) contains a card it may not see, nor the current hand's seed. */
function checkViews(s: GameState): void {
  const viewers: Viewer[] = [0, 1, 2, 3, 'spectator'];
  // The hand history (completed hands) is shared by every view: scan it once; no unplayed card may be in it.
  const historyJson = JSON.stringify(s.history);
  const inHistory = cardsInJson(historyJson);
  for (const h of s.hands) for (const c of h) check(!inHistory.has(code(c)), `history leaks ${code(c)}`);
  if (s.handSeed) check(!historyJson.includes(s.handSeed), 'history leaks the seed');
  for (const viewer of viewers) {
    const v = viewFor(s, viewer);
    // every card object anywhere in the view (either key order); the history only when it is not the scanned one
    const json = JSON.stringify(v.history === s.history ? { ...v, history: null } : v);
    const seen = cardsInJson(json);
    for (const seat of [0, 1, 2, 3] as Seat[]) {
      const ownVisible = viewer === seat && !v.handHidden;
      if (ownVisible) {
        for (const c of s.hands[seat]) check(seen.has(code(c)), `own card ${code(c)} not found (card scan broken)`);
        continue;
      }
      for (const c of s.hands[seat]) check(!seen.has(code(c)), `view of ${viewer} leaks ${code(c)} of seat ${seat}`);
    }
    if (s.handSeed) check(!json.includes(s.handSeed), 'view leaks the seed');
  }
}

/** Applies `action` to `s` (deep-frozen by the caller: any write to the input throws). */
function tryApply(s: GameState, action: GameAction): ReturnType<typeof apply> {
  const res = apply(s, action);
  if (!res.ok) check(typeof res.error === 'string' && res.error.length > 0, 'typed error code');
  return res;
}

/** Whether the engine should accept `action` in `s`, from the legality functions and the reveal rule alone. */
function expectedOk(s: GameState, action: GameAction): boolean {
  if (action.type === 'deal') return s.phase === 'WAITING' || s.phase === 'HAND_COMPLETED';
  const seat = action.seat;
  if (!(seat === 0 || seat === 1 || seat === 2 || seat === 3)) return false;
  if (action.type === 'reveal') {
    // the seat looks at its cards: once, during the bidding, never after a blind nil (cards stay hidden)
    return s.phase === 'BIDDING' && !s.revealed[seat] && !(s.bids[seat] !== null && s.blind[seat]);
  }
  if (s.turn !== seat) return false;
  const view = viewFor(s, seat);
  if (action.type === 'bid') {
    if (s.phase !== 'BIDDING') return false;
    const lb = legalBids(view);
    return action.blind === true ? lb.blindNil && action.bid === 0 : lb.bids.includes(action.bid);
  }
  return s.phase === 'PLAYING' && legalCards(view).some((c) => code(c) === code(action.card));
}

/**
 * Probes on a state: a random (mostly illegal) action, plus targeted ones (blind nil and a regular bid for the
 * seat to bid, reveal for a random seat, a random card for the seat to play). Each must be accepted exactly when
 * legalBids / legalCards / the reveal rule allow it, and refused ones return a typed error and leave the state as is.
 */
function probe(s: GameState, rng: () => number): void {
  const seat = Math.floor(rng() * 5) as Seat;
  const r = Math.floor(rng() * 5);
  const actions: GameAction[] = [];
  if (r === 0) actions.push({ type: 'deal', seed: randomSeed(rng) });
  else if (r === 1) actions.push({ type: 'reveal', seat });
  else if (r === 2) actions.push({ type: 'bid', seat, bid: Math.floor(rng() * 16) - 1, blind: rng() < 0.3 });
  else actions.push({ type: 'play', seat, card: DECK[Math.floor(rng() * 52)] });
  const turn = s.turn;
  if (turn !== null && s.phase === 'BIDDING') {
    actions.push({ type: 'bid', seat: turn, bid: 0, blind: true });
    actions.push({ type: 'bid', seat: turn, bid: Math.floor(rng() * 14) });
  }
  if (turn !== null && s.phase === 'PLAYING')
    actions.push({ type: 'play', seat: turn, card: DECK[Math.floor(rng() * 52)] });
  actions.push({ type: 'reveal', seat: Math.floor(rng() * 4) as Seat });
  deepFreeze(s); // apply must not write to its input (the engine's outputs share structure, never mutated)
  const before = JSON.stringify(s);
  for (const action of actions) {
    const res = tryApply(s, action);
    check(
      res.ok === expectedOk(s, action),
      `${JSON.stringify(action)} ${res.ok ? 'accepted' : `refused (${res.ok ? '' : res.error})`} in ${s.phase}`,
    );
  }
  check(JSON.stringify(s) === before, 'a probe changed the state');
}

/** Plays a complete game checking invariants; `thorough` adds view-leak checks and action probes on every step. */
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
    while (s.phase === 'BIDDING' || s.phase === 'PLAYING') {
      if (thorough) {
        // every step of every hand: no view leaks a hidden card; probes are accepted iff legal, refused ones change nothing
        checkViews(s);
        probe(s, rng);
      }
      const seat = s.turn as Seat;
      // the legal options for a bot are never empty
      const view = viewFor(s, seat);
      if (s.phase === 'PLAYING') check(legalCards(view).length > 0, 'no legal card');
      else {
        const lb = legalBids(view);
        check(lb.bids.length + (lb.blindNil ? 1 : 0) > 0, 'no legal bid');
        // forced bids are placed by the engine: the seat to bid always has a real choice
        check(
          !lb.forced && lb.bids.length + (lb.blindNil ? 1 : 0) > 1,
          `forced bid left to ${seat}: ${JSON.stringify(lb)}`,
        );
      }
      const action = bots[seat].act(view, rng);
      check(action, 'bot returned no action');
      const r = apply(s, action as GameAction);
      if (!r.ok) throw new Error(`bot action rejected: ${r.error}`);
      const n = r.state;
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
  expect(s.scores).toEqual(
    s.history.reduce(
      (acc, h) => acc.map((v, i) => v + h.sides[i].delta),
      s.scores.map(() => 0),
    ),
  );
  return s;
}

const botsArb = fc.array(fc.constantFrom(randomBot, basicBot), { minLength: 4, maxLength: 4 });

describe('random complete games (properties)', () => {
  it(`every combination (${COMBOS.length}) of mode × variant × special rule × nil toggles, thorough checks`, () => {
    // 2 modes × (REG 3, WHIZ 2, MIRROR 1, SUICIDE 3 (PARTNERS only), 4 OR NIL 3, BID 3 / BID HEARTS / CRAZY ACES 2 each)
    // nil toggles × 3 special rules (no blind nil with WHIZ, MIRROR, BID 3, BID HEARTS, CRAZY ACES: clarification 1)
    expect(COMBOS.length).toBe(99);
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
