/**
 * What a seat knows, as a fast state built ONLY from its `PlayerView`: its own hand, the cards played this hand
 * (`view.handTricks` + `view.trick`), the voids the rules revealed while they were played, bids, tricks and
 * scores. Other seats' hands are left empty (only their card counts are known).
 */
import type { PlayerView } from '../../rules/view';
import type { Seat } from '../../rules/deal';
import { cardsToMasks, FastHand, fastRules, fromCard } from '../../fast/hand';

export function knowledgeFromView(view: PlayerView): FastHand {
  const me = view.viewer as Seat;
  const st = new FastHand().setRules(fastRules(view.settings));
  st.hands.fill(0);
  st.played.fill(0);
  st.tricks.fill(0);
  st.voids = 0;
  st.spadesBroken = false;
  st.trickNo = 0;
  st.trickLen = 0;
  st.leadSuit = -1;
  // replay the public history of this hand to collect played cards and revealed voids
  const past = view.handTricks ?? (view.lastTrick && view.trickNumber === 1 ? [view.lastTrick] : []);
  for (const t of past) {
    for (const tc of t.cards) {
      st.turn = tc.seat;
      st.play(fromCard(tc.card));
    }
  }
  for (const tc of view.trick) {
    st.turn = tc.seat;
    st.play(fromCard(tc.card));
  }
  // authoritative public numbers from the view
  st.trickNo = view.trickNumber;
  st.spadesBroken = view.spadesBroken;
  for (let s = 0; s < 4; s++) {
    st.counts[s] = view.handCounts[s];
    st.tricks[s] = view.tricksWon[s];
    const b = view.bids[s];
    st.bids[s] = b === null || b === undefined ? -1 : b;
    st.blind[s] = view.blind[s] ? 1 : 0;
  }
  if (view.turn !== null) st.turn = view.turn;
  if (view.trick.length > 0) st.leader = view.trick[0].seat;
  else if (view.trickLeader !== null) st.leader = view.trickLeader;
  for (let i = 0; i < view.scores.length; i++) {
    st.scores[i] = view.scores[i];
    st.bags[i] = view.bags[i];
  }
  if (view.hand) cardsToMasks(view.hand, st.hands, me * 4);
  return st;
}
