/** The table's client-side timings (spec §4 and §9), in one place for the page and its parts. */
export const SUMMARY_MS = 12_000;
export const RESULT_MS = 30_000;
export const TRICK_DISPLAY_MS = 2_000;
export const BLIND_PROMPT_DELAY_MS = 1_000;
export const START_WAIT_MS = 5_000;
/** §4: cards are dealt one at a time, about 100 ms each; a 3 s fallback forces the deal to complete. */
export const DEAL_STEP_MS = 100;
export const DEAL_FALLBACK_MS = 3_000;
/** §4/§9: if asking for the next hand fails, reconnect and retry after 1 s. */
export const NEXT_HAND_RETRY_MS = 1_000;
export const NEXT_HAND_ACK_TIMEOUT_MS = 5_000;
