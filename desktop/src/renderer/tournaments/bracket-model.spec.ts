/** Issue #27: the tournament page's model over real engine views (common's engine + view), no React. */
import { describe, expect, it } from 'vitest';
import { tournamentView, type TournamentState } from '@spades/common';
import {
  driveToEnd,
  everyoneWinsInSeatOrder,
  newTournament,
  startedWith,
  step,
  testConfig,
  testPlayer,
} from '../../../../common/src/tournament/testkit';
import {
  bracketColumns,
  countdown,
  entrantOf,
  isEliminated,
  myMatch,
  ordinal,
  prizeLines,
  registrationGroups,
  roundTitle,
  splitLabel,
  standingRows,
} from './bracket-model';

const view = (s: TournamentState, viewer: string | null = 'u1') => tournamentView(s, 'Admin', viewer);

describe('labels', () => {
  it('ordinals, countdowns, splits and round names', () => {
    expect([1, 2, 3, 4, 5, 11, 12, 13, 21, 22].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '5th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
    ]);
    expect(countdown(120_000)).toBe('2:00');
    expect(countdown(65_001)).toBe('1:06');
    expect(countdown(-5)).toBe('0:00');
    expect(splitLabel([65, 35])).toBe('1st 65% · 2nd 35%');
    expect(roundTitle('PARTNERS', 1, 3)).toBe('Quarter-finals');
    expect(roundTitle('PARTNERS', 2, 3)).toBe('Semi-finals');
    expect(roundTitle('PARTNERS', 3, 3)).toBe('Final');
    expect(roundTitle('SOLO', 1, 2)).toBe('Round 1');
    expect(roundTitle('SOLO', 2, 2)).toBe('Final table');
  });

  it('prize lines floor each share of the pool; a free tournament has none', () => {
    expect(prizeLines({ prizePool: 1001, prizeSplit: [50, 30, 20], buyIn: 139 })).toEqual([
      { place: 1, percent: 50, amount: 500 },
      { place: 2, percent: 30, amount: 300 },
      { place: 3, percent: 20, amount: 200 },
    ]);
    expect(prizeLines({ prizePool: 0, prizeSplit: [65, 35], buyIn: 0 })).toEqual([]);
  });
});

describe('registering', () => {
  it('shows every round as placeholder tables and the registrations as teams', () => {
    let s = newTournament(testConfig('PARTNERS', 8));
    s = step(s, { type: 'registered', at: 1, players: [testPlayer(1), testPlayer(2)] });
    s = step(s, { type: 'registered', at: 2, players: [testPlayer(3)] });
    const v = view(s);
    const cols = bracketColumns(v, 'u1');
    expect(cols.map((c) => [c.title, c.matches.length, c.matches.every((m) => m.placeholder)])).toEqual([
      ['Semi-finals', 2, true],
      ['Final', 1, true],
    ]);
    expect(registrationGroups(v)).toEqual([['User1', 'User2'], ['User3']]);
    expect(myMatch(v, 'u1')).toBeNull();
  });
});

describe('PARTNERS 16', () => {
  it('round 1 has four tables of two teams; my match, its table and deadline once opened', () => {
    let s = startedWith(testConfig('PARTNERS', 16), 16);
    let v = view(s);
    const cols = bracketColumns(v, 'u1');
    expect(cols.map((c) => c.title)).toEqual(['Quarter-finals', 'Semi-finals', 'Final']);
    expect(cols[0].current).toBe(true);
    expect(cols[0].matches).toHaveLength(4);
    expect(cols[0].matches.every((m) => m.rows.length === 2 && !m.placeholder)).toBe(true);
    expect(cols[1].matches.every((m) => m.placeholder)).toBe(true);
    const me = entrantOf(v, 'u1');
    expect(me?.players.map((p) => p.userId)).toContain('u1');
    const mine = cols[0].matches.filter((m) => m.mine);
    expect(mine).toHaveLength(1);
    expect(mine[0].rows.find((r) => r.mine)?.name).toContain('User1');

    const m = myMatch(v, 'u1');
    expect(m).toMatchObject({ round: 1, roundTitle: 'Quarter-finals', gameId: null, status: 'PENDING' });
    expect(m?.opponents).toHaveLength(1);
    expect(m?.opponents[0]).toMatch(/^User\d+ & User\d+$/);

    s = step(s, { type: 'match_opened', at: 200, matchId: m!.matchId, gameId: 'g-1', seatDeadline: 120_200 });
    v = view(s);
    expect(myMatch(v, 'u1')).toMatchObject({ gameId: 'g-1', seatDeadline: 120_200, status: 'SEATING' });
    const opened = bracketColumns(v, 'u1')[0].matches.find((x) => x.id === m!.matchId);
    expect(opened).toMatchObject({ gameId: 'g-1', status: 'SEATING' });
  });

  it('finished: the winners advance through every column, standings carry the prizes', () => {
    const s = driveToEnd(startedWith(testConfig('PARTNERS', 16), 16), everyoneWinsInSeatOrder);
    expect(s.status).toBe('FINISHED');
    const v = view(s);
    const cols = bracketColumns(v, 'u1');
    expect(cols.some((c) => c.current)).toBe(false);
    for (const c of cols) {
      for (const m of c.matches) {
        expect(m.status).toBe('DONE');
        expect(m.rows.filter((r) => r.advanced)).toHaveLength(1);
        expect(m.rows.filter((r) => r.out)).toHaveLength(1);
      }
    }
    // a winner of round r is one of the teams of round r+1
    for (let r = 0; r < cols.length - 1; r++) {
      const next = new Set(cols[r + 1].matches.flatMap((m) => m.rows.map((x) => x.entrantId)));
      for (const m of cols[r].matches) expect(next.has(m.rows.find((x) => x.advanced)!.entrantId)).toBe(true);
    }
    const rows = standingRows(v, 'u1');
    expect(rows[0].place).toBe(1);
    expect(rows.map((r) => r.place)).toEqual([...rows.map((r) => r.place)].sort((a, b) => a - b));
    expect(rows.reduce((a, r) => a + r.prize, 0)).toBe(v.payouts.reduce((a, p) => a + p.amount, 0));
    expect(rows[0].prize).toBeGreaterThan(0);
    expect(rows.filter((r) => r.mine)).toHaveLength(1);
    expect(myMatch(v, 'u1')).toBeNull();
  });
});

describe('SOLO 16', () => {
  it('four tables, then two, then the final table; a played table lists places, two advance', () => {
    const s = driveToEnd(startedWith(testConfig('SOLO', 16), 16), everyoneWinsInSeatOrder);
    const v = view(s);
    const cols = bracketColumns(v, null);
    expect(cols.map((c) => [c.title, c.matches.length])).toEqual([
      ['Round 1', 4],
      ['Round 2', 2],
      ['Final table', 1],
    ]);
    const first = cols[0].matches[0];
    expect(first.rows).toHaveLength(4);
    expect(first.rows.map((r) => r.place)).toEqual([1, 2, 3, 4]);
    expect(first.rows.filter((r) => r.advanced).map((r) => r.place)).toEqual([1, 2]);
    expect(first.rows.filter((r) => r.out)).toHaveLength(2);
    expect(first.rows.every((r) => r.score !== null)).toBe(true);
    // someone knocked out in round 1 sees it
    const outId = first.rows.find((r) => r.out)!.entrantId;
    const outUser = v.entrants.find((e) => e.id === outId)!.players[0].userId;
    expect(isEliminated(v, outUser)).toBe(true);
    expect(standingRows(v, null)).toHaveLength(16);
  });
});

describe('a table closed by staff', () => {
  it('marks that match closed (decided by its score then), the others and the placeholders not', () => {
    let s = startedWith(testConfig('PARTNERS', 8), 8);
    const [first, second] = s.rounds[0].matches;
    s = step(s, { type: 'match_opened', at: 100, matchId: first.id, gameId: 'g-closed', seatDeadline: 120_100 });
    const [a, b] = first.entrantIds;
    s = step(s, { type: 'match_closed', at: 200, matchId: first.id, scores: { [a]: 120, [b]: 310 } });
    const cols = bracketColumns(view(s), 'u1');
    const closed = cols[0].matches.find((m) => m.id === first.id)!;
    expect(closed).toMatchObject({ status: 'DONE', closed: true, walkover: false });
    expect(closed.rows.filter((r) => r.advanced).map((r) => r.entrantId)).toEqual([b]);
    expect(cols[0].matches.find((m) => m.id === second.id)!.closed).toBe(false);
    expect(cols[1].matches.every((m) => m.placeholder && !m.closed)).toBe(true);
  });

  it('a view from a server before the rule (no `closed`) is not closed', () => {
    const v = view(driveToEnd(startedWith(testConfig('SOLO', 8), 8), everyoneWinsInSeatOrder));
    const old = {
      ...v,
      rounds: v.rounds.map((r) => ({ ...r, matches: r.matches.map(({ closed: _c, ...m }) => m) })),
    };
    expect(bracketColumns(old, null).flatMap((c) => c.matches.map((m) => m.closed))).toEqual([false, false, false]);
  });
});
