/**
 * Property tests (fast-check): random registrations (8/16, PARTNERS/SOLO, teams and singles, some players never
 * showing up) and random game results driven to the end the way the backend's driver does; and arbitrary events
 * thrown at the engine.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mulberry32 } from '../bots';
import type { GameMode } from '../rules/settings';
import {
  advanceCount,
  competitionRank,
  matchSeats,
  placesFromGame,
  presentEntrants,
  roundCount,
  seatingOutcome,
} from './bracket';
import { applyTournament, createTournament, matchesToOpen, replayTournament, TOURNAMENT_ERRORS } from './engine';
import { prizePool } from './prizes';
import { testConfig } from './testkit';
import type { TournamentEvent, TournamentSize, TournamentState } from './types';

/** A deep copy with every object's keys in reverse order (Postgres jsonb does not keep key order). */
function reorderKeys<T>(v: T): T {
  if (Array.isArray(v)) return v.map(reorderKeys) as T;
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.entries(v)
        .reverse()
        .map(([k, x]) => [k, reorderKeys(x)]),
    ) as T;
  }
  return v;
}

function check(cond: unknown, msg: string): asserts cond {
  if (!cond) throw new Error(`property violated: ${msg}`);
}

interface Scenario {
  mode: GameMode;
  size: TournamentSize;
  players: number;
  ratings: number[];
  /** PARTNERS: register players 2i and 2i+1 as a team. */
  teams: boolean[];
  /** Players who register and unregister before the start. */
  churn: number;
  free: boolean;
  absentRate: number;
  /** Rate of matches given a walkover before a table is opened (the driver lost the table). */
  lostTables: number;
  /** Rate of games that start with fewer players than the seating check saw. */
  races: number;
  seed: number;
}

const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    mode: fc.constantFrom<GameMode>('PARTNERS', 'SOLO'),
    size: fc.constantFrom<TournamentSize>(8, 16),
    extra: fc.integer({ min: 0, max: 8 }),
    ratings: fc.array(fc.integer({ min: 800, max: 2200 }), { minLength: 16, maxLength: 16 }),
    teams: fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    churn: fc.integer({ min: 0, max: 3 }),
    free: fc.boolean(),
    absentRate: fc.constantFrom(0, 0, 0.1, 0.3, 0.7),
    lostTables: fc.constantFrom(0, 0, 0.1),
    races: fc.constantFrom(0, 0, 0.2),
    seed: fc.integer(),
  })
  .map((r) => ({
    ...r,
    players: r.size / 2 + Math.min(r.extra, r.size / 2),
  }));

interface Run {
  initial: TournamentState;
  final: TournamentState;
  log: TournamentEvent[];
  /** Every state after an accepted event. */
  states: TournamentState[];
}

function run(sc: Scenario): Run {
  const rnd = mulberry32(sc.seed);
  const full = sc.players === sc.size;
  const config = testConfig(sc.mode, sc.size, {
    kind: full ? 'sit_and_go' : 'scheduled',
    minEntrants: full ? undefined : sc.size / 2,
    buyIn: sc.free ? 0 : 100_000,
  });
  const initial = createTournament('tp', config, 0);
  const log: TournamentEvent[] = [];
  const states: TournamentState[] = [];
  let s = initial;
  let at = 0;
  const apply = (e: TournamentEvent) => {
    const r = applyTournament(s, e);
    if (!r.ok) throw new Error(`${e.type} refused: ${r.error} ${r.message} ${JSON.stringify(e)}`);
    s = r.state;
    log.push(e);
    states.push(s);
  };
  const player = (i: number) => ({ userId: `u${i}`, username: `U${i}`, rating: sc.ratings[i % 16] });
  let i = 0;
  while (i < sc.players) {
    if (i === sc.players >> 1) {
      // some players come and go halfway through the registration
      for (let c = 0; c < sc.churn; c++) apply({ type: 'registered', at: ++at, players: [player(100 + c)] });
      for (let c = 0; c < sc.churn; c++) apply({ type: 'unregistered', at: ++at, userId: `u${100 + c}` });
    }
    if (sc.mode === 'PARTNERS' && i + 1 < sc.players && sc.teams[i >> 1]) {
      apply({ type: 'registered', at: ++at, players: [player(i), player(i + 1)] });
      i += 2;
    } else {
      apply({ type: 'registered', at: ++at, players: [player(i)] });
      i += 1;
    }
  }
  apply({ type: 'started', at: ++at });

  const absent = new Set<string>();
  for (let guard = 0; guard < 100 && s.status === 'RUNNING'; guard++) {
    const open = matchesToOpen(s);
    check(open.length > 0, 'a RUNNING tournament has a match to open');
    for (const m of open) {
      if (rnd() < sc.lostTables) {
        // nobody could sit: a walkover straight from PENDING with nobody present
        const r = applyTournament(s, { type: 'match_walkover', at: ++at, matchId: m.id, present: [] });
        if (r.ok) {
          s = r.state;
          log.push({ type: 'match_walkover', at, matchId: m.id, present: [] });
          states.push(s);
          continue;
        }
      }
      apply({ type: 'match_opened', at: ++at, matchId: m.id, gameId: `g-${m.id}`, seatDeadline: at + 120_000 });
    }
    for (const m of open) {
      const cur = s.rounds.flatMap((r) => r.matches).find((x) => x.id === m.id);
      if (!cur || cur.status !== 'SEATING') continue;
      const seated = matchSeats(s, m.id)
        .filter((p): p is { userId: string; username: string } => p !== null)
        .map((p) => p.userId)
        .filter((u) => {
          if (rnd() < sc.absentRate) absent.add(u);
          return !absent.has(u) || rnd() < 0.5;
        });
      const outcome = seatingOutcome(s, m.id, seated);
      const present = presentEntrants(s, m.id, seated);
      if (outcome === 'walkover') {
        apply({ type: 'match_walkover', at: ++at, matchId: m.id, present });
        continue;
      }
      if (rnd() < sc.races) {
        // players left between the deadline and the start: whoever is seated when the game starts counts
        apply({ type: 'match_started', at: ++at, matchId: m.id, present: present.filter(() => rnd() < 0.5) });
      } else {
        apply(
          outcome === 'play'
            ? { type: 'match_started', at: ++at, matchId: m.id }
            : { type: 'match_started', at: ++at, matchId: m.id, present },
        );
      }
      let placesBySeat: number[];
      if (sc.mode === 'PARTNERS') placesBySeat = rnd() < 0.5 ? [1, 2, 1, 2] : [2, 1, 2, 1];
      else {
        const scores: Record<string, number> = {};
        for (let seat = 0; seat < 4; seat++) scores[String(seat)] = -Math.floor(rnd() * 4); // ties happen
        const rank = competitionRank(scores);
        placesBySeat = [0, 1, 2, 3].map((seat) => rank[String(seat)]);
      }
      const g = placesFromGame(
        s,
        m.id,
        placesBySeat,
        placesBySeat.map((p) => 500 - 100 * p),
      );
      apply({ type: 'match_played', at: ++at, matchId: m.id, ...g });
    }
  }
  return { initial, final: s, log, states };
}

function checkRun(sc: Scenario, { initial, final: s, log, states }: Run): void {
  const config = s.config;
  check(s.status === 'FINISHED', `finished (${s.status})`);
  // every match opened at most once, every round created once (and never rewritten)
  const opened = new Map<string, number>();
  for (const e of log) if (e.type === 'match_opened') opened.set(e.matchId, (opened.get(e.matchId) ?? 0) + 1);
  for (const [id, n] of opened) check(n === 1, `match ${id} opened ${n} times`);
  let rounds = 0;
  const firstSeen = new Map<number, string>();
  for (const st of states) {
    check(st.rounds.length >= rounds, 'rounds never disappear');
    rounds = st.rounds.length;
    for (const r of st.rounds) {
      const shape = JSON.stringify(r.matches.map((m) => [m.id, m.entrantIds]));
      const seen = firstSeen.get(r.number);
      if (seen === undefined) firstSeen.set(r.number, shape);
      else check(seen === shape, `round ${r.number} re-created`);
    }
  }
  check(s.rounds.length === roundCount(config) && s.rounds.every((r, i) => r.number === i + 1), 'one of each round');
  // the bracket is consistent
  const entrantIds = s.entrants.map((e) => e.id);
  const r1 = s.rounds[0].matches.flatMap((m) => m.entrantIds);
  check(r1.length === entrantIds.length && new Set(r1).size === r1.length, 'each entrant once in round 1');
  check(
    s.rounds.every((r) => r.matches.every((m) => m.entrantIds.length > 0 && m.status === 'DONE' && m.result)),
    'every match decided, none empty',
  );
  const eliminated = new Set<string>();
  for (let i = 0; i < s.rounds.length; i++) {
    const round = s.rounds[i];
    const playing = round.matches.flatMap((m) => m.entrantIds);
    check(new Set(playing).size === playing.length, `round ${round.number}: nobody twice`);
    check(
      playing.every((id) => !eliminated.has(id)),
      `round ${round.number}: nobody eliminated plays again`,
    );
    const advanced: string[] = [];
    for (const m of round.matches) {
      const res = m.result;
      check(res, 'result');
      check(
        res.advanced.length >= 1 && res.advanced.length <= advanceCount(config, round.number),
        `${m.id}: advance count ${res.advanced.length}`,
      );
      check(
        res.advanced.every((id) => m.entrantIds.includes(id)),
        `${m.id}: advanced entrants played it`,
      );
      check(
        m.entrantIds.every((id) => Number.isInteger(res.places[id])),
        `${m.id}: every entrant placed`,
      );
      for (const id of m.entrantIds) if (!res.advanced.includes(id)) eliminated.add(id);
      advanced.push(...res.advanced);
    }
    const next = s.rounds[i + 1];
    if (next) {
      const nextIds = next.matches.flatMap((m) => m.entrantIds);
      check(
        nextIds.length === advanced.length && advanced.every((id) => nextIds.filter((x) => x === id).length === 1),
        `round ${next.number}: exactly the advanced entrants, once each`,
      );
    }
  }
  const finalMatch = s.rounds[s.rounds.length - 1].matches;
  check(finalMatch.length === 1 && finalMatch[0].result?.advanced.length === 1, 'one final, one winner');
  const winner = finalMatch[0].result.advanced[0];
  check(entrantIds.filter((id) => !eliminated.has(id)).join() === winner, 'exactly one entrant never beaten');
  // standings: every entrant once, the winner first
  check(s.standings.length === entrantIds.length, 'every entrant ranked');
  check(new Set(s.standings.map((x) => x.entrantId)).size === entrantIds.length, 'ranked once');
  check(s.standings[0].entrantId === winner && s.standings[0].place === 1, 'the winner is 1st');
  check(s.standings.filter((x) => x.place === 1).length === 1 || sc.mode === 'SOLO', 'PARTNERS: a single 1st place');
  // prizes
  const players = s.entrants.reduce((a, e) => a + e.players.length, 0);
  const pool = prizePool(config.buyIn, players);
  const paid = s.payouts.reduce((a, p) => a + p.amount, 0);
  check(paid <= pool, `payouts ${paid} ≤ pool ${pool}`);
  const paidPlayers = new Set(s.payouts.map((p) => p.userId)).size;
  check(pool - paid < paidPlayers + config.prizeSplit.length, `remainder ${pool - paid} from flooring only`);
  if (config.buyIn === 0) check(s.payouts.length === 0, 'free: no payouts');
  else check(paid > 0, 'somebody is paid');
  const registered = new Set(s.registrations.map((r) => r.userId));
  const inPlay = new Set(s.entrants.flatMap((e) => e.players.map((p) => p.userId)));
  check(
    s.payouts.every((p) => registered.has(p.userId) && inPlay.has(p.userId) && p.amount > 0),
    'payouts go to players',
  );
  check(players + (s.registrations.length - players) === s.registrations.length, 'registrations kept');
  check(sc.churn === 0 || !registered.has('u100'), 'unregistered players are gone');
  // replay = the step-by-step state, also when every stored snapshot comes back with its keys reordered (jsonb)
  expect(replayTournament(initial, log)).toEqual(s);
  if ((sc.seed & 3) !== 0) return; // the reordered replay is slower: a quarter of the runs
  let fromStore = initial;
  for (const e of log) {
    const r = applyTournament(reorderKeys(fromStore), reorderKeys(e));
    check(r.ok, `stored replay accepts ${e.type}`);
    fromStore = r.state;
  }
  expect(fromStore).toEqual(s);
}

describe('tournament engine properties', () => {
  it('random tournaments run to a consistent end, pay within the pool and replay identically', () => {
    fc.assert(
      fc.property(scenario, (sc) => {
        const r = run(sc);
        checkRun(sc, r);
      }),
      { numRuns: 400 },
    );
  }, 60_000);

  it('full tournaments where everyone shows up play every match', () => {
    fc.assert(
      fc.property(scenario, (sc) => {
        const full = { ...sc, players: sc.size, absentRate: 0, lostTables: 0, races: 0 };
        const r = run(full);
        checkRun(full, r);
        const matches = r.final.rounds.flatMap((x) => x.matches);
        check(
          matches.every((m) => m.result?.walkover === false),
          'no walkover when full and present',
        );
        check(matches.length === (sc.size === 8 ? 3 : 7), 'the full tree is played');
      }),
      { numRuns: 100 },
    );
  }, 60_000);

  it('applyTournament never throws on arbitrary events and refuses with a known code', () => {
    const base = run({
      mode: 'SOLO',
      size: 8,
      players: 8,
      ratings: Array.from({ length: 16 }, (_, i) => 1500 - i),
      teams: [],
      churn: 0,
      free: false,
      absentRate: 0,
      lostTables: 0,
      races: 0,
      seed: 1,
    });
    const stages = [base.initial, ...base.states.filter((_, i) => i % 3 === 0), base.final];
    const matchId = fc.constantFrom('r1m0', 'r1m1', 'r2m0', 'r3m0', 'x', '');
    const ids = fc.array(fc.constantFrom('e1', 'e2', 'e3', 'e4', 'e5', 'e9', ''), { maxLength: 5 });
    const event = fc.oneof(
      fc.anything(),
      fc.record({
        type: fc.constantFrom(
          'registered',
          'unregistered',
          'started',
          'cancelled',
          'match_opened',
          'match_started',
          'match_played',
          'match_walkover',
          'other',
        ),
        at: fc.oneof(fc.integer(), fc.double(), fc.constant(undefined)),
        matchId: fc.oneof(matchId, fc.anything()),
        gameId: fc.oneof(fc.string(), fc.anything()),
        seatDeadline: fc.oneof(fc.integer(), fc.anything()),
        present: fc.oneof(ids, fc.anything()),
        places: fc.oneof(
          fc.dictionary(fc.constantFrom('e1', 'e2', 'e5', 'zz'), fc.integer({ min: -1, max: 5 })),
          fc.anything(),
        ),
        scores: fc.oneof(fc.dictionary(fc.string(), fc.integer()), fc.anything()),
        players: fc.oneof(
          fc.array(fc.record({ userId: fc.string(), username: fc.string(), rating: fc.double() }), { maxLength: 3 }),
          fc.anything(),
        ),
        userId: fc.oneof(fc.constantFrom('u1', 'u2', 'zz'), fc.anything()),
        reason: fc.oneof(fc.string(), fc.anything()),
      }),
    );
    fc.assert(
      fc.property(fc.constantFrom(...stages), fc.array(event, { maxLength: 12 }), (start, events) => {
        let s = start;
        const accepted: TournamentEvent[] = [];
        for (const e of events) {
          const r = applyTournament(s, e as TournamentEvent);
          if (r.ok) {
            s = r.state;
            accepted.push(e as TournamentEvent);
          } else {
            check(r.error in TOURNAMENT_ERRORS, `known code ${r.error}`);
            check(typeof r.message === 'string' && r.message.length > 0, 'a message');
          }
        }
        expect(replayTournament(start, accepted)).toEqual(s);
      }),
      { numRuns: 500 },
    );
  }, 60_000);
});
