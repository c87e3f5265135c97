/**
 * Issue #27: a match whose table closed without a finished game (staff closed a stuck table) is decided by the score
 * at that moment — PARTNERS: the team ahead; SOLO: the top two (the final: the top one); equal scores → the better
 * seed. The outcome is recorded as `closed` (event `match_closed`), shown on the bracket, and pays as usual.
 */
import { describe, expect, it } from 'vitest';
import { closedMatchResult, findMatch } from './bracket';
import { applyTournament, replayTournament, createTournament } from './engine';
import { startedWith, step, testConfig } from './testkit';
import type { TournamentEvent, TournamentState } from './types';
import { historyItemOf, tournamentView } from './view';

function open(s: TournamentState, matchId: string, at = 500): TournamentState {
  return step(s, { type: 'match_opened', at, matchId, gameId: `g-${matchId}`, seatDeadline: at + 120_000 });
}

function refusal(s: TournamentState, e: unknown): string {
  const r = applyTournament(s, e as TournamentEvent);
  if (r.ok) throw new Error('expected a refusal');
  return r.error;
}

describe('closedMatchResult (pure decision rule)', () => {
  it('PARTNERS: the team ahead goes on; a tie goes to the better seed', () => {
    const s = open(startedWith(testConfig('PARTNERS', 8), 8), 'r1m0'); // e1 v e4
    const m = findMatch(s, 'r1m0')!;
    expect(closedMatchResult(s, m, { e1: 120, e4: 250 })).toMatchObject({
      advanced: ['e4'],
      places: { e4: 1, e1: 2 },
      closed: true,
      walkover: false,
      scores: { e1: 120, e4: 250 },
    });
    expect(closedMatchResult(s, m, { e1: 80, e4: 80 }).advanced).toEqual(['e1']);
    // negative scores count as scores: the less negative team is ahead
    expect(closedMatchResult(s, m, { e1: -120, e4: -20 }).advanced).toEqual(['e4']);
    // no score (closed before a hand ended) = 0
    expect(closedMatchResult(s, m, { e4: 10 }).advanced).toEqual(['e4']);
    expect(closedMatchResult(s, m, {})).toMatchObject({ advanced: ['e1'], scores: { e1: 0, e4: 0 } });
  });

  it('SOLO: the top two by score go on; ties at the cut by seed; the final sends one', () => {
    let s = open(startedWith(testConfig('SOLO', 8), 8), 'r1m0'); // e1 e4 e5 e8
    const m = findMatch(s, 'r1m0')!;
    expect(closedMatchResult(s, m, { e1: 10, e4: 90, e5: 50, e8: 70 })).toMatchObject({
      advanced: ['e4', 'e8'],
      places: { e4: 1, e8: 2, e5: 3, e1: 4 },
    });
    // e5 and e8 tie for 2nd: the better seed (e5) goes on; both share the place
    expect(closedMatchResult(s, m, { e1: 10, e4: 90, e5: 50, e8: 50 })).toMatchObject({
      advanced: ['e4', 'e5'],
      places: { e4: 1, e5: 2, e8: 2, e1: 4 },
    });
    // a SOLO player absent at the start (a bot played the seat) ranks last whatever the bot scored
    s = step(s, { type: 'match_started', at: 600, matchId: 'r1m0', present: ['e4', 'e5', 'e8'] });
    const withBot = findMatch(s, 'r1m0')!;
    expect(closedMatchResult(s, withBot, { e1: 300, e4: 0, e5: 20, e8: 10 })).toMatchObject({
      advanced: ['e5', 'e8'],
      places: { e5: 1, e8: 2, e4: 3, e1: 4 },
    });
  });
});

describe('match_closed', () => {
  it('decides a PLAYING match and advances the bracket; the snapshot replays', () => {
    const log: TournamentEvent[] = [];
    let s = startedWith(testConfig('PARTNERS', 8), 8, log);
    for (const id of ['r1m0', 'r1m1']) {
      s = step(s, { type: 'match_opened', at: 500, matchId: id, gameId: `g-${id}`, seatDeadline: 9_000 }, log);
      s = step(s, { type: 'match_started', at: 600, matchId: id }, log);
    }
    s = step(s, { type: 'match_closed', at: 700, matchId: 'r1m0', scores: { e1: 40, e4: 160 } }, log);
    s = step(
      s,
      { type: 'match_played', at: 710, matchId: 'r1m1', places: { e2: 1, e3: 2 }, scores: { e2: 300, e3: 100 } },
      log,
    );
    expect(s.rounds).toHaveLength(2);
    expect(s.rounds[1].matches[0].entrantIds).toEqual(['e4', 'e2']);
    const view = tournamentView(s, 'admin', null);
    expect(view.rounds[0].matches[0]).toMatchObject({ closed: true, walkover: false, advanced: ['e4'] });
    expect(view.rounds[0].matches[1].closed).toBe(false);
    expect(replayTournament(createTournament(s.id, s.config, s.createdAt), log)).toEqual(s);
    // the closed game has no replay: it is not in the players' history
    const loser = s.entrants.find((e) => e.id === 'e1')!.players[0].userId;
    expect(historyItemOf(s, loser)?.games).toEqual([]);
  });

  it('a table closed before its game started: the best seeds go on; the final closed pays the places', () => {
    let s = startedWith(testConfig('SOLO', 8, { kind: 'scheduled', minEntrants: 4 }), 4); // the final at once
    s = open(s, 'r2m0');
    const seating = step(s, { type: 'match_closed', at: 700, matchId: 'r2m0', scores: {} });
    expect(seating.status).toBe('FINISHED');
    expect(seating.standings[0]).toEqual({ entrantId: 'e1', place: 1 });
    s = step(s, { type: 'match_started', at: 600, matchId: 'r2m0' });
    const done = step(s, { type: 'match_closed', at: 700, matchId: 'r2m0', scores: { e1: 5, e2: 60, e3: 60, e4: 0 } });
    expect(done.status).toBe('FINISHED');
    expect(done.standings).toEqual([
      { entrantId: 'e2', place: 1 },
      { entrantId: 'e3', place: 1 },
      { entrantId: 'e1', place: 3 },
      { entrantId: 'e4', place: 4 },
    ]);
    // pool 360,000: e2 and e3 share 50 + 30; e1 gets the 20 %
    expect(done.payouts.map((p) => p.amount)).toEqual([144_000, 144_000, 72_000]);
  });

  it('is refused out of state, for strangers and malformed scores', () => {
    let s = startedWith(testConfig('SOLO', 8), 8);
    expect(refusal(s, { type: 'match_closed', at: 700, matchId: 'r1m0', scores: {} })).toBe('MATCH_STATE'); // PENDING
    s = open(s, 'r1m0');
    expect(refusal(s, { type: 'match_closed', at: 700, matchId: 'r1m0', scores: { e2: 1 } })).toBe('BAD_RESULT');
    expect(refusal(s, { type: 'match_closed', at: 700, matchId: 'r1m0', scores: { e1: 'x' } })).toBe('BAD_EVENT');
    expect(refusal(s, { type: 'match_closed', at: 700, matchId: 'r1m0' })).toBe('BAD_EVENT');
    expect(refusal(s, { type: 'match_closed', at: 700, matchId: 'r9m9', scores: {} })).toBe('UNKNOWN_MATCH');
    s = step(s, { type: 'match_closed', at: 700, matchId: 'r1m0', scores: {} });
    expect(refusal(s, { type: 'match_closed', at: 701, matchId: 'r1m0', scores: {} })).toBe('MATCH_STATE');
  });
});
