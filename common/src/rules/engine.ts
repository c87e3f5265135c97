/**
 * The game state machine: WAITING → BIDDING → PLAYING → HAND_COMPLETED → BIDDING … → COMPLETED.
 *
 * `apply(state, action)` is pure: it never mutates `state` (nor the action) and never throws for an
 * illegal action; it returns `{ ok: false, error }` with a typed code instead, leaving the caller's state as is.
 *
 * FORCED BIDS — design choice: the engine AUTO-APPLIES them. Whenever the bidding turn reaches a seat
 * whose only legal bid is a single value and who cannot bid blind nil (BID 3, BID HEARTS, CRAZY ACES,
 * MIRROR, WHIZ without spades or holding A♠ (only the spade count), SUICIDE second partner after a
 * non-nil partner bid when the table has no blind nil), the engine places that bid itself (marked in
 * `autoBid[seat]`) and moves on, possibly through several seats, within the same `apply` call (the
 * `deal` that starts bidding, or the previous bid). A forced bid of 0 is a nil (±100). So the server
 * and bots never have to submit a forced bid, and `legalBids(view)` for a seat whose turn it is
 * always offers a real choice. (SUICIDE second partner with blind nil allowed: the only regular bid is
 * nil, but while it has not looked a blind nil is also offered, so the seat must choose: `bids: [0],
 * blindNil: true`; once it reveals — on its turn or before — the nil is forced and placed by the engine,
 * within the `reveal` or when the turn reaches it.)
 *
 * REVEAL: while a blind nil is possible for a seat (see blindNilPossible) and it has not looked at its
 * cards, `viewFor` withholds its hand (`hand: null, handHidden: true`). `{type:'reveal', seat}` marks
 * the cards as seen (after which blind nil is no longer offered); a regular bid also reveals. A blind
 * nil bid keeps the cards hidden until the bidding ends: `reveal` after it is refused (BLIND_NIL_CARDS_HIDDEN). Where blind nil is impossible the hand is always
 * visible to its owner, revealed or not.
 *
 * DEAL: `{type:'deal', seed}` is server-driven, from WAITING (first hand; the first dealer comes from
 * this seed, clarification 3) or HAND_COMPLETED (dealer moves one seat clockwise). Bidding starts left
 * of the dealer, (dealer + 1) % 4, who also leads the first trick.
 */
import { Card, hasCard, normalizeCard } from './cards';
import { dealFromSeed, firstDealerFromSeed, normalizeSeed, Seat, seedCommitment } from './deal';
import { EngineError, EngineErrorCode } from './errors';
import { allowedBids, blindNilPossible, computeLegalBids, playError, trickWinner } from './legal';
import { gameOutcome, scoreHand } from './scoring';
import { BUY_IN_MIN, GameSettings, validateSettings } from './settings';
import { toHex } from './sha256';
import { GameState, HandRecord, isSeat, sideCount } from './state';

export type GameAction =
  | { type: 'deal'; seed: Uint8Array | string }
  | { type: 'reveal'; seat: Seat }
  | { type: 'bid'; seat: Seat; bid: number; blind?: boolean }
  | { type: 'play'; seat: Seat; card: Card };

export type ApplyResult = { ok: true; state: GameState } | { ok: false; error: EngineErrorCode };

/**
 * A new game in WAITING. The settings are validated and normalised (validateSettings); invalid settings
 * are a programming error here and throw a RangeError (validate user input with validateSettings first).
 */
export function createGame(settings: GameSettings): GameState {
  // buy-in 0: a tournament's table (issue #27: coins move through the tournament); the rules never read the buy-in
  const free = settings?.buyIn === 0;
  const v = validateSettings(free ? { ...settings, buyIn: BUY_IN_MIN } : settings);
  if (!v.ok) throw new RangeError(`invalid settings: ${v.error}: ${v.message}`);
  const n = sideCount(v.settings);
  return {
    version: 1,
    settings: free ? { ...v.settings, buyIn: 0 } : v.settings,
    phase: 'WAITING',
    handNumber: 0,
    dealer: null,
    hands: [[], [], [], []],
    revealed: [false, false, false, false],
    bids: [null, null, null, null],
    blind: [false, false, false, false],
    autoBid: [false, false, false, false],
    turn: null,
    trick: [],
    trickLeader: null,
    trickNumber: 0,
    spadesBroken: false,
    tricksWon: [0, 0, 0, 0],
    lastTrick: null,
    handTricks: [],
    scores: new Array(n).fill(0),
    bags: new Array(n).fill(0),
    handSeed: null,
    handCommitment: null,
    history: [],
    result: null,
  };
}

/**
 * Shallow copy of a state with an explicit, fixed shape (much faster than object spread on the hot path).
 * EVERY GameState field must be listed here (engine.spec checks that no field is dropped).
 */
function copyState(s: GameState): GameState {
  return {
    version: s.version,
    settings: s.settings,
    phase: s.phase,
    handNumber: s.handNumber,
    dealer: s.dealer,
    hands: s.hands,
    revealed: s.revealed,
    bids: s.bids,
    blind: s.blind,
    autoBid: s.autoBid,
    turn: s.turn,
    trick: s.trick,
    trickLeader: s.trickLeader,
    trickNumber: s.trickNumber,
    spadesBroken: s.spadesBroken,
    tricksWon: s.tricksWon,
    lastTrick: s.lastTrick,
    handTricks: s.handTricks ?? [],
    scores: s.scores,
    bags: s.bags,
    handSeed: s.handSeed,
    handCommitment: s.handCommitment,
    history: s.history,
    result: s.result,
  };
}

function err(error: EngineErrorCode): ApplyResult {
  return { ok: false, error };
}

/** Applies one action. Pure; see the file comment. */
export function apply(state: GameState, action: GameAction): ApplyResult {
  if (typeof action !== 'object' || action === null) return err(EngineError.INVALID_ACTION);
  switch (action.type) {
    case 'deal':
      return applyDeal(state, action.seed);
    case 'reveal':
      return applyReveal(state, action.seat);
    case 'bid':
      return applyBid(state, action.seat, action.bid, action.blind === true);
    case 'play':
      return applyPlay(state, action.seat, action.card);
    default:
      return err(EngineError.INVALID_ACTION);
  }
}

function applyDeal(state: GameState, seedInput: Uint8Array | string): ApplyResult {
  if (state.phase !== 'WAITING' && state.phase !== 'HAND_COMPLETED') return err(EngineError.WRONG_PHASE);
  const seed = normalizeSeed(seedInput);
  if (!seed) return err(EngineError.INVALID_SEED);
  const dealer: Seat =
    state.phase === 'WAITING' || state.dealer === null ? firstDealerFromSeed(seed) : (((state.dealer + 1) % 4) as Seat);
  const first = ((dealer + 1) % 4) as Seat;
  const next: GameState = {
    ...copyState(state),
    phase: 'BIDDING',
    handNumber: state.handNumber + 1,
    dealer,
    hands: dealFromSeed(seed),
    revealed: [false, false, false, false],
    bids: [null, null, null, null],
    blind: [false, false, false, false],
    autoBid: [false, false, false, false],
    turn: first,
    trick: [],
    trickLeader: null,
    trickNumber: 0,
    spadesBroken: false,
    tricksWon: [0, 0, 0, 0],
    lastTrick: null,
    handTricks: [],
    handSeed: toHex(seed),
    handCommitment: seedCommitment(seed),
  };
  runAutoBids(next);
  return { ok: true, state: next };
}

function applyReveal(state: GameState, seat: unknown): ApplyResult {
  if (state.phase !== 'BIDDING') return err(EngineError.WRONG_PHASE);
  if (!isSeat(seat)) return err(EngineError.INVALID_SEAT);
  if (state.revealed[seat]) return err(EngineError.ALREADY_REVEALED);
  // a blind nil keeps the cards hidden until the bidding ends (they show in PLAYING without a reveal)
  if (state.bids[seat] !== null && state.blind[seat]) return err(EngineError.BLIND_NIL_CARDS_HIDDEN);
  const next = copyState(state);
  next.revealed = state.revealed.slice();
  next.revealed[seat] = true;
  runAutoBids(next); // looking may leave the seat to bid a single forced value (no blind nil any more)
  return { ok: true, state: next };
}

function applyBid(state: GameState, seat: unknown, bid: unknown, blind: boolean): ApplyResult {
  if (state.phase !== 'BIDDING') return err(EngineError.WRONG_PHASE);
  if (!isSeat(seat)) return err(EngineError.INVALID_SEAT);
  if (state.turn !== seat) return err(EngineError.NOT_YOUR_TURN);
  if (typeof bid !== 'number' || !Number.isInteger(bid)) return err(EngineError.ILLEGAL_BID);
  if (blind) {
    if (bid !== 0) return err(EngineError.ILLEGAL_BID);
    if (!blindNilPossible(state.settings, seat, state.bids)) return err(EngineError.BLIND_NIL_NOT_ALLOWED);
    if (state.revealed[seat]) return err(EngineError.ALREADY_REVEALED);
  } else if (!allowedBids(state.settings, seat, state.hands[seat], state.bids).includes(bid)) {
    return err(EngineError.ILLEGAL_BID);
  }
  const next = copyState(state);
  placeBid(next, seat, bid, blind, false);
  runAutoBids(next);
  return { ok: true, state: next };
}

/** Mutates `s`, which must be a fresh shallow copy owned by the caller (arrays are replaced, not mutated). */
function placeBid(s: GameState, seat: Seat, bid: number, blind: boolean, auto: boolean): void {
  s.bids = s.bids.slice();
  s.bids[seat] = bid;
  if (blind) {
    s.blind = s.blind.slice();
    s.blind[seat] = true;
  } else if (!s.revealed[seat]) {
    s.revealed = s.revealed.slice();
    s.revealed[seat] = true;
  }
  if (auto) {
    s.autoBid = s.autoBid.slice();
    s.autoBid[seat] = true;
  }
  if (s.bids.every((b) => b !== null)) {
    const first = (((s.dealer as Seat) + 1) % 4) as Seat;
    s.phase = 'PLAYING';
    s.turn = first;
    s.trickLeader = first;
  } else {
    s.turn = ((seat + 1) % 4) as Seat;
  }
}

function runAutoBids(s: GameState): void {
  while (s.phase === 'BIDDING' && s.turn !== null) {
    const seat = s.turn;
    const lb = computeLegalBids(s.settings, seat, s.hands[seat], s.bids, s.revealed[seat]);
    if (!lb.forced) return;
    placeBid(s, seat, lb.bids[0], false, true);
  }
}

function applyPlay(state: GameState, seat: unknown, cardInput: unknown): ApplyResult {
  if (state.phase !== 'PLAYING') return err(EngineError.WRONG_PHASE);
  if (!isSeat(seat)) return err(EngineError.INVALID_SEAT);
  if (state.turn !== seat) return err(EngineError.NOT_YOUR_TURN);
  const card = normalizeCard(cardInput);
  if (!card) return err(EngineError.INVALID_CARD);
  const hand = state.hands[seat];
  if (!hasCard(hand, card)) return err(EngineError.CARD_NOT_IN_HAND);
  const e = playError(state.settings, hand, state.trick, state.spadesBroken, card);
  if (e) return err(e);

  const hands = state.hands.slice();
  const rest: Card[] = [];
  for (const c of hand) if (c.suit !== card.suit || c.rank !== card.rank) rest.push(c);
  hands[seat] = rest;
  const trick = state.trick.concat([{ seat, card }]);
  const next = copyState(state);
  next.hands = hands;
  next.trick = trick;
  next.spadesBroken = state.spadesBroken || card.suit === 'S';
  if (trick.length < 4) {
    next.turn = ((seat + 1) % 4) as Seat;
    return { ok: true, state: next };
  }
  const winner = trickWinner(trick);
  const tricksWon = state.tricksWon.slice();
  tricksWon[winner]++;
  next.tricksWon = tricksWon;
  next.lastTrick = { leader: trick[0].seat, cards: trick, winner };
  next.handTricks = (state.handTricks ?? []).concat([next.lastTrick]);
  next.trick = [];
  next.trickNumber = state.trickNumber + 1;
  next.trickLeader = winner;
  next.turn = winner;
  if (next.trickNumber < 13) return { ok: true, state: next };
  finishHand(next);
  return { ok: true, state: next };
}

/** Scores the hand in `s` (fresh copy owned by the caller) and moves to HAND_COMPLETED or COMPLETED. */
function finishHand(s: GameState): void {
  const bids = s.bids.map((b) => b ?? 0);
  const sides = scoreHand(s.settings, bids, s.blind, s.tricksWon, s.scores, s.bags);
  const record: HandRecord = {
    handNumber: s.handNumber,
    dealer: s.dealer as Seat,
    seed: s.handSeed as string,
    commitment: s.handCommitment as string,
    bids,
    blind: s.blind.slice(),
    autoBid: s.autoBid.slice(),
    tricksPerSeat: s.tricksWon.slice(),
    sides,
  };
  s.scores = sides.map((x) => x.scoreAfter);
  s.bags = sides.map((x) => x.bagsAfter);
  s.history = s.history.concat([record]);
  s.turn = null;
  s.trickLeader = null;
  s.handSeed = null;
  s.handCommitment = null;
  const result = gameOutcome(s.settings, s.scores);
  s.result = result;
  s.phase = result ? 'COMPLETED' : 'HAND_COMPLETED';
}
