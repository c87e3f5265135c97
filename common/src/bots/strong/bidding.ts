/**
 * Strong bidding: Monte Carlo over a few candidate bids around the heuristic's. For each sampled deal of the
 * 39 unseen cards (weighted by how well each earlier bidder's sampled hand explains its bid), the later bidders
 * bid with the heuristic on their sampled hands, the hand is played out with the heuristic policy, and every
 * candidate is scored on the same deals. The best mean hand value wins.
 */
import type { PlayerView } from '../../rules/view';
import { legalBids } from '../../rules/view';
import { cardsToMasks, FastHand, fastRules } from '../../fast/hand';
import { fastAllowedBids, fastBidRules } from '../../fast/bidding';
import { chooseBid } from '../heuristic/bid';
import { heuristicBid, variantOption } from '../heuristic';
import { sampleDeal } from './sample';
import { handValue, playoutHeuristic } from './playout';
import type { StrongOptions } from './options';
import { defaultNow } from './options';

/** Likelihood factor of a seat's actual bid given the heuristic's bid on a sampled hand. */
export function bidLikelihood(predicted: number, actual: number): number {
  // soft on purpose: sharp weights leave few effective samples, and other bots do not bid like our heuristic
  if ((predicted === 0) !== (actual === 0)) return 0.3;
  const d = Math.abs(predicted - actual);
  return d === 0 ? 1 : d === 1 ? 0.8 : d === 2 ? 0.55 : 0.35;
}

export function strongBid(view: PlayerView, rng: () => number, opts: StrongOptions = {}): number {
  const me = view.viewer as number;
  const lb = legalBids(view);
  const legal = lb.bids;
  if (legal.length <= 1 || !view.hand) return legal[0];
  const hb = heuristicBid(view, me as 0, view.hand, legal);
  const cands: number[] = [];
  for (const b of legal) if (b === hb || b === 0 || Math.abs(b - hb) <= 2) cands.push(b);
  if (cands.length === 1) return cands[0];

  const rules = fastRules(view.settings);
  const bidRules = fastBidRules(view.settings);
  const option = variantOption(view);
  const st = new FastHand().setRules(rules);
  cardsToMasks(view.hand, st.hands, me * 4);
  for (let s = 0; s < 4; s++) st.counts[s] = 13;
  for (let i = 0; i < view.scores.length; i++) {
    st.scores[i] = view.scores[i];
    st.bags[i] = view.bags[i];
  }
  const dealer = view.dealer ?? 0;
  const order = [1, 2, 3, 4].map((k) => (dealer + k) & 3);
  const myPos = order.indexOf(me);

  const now = opts.now ?? defaultNow;
  const maxMs = opts.maxMs ?? 40;
  const maxSamples = opts.maxSamples ?? 4000;
  const minSamples = opts.minSamples ?? 4;
  const t0 = now();
  const det = new FastHand();
  const sim = new FastHand();
  const totals = new Float64Array(cands.length);
  const bids: (number | null)[] = [null, null, null, null];
  let samples = 0;
  while (samples < maxSamples && (samples < minSamples || now() - t0 < maxMs)) {
    sampleDeal(st, me, rng, det);
    // how well the sampled hands explain the bids already made
    let w = 1;
    bids.fill(null);
    for (let p = 0; p < myPos; p++) {
      const seat = order[p];
      const actual = view.bids[seat] as number;
      if (!view.autoBid[seat] && !view.blind[seat]) {
        const allowed = fastAllowedBids(
          bidRules,
          seat,
          det.hands,
          bids.map((b) => (b === null ? -1 : b)),
        );
        if (allowed.length > 1) {
          const predicted = chooseBid(
            det.hands,
            { legal: allowed, partners: rules.partners, bids, seat, option, bags: 0 },
            seat * 4,
          );
          w *= bidLikelihood(predicted, actual);
        }
      }
      bids[seat] = actual;
    }
    for (let i = 0; i < cands.length; i++) {
      sim.copyFrom(det);
      const simBids = bids.slice();
      simBids[me] = cands[i];
      for (let p = myPos + 1; p < 4; p++) {
        const seat = order[p];
        const allowed = fastAllowedBids(
          bidRules,
          seat,
          sim.hands,
          simBids.map((b) => (b === null ? -1 : b)),
        );
        simBids[seat] =
          allowed.length === 1
            ? allowed[0]
            : chooseBid(
                sim.hands,
                {
                  legal: allowed,
                  partners: rules.partners,
                  bids: simBids,
                  seat,
                  option,
                  bags: sim.bags[rules.partners ? seat & 1 : seat],
                },
                seat * 4,
              );
      }
      for (let s = 0; s < 4; s++) {
        sim.bids[s] = simBids[s] as number;
        sim.blind[s] = view.blind[s] ? 1 : 0;
      }
      sim.startPlay((dealer + 1) & 3);
      playoutHeuristic(sim);
      totals[i] += w * handValue(sim, me);
    }
    samples++;
  }
  let best = 0;
  for (let i = 1; i < cands.length; i++) if (totals[i] > totals[best]) best = i;
  return cands[best];
}
