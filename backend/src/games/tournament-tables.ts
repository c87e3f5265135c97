/**
 * Issue #27: a tournament match's table. An ordinary table (public, spectators welcome, the usual rules, timers,
 * seat replacement, ratings for four humans) with three differences, all carried by `TableRecord.tournament`:
 *
 * - Seats are RESERVED: `reserved[seat]` is the only user who may sit there (anyone else: 403); a null seat holds a
 *   bot from the opening. A reserved player who joins (socket `join_game`, HTTP join, seat given or not) sits in
 *   their own seat, also after leaving it (a vacated seat mid-game until a bot took it over).
 * - The game starts by itself when every reserved seat is taken (no host start); the tournament's driver starts
 *   it with bots in the empty seats (`startTournamentTableWithBots`) or closes it (`closeTournamentTable`) at the
 *   seat deadline. The host cannot add or remove bots, remove players or hold seats before the start.
 * - The table's buy-in is 0 (coins move through the tournament): no escrow, no payouts. No Play Again: the result
 *   shows, then the players leave as after any game and the table closes. A running game is never closed for
 *   lack of players: bots play it to the end, so the match always gets a result.
 *
 * The pure rules live here (TableMachine calls them); GamesService holds the commands (`openTournamentTable`, …),
 * and `tournamentOutcome` reads the durable `game_records` row of the table's game.
 */
import type { GameResult, GameSettings, TournamentTableScores } from '@spades/common';
import { isHuman, type Participant, TableError, type TableRecord, type TournamentLink } from './table.record';

export type { TableTournament, TournamentLink } from './table.record';

/** Nest token of the optional `TournamentResultsSink` (provided by the tournaments module). */
export const TOURNAMENT_RESULTS = Symbol('TOURNAMENT_RESULTS');

/**
 * Told after the write that finished a tournament table's game is committed (`game_records` holds it, the ratings
 * are settled). A hint, at most once per process and game: the driver also polls `tournamentOutcome`.
 */
export interface TournamentResultsSink {
  gameFinished(e: { tournamentId: string; matchId: string; gameId: string }): void;
}

export interface OpenTournamentTableInput {
  /** The table id (a UUID chosen by the tournament: the open is idempotent on it). */
  gameId: string;
  link: TournamentLink;
  /** The tournament's rules; `buyIn` is forced to 0. */
  settings: GameSettings;
  /** Four seats: the player each seat is reserved for, null = a bot. */
  seats: (Participant | null)[];
  /** The tournament's name (shown with the table). */
  name: string;
}

export interface TournamentTableState {
  status: TableRecord['status'];
  /** Humans seated now. */
  seatedUserIds: string[];
  /** The game has started (a closed table that never started: false). */
  started: boolean;
}

export interface TournamentOutcome {
  /** 1 = best (PARTNERS: 1 or 2 per seat). Empty when `closed`. */
  placesBySeat: number[];
  /** Final score of each seat's side (`closed`: its score when the table closed). */
  scoresBySeat: number[];
  /**
   * The table closed without a finished game (staff closed a stuck table): no places, the scores at that moment —
   * the tournament decides the match by them (`closedMatchResult`).
   */
  closed?: true;
}

export const TOURNAMENT_TABLE_ERRORS = {
  NOT_A_PLAYER: 'This is a tournament table: only the players of this match can sit here',
  NOT_YOUR_SEAT: 'That seat is reserved for another player of this tournament match',
  SEATS_FIXED: 'The seats of a tournament table are set by the tournament',
  STARTS_BY_ITSELF: 'A tournament game starts by itself when every player is seated',
  NO_PLAY_AGAIN: 'A tournament table does not offer Play Again',
  ALREADY_STARTED: 'The tournament game has already started',
  CLOSED: 'This tournament table is closed',
} as const;

/** Checks an open-table request; throws TableError (400). */
export function checkOpenInput(input: OpenTournamentTableInput): void {
  const ok =
    typeof input?.gameId === 'string' &&
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(input.gameId) &&
    typeof input.link?.tournamentId === 'string' &&
    typeof input.link?.matchId === 'string' &&
    typeof input.name === 'string' &&
    Array.isArray(input.seats) &&
    input.seats.length === 4;
  if (!ok) throw new TableError('A tournament table needs a game id, its link, a name and four seats');
  const ids = input.seats.filter((s): s is Participant => s !== null).map((s) => s.userId);
  if (!ids.length) throw new TableError('A tournament table needs at least one player');
  if (new Set(ids).size !== ids.length) throw new TableError('A player can hold only one seat');
}

/** The reserved seat of `userId`, or -1. */
export function reservedSeatOf(rec: TableRecord, userId: string): number {
  return rec.tournament ? rec.tournament.reserved.indexOf(userId) : -1;
}

/**
 * The seat a user may take at a tournament table (their reserved one); TableError 403 for anyone else or
 * another seat. `seat`: the seat asked for (undefined: theirs).
 */
export function tournamentSeatFor(rec: TableRecord, userId: string, seat: number | undefined): number {
  const mine = reservedSeatOf(rec, userId);
  if (mine < 0) throw new TableError(TOURNAMENT_TABLE_ERRORS.NOT_A_PLAYER, 403);
  if (seat !== undefined && seat !== null && seat !== mine)
    throw new TableError(TOURNAMENT_TABLE_ERRORS.NOT_YOUR_SEAT, 403);
  if (rec.seats[mine] !== null) throw new TableError('That seat is taken');
  if (rec.status !== 'WAITING' && rec.replacements[mine] === null) throw new TableError('That seat is not open');
  return mine;
}

/** Whether the user's reserved seat is free to take now (a socket `join_game` then seats them). */
export function reservedSeatOpen(rec: TableRecord, userId: string): boolean {
  const mine = reservedSeatOf(rec, userId);
  if (mine < 0 || rec.seats[mine] !== null) return false;
  if (rec.status === 'WAITING') return true;
  return (
    (rec.status === 'BIDDING' || rec.status === 'PLAYING' || rec.status === 'HAND_COMPLETED') &&
    rec.replacements[mine] !== null
  );
}

/** A WAITING tournament table whose every reserved seat holds its player: the game starts. */
export function everyReservedSeated(rec: TableRecord): boolean {
  const t = rec.tournament;
  if (!t || rec.status !== 'WAITING') return false;
  return t.reserved.every((u, i) => {
    const s = rec.seats[i];
    return u === null ? s !== null : isHuman(s) && s.userId === u;
  });
}

export function tournamentTableState(rec: TableRecord): TournamentTableState {
  return {
    status: rec.status,
    seatedUserIds: rec.seats.filter(isHuman).map((s) => s.userId),
    started: rec.engine.phase !== 'WAITING' || rec.engine.handNumber > 0,
  };
}

/** Places and scores by seat of a finished game's result. */
export function outcomeOf(mode: GameSettings['gameMode'], result: GameResult): TournamentOutcome {
  return {
    placesBySeat: result.places.slice(),
    scoresBySeat: [0, 1, 2, 3].map((s) => result.finalScores[mode === 'PARTNERS' ? s % 2 : s] ?? 0),
  };
}

/**
 * The outcome of a tournament table's game from the database (durable, whichever node drives the table): the
 * finished game's `game_records` row; else, when the table is CLOSED without one (staff closed it mid-game or
 * before the start), a `closed` outcome with each seat's side's score from the closed table's snapshot; else null
 * (still seating or playing). One statement, so a game finishing meanwhile is seen either finished or not at all.
 */
export async function readTournamentOutcome(
  query: (sql: string, params: unknown[]) => Promise<unknown[]>,
  gameId: string,
): Promise<TournamentOutcome | null> {
  const rows = (await query(
    `SELECT r.mode, r.result, g.status, g.snapshot->'settings'->>'gameMode' AS table_mode,
            g.snapshot->'engine'->'scores' AS scores
       FROM (SELECT $1::uuid AS id) k
       LEFT JOIN games g ON g.id = k.id
       LEFT JOIN LATERAL (SELECT mode, result FROM game_records WHERE game_id = k.id ORDER BY game_number DESC LIMIT 1) r
         ON true`,
    [gameId],
  )) as {
    mode: GameSettings['gameMode'] | null;
    result: GameResult | null;
    status: TableRecord['status'] | null;
    table_mode: GameSettings['gameMode'] | null;
    scores: number[] | null;
  }[];
  const row = rows[0];
  if (!row) return null;
  if (row.mode && row.result) return outcomeOf(row.mode, row.result);
  if (row.status !== 'CLOSED') return null;
  return closedOutcome(row.table_mode ?? 'PARTNERS', row.scores ?? []);
}

/** A table closed without a finished game: each seat's side's score then (no score yet = 0), no places. */
export function closedOutcome(mode: GameSettings['gameMode'], sideScores: number[]): TournamentOutcome {
  const score = (s: number) => {
    const v = sideScores[mode === 'PARTNERS' ? s % 2 : s];
    return typeof v === 'number' && Number.isFinite(v) ? v : 0;
  };
  return { placesBySeat: [], scoresBySeat: [0, 1, 2, 3].map(score), closed: true };
}

/** The socket room of a tournament's watchers (`watch_tournament`; the tournaments driver's `tournamentRoom`). */
export const tournamentWatchRoom = (tournamentId: string): string => `tournament:${tournamentId}`;

/**
 * The live score a tournament table's change shows on the tournament page (socket `tournament_scores`): when a hand
 * ended (the table's hand history grew), else null. Ordinary tables: null.
 */
export function tournamentTableScores(prev: TableRecord | null, rec: TableRecord): TournamentTableScores | null {
  const t = rec.tournament;
  if (!t || !prev || rec.engine.history.length <= prev.engine.history.length) return null;
  const scores = rec.engine.scores;
  return {
    tournamentId: t.tournamentId,
    matchId: t.matchId,
    gameId: rec.id,
    handNumber: rec.engine.history.length,
    scoresBySeat:
      rec.settings.gameMode === 'PARTNERS' ? [0, 1, 2, 3].map((i) => scores[i % 2] ?? 0) : scores.slice(0, 4),
  };
}
