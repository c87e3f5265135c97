/**
 * Deal animation and bidding gate (§4), order-independent: the animation runs once per new hand (handKey), and
 * bidding opens when bidding_ready for this hand has arrived AND the animation is done (or its 3 s fallback
 * fired). `dealAnim` = the hand being animated; `readyKey` = the hand bidding_ready was seen for.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { handKey } from './derived';
import type { TableModel } from './model';
import { DEAL_FALLBACK_MS } from './timing';

export interface HandEntry {
  /** Animate the deal (a deal we see happen, not the hand found on opening the table). */
  animate: boolean;
  /** bidding_ready is known to have been sent for this hand. */
  ready: boolean;
  /** The hand is in its bidding phase. */
  bidding: boolean;
}

export interface DealGate {
  /** A deal animation is running. */
  dealing: boolean;
  /** A hand became known (new_hand_started, or a table state with a hand not seen before). */
  enterHand: (key: string, opts: HandEntry) => void;
  /** Back to WAITING: forget the hands seen. */
  resetHands: () => void;
  /** `bidding_ready` arrived (it carries no hand number). */
  biddingReady: () => void;
  /** The Hand reports the last card landing. */
  onDealt: () => void;
  /** Bidding is open for the table's current hand. */
  biddingOpen: (t: TableModel | null) => boolean;
}

export function useDealGate(): DealGate {
  const [dealAnim, setDealAnim] = useState<string | null>(null);
  const [readyKey, setReadyKey] = useState<string | null>(null);
  const currentHand = useRef<{ key: string; bidding: boolean } | null>(null);
  const animatedHands = useRef(new Set<string>());
  const pendingReady = useRef(false);

  const enterHand = useCallback((key: string, opts: HandEntry) => {
    const known = currentHand.current?.key === key;
    currentHand.current = { key, bidding: opts.bidding };
    if (!known && !animatedHands.current.has(key)) {
      animatedHands.current.add(key);
      setDealAnim(opts.animate ? key : null);
    }
    if (opts.ready || (!known && pendingReady.current)) {
      pendingReady.current = false;
      setReadyKey(key);
    }
  }, []);

  const resetHands = useCallback(() => {
    currentHand.current = null;
    animatedHands.current.clear();
    pendingReady.current = false;
    setDealAnim(null);
    setReadyKey(null);
  }, []);

  // bidding_ready belongs to the hand being dealt, or (if it overtakes the new hand's other events) to the next
  // hand we learn about.
  const biddingReady = useCallback(() => {
    const cur = currentHand.current;
    if (cur?.bidding) setReadyKey(cur.key);
    else pendingReady.current = true;
  }, []);

  // The Hand reports the last card landing (100 ms per card); a 3 s fallback forces completion.
  useEffect(() => {
    if (dealAnim === null) return;
    const t = setTimeout(() => setDealAnim((k) => (k === dealAnim ? null : k)), DEAL_FALLBACK_MS);
    return () => clearTimeout(t);
  }, [dealAnim]);
  const onDealt = useCallback(() => setDealAnim(null), []);

  const dealing = dealAnim !== null;
  const biddingOpen = (t: TableModel | null) =>
    !!t && t.status === 'BIDDING' && !dealing && readyKey === handKey(t.handNumber, t.handCommitment);

  return { dealing, enterHand, resetHands, biddingReady, onDealt, biddingOpen };
}
