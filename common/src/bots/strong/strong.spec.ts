import { describe, expect, it } from 'vitest';
import { apply, createGame, DEFAULT_SETTINGS, GameAction, GameState, legalCards, Seat, viewFor } from '../../rules';
import { mulberry32, randomSeed } from '../prng';
import { heuristicBot } from '../heuristic';
import { knowledgeFromView } from '../heuristic/knowledge';
import { FastHand, popcount, fromCard } from '../../fast/hand';
import { allVariants } from '../../fast/variants';
import { sampleDeal } from './sample';
import { candidateCards, createStrongBot, strongAct, strongCard, strongNeedsSearch } from './index';
import { GAME_END_VALUE, handValue } from './playout';

const VARIANTS = allVariants();

/** States of random hands (heuristic play), at every play decision. */
function* positions(games: number): Generator<GameState> {
  for (let g = 0; g < games; g++) {
    const rng = mulberry32(500 + g);
    const d = apply(createGame(VARIANTS[(g * 7) % VARIANTS.length]), { type: 'deal', seed: randomSeed(rng) });
    if (!d.ok) throw new Error(d.error);
    let s = d.state;
    while (s.phase === 'BIDDING' || s.phase === 'PLAYING') {
      if (s.phase === 'PLAYING') yield s;
      const seat = s.turn as Seat;
      const r = apply(s, heuristicBot.act(viewFor(s, seat), rng) as GameAction);
      if (!r.ok) throw new Error(r.error);
      s = r.state;
    }
  }
}

describe('determinization sampler', () => {
  it('deals exactly the unseen cards, with every seat’s count, never against a revealed void', () => {
    const rng = mulberry32(4);
    const out = new FastHand();
    let n = 0;
    let withVoids = 0;
    for (const s of positions(40)) {
      const me = s.turn as Seat;
      const st = knowledgeFromView(viewFor(s, me));
      expect(sampleDeal(st, me, rng, out)).toBe(true);
      for (let seat = 0; seat < 4; seat++) {
        let count = 0;
        for (let suit = 0; suit < 4; suit++) {
          count += popcount(out.hands[seat * 4 + suit]);
          if ((st.voids >> (seat * 4 + suit)) & 1) expect(out.hands[seat * 4 + suit]).toBe(0);
          // no card dealt twice, none already played
          expect(out.hands[seat * 4 + suit] & st.played[suit]).toBe(0);
          for (let other = seat + 1; other < 4; other++)
            expect(out.hands[seat * 4 + suit] & out.hands[other * 4 + suit]).toBe(0);
        }
        expect(count).toBe(s.hands[seat].length);
      }
      for (let suit = 0; suit < 4; suit++) expect(out.hands[me * 4 + suit]).toBe(st.hands[me * 4 + suit]);
      if (st.voids !== 0) withVoids++;
      n++;
    }
    expect(n).toBeGreaterThan(1000);
    expect(withVoids).toBeGreaterThan(200);
  });
});

describe('hand value', () => {
  function finished(scores: number[], bids: number[], tricks: number[]): FastHand {
    const st = new FastHand();
    st.trickNo = 13;
    scores.forEach((v, i) => (st.scores[i] = v));
    bids.forEach((v, i) => (st.bids[i] = v));
    tricks.forEach((v, i) => (st.tricks[i] = v));
    return st;
  }
  it('is our score change minus theirs in PARTNERS', () => {
    // we bid 4+3 and took 8 (71), they bid 3+2 and took 5 (50)
    expect(handValue(finished([0, 0], [4, 3, 3, 2], [4, 3, 4, 2]), 0)).toBe(71 - 50);
    expect(handValue(finished([0, 0], [4, 3, 3, 2], [4, 3, 4, 2]), 1)).toBe(50 - 71);
  });
  it('adds the game outcome when the hand ends the game', () => {
    // 450 + 71 reaches 500: we win
    expect(handValue(finished([450, 300], [4, 3, 3, 2], [4, 3, 4, 2]), 0)).toBe(21 + GAME_END_VALUE);
    // we are at -50 and get set (-70): we drop below -100 and lose
    expect(handValue(finished([-50, 0], [4, 3, 3, 2], [2, 4, 1, 6]), 0)).toBe(-70 - 55 - GAME_END_VALUE); // they made 5 with 5 bags: +55
  });
});

describe('strong bot', () => {
  it('collapses touching cards into one candidate', () => {
    const st = new FastHand();
    // seat 0 holds ♥Q ♥J ♥9 with ♥10 unseen: Q/J are equivalent, 9 is not
    const q = fromCard({ suit: 'H', rank: 12 });
    const j = fromCard({ suit: 'H', rank: 11 });
    const nine = fromCard({ suit: 'H', rank: 9 });
    st.hands[1] = (1 << (q % 13)) | (1 << (j % 13)) | (1 << (nine % 13));
    expect(candidateCards(st, 0, [q, j, nine])).toEqual([nine, j]);
  });

  it('does not collapse cards around a card of the trick in progress (♠3 and ♠6 around a ♠5 on the table)', () => {
    const st = new FastHand();
    const c = (rank: number) => fromCard({ suit: 'S', rank: rank as 2 });
    st.hands[2 * 4] = (1 << (c(3) % 13)) | (1 << (c(6) % 13));
    st.played[0] = (1 << (c(4) % 13)) | (1 << (c(2) % 13));
    st.turn = 0;
    st.play(c(2)); // seat 0 leads ♠2 (already marked played above)
    st.play(c(5)); // seat 1 plays ♠5: now ♠4 and ♠5 are played, but ♠5 is still on the table
    expect(candidateCards(st, 2, [c(3), c(6)])).toEqual([c(3), c(6)]);
    // once the trick is over, ♠3 and ♠6 are equivalent
    st.play(c(3));
    st.play(c(7));
    expect(candidateCards(st, 2, [c(6)])).toEqual([c(6)]);
  });

  it('respects its time box (with a fake clock) and still returns a legal card', () => {
    let t = 0;
    const now = () => (t += 1); // every reading advances 1 ms
    let searched = 0;
    for (const s of positions(2)) {
      const me = s.turn as Seat;
      const view = viewFor(s, me);
      const legal = legalCards(view).map(fromCard);
      if (legal.length < 2) continue;
      const st = knowledgeFromView(view);
      const { card, samples } = strongCard(st, me, legal, mulberry32(1), { maxMs: 20, minSamples: 2, now });
      expect(legal).toContain(card);
      if (candidateCards(st, me, legal).length === 1) {
        expect(samples).toBe(0);
        continue;
      }
      expect(samples).toBeGreaterThanOrEqual(2);
      expect(samples).toBeLessThanOrEqual(21);
      searched++;
    }
    expect(searched).toBeGreaterThan(20);
  });

  it('tells when a decision needs no search: then it answers without reading the clock, else it samples', () => {
    let readings = 0;
    const now = () => (readings++, 0);
    let forced = 0;
    let searched = 0;
    for (let g = 0; g < 6; g++) {
      const rng = mulberry32(900 + g);
      const d = apply(createGame(VARIANTS[(g * 5) % VARIANTS.length]), { type: 'deal', seed: randomSeed(rng) });
      if (!d.ok) throw new Error(d.error);
      let s = d.state;
      while (s.phase === 'BIDDING' || s.phase === 'PLAYING') {
        const view = viewFor(s, s.turn as Seat);
        readings = 0;
        const a = strongAct(view, mulberry32(g), { maxMs: 0, minSamples: 1, maxSamples: 1, now });
        if (strongNeedsSearch(view)) {
          searched++;
          if (view.phase === 'PLAYING') expect(readings).toBeGreaterThan(0);
        } else {
          forced++;
          expect(readings).toBe(0);
        }
        const r = apply(s, a as GameAction);
        if (!r.ok) throw new Error(r.error);
        s = r.state;
      }
    }
    expect(forced).toBeGreaterThan(10);
    expect(searched).toBeGreaterThan(forced);
    // not the viewer's turn, or a spectator: nothing to search
    const d = apply(createGame(DEFAULT_SETTINGS), { type: 'deal', seed: randomSeed(mulberry32(7)) });
    if (!d.ok) throw new Error(d.error);
    expect(strongNeedsSearch(viewFor(d.state, (((d.state.turn as Seat) + 1) % 4) as Seat))).toBe(false);
    expect(strongNeedsSearch(viewFor(d.state, 'spectator'))).toBe(false);
  });

  it('is reproducible for a fixed number of samples and seed', () => {
    const bot = createStrongBot({ maxMs: 1e9, maxSamples: 20, minSamples: 20 });
    let compared = 0;
    for (const s of positions(3)) {
      const v = viewFor(s, s.turn as Seat);
      expect(bot.act(v, mulberry32(compared))).toEqual(bot.act(v, mulberry32(compared)));
      compared++;
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('bids legally with Monte Carlo bidding in every variant', () => {
    const bot = createStrongBot({ maxMs: 1e9, maxSamples: 4, minSamples: 4 });
    for (let vi = 0; vi < VARIANTS.length; vi++) {
      const rng = mulberry32(vi);
      const d = apply(createGame(VARIANTS[vi]), { type: 'deal', seed: randomSeed(rng) });
      if (!d.ok) throw new Error(d.error);
      let s = d.state;
      while (s.phase === 'BIDDING') {
        const a = bot.act(viewFor(s, s.turn as Seat), rng);
        const r = apply(s, a as GameAction);
        expect(r.ok).toBe(true);
        if (!r.ok) break;
        s = r.state;
      }
      expect(s.phase).toBe('PLAYING');
    }
  });

  it('beats the heuristic it searches with over a few duplicate deals of play (smoke test of search value)', () => {
    // plays 12 hands twice from the same deals: strong (fixed samples) vs heuristic, seats swapped
    const strong = createStrongBot({ maxMs: 1e9, maxSamples: 24, minSamples: 24 });
    let diff = 0;
    for (let h = 0; h < 12; h++) {
      const seed = randomSeed(mulberry32(9000 + h));
      for (let swap = 0; swap < 2; swap++) {
        const bots =
          swap === 0 ? [strong, heuristicBot, strong, heuristicBot] : [heuristicBot, strong, heuristicBot, strong];
        const d = apply(createGame(DEFAULT_SETTINGS), { type: 'deal', seed });
        if (!d.ok) throw new Error(d.error);
        let s = d.state;
        const rng = mulberry32(h * 2 + swap);
        while (s.phase === 'BIDDING' || s.phase === 'PLAYING') {
          const r = apply(s, bots[s.turn as Seat].act(viewFor(s, s.turn as Seat), rng) as GameAction);
          if (!r.ok) throw new Error(r.error);
          s = r.state;
        }
        const sides = s.history[0].sides;
        const strongSide = swap === 0 ? 0 : 1;
        diff += sides[strongSide].delta - sides[1 - strongSide].delta;
      }
    }
    expect(diff).toBeGreaterThan(0);
  }, 60_000);
});
