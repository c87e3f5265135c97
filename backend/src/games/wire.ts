/**
 * Wire payloads (spec §3/§7) built ONLY from the rules engine's redacted `PlayerView` plus public table
 * metadata: no function here receives the full GameState, so no hidden card can leak into a payload.
 */
import { legalBids, legalCards, PlayerView, Seat, toListItemRules, viewFor, type ServerPayload } from '@spades/common';
import type {
  GameListItem,
  GameOver,
  HandCompletedPayload,
  HandScoreSummary,
  ListSeat,
  TableSeat,
  TableTournamentLink,
  TableView,
  WireTrickCard,
} from './protocol';
import { hostId, isHuman, Note, TableRecord } from './table';
import { canClaim } from './table.claim';

export type Recipient = Seat | 'spectator';

function trickCards(cards: readonly { seat: Seat; card: { suit: string; rank: number } }[]): WireTrickCard[] {
  return cards.map((c) => ({ playerIndex: c.seat, suit: c.card.suit, rank: c.card.rank }) as WireTrickCard);
}

function listSeats(rec: TableRecord): (ListSeat | null)[] {
  return rec.seats.map((s, i) =>
    s ? { id: s.userId, username: s.username, name: s.username, avatar: s.avatar, type: s.kind, position: i } : null,
  );
}

/** Lobby list item (spec §3): never any hand. */
export function listItem(rec: TableRecord): GameListItem {
  const r = toListItemRules(rec.settings);
  return {
    id: rec.id,
    status: rec.status === 'WAITING' ? 'WAITING' : 'PLAYING',
    phase: rec.status,
    ...r,
    players: listSeats(rec),
    hostId: hostId(rec),
    rated: rec.rated,
    spectatorCount: rec.spectators.length,
    createdAt: new Date(rec.createdAt).toISOString(),
    settings: rec.settings,
    private: rec.private === true,
    ...tournamentPart(rec),
  };
}

/** Issue #27: the tournament link of a tournament match's table (absent for an ordinary table). */
function tournamentPart(rec: TableRecord): { tournament?: TableTournamentLink } {
  const t = rec.tournament;
  if (!t) return {};
  return {
    tournament: { tournamentId: t.tournamentId, matchId: t.matchId, name: t.name, reserved: t.reserved.slice() },
  };
}

function teamOf(rec: TableRecord, seat: number): number {
  return rec.settings.gameMode === 'PARTNERS' ? (seat % 2) + 1 : seat + 1;
}

function handSummary(rec: TableRecord, record: PlayerView['history'][number]): HandScoreSummary {
  const partners = rec.settings.gameMode === 'PARTNERS';
  const sides = record.sides;
  const s1 = sides[0];
  const s2 = partners ? sides[1] : undefined;
  return {
    handNumber: record.handNumber,
    dealerIndex: record.dealer,
    team1Score: partners ? s1.delta : 0,
    team2Score: partners && s2 ? s2.delta : 0,
    team1Bags: partners ? s1.bagsTaken : 0,
    team2Bags: partners && s2 ? s2.bagsTaken : 0,
    team1TotalScore: partners ? s1.scoreAfter : 0,
    team2TotalScore: partners && s2 ? s2.scoreAfter : 0,
    playerScores: partners ? [0, 1, 2, 3].map((i) => sides[i % 2].delta) : sides.map((x) => x.delta),
    playerTotalScores: partners ? [0, 1, 2, 3].map((i) => sides[i % 2].scoreAfter) : sides.map((x) => x.scoreAfter),
    playerBags: partners ? [0, 1, 2, 3].map((i) => sides[i % 2].bagsAfter) : sides.map((x) => x.bagsAfter),
    tricksPerPlayer: record.tricksPerSeat.slice(),
    // spec §9: a blind nil is shown as bid -1 in the summary
    bids: record.bids.map((b, i) => (record.blind[i] ? -1 : b)),
    sides: record.sides,
    seed: record.seed,
    commitment: record.commitment,
  };
}

/** What a view carries besides the current state: the full view has both; an incremental `game_update` omits what did not change. */
export interface ViewParts {
  /** Every hand's summary of this game (changes at hand ends). */
  history: boolean;
  /** The table chat (every message is also sent as its own `chat_message` event). */
  chat: boolean;
}

const FULL: ViewParts = { history: true, chat: true };

/**
 * The table as one recipient may see it (spec §3 "Game state"), from `viewFor` only. `parts` leaves out the
 * history and/or the chat for an incremental `game_update` (absent = unchanged); HTTP, joins and reconnects
 * always get the full view.
 */
export function tableView(rec: TableRecord, viewer: Recipient, now: number, parts: ViewParts = FULL): TableView {
  const v = viewFor(rec.engine, viewer);
  const partners = rec.settings.gameMode === 'PARTNERS';
  const mySeat = viewer === 'spectator' ? null : viewer;
  const r = toListItemRules(rec.settings);
  const turnSeat = v.phase === 'BIDDING' || v.phase === 'PLAYING' ? v.turn : null;
  const players: (TableSeat | null)[] = rec.seats.map((s, i) => {
    if (!s) return null;
    return {
      id: s.userId,
      username: s.username,
      name: s.username,
      avatar: s.avatar,
      image: s.avatar,
      type: s.kind,
      position: i,
      team: teamOf(rec, i),
      tricks: v.tricksWon[i] ?? 0,
      bid: v.bids[i],
      blind: v.blind[i],
      handCount: v.handCounts[i],
      isDealer: v.dealer === i,
      // Only the viewer's own hand, as the engine's view gives it (null while withheld for blind nil).
      hand: i === mySeat ? v.hand : null,
      timeouts: rec.timeouts[i],
    };
  });
  const hands = [0, 1, 2, 3].map((i) => (i === mySeat ? (v.hand ?? []) : []));
  const lastHand = v.history.length ? v.history[v.history.length - 1] : null;
  const result = v.result;
  const lb = mySeat !== null ? legalBids(v) : null;
  return {
    id: rec.id,
    gameId: rec.id,
    status: rec.status,
    gameNumber: rec.gameNumber,
    hostId: hostId(rec),
    rated: rec.rated,
    mySeat,
    viewer: mySeat === null ? 'spectator' : 'player',
    currentPlayer: turnSeat !== null && rec.seats[turnSeat] ? rec.seats[turnSeat]!.userId : null,
    currentPlayerIndex: turnSeat,
    players,
    hands,
    handCounts: v.handCounts.slice(),
    handHidden: v.handHidden,
    bidding: {
      bids: v.bids.slice(),
      blind: v.blind.slice(),
      autoBid: v.autoBid.slice(),
      nilBids: v.bids.map((b) => b === 0),
      currentBidderIndex: v.phase === 'BIDDING' ? v.turn : null,
      currentPlayer: v.phase === 'BIDDING' && v.turn !== null ? (rec.seats[v.turn]?.userId ?? null) : null,
    },
    play: {
      currentTrick: trickCards(v.trick),
      trickLeaderIndex: v.trickLeader,
      trickNumber: v.trickNumber,
      currentPlayerIndex: v.phase === 'PLAYING' ? v.turn : null,
      spadesBroken: v.spadesBroken,
      tricks: v.tricksWon.slice(),
      lastTrick: v.lastTrick
        ? { winnerIndex: v.lastTrick.winner, leaderIndex: v.lastTrick.leader, cards: trickCards(v.lastTrick.cards) }
        : null,
      trickPending: rec.trickPending,
    },
    legalBids: lb && lb.bids.length + (lb.blindNil ? 1 : 0) > 0 ? { bids: lb.bids, blindNil: lb.blindNil } : null,
    legalCards: mySeat !== null ? legalCards(v) : [],
    // issue #31: decided from this seat's own view only (common's claimRefusal), so it tells nothing about other hands
    canClaim: canClaim(rec, mySeat),
    dealerIndex: v.dealer,
    handNumber: v.handNumber,
    handCommitment: v.handCommitment,
    team1TotalScore: partners ? v.scores[0] : 0,
    team2TotalScore: partners ? v.scores[1] : 0,
    team1Bags: partners ? v.bags[0] : 0,
    team2Bags: partners ? v.bags[1] : 0,
    playerScores: partners ? [0, 1, 2, 3].map((i) => v.scores[i % 2]) : v.scores.slice(),
    playerBags: partners ? [0, 1, 2, 3].map((i) => v.bags[i % 2]) : v.bags.slice(),
    winningTeam: result && result.winnerTeam !== null ? (result.winnerTeam === 0 ? 'team1' : 'team2') : null,
    winningPlayer: result ? result.winnerSeat : null,
    places: result ? result.places.slice() : null,
    payouts: rec.payouts,
    gameMode: rec.settings.gameMode,
    minPoints: rec.settings.minPoints,
    maxPoints: rec.settings.maxPoints,
    buyIn: rec.settings.buyIn,
    forcedBid: r.forcedBid,
    specialRules: r.specialRules,
    rules: r.rules,
    settings: rec.settings,
    spectators: rec.spectators.map((s) => ({ id: s.userId, username: s.username, avatar: s.avatar })),
    turnExpiresAt: rec.flow && rec.flow.kind === 'turn' ? rec.flow.at : null,
    seatReplacements: rec.replacements
      .map((at, i) => (at === null ? null : { seatIndex: i, expiresAt: at }))
      .filter((x): x is { seatIndex: number; expiresAt: number } => x !== null),
    lastHandSummary: lastHand ? handSummary(rec, lastHand) : null,
    ...(parts.history ? { history: v.history.map((h) => handSummary(rec, h)) } : {}),
    ...(parts.chat ? { chat: rec.chat.slice() } : {}),
    private: rec.private === true,
    ...tournamentPart(rec),
    invitations: (rec.invitations ?? []).map((i) => ({
      userId: i.userId,
      username: i.username,
      fromId: i.fromId,
      seatIndex: i.seat,
      reservedUntil:
        i.reservedUntil !== null && i.reservedUntil > now && rec.status === 'WAITING' ? i.reservedUntil : null,
    })),
    serverTime: now,
  };
}

/** The payload of one note for one recipient (the event name is note.type). */
export function notePayload(rec: TableRecord, note: Note, view: TableView): ServerPayload<Note['type']> {
  const gameId = rec.id;
  switch (note.type) {
    case 'game_update':
      return view;
    case 'new_hand_started':
      return {
        gameId,
        handNumber: view.handNumber,
        hands: view.hands,
        handHidden: view.handHidden,
        dealerIndex: view.dealerIndex,
        currentBidderIndex: view.bidding.currentBidderIndex,
        commitment: view.handCommitment,
      };
    case 'bidding_ready':
      return { gameId, currentBidderIndex: view.bidding.currentBidderIndex, currentPlayer: view.bidding.currentPlayer };
    case 'trick_complete':
      return {
        gameId,
        trick: { winnerIndex: note.trick.winner, leaderIndex: note.trick.leader, cards: trickCards(note.trick.cards) },
        trickNumber: note.trickNumber,
        tricks: view.play.tricks,
      };
    case 'clear_trick':
      return { gameId };
    case 'hand_completed':
      return { gameId, ...handSummary(rec, note.record) } satisfies HandCompletedPayload;
    case 'game_over':
      return {
        gameId,
        winningTeam: view.winningTeam,
        winningPlayer: view.winningPlayer,
        places: view.places,
        finalScores: view.playerScores,
        team1TotalScore: view.team1TotalScore,
        team2TotalScore: view.team2TotalScore,
        rated: view.rated,
        payouts: view.payouts,
      } satisfies GameOver;
    case 'game_closed':
      return { gameId, reason: note.reason };
    case 'seat_replacement_started':
      return { gameId, seatIndex: note.seatIndex, expiresAt: note.expiresAt };
    case 'chat_message':
      return { gameId, message: note.message };
  }
}

export function seatRecipients(rec: TableRecord): { seat: Seat; userId: string }[] {
  const out: { seat: Seat; userId: string }[] = [];
  rec.seats.forEach((s, i) => {
    if (isHuman(s)) out.push({ seat: i as Seat, userId: s.userId });
  });
  return out;
}
