import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_MATCHMAKING_CONFIG as CFG,
  EMPTY_QUEUE,
  matchStep,
  QueueState,
  QueueTicket,
  seatPlayers,
  spreadWindow,
} from './matcher';

/** A stream of arrivals (some teams) and leaves over time, played through matchStep every `tick` ms. */
const scenario = fc.record({
  tick: fc.integer({ min: 100, max: 5_000 }),
  events: fc.array(
    fc.record({
      at: fc.integer({ min: 0, max: 120_000 }),
      team: fc.boolean(),
      mode: fc.constantFrom('PARTNERS' as const, 'SOLO' as const),
      pace: fc.constantFrom('normal' as const, 'fast' as const),
      stake: fc.constantFrom(100_000, 1_000_000),
      ratings: fc.tuple(fc.integer({ min: 800, max: 2400 }), fc.integer({ min: 800, max: 2400 })),
      leaveAfter: fc.option(fc.integer({ min: 0, max: 90_000 }), { nil: null }),
    }),
    { maxLength: 60 },
  ),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer T> ? T : never;

function run(s: Scenario) {
  const tickets: QueueTicket[] = s.events.map((e, i) => {
    const team = e.team && e.mode === 'PARTNERS';
    return {
      id: `t${i}`,
      players: team
        ? [
            { userId: `u${i}a`, rating: e.ratings[0] },
            { userId: `u${i}b`, rating: e.ratings[1] },
          ]
        : [{ userId: `u${i}a`, rating: e.ratings[0] }],
      mode: e.mode,
      pace: e.pace,
      stake: e.stake,
      joinedAt: e.at,
    };
  });
  const leaves = s.events.map((e, i) => (e.leaveAfter === null ? null : { id: `t${i}`, at: e.at + e.leaveAfter }));
  let state: QueueState = EMPTY_QUEUE;
  const tables: ReturnType<typeof matchStep>['tables'] = [];
  const offeredAt = new Map<string, number>();
  const matchedAt = new Map<string, number>();
  const leftAt = new Map<string, number>();
  const end = 120_000 + CFG.botOfferAfterMs + 2 * s.tick;
  for (let now = 0, prev = -1; now <= end; prev = now, now += s.tick) {
    const arrivals = tickets
      .filter((t) => t.joinedAt > prev && t.joinedAt <= now)
      .map((t) => ({ ...t, joinedAt: now }));
    for (const a of arrivals) tickets[Number(a.id.slice(1))] = a;
    const going = leaves
      .filter((l): l is { id: string; at: number } => l !== null && l.at > prev && l.at <= now && !matchedAt.has(l.id))
      .map((l) => l.id);
    for (const id of going) if (!leftAt.has(id)) leftAt.set(id, now);
    const r = matchStep(state, { arrivals, leaves: going, now }, CFG);
    state = r.state;
    for (const t of r.tables) {
      tables.push(t);
      for (const k of t.tickets) matchedAt.set(k.id, now);
    }
    for (const o of r.botOffers) offeredAt.set(o.id, now);
  }
  return { tickets, tables, offeredAt, matchedAt, leftAt, state };
}

describe('matchStep (issue #28)', () => {
  it('never seats one player twice, keeps teams as partners, fits the spread in the window of the wait', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { tables, tickets, matchedAt } = run(s);
        const seated = tables.flatMap((t) => t.seats);
        expect(new Set(seated).size).toBe(seated.length);
        for (const t of tables) {
          expect(t.seats).toHaveLength(4);
          // the spread fits the window of the longest-waiting member's wait when the table formed
          const oldest = Math.min(...t.tickets.map((k) => k.joinedAt));
          expect(t.window).toBe(spreadWindow(matchedAt.get(t.tickets[0]!.id)! - oldest, CFG));
          expect(t.spread).toBeLessThanOrEqual(t.window);
          for (const k of t.tickets) {
            expect(k.mode).toBe(t.mode);
            expect(k.pace).toBe(t.pace);
            expect(k.stake).toBe(t.stake);
            if (k.players.length === 2) {
              const a = t.seats.indexOf(k.players[0]!.userId);
              const b = t.seats.indexOf(k.players[1]!.userId);
              expect((a + 2) % 4).toBe(b);
            }
          }
          const ratings = t.tickets.flatMap((k) => k.players.map((p) => p.rating));
          expect(Math.max(...ratings) - Math.min(...ratings)).toBe(t.spread);
        }
        // every seated player came from a ticket
        const known = new Set(tickets.flatMap((k) => k.players.map((p) => p.userId)));
        for (const u of seated) expect(known.has(u)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('starves nobody: every ticket is matched, leaves, or is offered bots within botOfferAfterMs + one tick', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const { tickets, offeredAt, matchedAt, leftAt } = run(s);
        for (const t of tickets) {
          const settled = Math.min(
            offeredAt.get(t.id) ?? Infinity,
            matchedAt.get(t.id) ?? Infinity,
            leftAt.get(t.id) ?? Infinity,
          );
          expect(settled - t.joinedAt).toBeLessThanOrEqual(CFG.botOfferAfterMs + s.tick);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('a table forms from the oldest tickets only when the spread fits: a wide pair waits, then the window opens', () => {
    const t = (id: string, rating: number, joinedAt = 0): QueueTicket => ({
      id,
      players: [{ userId: id, rating }],
      mode: 'SOLO',
      pace: 'normal',
      stake: 100_000,
      joinedAt,
    });
    const first = matchStep(EMPTY_QUEUE, {
      arrivals: [t('a', 1500), t('b', 1510), t('c', 1520), t('d', 1900)],
      now: 0,
    });
    expect(first.tables).toHaveLength(0);
    expect(first.state.tickets.map((x) => x.id)).toEqual(['a', 'b', 'c', 'd']);
    // after 30 s the window is 100 + 300 = 400: 1900 − 1500 fits
    const later = matchStep(first.state, { now: 30_000 });
    expect(later.tables).toHaveLength(1);
    expect(later.tables[0]!.spread).toBe(400);
    expect(later.state.tickets).toHaveLength(0);
  });

  it('offers bots once after the wait, and forgets the offer when the ticket leaves', () => {
    const lone: QueueTicket = {
      id: 'x',
      players: [{ userId: 'x', rating: 1500 }],
      mode: 'PARTNERS',
      pace: 'fast',
      stake: 100_000,
      joinedAt: 0,
    };
    const a = matchStep(EMPTY_QUEUE, { arrivals: [lone], now: 0 });
    expect(a.botOffers).toHaveLength(0);
    const b = matchStep(a.state, { now: CFG.botOfferAfterMs });
    expect(b.botOffers.map((o) => o.id)).toEqual(['x']);
    const c = matchStep(b.state, { now: CFG.botOfferAfterMs + 1000 });
    expect(c.botOffers).toHaveLength(0);
    const d = matchStep(c.state, { leaves: ['x'], now: CFG.botOfferAfterMs + 2000 });
    expect(d.state).toEqual({ tickets: [], offered: [] });
  });

  it('refuses a team in SOLO and a user queued twice; a new ticket of a queued user replaces the old one', () => {
    const solo: QueueTicket = {
      id: 's',
      players: [
        { userId: 'p', rating: 1 },
        { userId: 'q', rating: 1 },
      ],
      mode: 'SOLO',
      pace: 'normal',
      stake: 1,
      joinedAt: 0,
    };
    expect(matchStep(EMPTY_QUEUE, { arrivals: [solo], now: 0 }).state.tickets).toHaveLength(0);
    const one: QueueTicket = {
      id: 'p',
      players: [{ userId: 'p', rating: 1 }],
      mode: 'SOLO',
      pace: 'normal',
      stake: 1,
      joinedAt: 0,
    };
    const again: QueueTicket = { ...one, id: 'p2', pace: 'fast', joinedAt: 5 };
    const s1 = matchStep(EMPTY_QUEUE, { arrivals: [one], now: 0 }).state;
    const s2 = matchStep(s1, { arrivals: [again], now: 5 }).state;
    expect(s2.tickets.map((x) => x.id)).toEqual(['p2']);
  });

  it('balances four singles in PARTNERS (best + worst against the middle two) and seats teams as partners', () => {
    const single = (id: string, rating: number): QueueTicket => ({
      id,
      players: [{ userId: id, rating }],
      mode: 'PARTNERS',
      pace: 'normal',
      stake: 1,
      joinedAt: 0,
    });
    expect(
      seatPlayers([single('a', 1000), single('b', 1300), single('c', 1200), single('d', 1100)], 'PARTNERS'),
    ).toEqual(['b', 'c', 'a', 'd']);
    const team: QueueTicket = {
      id: 't',
      players: [
        { userId: 't1', rating: 1 },
        { userId: 't2', rating: 1 },
      ],
      mode: 'PARTNERS',
      pace: 'normal',
      stake: 1,
      joinedAt: 0,
    };
    expect(seatPlayers([single('a', 1), team, single('b', 1)], 'PARTNERS')).toEqual(['t1', 'a', 't2', 'b']);
  });
});
