/**
 * Redaction: `viewFor` is the only state a client or bot may receive.
 */
import type { Card } from './cards';
import type { Seat } from './deal';
import { blindNilPossible, computeLegalBids, computeLegalCards, LegalBids } from './legal';
import type { GameSettings } from './settings';
import { CompletedTrick, GameResult, GameState, HandRecord, isSeat, Phase, TrickCard } from './state';

export type Viewer = Seat | 'spectator';

export interface PlayerView {
  viewer: Viewer;
  settings: GameSettings;
  phase: Phase;
  handNumber: number;
  dealer: Seat | null;
  /** The viewer's own unplayed cards; null for spectators and while withheld (handHidden). */
  hand: Card[] | null;
  /** True while the viewer's own cards are withheld because a blind nil is still possible and it has not looked. */
  handHidden: boolean;
  /** Number of unplayed cards per seat (public). */
  handCounts: number[];
  revealed: boolean[];
  bids: (number | null)[];
  blind: boolean[];
  autoBid: boolean[];
  turn: Seat | null;
  trick: TrickCard[];
  trickLeader: Seat | null;
  trickNumber: number;
  spadesBroken: boolean;
  tricksWon: number[];
  lastTrick: CompletedTrick | null;
  /** Completed tricks of the current hand, in order (public; for card counting by players and bots). */
  handTricks?: CompletedTrick[];
  scores: number[];
  bags: number[];
  /** Commitment (hex SHA-256) of the current hand's seed; the seed itself is never in a view. */
  handCommitment: string | null;
  /** Completed hands, including their (now public) seeds. */
  history: HandRecord[];
  result: GameResult | null;
}

/** Whether `seat`'s own cards are withheld from it (blind nil still possible and not looked at). */
export function isHandHidden(
  state: Pick<GameState, 'phase' | 'revealed' | 'bids' | 'blind' | 'settings'>,
  seat: Seat,
): boolean {
  if (state.phase !== 'BIDDING' || state.revealed[seat]) return false;
  if (state.bids[seat] !== null) return state.blind[seat];
  return blindNilPossible(state.settings, seat, state.bids);
}

/**
 * The redacted view of `state` for a seat or a spectator. Pure. Small arrays are copied; history, tricks
 * and settings are shared with the state, so treat a view as read-only.
 */
export function viewFor(state: GameState, viewer: Viewer): PlayerView {
  const seat = isSeat(viewer) ? viewer : null;
  const hidden = seat !== null && isHandHidden(state, seat);
  return {
    viewer: seat === null ? 'spectator' : seat,
    settings: state.settings,
    phase: state.phase,
    handNumber: state.handNumber,
    dealer: state.dealer,
    hand: seat === null || hidden ? null : state.hands[seat].slice(),
    handHidden: hidden,
    handCounts: state.hands.map((h) => h.length),
    revealed: state.revealed.slice(),
    bids: state.bids.slice(),
    blind: state.blind.slice(),
    autoBid: state.autoBid.slice(),
    turn: state.turn,
    trick: state.trick.slice(),
    trickLeader: state.trickLeader,
    trickNumber: state.trickNumber,
    spadesBroken: state.spadesBroken,
    tricksWon: state.tricksWon.slice(),
    lastTrick: state.lastTrick,
    handTricks: state.handTricks ?? [],
    scores: state.scores.slice(),
    bags: state.bags.slice(),
    handCommitment: state.handCommitment,
    history: state.history,
    result: state.result,
  };
}

const NO_BIDS: LegalBids = Object.freeze({ bids: [], blindNil: false, forced: false }) as LegalBids;

/** Bids the viewer may make now (empty unless it is the viewer's turn to bid). Same rules as apply. */
export function legalBids(view: PlayerView): LegalBids {
  const seat = view.viewer;
  if (view.phase !== 'BIDDING' || seat === 'spectator' || view.turn !== seat) return { ...NO_BIDS, bids: [] };
  return computeLegalBids(view.settings, seat, view.hand ?? [], view.bids, view.revealed[seat]);
}

/** Cards the viewer may play now (empty unless it is the viewer's turn to play). Same rules as apply. */
export function legalCards(view: PlayerView): Card[] {
  const seat = view.viewer;
  if (view.phase !== 'PLAYING' || seat === 'spectator' || view.turn !== seat || !view.hand) return [];
  return computeLegalCards(view.settings, view.hand, view.trick, view.spadesBroken);
}

/** Bid as shown in the hand summary (spec §9): a blind nil is −1, otherwise the bid (0 = nil, null = not yet bid). */
export function displayBid(bid: number | null, blind: boolean): number | null {
  if (bid === null) return null;
  return blind && bid === 0 ? -1 : bid;
}

export type StatusMark = 'made' | 'failed' | 'pending';

/**
 * Seat status mark during play (spec §4): PARTNERS compares the team's bid (non-nil bids) with the team's
 * tricks, SOLO the player's own: 'made' (tick) once tricks ≥ bid, 'failed' (cross) once the bid can no
 * longer be reached with the remaining tricks. A nil bidder: 'failed' as soon as it took a trick, 'made'
 * when no tricks remain and it took none. 'pending' otherwise (and before play).
 */
export function statusMark(
  view: Pick<PlayerView, 'settings' | 'phase' | 'bids' | 'tricksWon' | 'trickNumber'>,
  seat: Seat,
): StatusMark {
  const bid = view.bids[seat];
  if (bid === null || view.phase === 'WAITING' || view.phase === 'BIDDING') return 'pending';
  const remaining = view.phase === 'PLAYING' ? 13 - view.trickNumber : 0;
  if (bid === 0) {
    if (view.tricksWon[seat] > 0) return 'failed';
    return remaining === 0 ? 'made' : 'pending';
  }
  const seats: Seat[] = view.settings.gameMode === 'PARTNERS' ? [seat, ((seat + 2) % 4) as Seat] : [seat];
  let teamBid = 0;
  let tricks = 0;
  for (const s of seats) {
    const b = view.bids[s];
    if (b !== null && b > 0) teamBid += b;
    tricks += view.tricksWon[s];
  }
  if (tricks >= teamBid) return 'made';
  if (tricks + remaining < teamBid) return 'failed';
  return 'pending';
}
