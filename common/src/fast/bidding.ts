/**
 * Bidding on the fast path: the same allowed bids as rules/legal.ts (`allowedBids`, `blindNilPossible`,
 * `computeLegalBids`) computed from suit masks; checked against the reference in fast.spec.ts.
 */
import type { GameSettings } from '../rules/settings';
import { FastHand, popcount, SPADES, HEARTS, playoutRandom } from './hand';

export interface FastBidRules {
  option: 'REG' | 'WHIZ' | 'MIRROR' | 'SUICIDE' | '4 OR NIL' | 'BID 3' | 'BID HEARTS' | 'CRAZY ACES';
  allowNil: boolean;
  allowBlindNil: boolean;
}

export function fastBidRules(settings: GameSettings): FastBidRules {
  const option =
    settings.biddingOption === 'GIMMICK' && settings.gimmick
      ? settings.gimmick
      : settings.biddingOption === 'GIMMICK'
        ? 'REG'
        : settings.biddingOption;
  return { option, allowNil: settings.specialRules.allowNil, allowBlindNil: settings.specialRules.allowBlindNil };
}

const ALL = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
const NON_NIL = ALL.slice(1);

/** Whether a blind nil is possible in principle for `seat` (clarification 1), as blindNilPossible. */
export function fastBlindNilPossible(r: FastBidRules, seat: number, bids: ArrayLike<number>): boolean {
  if (!r.allowBlindNil || !r.allowNil) return false;
  if (r.option === 'REG' || r.option === '4 OR NIL') return true;
  if (r.option === 'SUICIDE') return bids[(seat + 2) & 3] !== 0;
  return false;
}

/** Allowed regular bids (shared arrays for the fixed lists: do not mutate). `bids[s]` = −1 when not bid yet. */
export function fastAllowedBids(
  r: FastBidRules,
  seat: number,
  hands: Int32Array,
  bids: ArrayLike<number>,
): readonly number[] {
  const b = seat * 4;
  switch (r.option) {
    case 'REG':
      return r.allowNil ? ALL : NON_NIL;
    case 'WHIZ': {
      const sp = popcount(hands[b + SPADES]);
      if (sp === 0) return [0];
      const ace = (hands[b + SPADES] >> 12) & 1;
      return r.allowNil && !ace ? [0, sp] : [sp];
    }
    case 'MIRROR':
      return [popcount(hands[b + SPADES])];
    case '4 OR NIL':
      return [0, 4];
    case 'BID 3':
      return [3];
    case 'BID HEARTS':
      return [popcount(hands[b + HEARTS])];
    case 'CRAZY ACES': {
      let aces = 0;
      for (let s = 0; s < 4; s++) aces += (hands[b + s] >> 12) & 1;
      return [3 * aces];
    }
    case 'SUICIDE': {
      const p = bids[(seat + 2) & 3];
      if (p < 0) return ALL;
      return p === 0 ? NON_NIL : [0];
    }
  }
  return [];
}

/**
 * Random-legal bidding as the `random` bot does it (uniform over the regular bids in order, then blind nil as
 * one more option; forced bids placed automatically as the engine does, without drawing), starting left of
 * `dealer`; then sets up play (`startPlay`). Bids and blind flags are written into `st`.
 */
export function bidRandom(st: FastHand, r: FastBidRules, dealer: number, rng: () => number): void {
  const bids = [-1, -1, -1, -1];
  st.blind.fill(0);
  for (let i = 1; i <= 4; i++) {
    const seat = (dealer + i) & 3;
    const list = fastAllowedBids(r, seat, st.hands, bids);
    const blindOk = fastBlindNilPossible(r, seat, bids);
    if (list.length === 1 && !blindOk) {
      bids[seat] = list[0];
      continue;
    }
    const n = list.length + (blindOk ? 1 : 0);
    const k = Math.floor(rng() * n);
    if (k === list.length) {
      bids[seat] = 0;
      st.blind[seat] = 1;
    } else {
      bids[seat] = list[k];
    }
  }
  for (let s = 0; s < 4; s++) st.bids[s] = bids[s];
  st.startPlay((dealer + 1) & 3);
}

/** A complete random-legal hand on the fast path: random bids, random play, returns nothing (read `st`). */
export function randomHandFast(st: FastHand, r: FastBidRules, dealer: number, rng: () => number): void {
  bidRandom(st, r, dealer, rng);
  playoutRandom(st, rng);
}
