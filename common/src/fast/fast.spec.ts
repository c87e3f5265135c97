import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  apply,
  cardIndex,
  computeLegalCards,
  createGame,
  GameSettings,
  GameState,
  legalBids,
  legalCards,
  Seat,
  viewFor,
} from '../rules';
import { mulberry32, randomSeed } from '../bots/prng';
import { allVariants, variantName } from './variants';
import { FastHand, fastRules, fromCard, setHands, playoutRandom, toCard } from './hand';
import { bidRandom, fastBidRules } from './bidding';

const VARIANTS = allVariants();

/** Drives the reference engine through one hand with the canonical random policy; returns the cards played. */
function referenceHand(state: GameState, rng: () => number): { state: GameState; cards: number[] } {
  let s = state;
  const cards: number[] = [];
  while (s.phase === 'BIDDING' || s.phase === 'PLAYING') {
    const seat = s.turn as Seat;
    const view = viewFor(s, seat);
    let r;
    if (s.phase === 'BIDDING') {
      const lb = legalBids(view);
      const n = lb.bids.length + (lb.blindNil ? 1 : 0);
      const k = Math.floor(rng() * n);
      r =
        k === lb.bids.length
          ? apply(s, { type: 'bid', seat, bid: 0, blind: true })
          : apply(s, { type: 'bid', seat, bid: lb.bids[k] });
    } else {
      const legal = legalCards(view)
        .slice()
        .sort((a, b) => cardIndex(a) - cardIndex(b));
      const card = legal[Math.floor(rng() * legal.length)];
      cards.push(cardIndex(card));
      r = apply(s, { type: 'play', seat, card });
    }
    if (!r.ok) throw new Error(r.error);
    s = r.state;
  }
  return { state: s, cards };
}

describe('fast engine path', () => {
  it('enumerates the variants', () => {
    expect(VARIANTS.length).toBeGreaterThan(40);
    expect(new Set(VARIANTS.map(variantName)).size).toBe(VARIANTS.length);
  });

  it('gives identical bids, tricks, winners and scores to the reference engine on the same seeds (every variant)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: VARIANTS.length - 1 }), fc.integer(), (vi, seed) => {
        const settings: GameSettings = VARIANTS[vi];
        const seedRng = mulberry32(seed ^ 0x5eed);
        let s = createGame(settings);
        for (let hand = 0; hand < 4 && s.phase !== 'COMPLETED'; hand++) {
          const dealt = apply(s, { type: 'deal', seed: randomSeed(seedRng) });
          if (!dealt.ok) throw new Error(dealt.error);
          const start = dealt.state;
          const handSeed = (seed + hand * 7919) | 0;
          const ref = referenceHand(start, mulberry32(handSeed));

          const st = new FastHand().setRules(fastRules(settings));
          setHands(st, start.hands);
          for (let i = 0; i < st.sideCount(); i++) {
            st.scores[i] = s.scores[i];
            st.bags[i] = s.bags[i];
          }
          const rng = mulberry32(handSeed);
          bidRandom(st, fastBidRules(settings), start.dealer as number, rng);
          const played: number[] = [];
          const winners: number[] = [];
          while (!st.isOver()) {
            const seat = st.turn;
            const card = st.legalCardAt(seat, Math.floor(rng() * st.legalCount(seat)));
            played.push(card);
            const before = st.trickNo;
            st.play(card);
            if (st.trickNo !== before) winners.push(st.leader);
          }
          const rec = ref.state.history[ref.state.history.length - 1];
          expect(Array.from(st.bids)).toEqual(rec.bids);
          expect(Array.from(st.blind).map(Boolean)).toEqual(rec.blind);
          expect(played).toEqual(ref.cards);
          expect(winners).toEqual((ref.state.handTricks ?? []).map((t) => t.winner));
          expect(Array.from(st.tricks)).toEqual(rec.tricksPerSeat);
          const deltas = new Int32Array(4);
          const bags = new Int32Array(4);
          st.scoreDeltas(deltas, bags);
          expect(Array.from(deltas.slice(0, st.sideCount()))).toEqual(rec.sides.map((x) => x.delta));
          expect(Array.from(bags.slice(0, st.sideCount()))).toEqual(rec.sides.map((x) => x.bagsAfter));
          s = ref.state;
        }
      }),
      { numRuns: 400 },
    );
  });

  it('legal moves equal computeLegalCards at every step of random hands (every variant)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: VARIANTS.length - 1 }), fc.integer(), (vi, seed) => {
        const settings = VARIANTS[vi];
        const s0 = apply(createGame(settings), { type: 'deal', seed: randomSeed(mulberry32(seed)) });
        if (!s0.ok) throw new Error(s0.error);
        const st = new FastHand().setRules(fastRules(settings));
        setHands(st, s0.state.hands);
        st.startPlay(0);
        const hands = s0.state.hands.map((h) => h.slice());
        const trick: { seat: Seat; card: ReturnType<typeof toCard> }[] = [];
        let broken = false;
        const rng = mulberry32(seed + 1);
        while (!st.isOver()) {
          const seat = st.turn as Seat;
          const ref = computeLegalCards(settings, hands[seat], trick, broken)
            .map(cardIndex)
            .sort((a, b) => a - b);
          const fast: number[] = [];
          for (let k = 0; k < st.legalCount(seat); k++) fast.push(st.legalCardAt(seat, k));
          expect(fast).toEqual(ref);
          const byIsLegal: number[] = [];
          for (let c = 0; c < 52; c++) if (st.isLegal(seat, c)) byIsLegal.push(c);
          expect(byIsLegal).toEqual(ref);
          const card = fast[Math.floor(rng() * fast.length)];
          st.play(card);
          const cc = toCard(card);
          hands[seat] = hands[seat].filter((x) => cardIndex(x) !== card);
          trick.push({ seat, card: cc });
          if (cc.suit === 'S') broken = true;
          if (trick.length === 4) trick.length = 0;
        }
      }),
      { numRuns: 200 },
    );
  });

  it('voids it infers are real (never claims a void while the seat still holds the suit)', () => {
    for (let g = 0; g < 300; g++) {
      const settings = VARIANTS[g % VARIANTS.length];
      const s0 = apply(createGame(settings), { type: 'deal', seed: randomSeed(mulberry32(g)) });
      if (!s0.ok) throw new Error(s0.error);
      const st = new FastHand().setRules(fastRules(settings));
      setHands(st, s0.state.hands);
      st.startPlay(g & 3);
      const rng = mulberry32(g * 31 + 7);
      let inferred = 0;
      while (!st.isOver()) {
        st.play(st.legalCardAt(st.turn, Math.floor(rng() * st.legalCount(st.turn))));
        for (let b = 0; b < 16; b++) {
          if ((st.voids >> b) & 1) {
            inferred++;
            expect(st.hands[b]).toBe(0);
          }
        }
      }
      expect(inferred).toBeGreaterThan(0);
    }
  });

  it('fromCard/toCard round-trip the common card index', () => {
    for (let i = 0; i < 52; i++) {
      expect(fromCard(toCard(i))).toBe(i);
      expect(cardIndex(toCard(i))).toBe(i);
    }
  });

  it('a random playout always ends after 13 tricks with 52 cards played', () => {
    const st = new FastHand();
    const dealt = apply(createGame(VARIANTS[0]), { type: 'deal', seed: randomSeed(mulberry32(3)) });
    if (!dealt.ok) throw new Error(dealt.error);
    setHands(st, dealt.state.hands);
    st.startPlay(1);
    playoutRandom(st, mulberry32(9));
    expect(st.trickNo).toBe(13);
    expect(Array.from(st.tricks).reduce((a, b) => a + b, 0)).toBe(13);
    expect(Array.from(st.played)).toEqual([0x1fff, 0x1fff, 0x1fff, 0x1fff]);
    expect(Array.from(st.hands).every((m) => m === 0)).toBe(true);
  });
});
