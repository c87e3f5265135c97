/** Engine error codes (typed string union) and their human texts. */
export const EngineError = {
  INVALID_ACTION: 'INVALID_ACTION',
  INVALID_SEAT: 'INVALID_SEAT',
  INVALID_SEED: 'INVALID_SEED',
  INVALID_CARD: 'INVALID_CARD',
  WRONG_PHASE: 'WRONG_PHASE',
  NOT_YOUR_TURN: 'NOT_YOUR_TURN',
  ILLEGAL_BID: 'ILLEGAL_BID',
  BLIND_NIL_NOT_ALLOWED: 'BLIND_NIL_NOT_ALLOWED',
  ALREADY_REVEALED: 'ALREADY_REVEALED',
  BLIND_NIL_CARDS_HIDDEN: 'BLIND_NIL_CARDS_HIDDEN',
  CARD_NOT_IN_HAND: 'CARD_NOT_IN_HAND',
  MUST_FOLLOW_SUIT: 'MUST_FOLLOW_SUIT',
  SPADES_NOT_BROKEN: 'SPADES_NOT_BROKEN',
  SCREAMER_NO_SPADES: 'SCREAMER_NO_SPADES',
  ASSASSIN_MUST_PLAY_SPADE: 'ASSASSIN_MUST_PLAY_SPADE',
  ASSASSIN_MUST_LEAD_SPADES: 'ASSASSIN_MUST_LEAD_SPADES',
} as const;

export type EngineErrorCode = (typeof EngineError)[keyof typeof EngineError];

const MESSAGES: Record<EngineErrorCode, string> = {
  INVALID_ACTION: 'Invalid action',
  INVALID_SEAT: 'Invalid seat',
  INVALID_SEED: 'Invalid deal seed (expected 32 bytes or 64 hex characters)',
  INVALID_CARD: 'Invalid card',
  WRONG_PHASE: 'That action is not possible at this stage of the game',
  NOT_YOUR_TURN: 'It is not your turn',
  ILLEGAL_BID: 'That bid is not allowed',
  BLIND_NIL_NOT_ALLOWED: 'Blind nil is not allowed here',
  ALREADY_REVEALED: 'You have already looked at your cards',
  BLIND_NIL_CARDS_HIDDEN: 'After a blind nil your cards stay hidden until the bidding ends',
  CARD_NOT_IN_HAND: 'You do not have that card',
  MUST_FOLLOW_SUIT: 'You must follow the lead suit',
  SPADES_NOT_BROKEN: 'You cannot lead spades until spades are broken',
  SCREAMER_NO_SPADES: 'Screamer: you cannot play spades while you hold other suits',
  ASSASSIN_MUST_PLAY_SPADE: 'Assassin: you must play spades when you cannot follow suit',
  ASSASSIN_MUST_LEAD_SPADES: 'Assassin: you must lead spades once spades are broken',
};

export function engineErrorMessage(code: EngineErrorCode): string {
  return Object.prototype.hasOwnProperty.call(MESSAGES, code) ? MESSAGES[code] : 'Unknown error';
}

/** A spade rule refused the card (the client keeps its bid state and only drops the pending card). */
export function isSpadeRuleError(code: unknown): boolean {
  return (SPADE_RULE_ERRORS as readonly unknown[]).includes(code);
}

/** Error codes whose message is about spades (the client alerts these verbatim, spec §5/§8). */
export const SPADE_RULE_ERRORS: readonly EngineErrorCode[] = [
  'SPADES_NOT_BROKEN',
  'SCREAMER_NO_SPADES',
  'ASSASSIN_MUST_PLAY_SPADE',
  'ASSASSIN_MUST_LEAD_SPADES',
];
