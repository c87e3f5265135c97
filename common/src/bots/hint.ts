/**
 * Bid hint (issue #31): the strong bot's suggested bid for the viewer's own hand, for learners in unrated games.
 * Pure and deterministic (the sampling is seeded from the hand and the bids so far, so the hint does not change
 * between renders); it reads only the viewer's view, like the bots. Null when the viewer has no bid to make.
 */
import { cardIndex } from '../rules/cards';
import { legalBids, PlayerView } from '../rules/view';
import { mulberry32 } from './prng';
import { strongBid } from './strong';

export function bidHint(view: PlayerView, opts: { maxSamples?: number } = {}): number | null {
  const lb = legalBids(view);
  if (!view.hand || view.handHidden || lb.bids.length === 0) return null;
  if (lb.bids.length === 1) return lb.bids[0];
  let seed = 0x9e3779b9;
  for (const c of view.hand) seed = Math.imul(seed ^ cardIndex(c), 0x85ebca6b) >>> 0;
  for (const b of view.bids) seed = Math.imul(seed ^ (b ?? 99), 0xc2b2ae35) >>> 0;
  const samples = opts.maxSamples ?? 300;
  // a fixed number of samples (no time box): the same hand always gets the same hint, on any machine
  const bid = strongBid(view, mulberry32(seed), {
    maxSamples: samples,
    minSamples: samples,
    maxMs: Number.POSITIVE_INFINITY,
  });
  return lb.bids.includes(bid) ? bid : lb.bids[0];
}
