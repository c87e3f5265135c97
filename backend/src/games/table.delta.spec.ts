/**
 * Lean persistence property: for random table histories (seating, bots, starts, bids and cards, timeouts,
 * chat, leaves, Play Again, timers firing) stored as the server stores them — an event row per command
 * (engine actions + delta) and a full snapshot at the boundaries of `needsSnapshot` — a restore at ANY point
 * (last snapshot + replay of the later rows through common's `apply`) equals the live record.
 */
import fc from 'fast-check';
import { DEFAULT_SETTINGS, GameSettings, legalBids, legalCards, Seat, viewFor } from '@spades/common';
import type { GamesConfig } from './games.config';
import { Effects, newEffects, Participant, TableError, TableMachine, TableRecord } from './table';
import { draftOf, freezeCommitted, newTable } from './table.new';
import { applyEvent, needsSnapshot, restoreRecord, tableDelta, TableDelta } from './table.delta';

const cfg: GamesConfig = {
  turnTimeoutMs: 1000,
  trickDisplayMs: 50,
  handSummaryMs: 100,
  resultMs: 200,
  seatReplacementMs: 500,
  botDelayMinMs: 10,
  botDelayMaxMs: 20,
  maxConsecutiveTimeouts: 2,
  botLevel: 'basic',
  chatHistory: 5,
  inviteReservationMs: 300,
  waitingHostTimeoutMs: 60_000,
};

const users: Participant[] = [0, 1, 2, 3, 4].map((i) => ({ userId: `u${i}`, username: `User ${i}`, avatar: null }));

type Step =
  | { kind: 'join'; user: number; seat: number | null }
  | { kind: 'spectate'; user: number }
  | { kind: 'leave'; user: number }
  | { kind: 'bot'; seat: number; midgame: boolean; remove: boolean }
  | { kind: 'start' }
  | { kind: 'act'; pick: number }
  | { kind: 'tick'; timeout: number }
  | { kind: 'chat'; user: number }
  | { kind: 'nextHand'; user: number }
  | { kind: 'playAgain'; user: number }
  | { kind: 'invite'; from: number; to: number; reserve: boolean }
  | { kind: 'decline'; user: number }
  | { kind: 'token'; renew: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('join' as const),
      user: fc.integer({ min: 0, max: 4 }),
      seat: fc.option(fc.integer({ min: 0, max: 3 })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('spectate' as const), user: fc.integer({ min: 0, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('leave' as const), user: fc.integer({ min: 0, max: 4 }) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('bot' as const),
      seat: fc.integer({ min: 0, max: 3 }),
      midgame: fc.boolean(),
      remove: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('start' as const) }) },
  { weight: 20, arbitrary: fc.record({ kind: fc.constant('act' as const), pick: fc.nat() }) },
  {
    weight: 20,
    arbitrary: fc.record({ kind: fc.constant('tick' as const), timeout: fc.integer({ min: 0, max: 19 }) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('chat' as const), user: fc.integer({ min: 0, max: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('nextHand' as const), user: fc.integer({ min: 0, max: 4 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('playAgain' as const), user: fc.integer({ min: 0, max: 4 }) }),
  },
  // issue #12: invitations (with held seats) and the invite token are table fields like any other
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('invite' as const),
      from: fc.integer({ min: 0, max: 4 }),
      to: fc.integer({ min: 0, max: 4 }),
      reserve: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('decline' as const), user: fc.integer({ min: 0, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('token' as const), renew: fc.boolean() }) },
);

/** A seated human's legal move chosen by `pick` (bid, card or reveal), or null when it is nobody's human turn. */
function humanMove(
  rec: TableRecord,
  pick: number,
): { userId: string; kind: 'bid' | 'play' | 'reveal'; payload: object } | null {
  const e = rec.engine;
  if (e.phase !== 'BIDDING' && e.phase !== 'PLAYING') return null;
  const occ = rec.seats[e.turn as Seat];
  if (!occ || occ.kind !== 'human') return null;
  const v = viewFor(e, e.turn as Seat);
  if (e.phase === 'BIDDING') {
    if (v.handHidden)
      return { userId: occ.userId, kind: pick % 3 === 0 ? 'reveal' : 'bid', payload: { bid: 0, blind: true } };
    const lb = legalBids(v);
    if (!lb.bids.length) return null;
    return { userId: occ.userId, kind: 'bid', payload: { bid: lb.bids[pick % lb.bids.length] } };
  }
  const cards = legalCards(v);
  return { userId: occ.userId, kind: 'play', payload: { card: cards[pick % cards.length] } };
}

describe('lean persistence: snapshot + events restore the live table', () => {
  it('a restore at every point equals the live record (random histories)', () => {
    const seen = { cardsPlayed: 0, handsEnded: 0, games: 0, snapshots: 0, replayed: 0, invitations: 0 };
    fc.assert(
      fc.property(
        fc.array(step, { minLength: 400, maxLength: 700 }),
        fc.integer({ min: 0, max: 2 }),
        fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        (tail, mode, humansAt) => {
          // every history starts by filling the table (humans or bots per seat) and starting it, then goes random
          const steps: Step[] = [
            ...humansAt.map((human, i): Step =>
              human
                ? { kind: 'join', user: i + 1, seat: i + 1 }
                : { kind: 'bot', seat: i + 1, midgame: false, remove: false },
            ),
            { kind: 'start' },
            ...tail,
          ];
          let now = 1_000_000;
          const machine = new TableMachine(cfg, () => now);
          let live = newTable(
            '00000000-0000-4000-8000-000000000001',
            { ...defaultSettings(), gameMode: mode === 1 ? 'SOLO' : 'PARTNERS' },
            users[0],
            now,
          );
          freezeCommitted(live); // as the registry does under tests: a command changing a committed record in place throws
          let snapshot = structuredClone(live);
          let since: { actions: Effects['actions']; delta: TableDelta }[] = [];
          let snapshots = 0;
          for (const s of steps) {
            const prev = live;
            const draft = draftOf(prev);
            const fx = newEffects(s.kind);
            try {
              if (!run(machine, draft, fx, s, () => (now = Math.max(now, machine.nextDeadline(draft) ?? now))))
                continue;
            } catch (e) {
              if (e instanceof TableError) continue; // refused: nothing is stored
              throw e;
            }
            machine.scheduleFlow(draft);
            const delta = tableDelta(prev, draft);
            // the row alone rebuilds the draft from the previous record
            const one = structuredClone(prev);
            applyEvent(one, fx.actions, delta, cfg.chatHistory);
            expect(one).toEqual(draft);
            if (needsSnapshot(prev, draft, since.length, fx.escrow)) {
              snapshot = structuredClone(draft);
              since = [];
              snapshots++;
            } else {
              since.push({ actions: fx.actions, delta });
            }
            seen.cardsPlayed += fx.actions.filter((a) => a.action.type === 'play').length;
            if (draft.engine.history.length > prev.engine.history.length) seen.handsEnded++;
            if (draft.gameNumber > prev.gameNumber) seen.games++;
            if ((draft.invitations ?? []).length > (prev.invitations ?? []).length) seen.invitations++;
            seen.replayed += since.length;
            live = draft;
            freezeCommitted(live);
            // a restart here: snapshot + the rows after it
            expect(restoreRecord(snapshot, since, cfg.chatHistory)).toEqual(live);
            expect(since.length).toBeLessThan(64);
          }
          seen.snapshots += snapshots;
        },
      ),
      { numRuns: 25 },
    );
    // the histories really exercised play, hand ends, Play Again and restores from a tail of events
    expect(seen.cardsPlayed).toBeGreaterThan(500);
    expect(seen.handsEnded).toBeGreaterThan(3);
    expect(seen.invitations).toBeGreaterThan(3);
    expect(seen.replayed).toBeGreaterThan(1000);
  });
});

function defaultSettings(): GameSettings {
  return {
    ...DEFAULT_SETTINGS,
    minPoints: -100,
    maxPoints: 100,
    specialRules: { ...DEFAULT_SETTINGS.specialRules, allowNil: true, allowBlindNil: true },
  };
}

/** Runs one step on the draft; false when the step does not apply (nothing to store). */
function run(machine: TableMachine, rec: TableRecord, fx: Effects, s: Step, advanceClock: () => void): boolean {
  switch (s.kind) {
    case 'join':
      machine.join(rec, fx, users[s.user], s.seat ?? undefined);
      return true;
    case 'spectate':
      machine.spectate(rec, fx, users[s.user]);
      return true;
    case 'leave':
      machine.leave(rec, fx, users[s.user].userId);
      return true;
    case 'bot': {
      const host = rec.seats.find((o) => o?.kind === 'human');
      if (!host) return false;
      const requester = s.midgame
        ? rec.seats[(s.seat + 2) % 4]?.kind === 'human'
          ? rec.seats[(s.seat + 2) % 4]!.userId
          : host.userId
        : host.userId;
      if (s.remove) machine.removeBot(rec, fx, requester, s.seat, s.midgame);
      else machine.inviteBot(rec, fx, requester, s.seat, s.midgame);
      return true;
    }
    case 'start': {
      const host = rec.seats[0]?.kind === 'human' ? rec.seats[0] : rec.seats.find((o) => o?.kind === 'human');
      if (!host) return false;
      machine.start(rec, fx, host.userId);
      return true;
    }
    case 'act': {
      const m = humanMove(rec, s.pick);
      if (!m) return false;
      machine.humanAction(rec, fx, m.userId, m.kind, m.payload);
      return true;
    }
    case 'tick':
      // a human's turn runs out only now and then (else every table would lose its humans to timeouts)
      if (rec.flow?.kind === 'turn' && s.timeout !== 0 && rec.replacements.every((r) => r === null || r > rec.flow!.at))
        return false;
      advanceClock();
      return machine.tick(rec, fx);
    case 'invite':
      machine.invite(rec, fx, users[s.from], users[s.to], s.reserve);
      return true;
    case 'decline':
      machine.decline(rec, fx, users[s.user].userId);
      return true;
    case 'token': {
      const host = rec.seats.find((o) => o?.kind === 'human');
      if (!host) return false;
      machine.setInviteToken(rec, host.userId, s.renew ? `token-${rec.chat.length}-${fx.notes.length}` : null);
      return true;
    }
    case 'chat':
      machine.postChat(
        rec,
        fx,
        { userId: users[s.user].userId, userName: users[s.user].username },
        `hello ${fx.notes.length}`,
      );
      return true;
    case 'nextHand':
      machine.startNewHand(rec, fx, users[s.user].userId);
      return true;
    case 'playAgain':
      machine.playAgain(rec, fx, users[s.user].userId);
      return true;
  }
}
