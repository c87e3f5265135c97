import { describe, expect, it } from 'vitest';
import {
  driveToEnd,
  everyoneWinsInSeatOrder,
  newTournament,
  startedWith,
  step,
  testConfig,
  testPlayer,
  type Driver,
} from './testkit';
import {
  applyTournament,
  createTournament,
  DEFAULT_PRIZE_SPLIT,
  droppedAtStart,
  isFull,
  matchesToOpen,
  matchOfUser,
  registeredPlayers,
  replayTournament,
  startCheck,
  TOURNAMENT_ERRORS,
  TOURNAMENT_NO_SHOW_MS,
  TournamentReplayError,
  validateTournamentInput,
} from './engine';
import {
  bracketOrder,
  findMatch,
  matchSeats,
  placesFromGame,
  presentEntrants,
  roundCount,
  seatingOutcome,
  snakeTables,
} from './bracket';
import type { TournamentErrorCode, TournamentEvent, TournamentKind, TournamentState } from './types';
import type { CreateTournamentInput } from '../protocol/tournaments';

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}

function refused(s: TournamentState, e: unknown): TournamentErrorCode {
  const r = applyTournament(s, e as TournamentEvent);
  if (r.ok) throw new Error('expected a refusal');
  expect(r.message).toBeTruthy();
  return r.error;
}

/** Opens a match and returns the state. */
function open(s: TournamentState, matchId: string, at = 500): TournamentState {
  return step(s, { type: 'match_opened', at, matchId, gameId: `g-${matchId}`, seatDeadline: at + 120_000 });
}

function playIn(s: TournamentState, matchId: string, placesBySeat: number[]): TournamentState {
  s = step(open(s, matchId), { type: 'match_started', at: 600, matchId });
  const g = placesFromGame(s, matchId, placesBySeat, [300, 200, 100, 0]);
  return step(s, { type: 'match_played', at: 700, matchId, ...g });
}

const input = (extra: Partial<CreateTournamentInput> = {}): CreateTournamentInput => ({
  name: 'Friday cup',
  mode: 'PARTNERS',
  size: 8,
  buyIn: 100_000,
  ...extra,
});

describe('validateTournamentInput', () => {
  type Opts = { kind: TournamentKind; now: number; createdBy: string };
  const sng: Opts = { kind: 'sit_and_go', now: 1_000, createdBy: 'u1' };
  const sch: Opts = { kind: 'scheduled', now: 1_000, createdBy: 'mod' };

  it('fills the defaults of a sit-and-go', () => {
    const r = validateTournamentInput(input({ startsAt: 5_000, minEntrants: 4 }), sng);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config).toMatchObject({
      name: 'Friday cup',
      kind: 'sit_and_go',
      prizeSplit: DEFAULT_PRIZE_SPLIT.PARTNERS,
      startsAt: null,
      registrationOpensAt: null,
      minEntrants: 8,
      noShowMs: TOURNAMENT_NO_SHOW_MS,
      createdBy: 'u1',
    });
    expect(r.config.rules).toEqual({
      biddingOption: 'REG',
      gimmick: null,
      minPoints: -100,
      maxPoints: 500,
      specialRules: { allowNil: true, allowBlindNil: false, screamer: false, assassin: false },
    });
    expect('buyIn' in r.config.rules).toBe(false);
  });

  it('accepts a scheduled tournament with its window and minimum', () => {
    const r = validateTournamentInput(
      input({ mode: 'SOLO', size: 16, startsAt: 9_000, registrationOpensAt: 2_000, minEntrants: 8, buyIn: 0 }),
      sch,
    );
    expect(r.ok && r.config).toMatchObject({
      kind: 'scheduled',
      startsAt: 9_000,
      registrationOpensAt: 2_000,
      minEntrants: 8,
      buyIn: 0,
      prizeSplit: [50, 30, 20],
    });
  });

  it.each<[string, Partial<CreateTournamentInput>, Opts]>([
    ['a short name', { name: ' a ' }, sng],
    ['an unknown mode', { mode: 'TRIO' as never }, sng],
    ['a size of 12', { size: 12 as never }, sng],
    ['a buy-in off the steps', { buyIn: 123 }, sng],
    ['a negative buy-in', { buyIn: -100_000 }, sng],
    ['a split not summing to 100', { prizeSplit: [60, 30] }, sng],
    ['a rising split', { prizeSplit: [40, 60] }, sng],
    ['a split longer than the places', { prizeSplit: [40, 20, 20, 10, 10] }, sng],
    ['a split with a zero', { prizeSplit: [100, 0] }, sng],
    ['SUICIDE in SOLO', { mode: 'SOLO', rules: { biddingOption: 'GIMMICK', gimmick: 'SUICIDE' } }, sng],
    ['max points off the steps', { rules: { maxPoints: 333 } }, sng],
    ['a no-show time of 5 s', { noShowMs: 5_000 }, sng],
    ['a scheduled one without start', {}, sch],
    ['a scheduled one starting in the past', { startsAt: 500 }, sch],
    ['registration opening after the start', { startsAt: 9_000, registrationOpensAt: 9_000 }, sch],
    ['a minimum below half the size', { startsAt: 9_000, minEntrants: 3 }, sch],
    ['a minimum above the size', { startsAt: 9_000, minEntrants: 9 }, sch],
  ])('refuses %s with BAD_CONFIG', (_, extra, opts) => {
    const r = validateTournamentInput(input(extra), opts);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error).toBe('BAD_CONFIG');
      expect(r.message).toBeTruthy();
    }
  });

  it('knows the number of rounds', () => {
    expect(roundCount({ size: 8 })).toBe(2);
    expect(roundCount({ size: 16 })).toBe(3);
  });

  it('has a message for every error code', () => {
    for (const m of Object.values(TOURNAMENT_ERRORS)) expect(m.length).toBeGreaterThan(3);
  });
});

describe('registration', () => {
  const partners = testConfig('PARTNERS', 8);

  it('registers singles and teams; a team carries each other’s id', () => {
    let s = newTournament(partners);
    s = step(s, { type: 'registered', at: 1, players: [testPlayer(1)] });
    s = step(s, { type: 'registered', at: 2, players: [testPlayer(2), testPlayer(3)] });
    expect(s.registrations.map((r) => [r.userId, r.partnerId])).toEqual([
      ['u1', null],
      ['u2', 'u3'],
      ['u3', 'u2'],
    ]);
    expect(registeredPlayers(s)).toBe(3);
    expect(isFull(s)).toBe(false);
  });

  it('a team unregisters together; a stranger cannot unregister', () => {
    let s = newTournament(partners);
    s = step(s, { type: 'registered', at: 1, players: [testPlayer(1), testPlayer(2)] });
    s = step(s, { type: 'registered', at: 2, players: [testPlayer(3)] });
    s = step(s, { type: 'unregistered', at: 3, userId: 'u2' });
    expect(s.registrations.map((r) => r.userId)).toEqual(['u3']);
    expect(refused(s, { type: 'unregistered', at: 4, userId: 'u9' })).toBe('NOT_REGISTERED');
  });

  it('refuses duplicates, overflow, partners in SOLO, self-partners and malformed players', () => {
    let s = newTournament(partners);
    for (let i = 1; i <= 7; i++) s = step(s, { type: 'registered', at: i, players: [testPlayer(i)] });
    expect(refused(s, { type: 'registered', at: 8, players: [testPlayer(3)] })).toBe('ALREADY_REGISTERED');
    expect(refused(s, { type: 'registered', at: 8, players: [testPlayer(8), testPlayer(9)] })).toBe('FULL');
    expect(refused(s, { type: 'registered', at: 8, players: [testPlayer(8), testPlayer(8)] })).toBe('PARTNER_REQUIRED');
    expect(refused(s, { type: 'registered', at: 8, players: [] })).toBe('BAD_EVENT');
    expect(refused(s, { type: 'registered', at: 8, players: [1, 2, 3].map((i) => testPlayer(i + 20)) })).toBe(
      'BAD_EVENT',
    );
    expect(refused(s, { type: 'registered', at: 8, players: [{ userId: 'x', username: 'x', rating: NaN }] })).toBe(
      'BAD_EVENT',
    );
    s = step(s, { type: 'registered', at: 8, players: [testPlayer(8)] });
    expect(isFull(s)).toBe(true);
    expect(refused(s, { type: 'registered', at: 9, players: [testPlayer(9)] })).toBe('FULL');
    const solo = newTournament(testConfig('SOLO', 8));
    expect(refused(solo, { type: 'registered', at: 1, players: [testPlayer(1), testPlayer(2)] })).toBe(
      'PARTNER_NOT_ALLOWED',
    );
  });

  it('a scheduled tournament takes registrations only inside its window', () => {
    const c = { ...testConfig('SOLO', 8, { kind: 'scheduled', minEntrants: 4 }), registrationOpensAt: 5_000 };
    const s = newTournament(c); // startsAt 10_000
    expect(refused(s, { type: 'registered', at: 4_999, players: [testPlayer(1)] })).toBe('NOT_REGISTERING');
    expect(applyTournament(s, { type: 'registered', at: 5_000, players: [testPlayer(1)] }).ok).toBe(true);
    expect(refused(s, { type: 'registered', at: 10_000, players: [testPlayer(1)] })).toBe('NOT_REGISTERING');
  });

  it('nothing changes registration after the start', () => {
    const s = startedWith(testConfig('SOLO', 8), 8);
    expect(refused(s, { type: 'registered', at: 200, players: [testPlayer(20)] })).toBe('NOT_REGISTERING');
    expect(refused(s, { type: 'unregistered', at: 200, userId: 'u1' })).toBe('NOT_REGISTERING');
    expect(refused(s, { type: 'started', at: 200 })).toBe('NOT_REGISTERING');
  });
});

describe('start', () => {
  it('a sit-and-go needs to be full; a scheduled one its minimum', () => {
    let s = newTournament(testConfig('SOLO', 8));
    for (let i = 1; i <= 7; i++) s = step(s, { type: 'registered', at: i, players: [testPlayer(i)] });
    expect(startCheck(s)).toMatchObject({ ok: false, error: 'TOO_FEW_ENTRANTS' });
    expect(refused(s, { type: 'started', at: 100 })).toBe('TOO_FEW_ENTRANTS');
    let sch = newTournament(testConfig('PARTNERS', 16, { kind: 'scheduled', minEntrants: 10 }));
    for (let i = 1; i <= 9; i++) sch = step(sch, { type: 'registered', at: i, players: [testPlayer(i)] });
    expect(refused(sch, { type: 'started', at: 100 })).toBe('TOO_FEW_ENTRANTS');
    sch = step(sch, { type: 'registered', at: 10, players: [testPlayer(10)] });
    expect(startCheck(sch)).toEqual({ ok: true });
  });

  it('pairs singles strongest with weakest and seeds teams by rating', () => {
    let s = newTournament(testConfig('PARTNERS', 8));
    const ratings = [1200, 1900, 1500, 1000, 1700, 1300];
    ratings.forEach((r, i) => (s = step(s, { type: 'registered', at: i, players: [testPlayer(i + 1, r)] })));
    s = step(s, { type: 'registered', at: 9, players: [testPlayer(7, 1400), testPlayer(8, 1450)] });
    s = step(s, { type: 'started', at: 100 });
    const teams = s.entrants.map((e) => [e.seed, e.players.map((p) => p.rating)]);
    // singles 1900+1000, 1700+1200, 1500+1300; the team 1400+1450 = 2850 (seeded by the sum); the two teams of
    // 2900 are ordered by their first registration (u1 = 1200 registered first)
    expect(teams).toEqual([
      [1, [1700, 1200]],
      [2, [1900, 1000]],
      [3, [1400, 1450]],
      [4, [1500, 1300]],
    ]);
    expect(droppedAtStart(s)).toEqual([]);
  });

  it('drops the single who registered last when the singles are odd', () => {
    let s = newTournament(testConfig('PARTNERS', 8, { kind: 'scheduled', minEntrants: 4 }));
    s = step(s, { type: 'registered', at: 1, players: [testPlayer(1), testPlayer(2)] });
    for (let i = 3; i <= 5; i++) s = step(s, { type: 'registered', at: i, players: [testPlayer(i, 1000 + i)] });
    s = step(s, { type: 'started', at: 100 });
    expect(s.entrants).toHaveLength(2);
    expect(droppedAtStart(s).map((r) => r.userId)).toEqual(['u5']);
    expect(registeredPlayers(s)).toBe(4);
  });

  it('seeds a PARTNERS 16 bracket 1-8, 4-5, 2-7, 3-6 and gives byes to the top seeds', () => {
    expect(bracketOrder(8)).toEqual([1, 8, 4, 5, 2, 7, 3, 6]);
    const s = startedWith(testConfig('PARTNERS', 16, { kind: 'scheduled', minEntrants: 8 }), 10); // 5 teams
    const r1 = s.rounds[0].matches;
    expect(r1.map((m) => m.entrantIds)).toEqual([['e1'], ['e4', 'e5'], ['e2'], ['e3']]);
    expect(r1.map((m) => m.status)).toEqual(['DONE', 'PENDING', 'DONE', 'DONE']);
    expect(r1[0].result).toMatchObject({ advanced: ['e1'], walkover: true, places: { e1: 1 } });
    expect(matchesToOpen(s).map((m) => m.id)).toEqual(['r1m1']);
  });

  it('snake-seeds SOLO tables', () => {
    expect(snakeTables(16, 4)).toEqual([
      [1, 8, 9, 16],
      [2, 7, 10, 15],
      [3, 6, 11, 14],
      [4, 5, 12, 13],
    ]);
    const s = startedWith(testConfig('SOLO', 16), 16);
    expect(s.rounds[0].matches.map((m) => m.entrantIds)).toEqual([
      ['e1', 'e8', 'e9', 'e16'],
      ['e2', 'e7', 'e10', 'e15'],
      ['e3', 'e6', 'e11', 'e14'],
      ['e4', 'e5', 'e12', 'e13'],
    ]);
    expect(matchSeats(s, 'r1m1').map((p) => p?.userId ?? null)).toEqual(['u2', 'u7', 'u10', 'u15']);
  });

  it('SOLO tables of 3 play with a bot; tables of 2 go on at once', () => {
    const s = startedWith(testConfig('SOLO', 16, { kind: 'scheduled', minEntrants: 8 }), 11);
    const sizes = s.rounds[0].matches.map((m) => m.entrantIds.length);
    expect(sizes).toEqual([3, 3, 3, 2]);
    expect(s.rounds[0].matches[3]).toMatchObject({ status: 'DONE', result: { walkover: true } });
    expect(s.rounds[0].matches[3].result?.advanced).toEqual(['e4', 'e5']);
    expect(matchSeats(s, 'r1m0').map((p) => p?.userId ?? null)).toEqual(['u1', 'u8', 'u9', null]);
    expect(seatingOutcome(s, 'r1m0', ['u1', 'u8', 'u9'])).toBe('play');
  });

  it('a SOLO 8 with four players goes straight to the final table', () => {
    const s = startedWith(testConfig('SOLO', 8, { kind: 'scheduled', minEntrants: 4 }), 4);
    expect(s.rounds).toHaveLength(2);
    expect(s.rounds[1].matches[0].entrantIds).toEqual(['e1', 'e2', 'e4', 'e3']);
    expect(matchesToOpen(s).map((m) => m.id)).toEqual(['r2m0']);
  });
});

describe('matches', () => {
  it('PARTNERS seats team A at 0 and 2, team B at 1 and 3; places come from the seats', () => {
    let s = startedWith(testConfig('PARTNERS', 8), 8);
    const teams = s.rounds[0].matches[0].entrantIds.map((id) => s.entrants.find((e) => e.id === id));
    const seats = matchSeats(s, 'r1m0').map((p) => p?.userId);
    expect(seats).toEqual([
      teams[0]?.players[0].userId,
      teams[1]?.players[0].userId,
      teams[0]?.players[1].userId,
      teams[1]?.players[1].userId,
    ]);
    s = step(open(s, 'r1m0'), { type: 'match_started', at: 600, matchId: 'r1m0' });
    expect(placesFromGame(s, 'r1m0', [2, 1, 2, 1], [120, 510, 120, 510])).toEqual({
      places: { e1: 2, e4: 1 },
      scores: { e1: 120, e4: 510 },
    });
    s = step(s, { type: 'match_played', at: 700, matchId: 'r1m0', places: { e1: 2, e4: 1 }, scores: {} });
    expect(findMatch(s, 'r1m0')?.result?.advanced).toEqual(['e4']);
  });

  it('PARTNERS walkovers: a team with a missing player forfeits; both incomplete → the better seed', () => {
    let s = startedWith(testConfig('PARTNERS', 8), 8);
    s = open(s, 'r1m0');
    const [a, b] = s.rounds[0].matches[0].entrantIds.map((id) => s.entrants.find((e) => e.id === id));
    const teamA = a?.players.map((p) => p.userId) ?? [];
    const teamB = b?.players.map((p) => p.userId) ?? [];
    expect(seatingOutcome(s, 'r1m0', [...teamA, ...teamB])).toBe('play');
    expect(seatingOutcome(s, 'r1m0', [...teamA, teamB[0]])).toBe('walkover');
    expect(presentEntrants(s, 'r1m0', [...teamA, teamB[0]])).toEqual(['e1']);
    expect(refused(s, { type: 'match_walkover', at: 900, matchId: 'r1m0', present: ['e1', 'e4'] })).toBe('BAD_RESULT');
    const one = step(s, { type: 'match_walkover', at: 900, matchId: 'r1m0', present: ['e4'] });
    expect(findMatch(one, 'r1m0')?.result).toMatchObject({
      advanced: ['e4'],
      places: { e4: 1, e1: 2 },
      walkover: true,
    });
    const none = step(s, { type: 'match_walkover', at: 900, matchId: 'r1m0', present: [] });
    expect(findMatch(none, 'r1m0')?.result?.advanced).toEqual(['e1']);
  });

  it('SOLO: absent players forfeit; ≤ 2 present go on, 3 present play with a bot and the absent one is last', () => {
    let s = startedWith(testConfig('SOLO', 8), 8);
    s = open(s, 'r1m0'); // e1 e4 e5 e8 (u1 u4 u5 u8)
    expect(seatingOutcome(s, 'r1m0', ['u1', 'u4'])).toBe('walkover');
    expect(seatingOutcome(s, 'r1m0', ['u1', 'u4', 'u8'])).toBe('play_with_bots');
    const wo = step(s, { type: 'match_walkover', at: 900, matchId: 'r1m0', present: ['e8', 'e4'] });
    expect(findMatch(wo, 'r1m0')?.result).toMatchObject({
      advanced: ['e4', 'e8'],
      places: { e4: 1, e8: 2, e1: 3, e5: 3 },
    });
    expect(refused(s, { type: 'match_walkover', at: 900, matchId: 'r1m0', present: ['e1', 'e4', 'e8'] })).toBe(
      'BAD_RESULT',
    );
    expect(refused(s, { type: 'match_started', at: 900, matchId: 'r1m0', present: ['e2'] })).toBe('BAD_RESULT');
    s = step(s, { type: 'match_started', at: 900, matchId: 'r1m0', present: ['e1', 'e4', 'e8'] });
    // seats: u1 u4 u5(bot) u8 — the bot came 1st: only the humans are ranked
    const g = placesFromGame(s, 'r1m0', [3, 4, 1, 2], [100, 50, 300, 200]);
    expect(g.places).toEqual({ e1: 2, e4: 3, e8: 1 });
    expect(refused(s, { type: 'match_played', at: 950, matchId: 'r1m0', places: { e1: 1, e2: 2 }, scores: {} })).toBe(
      'BAD_RESULT',
    );
    s = step(s, { type: 'match_played', at: 950, matchId: 'r1m0', ...g });
    expect(findMatch(s, 'r1m0')?.result).toMatchObject({
      advanced: ['e8', 'e1'],
      places: { e8: 1, e1: 2, e4: 3, e5: 4 },
      walkover: false,
    });
  });

  it('a game that started is recorded whoever sat (races with leavers): the driver never gets stuck', () => {
    let s = startedWith(testConfig('SOLO', 8), 8);
    s = open(s, 'r1m0'); // e1 e4 e5 e8
    const one = step(s, { type: 'match_started', at: 900, matchId: 'r1m0', present: ['e5'] });
    expect(findMatch(one, 'r1m0')?.present).toEqual(['e5']);
    const g = placesFromGame(one, 'r1m0', [1, 2, 3, 4], [400, 300, 200, 100]);
    expect(g.places).toEqual({ e5: 1 });
    const done = step(one, { type: 'match_played', at: 950, matchId: 'r1m0', ...g });
    expect(findMatch(done, 'r1m0')?.result).toMatchObject({ advanced: ['e5'], places: { e5: 1, e1: 2, e4: 2, e8: 2 } });
    // nobody sat: the game ran with bots only; the best seeds go on
    const none = step(s, { type: 'match_started', at: 900, matchId: 'r1m0', present: [] });
    const empty = placesFromGame(none, 'r1m0', [1, 2, 3, 4], [400, 300, 200, 100]);
    expect(empty.places).toEqual({});
    const after = step(none, { type: 'match_played', at: 950, matchId: 'r1m0', ...empty });
    expect(findMatch(after, 'r1m0')?.result?.advanced).toEqual(['e1', 'e4']);
    // PARTNERS: a team whose player left mid-game plays on with a bot: `present` is ignored
    let p = open(startedWith(testConfig('PARTNERS', 8), 8), 'r1m0');
    p = step(p, { type: 'match_started', at: 900, matchId: 'r1m0', present: ['e1'] });
    expect(findMatch(p, 'r1m0')?.present).toBeUndefined();
    expect(placesFromGame(p, 'r1m0', [2, 1, 2, 1], []).places).toEqual({ e1: 2, e4: 1 });
    expect(refused(p, { type: 'match_played', at: 950, matchId: 'r1m0', places: {}, scores: {} })).toBe('BAD_RESULT');
  });

  it('SOLO final: one present wins without a game, nobody present → the best seed, two present play', () => {
    let s = startedWith(testConfig('SOLO', 8, { kind: 'scheduled', minEntrants: 4 }), 4);
    s = open(s, 'r2m0');
    expect(seatingOutcome(s, 'r2m0', ['u3'])).toBe('walkover');
    expect(seatingOutcome(s, 'r2m0', ['u3', 'u4'])).toBe('play_with_bots');
    const one = step(s, { type: 'match_walkover', at: 900, matchId: 'r2m0', present: ['e3'] });
    expect(one.status).toBe('FINISHED');
    expect(one.standings).toEqual([
      { entrantId: 'e3', place: 1 },
      { entrantId: 'e1', place: 2 },
      { entrantId: 'e2', place: 2 },
      { entrantId: 'e4', place: 2 },
    ]);
    // pool 360,000: the winner 50 %, the three tied at 2nd share 30 + 20 → floor(180,000 / 3)
    expect(one.payouts).toEqual([
      { userId: 'u3', amount: 180_000, place: 1 },
      { userId: 'u1', amount: 60_000, place: 2 },
      { userId: 'u2', amount: 60_000, place: 2 },
      { userId: 'u4', amount: 60_000, place: 2 },
    ]);
    const none = step(s, { type: 'match_walkover', at: 900, matchId: 'r2m0', present: [] });
    expect(none.standings[0]).toEqual({ entrantId: 'e1', place: 1 });
    const two = step(s, { type: 'match_started', at: 900, matchId: 'r2m0', present: ['e3', 'e4'] });
    expect(two.status).toBe('RUNNING');
  });

  it('PARTNERS 16 places: 1, 2, 3 tied, 5 tied; prizes split between partners', () => {
    const s = driveToEnd(startedWith(testConfig('PARTNERS', 16), 16), everyoneWinsInSeatOrder);
    expect(s.standings.map((x) => x.place)).toEqual([1, 2, 3, 3, 5, 5, 5, 5]);
    const pool = Math.floor((16 * 100_000 * 9) / 10);
    expect(s.payouts.reduce((a, p) => a + p.amount, 0)).toBeLessThanOrEqual(pool);
    expect(s.payouts.filter((p) => p.place === 1).map((p) => p.amount)).toEqual([468_000, 468_000]);
  });

  it('SOLO final with tied 2nd places shares the 2nd and 3rd prizes', () => {
    const tie: Driver = { seated: () => true, places: (id) => (id === 'r2m0' ? [1, 2, 2, 4] : [1, 2, 3, 4]) };
    const s = driveToEnd(startedWith(testConfig('SOLO', 8), 8), tie);
    expect(s.standings.slice(0, 4).map((x) => x.place)).toEqual([1, 2, 2, 4]);
    // pool 720,000: 1st 360,000; the two 2nds share 30 + 20 % = 360,000 → 180,000 each
    expect(s.payouts.map((p) => [p.place, p.amount])).toEqual([
      [1, 360_000],
      [2, 180_000],
      [2, 180_000],
    ]);
  });

  it('a free tournament pays nothing', () => {
    const s = driveToEnd(startedWith(testConfig('SOLO', 8, { buyIn: 0 }), 8), everyoneWinsInSeatOrder);
    expect(s.status).toBe('FINISHED');
    expect(s.payouts).toEqual([]);
  });

  it('refuses match events out of order with typed errors', () => {
    const reg = newTournament(testConfig('SOLO', 8));
    expect(refused(reg, { type: 'match_opened', at: 1, matchId: 'r1m0', gameId: 'g', seatDeadline: 9 })).toBe(
      'NOT_RUNNING',
    );
    let s = startedWith(testConfig('SOLO', 8), 8);
    expect(refused(s, { type: 'match_opened', at: 1, matchId: 'r9m9', gameId: 'g', seatDeadline: 9 })).toBe(
      'UNKNOWN_MATCH',
    );
    expect(refused(s, { type: 'match_started', at: 1, matchId: 'r1m0' })).toBe('MATCH_STATE');
    s = open(s, 'r1m0');
    expect(refused(s, { type: 'match_opened', at: 1, matchId: 'r1m0', gameId: 'g', seatDeadline: 9 })).toBe(
      'MATCH_STATE',
    );
    expect(refused(s, { type: 'match_played', at: 1, matchId: 'r1m0', places: {}, scores: {} })).toBe('MATCH_STATE');
    s = step(s, { type: 'match_started', at: 1, matchId: 'r1m0' });
    expect(refused(s, { type: 'match_walkover', at: 1, matchId: 'r1m0', present: [] })).toBe('MATCH_STATE');
    expect(refused(s, { type: 'match_played', at: 1, matchId: 'r1m0', places: { e1: 9 }, scores: {} })).toBe(
      'BAD_EVENT',
    );
    s = playIn(
      step(s, { type: 'match_played', at: 1, matchId: 'r1m0', ...placesFromGame(s, 'r1m0', [1, 2, 3, 4], []) }),
      'r1m1',
      [1, 2, 3, 4],
    );
    expect(s.rounds).toHaveLength(2);
    expect(refused(s, { type: 'match_walkover', at: 1, matchId: 'r1m0', present: [] })).toBe('MATCH_STATE');
    expect(refused(s, { type: 'match_walkover', at: 1, matchId: 'r2m0', present: ['e99'] })).toBe('BAD_RESULT');
  });

  it('refuses malformed events with BAD_EVENT and never throws', () => {
    const s = startedWith(testConfig('PARTNERS', 8), 8);
    for (const e of [null, 42, {}, { type: 'nope', at: 1 }, { type: 'started' }, { type: 'match_opened', at: 1 }]) {
      expect(refused(s, e)).toBe('BAD_EVENT');
    }
    expect(refused(s, { type: 'cancelled', at: 1 })).toBe('BAD_EVENT');
    expect(refused(s, { type: 'match_walkover', at: 1, matchId: 'r1m0', present: 'e1' })).toBe('BAD_EVENT');
  });

  it('matchOfUser follows a user through the bracket', () => {
    let s = startedWith(testConfig('PARTNERS', 8), 8);
    expect(matchOfUser(s, 'u1')?.id).toBe('r1m0');
    expect(matchOfUser(s, 'u99')).toBeNull();
    s = playIn(s, 'r1m0', [1, 2, 1, 2]); // e1 (u1 + u8) wins
    expect(matchOfUser(s, 'u1')).toBeNull(); // waiting for the other semi
    const loser = s.entrants.find((e) => e.id === 'e4')?.players[0].userId ?? '';
    expect(matchOfUser(s, loser)).toBeNull();
    s = playIn(s, 'r1m1', [1, 2, 1, 2]);
    expect(matchOfUser(s, 'u1')?.id).toBe('r2m0');
  });
});

describe('error codes', () => {
  it('every TournamentErrorCode is reachable', () => {
    const seen = new Set<TournamentErrorCode>();
    const code = (s: TournamentState, e: unknown) => seen.add(refused(s, e));
    const reg = newTournament(testConfig('PARTNERS', 8));
    const one = step(reg, { type: 'registered', at: 1, players: [testPlayer(1)] });
    code(one, { type: 'registered', at: 2, players: [testPlayer(1)] }); // ALREADY_REGISTERED
    code(one, { type: 'unregistered', at: 2, userId: 'u2' }); // NOT_REGISTERED
    code(one, { type: 'registered', at: 2, players: [testPlayer(2), testPlayer(2)] }); // PARTNER_REQUIRED
    code(newTournament(testConfig('SOLO', 8)), { type: 'registered', at: 1, players: [testPlayer(1), testPlayer(2)] });
    code(one, { type: 'started', at: 2 }); // TOO_FEW_ENTRANTS
    code(one, { type: 'match_opened', at: 2, matchId: 'r1m0', gameId: 'g', seatDeadline: 9 }); // NOT_RUNNING
    code(one, { type: 'what', at: 2 }); // BAD_EVENT
    let full = reg;
    for (let i = 1; i <= 8; i++) full = step(full, { type: 'registered', at: i, players: [testPlayer(i)] });
    code(full, { type: 'registered', at: 9, players: [testPlayer(9)] }); // FULL
    const run = step(full, { type: 'started', at: 10 });
    code(run, { type: 'registered', at: 11, players: [testPlayer(9)] }); // NOT_REGISTERING
    code(run, { type: 'match_opened', at: 11, matchId: 'r7m0', gameId: 'g', seatDeadline: 9 }); // UNKNOWN_MATCH
    code(run, { type: 'match_started', at: 11, matchId: 'r1m0' }); // MATCH_STATE
    code(run, { type: 'match_walkover', at: 11, matchId: 'r1m0', present: ['e1', 'e4'] }); // BAD_RESULT
    const bad = validateTournamentInput(input({ size: 4 as never }), { kind: 'sit_and_go', now: 0, createdBy: 'u' });
    if (!bad.ok) seen.add(bad.error);
    expect([...seen].sort()).toEqual(Object.keys(TOURNAMENT_ERRORS).sort());
  });
});

describe('cancel, replay, purity', () => {
  it('cancels from REGISTERING and RUNNING, not after the end', () => {
    const reg = step(newTournament(testConfig('SOLO', 8)), { type: 'cancelled', at: 5, reason: 'below minimum' });
    expect(reg).toMatchObject({ status: 'CANCELLED', cancelReason: 'below minimum', finishedAt: 5 });
    expect(refused(reg, { type: 'cancelled', at: 6, reason: 'x' })).toBe('NOT_RUNNING');
    expect(refused(reg, { type: 'registered', at: 6, players: [testPlayer(1)] })).toBe('NOT_REGISTERING');
    const run = step(startedWith(testConfig('SOLO', 8), 8), { type: 'cancelled', at: 500, reason: 'staff' });
    expect(run.status).toBe('CANCELLED');
    expect(matchesToOpen(run)).toEqual([]);
    const done = driveToEnd(startedWith(testConfig('SOLO', 8), 8), everyoneWinsInSeatOrder);
    expect(refused(done, { type: 'cancelled', at: 9_999, reason: 'x' })).toBe('NOT_RUNNING');
    expect(refused(done, { type: 'match_opened', at: 1, matchId: 'r2m0', gameId: 'g', seatDeadline: 9 })).toBe(
      'NOT_RUNNING',
    );
  });

  it('never mutates its input and replays to the same state', () => {
    const config = testConfig('SOLO', 16);
    const log: TournamentEvent[] = [];
    const s0 = deepFreeze(createTournament('t1', config, 0));
    let s: TournamentState = s0;
    for (let i = 1; i <= 16; i++) {
      s = deepFreeze(step(s, { type: 'registered', at: i, players: [testPlayer(i)] }, log));
    }
    s = deepFreeze(step(s, { type: 'started', at: 100 }, log));
    s = driveToEnd(s, everyoneWinsInSeatOrder, log);
    expect(replayTournament(s0, log)).toEqual(s);
    expect(s0.registrations).toEqual([]);
  });

  it('replayTournament throws a TournamentError on a refused event', () => {
    const s0 = createTournament('t1', testConfig('SOLO', 8), 0);
    expect(() => replayTournament(s0, [{ type: 'started', at: 1 }])).toThrow(TournamentReplayError);
    try {
      replayTournament(s0, [{ type: 'started', at: 1 }]);
    } catch (err) {
      expect((err as TournamentReplayError).code).toBe('TOO_FEW_ENTRANTS');
    }
  });
});
