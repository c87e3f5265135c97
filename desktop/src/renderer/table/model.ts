/**
 * The table as the client sees it: built from the server's per-seat TableView (common/src/protocol,
 * GET /api/games/:id and `game_update`). Legality is never computed here: `toPlayerView` rebuilds the
 * engine's PlayerView so that common's `legalCards` / `legalBids` answer.
 */
import {
  DEFAULT_SETTINGS,
  normalizeCard,
  statusMark,
  validateSettings,
  type Card,
  type GameSettings,
  type HandScoreSummary,
  type PlayerView,
  type Seat,
  type SideHandScore,
  type TrickCard,
} from '@spades/common';
import { normalizeChat, type ChatMessage } from '../lib/types';

export interface SeatModel {
  id: string;
  username: string;
  avatar: string | null;
  type: 'human' | 'bot';
  tricks: number;
  bid: number | null;
  blind: boolean;
  handCount: number;
  isDealer: boolean;
}

/** common's HandScoreSummary as the client keeps it (older servers sent no seed, commitment or sides). */
export type HandScoreSummaryModel = Omit<HandScoreSummary, 'dealerIndex' | 'seed' | 'commitment' | 'sides'> & {
  seed: string | null;
  commitment: string | null;
  /** Issue #31: per side (team or seat) how the hand scored: contract, bags, nil points, bag penalty. */
  sides?: SideHandScore[];
};

export interface TableModel {
  id: string;
  status: string;
  /** 1 for the table's first game, +1 on every Play Again (a new game closes the result dialog; rating changes are per game). */
  gameNumber: number;
  hostId: string | null;
  rated: boolean;
  mySeat: number | null;
  seats: (SeatModel | null)[];
  settings: GameSettings;
  gameMode: 'PARTNERS' | 'SOLO';
  minPoints: number;
  maxPoints: number;
  buyIn: number;
  forcedBid: string;
  hand: Card[];
  handHidden: boolean;
  handCounts: number[];
  bids: (number | null)[];
  blind: boolean[];
  autoBid: boolean[];
  dealer: number | null;
  turn: number | null;
  trick: TrickCard[];
  trickLeader: number | null;
  trickNumber: number;
  trickPending: boolean;
  spadesBroken: boolean;
  tricks: number[];
  lastTrick: { winnerIndex: number; cards: TrickCard[] } | null;
  /** Per side: PARTNERS [team1, team2], SOLO per seat. */
  scores: number[];
  bags: number[];
  handNumber: number;
  handCommitment: string | null;
  winningTeam: 'team1' | 'team2' | null;
  winningPlayer: number | null;
  places: number[] | null;
  payouts: number[] | null;
  spectators: { id: string; username: string; avatar: string | null }[];
  turnExpiresAt: number | null;
  seatReplacements: { seatIndex: number; expiresAt: number }[];
  lastHandSummary: HandScoreSummaryModel | null;
  chat: ChatMessage[];
  /** serverTime − Date.now() when the view arrived (for deadlines). */
  clockOffset: number;
  /** Issue #31: the server proved that this seat wins every remaining trick (common's claim check). */
  canClaim?: boolean;
  /** Private table and its pending invitations (issue #12); optional for older payloads and fixtures. */
  private?: boolean;
  invitations?: { userId: string; username: string; seatIndex: number | null; reservedUntil: number | null }[];
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const num = (v: unknown, d = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : d);
const numOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const str = (v: unknown, d = ''): string => (typeof v === 'string' ? v : d);
const deadline = (v: unknown): number | null =>
  typeof v === 'number' ? v : typeof v === 'string' && v ? Date.parse(v) || null : null;

export function cardsOf(v: unknown): Card[] {
  return arr(v)
    .map((c) => normalizeCard(c))
    .filter((c): c is Card => c !== null);
}

/** Trick cards in any of the wire forms: {playerIndex, suit, rank}, {playerIndex, card}, {seat, card}. */
export function trickOf(v: unknown): TrickCard[] {
  const out: TrickCard[] = [];
  for (const raw of arr(v)) {
    const o = obj(raw);
    const seat = num(o.playerIndex ?? o.seat, -1);
    const card = normalizeCard(o.card ?? o);
    if (seat >= 0 && seat <= 3 && card) out.push({ seat: seat as Seat, card });
  }
  return out;
}

function summaryOf(v: unknown): HandScoreSummaryModel | null {
  if (!v || typeof v !== 'object') return null;
  const o = obj(v);
  const nums = (x: unknown) => arr(x).map((n) => num(n));
  return {
    handNumber: num(o.handNumber),
    team1Score: num(o.team1Score),
    team2Score: num(o.team2Score),
    team1Bags: num(o.team1Bags),
    team2Bags: num(o.team2Bags),
    team1TotalScore: num(o.team1TotalScore),
    team2TotalScore: num(o.team2TotalScore),
    playerScores: nums(o.playerScores),
    playerTotalScores: nums(o.playerTotalScores),
    playerBags: nums(o.playerBags),
    tricksPerPlayer: nums(o.tricksPerPlayer),
    bids: nums(o.bids),
    seed: typeof o.seed === 'string' ? o.seed : null,
    commitment: typeof o.commitment === 'string' ? o.commitment : null,
    sides: arr(o.sides)
      .map(sideOf)
      .filter((x): x is SideHandScore => x !== null),
  };
}
export { summaryOf as normalizeHandSummary };

function sideOf(v: unknown): SideHandScore | null {
  if (!v || typeof v !== 'object') return null;
  const o = obj(v);
  return {
    side: num(o.side),
    seats: arr(o.seats).map((x) => num(x) as Seat),
    bid: num(o.bid),
    tricks: num(o.tricks),
    contractPoints: num(o.contractPoints),
    bagsTaken: num(o.bagsTaken),
    nilPoints: num(o.nilPoints),
    bagPenalty: num(o.bagPenalty),
    delta: num(o.delta),
    scoreBefore: num(o.scoreBefore),
    scoreAfter: num(o.scoreAfter),
    bagsBefore: num(o.bagsBefore),
    bagsAfter: num(o.bagsAfter),
  };
}

function settingsOf(o: Obj): GameSettings {
  const v = validateSettings(
    o.settings ?? {
      gameMode: o.gameMode,
      biddingOption: 'REG',
      minPoints: o.minPoints,
      maxPoints: o.maxPoints,
      buyIn: o.buyIn,
      specialRules: {
        ...obj(o.specialRules),
        allowNil: obj(o.rules).allowNil ?? true,
        allowBlindNil: obj(o.rules).allowBlindNil ?? false,
      },
    },
  );
  return v.ok ? v.settings : DEFAULT_SETTINGS;
}

/** Normalises a TableView (game_update / GET /api/games/:id). Returns null when it has no id. */
export function normalizeTable(raw: unknown, selfId?: string): TableModel | null {
  const top = obj(raw);
  const o = top.game && typeof top.game === 'object' && !top.status ? obj(top.game) : top;
  const id = str(o.id ?? o.gameId);
  if (!id) return null;
  const settings = settingsOf(o);
  const players = arr(o.players);
  const bidding = obj(o.bidding);
  const play = obj(o.play);
  const bids = [0, 1, 2, 3].map((i) => numOrNull(arr(bidding.bids)[i] ?? null));
  const blind = [0, 1, 2, 3].map((i) => arr(bidding.blind)[i] === true);
  const tricks = [0, 1, 2, 3].map((i) => num(arr(play.tricks)[i]));
  const handCounts = [0, 1, 2, 3].map((i) => num(arr(o.handCounts)[i]));
  const dealer = numOrNull(o.dealerIndex);
  const seats: (SeatModel | null)[] = [0, 1, 2, 3].map((i) => {
    const p = players[i];
    if (!p || typeof p !== 'object') return null;
    const s = obj(p);
    const type = s.type === 'bot' ? 'bot' : 'human';
    return {
      id: str(s.id, type === 'bot' ? `bot-${i}` : ''),
      username: str(s.username ?? s.name, type === 'bot' ? 'Bot' : 'Player'),
      avatar: (typeof s.avatar === 'string' ? s.avatar : typeof s.image === 'string' ? s.image : null) || null,
      type,
      tricks: num(s.tricks, tricks[i]),
      bid: s.bid === undefined ? bids[i] : numOrNull(s.bid),
      blind: s.blind === undefined ? blind[i] : s.blind === true,
      handCount: num(s.handCount, handCounts[i]),
      isDealer: s.isDealer === true || dealer === i,
    };
  });
  let mySeat = numOrNull(o.mySeat);
  if (mySeat === null && selfId) {
    const idx = seats.findIndex((s) => s?.id === selfId);
    mySeat = idx >= 0 ? idx : null;
  }
  const status = str(o.status, 'WAITING');
  const hands = arr(o.hands);
  const hand = mySeat !== null ? cardsOf(hands[mySeat] ?? obj(players[mySeat]).hand) : [];
  const partners = settings.gameMode === 'PARTNERS';
  const scores = partners
    ? [num(o.team1TotalScore), num(o.team2TotalScore)]
    : [0, 1, 2, 3].map((i) => num(arr(o.playerScores)[i]));
  const bags = partners ? [num(o.team1Bags), num(o.team2Bags)] : [0, 1, 2, 3].map((i) => num(arr(o.playerBags)[i]));
  const turn =
    status === 'BIDDING'
      ? numOrNull(bidding.currentBidderIndex ?? o.currentPlayerIndex)
      : status === 'PLAYING'
        ? numOrNull(play.currentPlayerIndex ?? o.currentPlayerIndex)
        : null;
  const lt = play.lastTrick && typeof play.lastTrick === 'object' ? obj(play.lastTrick) : null;
  const serverTime = num(o.serverTime, Date.now());
  return {
    id,
    status,
    gameNumber: num(o.gameNumber, 1),
    hostId: typeof o.hostId === 'string' ? o.hostId : (seats[0]?.id ?? null),
    rated: o.rated === true,
    mySeat,
    seats,
    settings,
    gameMode: settings.gameMode,
    minPoints: settings.minPoints,
    maxPoints: settings.maxPoints,
    buyIn: settings.buyIn,
    forcedBid: str(o.forcedBid, 'NONE'),
    hand,
    handHidden: o.handHidden === true,
    handCounts,
    bids,
    blind,
    autoBid: [0, 1, 2, 3].map((i) => arr(bidding.autoBid)[i] === true),
    dealer,
    turn,
    trick: trickOf(play.currentTrick),
    trickLeader: numOrNull(play.trickLeaderIndex),
    trickNumber: num(play.trickNumber),
    trickPending: play.trickPending === true,
    spadesBroken: play.spadesBroken === true,
    tricks,
    lastTrick: lt ? { winnerIndex: num(lt.winnerIndex), cards: trickOf(lt.cards) } : null,
    scores,
    bags,
    handNumber: num(o.handNumber),
    handCommitment: typeof o.handCommitment === 'string' ? o.handCommitment : null,
    winningTeam: o.winningTeam === 'team1' || o.winningTeam === 'team2' ? o.winningTeam : null,
    winningPlayer: numOrNull(o.winningPlayer),
    places: Array.isArray(o.places) ? o.places.map((n) => num(n)) : null,
    payouts: Array.isArray(o.payouts) ? o.payouts.map((n) => num(n)) : null,
    spectators: arr(o.spectators).map((s) => {
      if (typeof s === 'string') return { id: s, username: s, avatar: null };
      const so = obj(s);
      return {
        id: str(so.id),
        username: str(so.username, 'Spectator'),
        avatar: typeof so.avatar === 'string' ? so.avatar : null,
      };
    }),
    turnExpiresAt: deadline(o.turnExpiresAt),
    seatReplacements: arr(o.seatReplacements)
      .map((r) => ({ seatIndex: num(obj(r).seatIndex, -1), expiresAt: deadline(obj(r).expiresAt) ?? 0 }))
      .filter((r) => r.seatIndex >= 0),
    lastHandSummary: summaryOf(o.lastHandSummary),
    chat: arr(o.chat)
      .map(normalizeChat)
      .filter((m): m is ChatMessage => m !== null),
    clockOffset: serverTime - Date.now(),
    canClaim: o.canClaim === true,
    private: o.private === true,
    invitations: arr(o.invitations).map((i) => {
      const io = obj(i);
      return {
        userId: str(io.userId),
        username: str(io.username, 'Player'),
        seatIndex: numOrNull(io.seatIndex),
        reservedUntil: numOrNull(io.reservedUntil),
      };
    }),
  };
}

/** The engine's PlayerView for this table as the viewer sees it: the input of common's legalCards/legalBids. */
export function toPlayerView(t: TableModel): PlayerView {
  const viewer = t.mySeat === null ? 'spectator' : (t.mySeat as Seat);
  const phase = (
    ['WAITING', 'BIDDING', 'PLAYING', 'HAND_COMPLETED', 'COMPLETED'].includes(t.status) ? t.status : 'COMPLETED'
  ) as PlayerView['phase'];
  const revealed = [0, 1, 2, 3].map((i) => (i === t.mySeat ? !t.handHidden : t.bids[i] !== null));
  return {
    viewer,
    settings: t.settings,
    phase,
    handNumber: t.handNumber,
    dealer: t.dealer as Seat | null,
    hand: viewer === 'spectator' || t.handHidden ? null : t.hand,
    handHidden: t.handHidden,
    handCounts: t.handCounts,
    revealed,
    bids: t.bids,
    blind: t.blind,
    autoBid: t.autoBid,
    turn: t.turn as Seat | null,
    trick: t.trickPending ? [] : t.trick,
    trickLeader: t.trickLeader as Seat | null,
    trickNumber: t.trickNumber,
    spadesBroken: t.spadesBroken,
    tricksWon: t.tricks,
    lastTrick: null,
    handTricks: [],
    scores: t.scores,
    bags: t.bags,
    handCommitment: t.handCommitment,
    history: [],
    result: null,
  };
}

/** Spec §2 colours: PARTNERS seats 0/2 red, 1/3 blue; SOLO red, blue, orange, purple. */
export function seatColor(mode: 'PARTNERS' | 'SOLO', seat: number): 'red' | 'blue' | 'orange' | 'purple' {
  if (mode === 'PARTNERS') return seat % 2 === 0 ? 'red' : 'blue';
  return (['red', 'blue', 'orange', 'purple'] as const)[seat] ?? 'red';
}

/** Spec §4 seat status mark, decided by common's statusMark (tick = 'made', cross = 'set'). */
export function seatMark(
  t: Pick<TableModel, 'gameMode' | 'bids' | 'tricks' | 'trickNumber' | 'status'>,
  seat: number,
): 'made' | 'set' | null {
  const phase = (
    ['WAITING', 'BIDDING', 'PLAYING', 'HAND_COMPLETED', 'COMPLETED'].includes(t.status) ? t.status : 'COMPLETED'
  ) as PlayerView['phase'];
  const m = statusMark(
    {
      settings: { ...DEFAULT_SETTINGS, gameMode: t.gameMode },
      phase,
      bids: t.bids,
      tricksWon: t.tricks,
      trickNumber: t.trickNumber,
    },
    seat as Seat,
  );
  return m === 'made' ? 'made' : m === 'failed' ? 'set' : null;
}

/** Position of a seat around the table relative to the viewer (viewer at the bottom; clockwise). */
export function positionOf(seat: number, mySeat: number | null): 'bottom' | 'left' | 'top' | 'right' {
  const base = mySeat ?? 0;
  return (['bottom', 'left', 'top', 'right'] as const)[(seat - base + 4) % 4];
}

export function bidLabel(bid: number | null, blind: boolean): string {
  if (bid === null) return '–';
  if (bid === 0) return blind ? 'BN' : 'Nil';
  return String(bid);
}
