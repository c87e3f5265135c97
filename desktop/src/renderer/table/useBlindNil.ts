/**
 * The blind nil prompt: 1 s after it becomes this player's turn to bid with the cards still hidden (when blind
 * nil is allowed) and bidding is open. Declining shows the cards (reveal_cards); a new hand asks again.
 */
import { useEffect, useState } from 'react';
import { BLIND_PROMPT_DELAY_MS } from './timing';

export interface BlindNil {
  prompt: boolean;
  declined: boolean;
  /** Close the prompt (a bid was made). */
  close: () => void;
  decline: () => void;
  /** A new hand: the choice is asked again. */
  reset: () => void;
}

export function useBlindNil(possible: boolean, biddingOpen: boolean, onDecline: () => void): BlindNil {
  const [prompt, setPrompt] = useState(false);
  const [declined, setDeclined] = useState(false);
  const show = possible && !declined;
  useEffect(() => {
    if (!show || !biddingOpen) {
      setPrompt(false);
      return;
    }
    const t = setTimeout(() => setPrompt(true), BLIND_PROMPT_DELAY_MS);
    return () => clearTimeout(t);
  }, [show, biddingOpen]);
  return {
    prompt,
    declined,
    close: () => setPrompt(false),
    decline: () => {
      setPrompt(false);
      setDeclined(true);
      onDecline();
    },
    reset: () => setDeclined(false),
  };
}
