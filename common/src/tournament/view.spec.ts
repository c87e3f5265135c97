import { describe, expect, it } from 'vitest';
import { historyItemOf, meOf, summaryFor, summaryOf, tournamentView } from './view';
import { placesFromGame } from './bracket';
import {
  driveToEnd,
  everyoneWinsInSeatOrder,
  newTournament,
  startedWith,
  step,
  testConfig,
  testPlayer,
} from './testkit';
import type { TournamentState } from './types';

function playFirst(s: TournamentState): TournamentState {
  s = step(s, { type: 'match_opened', at: 200, matchId: 'r1m0', gameId: 'g1', seatDeadline: 120_200 });
  s = step(s, { type: 'match_started', at: 300, matchId: 'r1m0' });
  return step(s, {
    type: 'match_played',
    at: 400,
    matchId: 'r1m0',
    ...placesFromGame(s, 'r1m0', [1, 2, 3, 4], [510, 300, 200, 100]),
  });
}

describe('summaryOf / tournamentView / historyItemOf', () => {
  it('summarises a registering sit-and-go with the pool when full', () => {
    let s = newTournament(testConfig('SOLO', 8));
    s = step(s, { type: 'registered', at: 1, players: [testPlayer(1)] });
    expect(summaryOf(s, 'Alice')).toMatchObject({
      id: 't1',
      name: 'Test cup',
      status: 'REGISTERING',
      registered: 1,
      prizePool: 720_000,
      createdByName: 'Alice',
      round: null,
      roundCount: 2,
    });
    const sch = step(newTournament(testConfig('SOLO', 16, { kind: 'scheduled', minEntrants: 8 })), {
      type: 'registered',
      at: 1,
      players: [testPlayer(1)],
    });
    expect(summaryOf(sch, 'Mod').prizePool).toBe(90_000);
  });

  it('shows the viewer their registration, match and live scores', () => {
    let s = startedWith(testConfig('SOLO', 8), 8);
    s = step(s, { type: 'match_opened', at: 200, matchId: 'r1m0', gameId: 'g1', seatDeadline: 120_200 });
    s = step(s, { type: 'match_started', at: 300, matchId: 'r1m0' });
    const v = tournamentView(s, 'Alice', 'u1', { r1m0: { e1: 120, e4: 80 } });
    expect(v.round).toBe(1);
    expect(v.me).toEqual({ registered: true, partnerId: null, eliminated: false });
    expect(v.nextMatch).toEqual({ matchId: 'r1m0', gameId: 'g1', seatDeadline: 120_200 });
    expect(v.rounds[0].matches[0]).toMatchObject({ status: 'PLAYING', scores: { e1: 120, e4: 80 }, places: null });
    expect(v.rounds[0].matches[1].scores).toBeNull();
    const broadcast = tournamentView(s, 'Alice', null);
    expect('me' in broadcast).toBe(false);
    expect('nextMatch' in broadcast).toBe(false);
    expect(tournamentView(s, 'Alice', 'stranger').me).toBeNull();
  });

  it('shows who sat at a SOLO game that started with bots', () => {
    let s = startedWith(testConfig('SOLO', 8), 8);
    s = step(s, { type: 'match_opened', at: 200, matchId: 'r1m0', gameId: 'g1', seatDeadline: 120_200 });
    s = step(s, { type: 'match_started', at: 300, matchId: 'r1m0', present: ['e1', 'e4', 'e8'] });
    const v = tournamentView(s, 'A', null);
    expect(v.rounds[0].matches[0].present).toEqual(['e1', 'e4', 'e8']);
    expect('present' in v.rounds[0].matches[1]).toBe(false);
    expect(historyItemOf(s, 'u5')?.games).toEqual([]);
    expect(historyItemOf(s, 'u8')?.games).toEqual([{ matchId: 'r1m0', round: 1, gameId: 'g1' }]);
  });

  it('marks the beaten as eliminated and lists each player’s games and prize', () => {
    let s = startedWith(testConfig('SOLO', 8), 8);
    s = playFirst(s); // r1m0: e1 e4 e5 e8 → u1, u4 go on
    expect(tournamentView(s, 'A', 'u5').me?.eliminated).toBe(true);
    expect(tournamentView(s, 'A', 'u1').me?.eliminated).toBe(false);
    expect(historyItemOf(s, 'u5')).toMatchObject({
      place: null,
      prize: 0,
      games: [{ matchId: 'r1m0', round: 1, gameId: 'g1' }],
    });
    expect(historyItemOf(s, 'nobody')).toBeNull();
    s = driveToEnd(s, everyoneWinsInSeatOrder);
    const h = historyItemOf(s, 'u1');
    expect(h).toMatchObject({ status: 'FINISHED', place: 1, prize: 360_000 });
    expect(h?.games.map((g) => g.matchId)).toEqual(['r1m0', 'r2m0']);
    expect(historyItemOf(s, 'u5')?.place).toBe(5);
    expect(tournamentView(s, 'A', 'u1').me?.eliminated).toBe(false);
    expect(tournamentView(s, 'A', 'u4').me?.eliminated).toBe(true);
  });

  it('a PARTNERS view names the partner; the dropped single is not in the history', () => {
    let s = newTournament(testConfig('PARTNERS', 8, { kind: 'scheduled', minEntrants: 4 }));
    for (let i = 1; i <= 5; i++) s = step(s, { type: 'registered', at: i, players: [testPlayer(i)] });
    s = step(s, { type: 'started', at: 100 });
    const partner = s.entrants
      .find((e) => e.players.some((p) => p.userId === 'u1'))
      ?.players.find((p) => p.userId !== 'u1');
    expect(tournamentView(s, 'M', 'u1').me?.partnerId).toBe(partner?.userId);
    expect(tournamentView(s, 'M', 'u5').me).toBeNull();
    expect(historyItemOf(s, 'u5')).toBeNull();
    // two teams: both semis are byes, the final is the current round
    expect(summaryOf(s, 'M')).toMatchObject({ registered: 4, prizePool: 360_000, round: 2 });
  });
});

describe('summaryFor / meOf (the lobby row of a signed-in player)', () => {
  it('carries the caller’s part: registered, partner, eliminated; never null in the list', () => {
    let s = newTournament(testConfig('SOLO', 8));
    s = step(s, { type: 'registered', at: 1, players: [testPlayer(1)] });
    expect(summaryFor(s, 'Alice', 'u1').me).toEqual({ registered: true, partnerId: null, eliminated: false });
    expect(summaryFor(s, 'Alice', 'u9').me).toEqual({ registered: false, partnerId: null, eliminated: false });
    expect(meOf(s, 'u9')).toBeNull();
    expect(summaryOf(s, 'Alice').me).toBeUndefined();
    // after round 1's first table: e1 (u1) and e8 went on by seat order 1, 2; u4 and u5 are out
    const played = playFirst(startedWith(testConfig('SOLO', 8), 8));
    const beaten = played.rounds[0].matches[0].entrantIds.filter(
      (id) => !played.rounds[0].matches[0].result!.advanced.includes(id),
    );
    const out = played.entrants.find((e) => e.id === beaten[0])!.players[0].userId;
    expect(summaryFor(played, 'Alice', out).me).toEqual({ registered: true, partnerId: null, eliminated: true });
    expect(summaryFor(played, 'Alice', 'u1').me?.eliminated).toBe(false);
    expect(tournamentView(played, 'Alice', out).me).toEqual(meOf(played, out));
  });

  it('PARTNERS: the partner paired at the start; the odd single dropped at the start is not registered', () => {
    let s = newTournament(testConfig('PARTNERS', 8, { kind: 'scheduled', minEntrants: 4 }));
    for (let i = 1; i <= 5; i++) s = step(s, { type: 'registered', at: i, players: [testPlayer(i)] });
    s = step(s, { type: 'started', at: 20_000 });
    // u5 registered last: dropped; u1 (strongest) is paired with u4 (weakest of the four)
    expect(summaryFor(s, 'Alice', 'u5').me?.registered).toBe(false);
    expect(summaryFor(s, 'Alice', 'u1').me).toEqual({ registered: true, partnerId: 'u4', eliminated: false });
  });
});
