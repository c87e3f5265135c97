/**
 * `strong` bot: determinized Monte Carlo on the fast engine path.
 *
 * For a card decision it repeatedly (until the time box or the sample cap):
 *   1. deals the cards it has not seen to the other seats consistently with everything its view showed
 *      (each seat's card count, every void the rules revealed; see sample.ts),
 *   2. for every candidate legal card (touching cards, e.g. Q-J with nothing unseen between, are one candidate),
 *      plays it and finishes the hand with the heuristic policy for all four seats (each seat reading only its
 *      own hand of the sampled deal),
 *   3. scores the hand: PARTNERS our side's score change minus theirs, SOLO ours minus the others' mean.
 * and plays the candidate with the best mean. Every candidate is evaluated on the same deals.
 * Bids use the heuristic evaluation. Legality always comes from common's `legalCards` / `legalBids`.
 *
 * The bot only receives the PlayerView; the sampled deals are its guesses, never the real hands.
 */
import type { GameAction } from '../../rules/engine';
import { legalBids, legalCards, PlayerView } from '../../rules/view';
import { cardSuit, FastHand, fromCard } from '../../fast/hand';
import type { Bot } from '../types';
import { reportBotFallback } from '../fallback';
import { heuristicAct } from '../heuristic';
import { knowledgeFromView } from '../heuristic/knowledge';
import { sampleDeal } from './sample';
import { handValue, playoutHeuristic } from './playout';
import { defaultNow, StrongOptions } from './options';
import { strongBid, bidLikelihood } from './bidding';
import { chooseBid } from '../heuristic/bid';
import { variantOption } from '../heuristic';
import { fastAllowedBids, fastBidRules } from '../../fast/bidding';

export type { StrongOptions } from './options';
export { playoutHeuristic, handValue } from './playout';
export { strongBid, bidLikelihood } from './bidding';

/** Candidate cards: legal cards with touching equivalents collapsed to the lowest one. */
export function candidateCards(st: FastHand, me: number, legal: readonly number[]): number[] {
  const sorted = legal.slice().sort((a, b) => a - b);
  const out: number[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const c = sorted[i];
    if (i > 0) {
      const p = sorted[i - 1];
      if (cardSuit(p) === cardSuit(c)) {
        const s = cardSuit(c);
        // cards strictly between p and c, as a mask
        const between = ((1 << (c % 13)) - 1) & ~((1 << ((p % 13) + 1)) - 1);
        // cards of the trick in progress still matter (one of them may lie between p and c)
        let inTrick = 0;
        for (let t = 0; t < st.trickLen; t++)
          if (cardSuit(st.trickCards[t]) === s) inTrick |= 1 << (st.trickCards[t] % 13);
        const unseenBetween = between & ~((st.played[s] & ~inTrick) | st.hands[me * 4 + s]);
        if (unseenBetween === 0) continue; // equivalent to p
      }
    }
    out.push(c);
  }
  return out;
}

/** Chooses a card index for the viewer by determinized Monte Carlo; returns also the number of samples used. */
export function strongCard(
  st: FastHand,
  me: number,
  legal: readonly number[],
  rng: () => number,
  opts: StrongOptions = {},
  weigh?: (det: FastHand) => number,
): { card: number; samples: number } {
  const cands = candidateCards(st, me, legal);
  if (cands.length === 1) return { card: cands[0], samples: 0 };
  const now = opts.now ?? defaultNow;
  const maxMs = opts.maxMs ?? 40;
  const maxSamples = opts.maxSamples ?? 4000;
  const minSamples = opts.minSamples ?? 4;
  const t0 = now();
  const det = new FastHand();
  const sim = new FastHand();
  const totals = new Float64Array(cands.length);
  let samples = 0;
  while (samples < maxSamples && (samples < minSamples || now() - t0 < maxMs)) {
    sampleDeal(st, me, rng, det);
    const w = weigh ? weigh(det) : 1;
    for (let i = 0; i < cands.length; i++) {
      sim.copyFrom(det);
      sim.play(cands[i]);
      playoutHeuristic(sim);
      totals[i] += w * handValue(sim, me);
    }
    samples++;
  }
  let best = 0;
  for (let i = 1; i < cands.length; i++) if (totals[i] > totals[best]) best = i;
  return { card: cands[best], samples };
}

export function strongAct(view: PlayerView, rng: () => number, opts: StrongOptions = {}): GameAction | null {
  const seat = view.viewer;
  if (seat === 'spectator' || view.turn !== seat) return null;
  if (view.phase === 'PLAYING') {
    const legal = legalCards(view);
    if (legal.length === 0) return null;
    if (legal.length === 1) return { type: 'play', seat, card: legal[0] };
    const st = knowledgeFromView(view);
    const legalIdx = legal.map(fromCard);
    const cands = candidateCards(st, seat, legalIdx);
    // equivalent cards only (e.g. Q-J with nothing unseen between): nothing to search, skip the weigher's setup
    const { card } =
      cands.length === 1 ? { card: cands[0] } : strongCard(st, seat, legalIdx, rng, opts, bidWeigher(view));
    for (const c of legal) if (fromCard(c) === card) return { type: 'play', seat, card: c };
    // safety net: never reached unless the search has a bug (observable, throws in strict mode)
    reportBotFallback({ bot: 'strong', kind: 'card', chosen: card, used: legal[0] });
    return { type: 'play', seat, card: legal[0] };
  }
  if (view.phase === 'BIDDING' && !view.handHidden && opts.searchBids !== false) {
    const lb = legalBids(view);
    if (lb.bids.length === 0) return null;
    const bid = strongBid(view, rng, opts);
    if (lb.bids.includes(bid)) return { type: 'bid', seat, bid };
    reportBotFallback({ bot: 'strong', kind: 'bid', chosen: bid, used: lb.bids[0] });
    return { type: 'bid', seat, bid: lb.bids[0] };
  }
  return heuristicAct(view);
}

/**
 * Whether `strongAct` would search (sample deals) for this view. False when the answer is immediate: not the
 * viewer's turn, a single candidate card (one legal card, or only touching equivalents), a bid with one legal
 * choice, or the hidden-hand step before a blind nil (the heuristic's reveal / blind decision). A caller with a
 * CPU budget (the server's bot pool) answers those on the spot instead of queueing them.
 */
export function strongNeedsSearch(view: PlayerView, opts: StrongOptions = {}): boolean {
  const seat = view.viewer;
  if (seat === 'spectator' || view.turn !== seat) return false;
  if (view.phase === 'PLAYING') {
    const legal = legalCards(view);
    if (legal.length <= 1) return false;
    return candidateCards(knowledgeFromView(view), seat, legal.map(fromCard)).length > 1;
  }
  if (view.phase === 'BIDDING') {
    if (view.handHidden || opts.searchBids === false) return false;
    return legalBids(view).bids.length > 1;
  }
  return false;
}

/**
 * Weight of a sampled deal: how well each other seat's sampled original hand (its unplayed cards in the sample
 * plus the cards it was seen to play) explains the bid it made, by the heuristic's bidding.
 */
export function bidWeigher(view: PlayerView): ((det: FastHand) => number) | undefined {
  const me = view.viewer as number;
  const dealer = view.dealer ?? 0;
  const order = [1, 2, 3, 4].map((k) => (dealer + k) & 3);
  const seats = order.filter((s) => s !== me && view.bids[s] !== null && !view.autoBid[s] && !view.blind[s]);
  if (seats.length === 0) return undefined;
  const playedBy = new Int32Array(16);
  const add = (seat: number, c: { suit: string; rank: number }) => {
    const i = fromCard(c as never);
    playedBy[seat * 4 + cardSuit(i)] |= 1 << (i % 13);
  };
  for (const t of view.handTricks ?? []) for (const tc of t.cards) add(tc.seat, tc.card);
  for (const tc of view.trick) add(tc.seat, tc.card);
  const bidRules = fastBidRules(view.settings);
  const partners = view.settings.gameMode === 'PARTNERS';
  const option = variantOption(view);
  const orig = new Int32Array(16);
  const before = seats.map((seat) => {
    const b: (number | null)[] = [null, null, null, null];
    for (const s of order) {
      if (s === seat) break;
      b[s] = view.bids[s];
    }
    return b;
  });
  const beforeNum = before.map((b) => b.map((x) => (x === null ? -1 : x)));
  return (det: FastHand) => {
    for (let i = 0; i < 16; i++) orig[i] = det.hands[i] | playedBy[i];
    let w = 1;
    for (let k = 0; k < seats.length; k++) {
      const seat = seats[k];
      const allowed = fastAllowedBids(bidRules, seat, orig, beforeNum[k]);
      if (allowed.length <= 1) continue;
      const predicted = chooseBid(orig, { legal: allowed, partners, bids: before[k], seat, option, bags: 0 }, seat * 4);
      w *= bidLikelihood(predicted, view.bids[seat] as number);
    }
    return w;
  };
}

export function createStrongBot(opts: StrongOptions = {}): Bot {
  return {
    name: 'strong',
    act(view: PlayerView, rng: () => number): GameAction | null {
      return strongAct(view, rng, opts);
    },
  };
}

export const strongBot: Bot = createStrongBot();
