/**
 * Issue #27: the pure, event-sourced tournament engine. `applyTournament(state, event)` is the only way a tournament
 * changes; it never throws and never mutates its input (a refused event → a typed error). `replayTournament` folds a
 * stored event list (restart). No clock, no randomness: times come in on the events.
 */
import type { CreateTournamentInput } from '../protocol/tournaments';
import { DEFAULT_SETTINGS, type GameMode, BUY_IN_MIN, validateSettings, isValidBuyIn } from '../rules/settings';
import {
  advanceCount,
  buildEntrants,
  closedMatchResult,
  entrantOfUser,
  findMatch,
  firstRound,
  nextRound,
  resultOf,
  roundCount,
  walkoverResult,
} from './bracket';
import { payoutsOf } from './prizes';
import type {
  Match,
  Registration,
  Round,
  Standing,
  TournamentApplyResult,
  TournamentConfig,
  TournamentErrorCode,
  TournamentEvent,
  TournamentKind,
  TournamentRules,
  TournamentSize,
  TournamentState,
} from './types';

export const TOURNAMENT_SIZES: readonly TournamentSize[] = [8, 16];
export const TOURNAMENT_MODES: readonly GameMode[] = ['PARTNERS', 'SOLO'];
export const DEFAULT_PRIZE_SPLIT: Record<GameMode, number[]> = { PARTNERS: [65, 35], SOLO: [50, 30, 20] };
export const TOURNAMENT_NO_SHOW_MS = 120_000;
export const TOURNAMENT_NO_SHOW_MS_RANGE = { min: 30_000, max: 900_000 } as const;
export const TOURNAMENT_NAME_MAX = 60;

export const TOURNAMENT_ERRORS: Record<TournamentErrorCode, string> = {
  NOT_REGISTERING: 'Registration is not open',
  ALREADY_REGISTERED: 'Already registered',
  NOT_REGISTERED: 'Not registered',
  FULL: 'The tournament is full',
  PARTNER_REQUIRED: 'A partner must be another player',
  PARTNER_NOT_ALLOWED: 'SOLO tournaments have no partners',
  NOT_RUNNING: 'The tournament is not running',
  UNKNOWN_MATCH: 'Unknown match',
  MATCH_STATE: 'The match is not in a state for that',
  BAD_RESULT: 'Bad match result',
  TOO_FEW_ENTRANTS: 'Not enough players to start',
  BAD_CONFIG: 'Bad tournament settings',
  BAD_EVENT: 'Malformed tournament event',
};

// ---------------------------------------------------------------------------------------------
// Configuration

type ConfigResult = { ok: true; config: TournamentConfig } | { ok: false; error: 'BAD_CONFIG'; message: string };
const badConfig = (message: string): ConfigResult => ({ ok: false, error: 'BAD_CONFIG', message });
const isInt = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n);

/** The smallest number of players a tournament can start with: half its size (so no match is ever empty). */
export function minimumPlayers(size: TournamentSize): number {
  return size / 2;
}

/**
 * Validates a creation request (player: sit-and-go; console: scheduled). The kind comes from the caller (`opts.kind`),
 * not the input. Sit-and-go: no start time, registration open at once, minimum = size. Scheduled: `startsAt` after
 * `now`, `registrationOpensAt` (optional) before `startsAt`, minimum in [size/2, size] (default size).
 * Buy-in 0 (free) or a table buy-in (≥ 100,000 in steps); prize split: 1..places positive integers, non-increasing,
 * summing to 100; rules: the table rules (default DEFAULT_SETTINGS), validated as for a table of that mode.
 */
export function validateTournamentInput(
  input: CreateTournamentInput,
  opts: { kind: TournamentKind; now: number; createdBy: string },
): ConfigResult {
  if (typeof input !== 'object' || input === null) return badConfig('The tournament settings must be an object');
  const name = typeof input.name === 'string' ? input.name.trim().replace(/\s+/g, ' ') : '';
  if (name.length < 3 || name.length > TOURNAMENT_NAME_MAX) {
    return badConfig(`The name must be 3 to ${TOURNAMENT_NAME_MAX} characters`);
  }
  if (!TOURNAMENT_MODES.includes(input.mode)) return badConfig('The mode must be PARTNERS or SOLO');
  if (!TOURNAMENT_SIZES.includes(input.size)) return badConfig('The size must be 8 or 16 players');
  const size = input.size;
  if (!(input.buyIn === 0 || isValidBuyIn(input.buyIn))) {
    return badConfig('The buy-in must be 0 (free) or a table buy-in (at least 100,000, in steps)');
  }
  const split = input.prizeSplit ?? DEFAULT_PRIZE_SPLIT[input.mode];
  const maxPlaces = input.mode === 'PARTNERS' ? size / 2 : size;
  if (
    !Array.isArray(split) ||
    split.length < 1 ||
    split.length > maxPlaces ||
    !split.every((p) => isInt(p) && p > 0) ||
    split.some((p, i) => i > 0 && p > split[i - 1]) ||
    split.reduce((a, b) => a + b, 0) !== 100
  ) {
    return badConfig(
      `The prize split must be 1 to ${maxPlaces} positive whole percents, highest first, summing to 100`,
    );
  }
  const rulesIn = input.rules ?? {};
  if (typeof rulesIn !== 'object' || rulesIn === null) return badConfig('The rules must be an object');
  const { buyIn: _b, gameMode: _g, ...defaults } = DEFAULT_SETTINGS;
  void _b;
  void _g;
  const merged = {
    ...defaults,
    ...rulesIn,
    specialRules: { ...defaults.specialRules, ...(rulesIn.specialRules ?? {}) },
  };
  const checked = validateSettings({ ...merged, gameMode: input.mode, buyIn: BUY_IN_MIN });
  if (!checked.ok) return badConfig(checked.message);
  const { buyIn: _cb, gameMode: _cg, ...rules } = checked.settings;
  void _cb;
  void _cg;
  const noShowMs = input.noShowMs ?? TOURNAMENT_NO_SHOW_MS;
  if (!isInt(noShowMs) || noShowMs < TOURNAMENT_NO_SHOW_MS_RANGE.min || noShowMs > TOURNAMENT_NO_SHOW_MS_RANGE.max) {
    return badConfig('The no-show time must be 30 to 900 seconds');
  }
  let startsAt: number | null = null;
  let registrationOpensAt: number | null = null;
  let minEntrants: number = size;
  if (opts.kind === 'scheduled') {
    startsAt = input.startsAt ?? null;
    if (!isInt(startsAt) || startsAt <= opts.now) return badConfig('A scheduled tournament needs a start time ahead');
    registrationOpensAt = input.registrationOpensAt ?? null;
    if (registrationOpensAt !== null && (!isInt(registrationOpensAt) || registrationOpensAt >= startsAt)) {
      return badConfig('Registration must open before the start');
    }
    minEntrants = input.minEntrants ?? size;
    if (!isInt(minEntrants) || minEntrants < minimumPlayers(size) || minEntrants > size) {
      return badConfig(`The minimum must be ${minimumPlayers(size)} to ${size} players`);
    }
  } else if (opts.kind !== 'sit_and_go') {
    return badConfig('Unknown tournament kind');
  }
  return {
    ok: true,
    config: {
      name,
      kind: opts.kind,
      mode: input.mode,
      size,
      buyIn: input.buyIn,
      rules: rules as TournamentRules,
      prizeSplit: [...split],
      startsAt,
      registrationOpensAt,
      minEntrants,
      noShowMs,
      createdBy: opts.createdBy,
    },
  };
}

export function createTournament(id: string, config: TournamentConfig, createdAt: number): TournamentState {
  return {
    id,
    config,
    status: 'REGISTERING',
    createdAt,
    registrations: [],
    entrants: [],
    rounds: [],
    standings: [],
    payouts: [],
    startedAt: null,
    finishedAt: null,
    cancelReason: null,
  };
}

// ---------------------------------------------------------------------------------------------
// Queries

/** Players registered (REGISTERING) or playing (after the start: the dropped single does not count). */
export function registeredPlayers(s: TournamentState): number {
  if (s.entrants.length > 0) return s.entrants.reduce((a, e) => a + e.players.length, 0);
  return s.registrations.length;
}

export function isFull(s: TournamentState): boolean {
  return s.registrations.length >= s.config.size;
}

/** Whether `started` would be accepted now: REGISTERING with at least max(minEntrants, size/2) players. */
export function startCheck(
  s: TournamentState,
): { ok: true } | { ok: false; error: 'TOO_FEW_ENTRANTS'; message: string } {
  const need = Math.max(s.config.minEntrants, minimumPlayers(s.config.size));
  const have = s.registrations.length;
  if (have < need) {
    return { ok: false, error: 'TOO_FEW_ENTRANTS', message: `${have} of the ${need} players needed have registered` };
  }
  return { ok: true };
}

/** After `started`: registrations without an entrant (the odd single of a PARTNERS tournament): refund them. */
export function droppedAtStart(s: TournamentState): Registration[] {
  if (s.entrants.length === 0) return [];
  const playing = new Set(s.entrants.flatMap((e) => e.players.map((p) => p.userId)));
  return s.registrations.filter((r) => !playing.has(r.userId));
}

export function currentRound(s: TournamentState): Round | null {
  if (s.status !== 'RUNNING') return null;
  return s.rounds[s.rounds.length - 1] ?? null;
}

/** RUNNING: PENDING matches of the current round (they need a table). */
export function matchesToOpen(s: TournamentState): Match[] {
  return currentRound(s)?.matches.filter((m) => m.status === 'PENDING') ?? [];
}

/** Whether an entrant is still in (not beaten; FINISHED: only the winner). */
export function isStillIn(s: TournamentState, entrantId: string): boolean {
  if (!s.entrants.some((e) => e.id === entrantId)) return false;
  for (const r of s.rounds)
    for (const m of r.matches)
      if (m.entrantIds.includes(entrantId) && m.result && !m.result.advanced.includes(entrantId)) return false;
  return true;
}

/** The current match (not DONE) of a user still in, or null (not in, beaten, or waiting for the next round). */
export function matchOfUser(s: TournamentState, userId: string): Match | null {
  const round = currentRound(s);
  const entrant = entrantOfUser(s, userId);
  if (!round || !entrant) return null;
  return round.matches.find((m) => m.status !== 'DONE' && m.entrantIds.includes(entrant.id)) ?? null;
}

// ---------------------------------------------------------------------------------------------
// Events

export class TournamentReplayError extends Error {
  constructor(
    readonly code: TournamentErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TournamentReplayError';
  }
}

type Fail = { ok: false; error: TournamentErrorCode; message: string };
const fail = (error: TournamentErrorCode, message: string = TOURNAMENT_ERRORS[error]): Fail => ({
  ok: false,
  error,
  message,
});

const isTime = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
const isId = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 200;
const isRecordOf = (v: unknown, ok: (x: unknown) => boolean): v is Record<string, number> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every(ok);
const isIdList = (v: unknown): v is string[] => Array.isArray(v) && v.every(isId);

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

/**
 * Applies one event. Pure (the input is not touched) and total: anything refused — wrong status, unknown match,
 * a malformed event — comes back as `{ ok: false, error, message }`.
 */
export function applyTournament(s: TournamentState, e: TournamentEvent): TournamentApplyResult {
  try {
    return applyUnsafe(s, e);
  } catch (err) {
    return fail('BAD_EVENT', err instanceof Error ? err.message : 'Malformed tournament event');
  }
}

/** Folds stored events over the initial state; throws a `TournamentReplayError` on the first refused event. */
export function replayTournament(initial: TournamentState, events: TournamentEvent[]): TournamentState {
  let s = initial;
  events.forEach((e, i) => {
    const r = applyTournament(s, e);
    if (!r.ok) throw new TournamentReplayError(r.error, `event ${i} (${String(e?.type)}): ${r.message}`);
    s = r.state;
  });
  return s;
}

function applyUnsafe(s: TournamentState, e: TournamentEvent): TournamentApplyResult {
  if (typeof e !== 'object' || e === null || !isTime(e.at)) return fail('BAD_EVENT');
  switch (e.type) {
    case 'registered':
      return register(s, e);
    case 'unregistered':
      return unregister(s, e);
    case 'started':
      return start(s, e.at);
    case 'cancelled': {
      if (typeof e.reason !== 'string') return fail('BAD_EVENT');
      if (s.status !== 'REGISTERING' && s.status !== 'RUNNING') return fail('NOT_RUNNING');
      const next = clone(s);
      next.status = 'CANCELLED';
      next.cancelReason = e.reason;
      next.finishedAt = e.at;
      return { ok: true, state: next };
    }
    case 'match_opened':
    case 'match_started':
    case 'match_played':
    case 'match_walkover':
    case 'match_closed':
      return matchEvent(s, e);
    default:
      return fail('BAD_EVENT', `Unknown tournament event ${String((e as { type?: unknown }).type)}`);
  }
}

function registrationOpen(s: TournamentState, at: number): boolean {
  if (s.status !== 'REGISTERING') return false;
  const c = s.config;
  if (c.kind === 'scheduled') {
    if (c.registrationOpensAt !== null && at < c.registrationOpensAt) return false;
    if (c.startsAt !== null && at >= c.startsAt) return false;
  }
  return true;
}

function register(s: TournamentState, e: Extract<TournamentEvent, { type: 'registered' }>): TournamentApplyResult {
  const players = e.players;
  if (
    !Array.isArray(players) ||
    players.length < 1 ||
    players.length > 2 ||
    !players.every(
      (p) =>
        typeof p === 'object' &&
        p !== null &&
        isId(p.userId) &&
        typeof p.username === 'string' &&
        typeof p.rating === 'number' &&
        Number.isFinite(p.rating),
    )
  ) {
    return fail('BAD_EVENT', 'A registration is one player or a team of two');
  }
  if (!registrationOpen(s, e.at)) return fail('NOT_REGISTERING');
  if (players.length === 2 && s.config.mode === 'SOLO') return fail('PARTNER_NOT_ALLOWED');
  if (players.length === 2 && players[0].userId === players[1].userId) return fail('PARTNER_REQUIRED');
  if (players.some((p) => s.registrations.some((r) => r.userId === p.userId))) return fail('ALREADY_REGISTERED');
  if (s.registrations.length + players.length > s.config.size) return fail('FULL');
  const next = clone(s);
  const partnerOf = (i: number) => (players.length === 2 ? players[1 - i].userId : null);
  players.forEach((p, i) =>
    next.registrations.push({
      userId: p.userId,
      username: p.username,
      rating: p.rating,
      partnerId: partnerOf(i),
      at: e.at,
    }),
  );
  return { ok: true, state: next };
}

function unregister(s: TournamentState, e: Extract<TournamentEvent, { type: 'unregistered' }>): TournamentApplyResult {
  if (!isId(e.userId)) return fail('BAD_EVENT');
  if (s.status !== 'REGISTERING') return fail('NOT_REGISTERING');
  const reg = s.registrations.find((r) => r.userId === e.userId);
  if (!reg) return fail('NOT_REGISTERED');
  const next = clone(s);
  next.registrations = next.registrations.filter((r) => r.userId !== reg.userId && r.userId !== reg.partnerId);
  return { ok: true, state: next };
}

function start(s: TournamentState, at: number): TournamentApplyResult {
  if (s.status !== 'REGISTERING') return fail('NOT_REGISTERING');
  const check = startCheck(s);
  if (!check.ok) return fail(check.error, check.message);
  const next = clone(s);
  const { entrants } = buildEntrants(next.config, next.registrations);
  next.entrants = entrants;
  next.status = 'RUNNING';
  next.startedAt = at;
  next.rounds = [firstRound(next.config, entrants)];
  settle(next, at);
  return { ok: true, state: next };
}

/**
 * Resolves the matches of the current round that need no table (byes, SOLO tables no bigger than the number that go
 * on), then, while the current round is complete, creates the next one or finishes the tournament.
 */
function settle(s: TournamentState, at: number): void {
  for (;;) {
    const round = s.rounds[s.rounds.length - 1];
    for (const m of round.matches) {
      if (m.status === 'PENDING' && m.entrantIds.length <= advanceCount(s.config, m.round)) {
        m.status = 'DONE';
        m.result = walkoverResult(s, m, m.entrantIds);
      }
    }
    if (!round.matches.every((m) => m.status === 'DONE')) return;
    if (round.number >= roundCount(s.config)) {
      finish(s, at);
      return;
    }
    s.rounds.push(nextRound(round));
  }
}

/** Final standings: the final's places; losers of an earlier round share the place after everyone further on. */
export function standingsOf(s: Pick<TournamentState, 'rounds' | 'entrants'>): Standing[] {
  const out: Standing[] = [];
  const placed = new Set<string>();
  let better = 0;
  for (let i = s.rounds.length - 1; i >= 0; i--) {
    const round = s.rounds[i];
    const last = i === s.rounds.length - 1;
    const here: Standing[] = [];
    for (const m of round.matches) {
      for (const id of m.entrantIds) {
        if (placed.has(id)) continue;
        if (last) here.push({ entrantId: id, place: better + (m.result?.places[id] ?? m.entrantIds.length) });
        else here.push({ entrantId: id, place: better + 1 });
      }
    }
    for (const h of here) placed.add(h.entrantId);
    out.push(...here);
    better += here.length;
  }
  const seed = (id: string) => s.entrants.find((e) => e.id === id)?.seed ?? 0;
  return out.sort((a, b) => a.place - b.place || seed(a.entrantId) - seed(b.entrantId));
}

function finish(s: TournamentState, at: number): void {
  s.status = 'FINISHED';
  s.finishedAt = at;
  s.standings = standingsOf(s);
  s.payouts = payoutsOf(s);
}

type MatchEvent = Extract<
  TournamentEvent,
  { type: 'match_opened' | 'match_started' | 'match_played' | 'match_walkover' | 'match_closed' }
>;

function matchEvent(s: TournamentState, e: MatchEvent): TournamentApplyResult {
  if (!isId(e.matchId)) return fail('BAD_EVENT', 'matchId is required');
  if (s.status !== 'RUNNING') return fail('NOT_RUNNING');
  const current = s.rounds[s.rounds.length - 1];
  if (!findMatch(s, e.matchId)) return fail('UNKNOWN_MATCH');
  const next = clone(s);
  const round = next.rounds[next.rounds.length - 1];
  const m = round.matches.find((x) => x.id === e.matchId);
  if (!m || current.number !== round.number) return fail('MATCH_STATE', 'The match is not in the current round');
  switch (e.type) {
    case 'match_opened':
      if (!isId(e.gameId) || !isTime(e.seatDeadline)) return fail('BAD_EVENT', 'gameId and seatDeadline required');
      if (m.status !== 'PENDING') return fail('MATCH_STATE', 'The match already has a table');
      m.status = 'SEATING';
      m.gameId = e.gameId;
      m.seatDeadline = e.seatDeadline;
      return { ok: true, state: next };
    case 'match_started': {
      if (m.status !== 'SEATING') return fail('MATCH_STATE', 'The match is not seating');
      if (e.present !== undefined) {
        if (!isIdList(e.present)) return fail('BAD_EVENT', 'present must be entrant ids');
        if (!e.present.every((id) => m.entrantIds.includes(id))) {
          return fail('BAD_RESULT', 'present names an entrant not in the match');
        }
        // A game that started is a fact: record who sat (SOLO). PARTNERS teams play on with bots for leavers.
        const present = m.entrantIds.filter((id) => e.present?.includes(id));
        if (next.config.mode === 'SOLO' && present.length < m.entrantIds.length) m.present = present;
      }
      m.status = 'PLAYING';
      return { ok: true, state: next };
    }
    case 'match_played': {
      if (!isRecordOf(e.places, (x) => isInt(x) && (x as number) >= 1 && (x as number) <= 4)) {
        return fail('BAD_EVENT', 'places must map entrant ids to 1..4');
      }
      if (!isRecordOf(e.scores, (x) => typeof x === 'number' && Number.isFinite(x))) {
        return fail('BAD_EVENT', 'scores must map entrant ids to numbers');
      }
      if (m.status !== 'PLAYING') return fail('MATCH_STATE', 'The match is not being played');
      const ranked = Object.keys(e.places);
      if (
        (ranked.length === 0 && !(m.present && m.present.length === 0)) ||
        !ranked.every((id) => m.entrantIds.includes(id)) ||
        !Object.keys(e.scores).every((id) => m.entrantIds.includes(id))
      ) {
        return fail('BAD_RESULT', 'The places must name entrants of the match');
      }
      m.status = 'DONE';
      m.result = resultOf(next, m, { ...e.places }, { walkover: false, gameId: m.gameId, scores: { ...e.scores } });
      settle(next, e.at);
      return { ok: true, state: next };
    }
    case 'match_walkover': {
      if (!isIdList(e.present)) return fail('BAD_EVENT', 'present must be entrant ids');
      if (m.status !== 'PENDING' && m.status !== 'SEATING') {
        return fail('MATCH_STATE', 'A walkover is only possible before the game starts');
      }
      if (!e.present.every((id) => m.entrantIds.includes(id))) {
        return fail('BAD_RESULT', 'present names an entrant not in the match');
      }
      const result = walkoverResult(next, m, e.present);
      if (!result) return fail('BAD_RESULT', 'Enough entrants are present to play');
      m.status = 'DONE';
      m.result = result;
      settle(next, e.at);
      return { ok: true, state: next };
    }
    case 'match_closed': {
      if (!isRecordOf(e.scores, (x) => typeof x === 'number' && Number.isFinite(x))) {
        return fail('BAD_EVENT', 'scores must map entrant ids to numbers');
      }
      if (m.status !== 'SEATING' && m.status !== 'PLAYING') {
        return fail('MATCH_STATE', 'Only a match with an open table can close');
      }
      if (!Object.keys(e.scores).every((id) => m.entrantIds.includes(id))) {
        return fail('BAD_RESULT', 'The scores must name entrants of the match');
      }
      m.status = 'DONE';
      m.result = closedMatchResult(next, m, e.scores);
      settle(next, e.at);
      return { ok: true, state: next };
    }
  }
}
