/**
 * The replay viewer's model (issue #12), pure and React-free: a replay document (common's `GameReplay`) is
 * stepped through with common's `runReplay` (= `apply` from `createGame(settings)`), and every position is
 * drawn with the SAME `TableModel` as the live table (`tableFromEngine`), plus all four hands.
 *
 * A position is the number of engine actions applied (0 … actions.length). Stepping "by card" moves to the next
 * visible change (a deal, a bid or a card; a look at the cards alone changes nothing on screen); "by trick" to the
 * next / previous completed trick; a hand starts right after its deal.
 */
import {
  runReplay,
  type Card,
  type GameReplay,
  type GameState,
  type ReplayHand,
  type Seat,
  type TrickCard,
} from '@spades/common';
import type { SeatModel, TableModel } from '../table/model';

export interface ReplayTimeline {
  doc: GameReplay;
  /** states[p] = the state after p actions. */
  states: GameState[];
  /** Positions that show a visible change, ascending (the first is right after the first deal). */
  stops: number[];
  /** Positions right after a card completed a trick. */
  trickEnds: number[];
  /** Position right after the deal of each hand (index = handNumber − 1). */
  handStarts: number[];
}

export function isReplayDocument(x: unknown): x is GameReplay {
  const o = x as Partial<GameReplay> | null;
  return (
    !!o &&
    o.schema === 'spades-replay' &&
    o.version === 1 &&
    Array.isArray(o.actions) &&
    Array.isArray(o.hands) &&
    !!o.settings
  );
}

export function buildTimeline(doc: GameReplay): ReplayTimeline {
  const run = runReplay(
    doc.settings,
    doc.actions.map((a) => a.action),
  );
  const states = run.states;
  const stops: number[] = [];
  const trickEnds: number[] = [];
  const handStarts: number[] = [];
  doc.actions.forEach((a, i) => {
    const p = i + 1;
    const prev = states[i];
    const next = states[p];
    const bidsChanged = next.bids.some((b, s) => b !== prev.bids[s]);
    if (a.action.type === 'deal') handStarts.push(p);
    if (a.action.type !== 'reveal' || bidsChanged) stops.push(p);
    if (a.action.type === 'play' && next.handNumber === prev.handNumber && next.trickNumber > prev.trickNumber)
      trickEnds.push(p);
  });
  return { doc, states, stops, trickEnds, handStarts };
}

export const lastPosition = (t: ReplayTimeline): number => t.states.length - 1;

export function nextStop(t: ReplayTimeline, pos: number): number {
  return t.stops.find((p) => p > pos) ?? pos;
}

export function prevStop(t: ReplayTimeline, pos: number): number {
  const before = t.stops.filter((p) => p < pos);
  return before.length ? before[before.length - 1] : pos;
}

export function nextTrick(t: ReplayTimeline, pos: number): number {
  return t.trickEnds.find((p) => p > pos) ?? lastPosition(t);
}

/** The previous completed trick of the same hand, else the start of the hand (or of the previous hand when already there). */
export function prevTrick(t: ReplayTimeline, pos: number): number {
  const start = handStartOf(t, pos);
  const before = t.trickEnds.filter((p) => p < pos && p >= start);
  if (before.length) return before[before.length - 1];
  if (pos > start) return start;
  const hi = t.handStarts.indexOf(start);
  return hi > 0 ? t.handStarts[hi - 1] : start;
}

/** Position right after the deal of the hand shown at `pos`. */
export function handStartOf(t: ReplayTimeline, pos: number): number {
  const before = t.handStarts.filter((p) => p <= pos);
  return before.length ? before[before.length - 1] : (t.handStarts[0] ?? 0);
}

export function handStart(t: ReplayTimeline, handNumber: number): number {
  return t.handStarts[Math.max(0, Math.min(t.handStarts.length - 1, handNumber - 1))] ?? 0;
}

export interface ReplayFrame {
  table: TableModel;
  /** Unplayed cards of every seat at this position. */
  hands: Card[][];
  /** Cards on the table: the trick in progress, or the trick the last card completed (with its winner). */
  trick: TrickCard[];
  winner: Seat | null;
  handNumber: number;
  /** 1..13: the trick being played or just completed (0 during bidding). */
  trickNumber: number;
  /** The hand's document entry (seed, commitment, tricks, score). */
  hand: ReplayHand | null;
  /** What the last step did, for screen readers and the position line. */
  caption: string;
}

function seatModels(doc: GameReplay, s: GameState): (SeatModel | null)[] {
  return doc.players.map((p, i) => ({
    id: p.userId ?? `seat-${i}`,
    username: p.username,
    avatar: null,
    type: p.kind === 'bot' ? 'bot' : 'human',
    tricks: s.tricksWon[i] ?? 0,
    bid: s.bids[i] ?? null,
    blind: s.blind[i] === true,
    handCount: s.hands[i]?.length ?? 0,
    isDealer: s.dealer === i,
  }));
}

/** The live table's model for an engine state (every seat seen from above: seat 0 at the bottom). */
export function tableFromEngine(doc: GameReplay, s: GameState, trick: TrickCard[], winner: Seat | null): TableModel {
  const partners = s.settings.gameMode === 'PARTNERS';
  const result = s.result;
  return {
    id: doc.gameId,
    status: s.phase,
    gameNumber: doc.gameNumber,
    hostId: null,
    rated: doc.rated,
    mySeat: null,
    seats: seatModels(doc, s),
    settings: s.settings,
    gameMode: s.settings.gameMode,
    minPoints: s.settings.minPoints,
    maxPoints: s.settings.maxPoints,
    buyIn: s.settings.buyIn,
    forcedBid: 'NONE',
    hand: [],
    handHidden: false,
    handCounts: s.hands.map((h) => h.length),
    bids: s.bids.slice(),
    blind: s.blind.slice(),
    autoBid: s.autoBid.slice(),
    dealer: s.dealer,
    turn: s.turn,
    trick,
    trickLeader: s.trickLeader,
    trickNumber: s.trickNumber,
    trickPending: winner !== null,
    spadesBroken: s.spadesBroken,
    tricks: s.tricksWon.slice(),
    lastTrick: s.lastTrick ? { winnerIndex: s.lastTrick.winner, cards: s.lastTrick.cards } : null,
    scores: s.scores.slice(),
    bags: s.bags.slice(),
    handNumber: s.handNumber,
    handCommitment: s.handCommitment,
    winningTeam:
      result && partners && result.winnerTeam !== null ? (result.winnerTeam === 0 ? 'team1' : 'team2') : null,
    winningPlayer: result ? result.winnerSeat : null,
    places: result ? result.places.slice() : null,
    payouts: doc.payouts,
    spectators: [],
    turnExpiresAt: null,
    seatReplacements: [],
    lastHandSummary: null,
    chat: [],
    clockOffset: 0,
  };
}

const RANKS: Record<number, string> = { 11: 'J', 12: 'Q', 13: 'K', 14: 'A' };
const SUITS: Record<string, string> = { S: '♠', H: '♥', D: '♦', C: '♣' };
export const cardText = (c: Card): string => `${RANKS[c.rank] ?? c.rank}${SUITS[c.suit]}`;

export function frameAt(t: ReplayTimeline, pos: number): ReplayFrame {
  const p = Math.max(0, Math.min(lastPosition(t), pos));
  const s = t.states[p];
  const prev = p > 0 ? t.states[p - 1] : null;
  const action = p > 0 ? t.doc.actions[p - 1].action : null;
  const completed = t.trickEnds.includes(p) && s.lastTrick !== null;
  const trick = completed ? (s.lastTrick as NonNullable<GameState['lastTrick']>).cards : s.trick;
  const winner = completed ? (s.lastTrick as NonNullable<GameState['lastTrick']>).winner : null;
  const name = (seat: number) => t.doc.players[seat]?.username ?? `Seat ${seat + 1}`;
  let caption = 'Before the first deal';
  if (action?.type === 'deal') caption = `Hand ${s.handNumber} dealt; ${name((s.dealer ?? 0) as number)} deals`;
  else if (action?.type === 'bid' || action?.type === 'reveal') {
    const placed = [0, 1, 2, 3].filter((i) => prev && prev.bids[i] === null && s.bids[i] !== null);
    caption =
      placed
        .map(
          (i) =>
            `${name(i)} bids ${s.bids[i] === 0 ? (s.blind[i] ? 'blind nil' : 'nil') : s.bids[i]}${s.autoBid[i] ? ' (forced)' : ''}`,
        )
        .join(', ') || `${name(action.seat)} looks at the cards`;
  } else if (action?.type === 'play') {
    caption =
      `${name(action.seat)} plays ${cardText(action.card)}` +
      (winner !== null ? ` — ${name(winner)} wins the trick` : '');
  }
  const handNumber = s.handNumber;
  return {
    table: tableFromEngine(t.doc, s, trick, winner),
    hands: s.hands.map((h) => h.slice()),
    trick,
    winner,
    handNumber,
    trickNumber:
      s.phase === 'BIDDING' || handNumber === 0 ? 0 : completed ? s.trickNumber : Math.min(13, s.trickNumber + 1),
    hand: t.doc.hands.find((h) => h.handNumber === handNumber) ?? null,
    caption,
  };
}
