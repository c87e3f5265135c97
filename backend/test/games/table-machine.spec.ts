/**
 * The table state machine without I/O, on a fake clock: full games driven by the server's own timers,
 * redaction of every payload for every recipient (property test over random variants), authorization.
 */
import * as nodeCrypto from 'node:crypto';
import fc from 'fast-check';
import { blindNilOffered, Card, GameSettings, mulberry32, validateSettings } from '@spades/common';
import { loadGamesConfig } from '../../src/games/games.config';
import { Effects, newEffects, Participant, TableError, TableMachine, TableRecord } from '../../src/games/table';
import { newTable } from '../../src/games/table.new';
import { notePayload, Recipient, tableView } from '../../src/games/wire';

const cfg = loadGamesConfig({});
const heuristicCfg = loadGamesConfig({ BOT_LEVEL: 'heuristic' });

/** Makes node:crypto's randomInt/randomBytes (the table machine's randomness) draw from mulberry32(seed); returns the undo. */
function seededCrypto(seed: number): () => void {
  const rng = mulberry32(seed);
  const int = jest.spyOn(nodeCrypto, 'randomInt').mockImplementation(((a: number, b?: number) => {
    const [lo, hi] = b === undefined ? [0, a] : [a, b];
    return lo + Math.floor(rng() * (hi - lo));
  }) as never);
  const bytes = jest
    .spyOn(nodeCrypto, 'randomBytes')
    .mockImplementation(((n: number) =>
      Buffer.from(Array.from({ length: n }, () => Math.floor(rng() * 256)))) as never);
  return () => {
    int.mockRestore();
    bytes.mockRestore();
  };
}

function settings(over: Record<string, unknown> = {}): GameSettings {
  const v = validateSettings({
    gameMode: 'PARTNERS',
    biddingOption: 'REG',
    minPoints: -100,
    maxPoints: 100,
    buyIn: 100000,
    specialRules: { allowNil: true, allowBlindNil: false, screamer: false, assassin: false },
    ...over,
  });
  if (!v.ok) throw new Error(v.message);
  return v.settings;
}

const user = (n: number): Participant => ({ userId: `u${n}`, username: `user${n}`, avatar: null });

class Harness {
  t = 1_000_000;
  m = new TableMachine(cfg, () => this.t);
  rec: TableRecord;
  emitted: { to: string; viewer: Recipient; event: string; payload: unknown; rec: TableRecord }[] = [];

  constructor(s: GameSettings) {
    this.rec = newTable('g1', s, user(0), this.t);
  }

  /** Runs a command on a draft like the actor does (a refusal leaves the record untouched). */
  run(fn: (rec: TableRecord, fx: Effects) => void): Effects {
    const draft = structuredClone(this.rec);
    const fx = newEffects('test');
    fn(draft, fx);
    this.m.scheduleFlow(draft);
    this.rec = draft;
    this.emit(fx);
    return fx;
  }

  emit(fx: Effects): void {
    const rec = this.rec;
    const snap = structuredClone(rec);
    const recipients = new Map<string, Recipient>();
    rec.seats.forEach((s, i) => s?.kind === 'human' && recipients.set(s.userId, i as Recipient));
    rec.spectators.forEach((s) => !recipients.has(s.userId) && recipients.set(s.userId, 'spectator'));
    for (const [to, viewer] of recipients) {
      const view = tableView(rec, viewer, this.t);
      for (const note of [...fx.notes, { type: 'game_update' as const }]) {
        this.emitted.push({ to, viewer, event: note.type, payload: notePayload(rec, note, view), rec: snap });
      }
    }
  }

  /** Advances the clock to the next deadline and runs the timers. */
  step(): boolean {
    const at = this.m.nextDeadline(this.rec);
    if (at === null) return false;
    this.t = Math.max(this.t, at);
    this.run((r, fx) => this.m.tick(r, fx));
    return true;
  }
}

function cardsIn(x: unknown, out: Card[] = []): Card[] {
  if (Array.isArray(x)) x.forEach((v) => cardsIn(v, out));
  else if (x && typeof x === 'object') {
    const o = x as Record<string, unknown>;
    if (typeof o.suit === 'string' && typeof o.rank === 'number')
      out.push({ suit: o.suit as Card['suit'], rank: o.rank as Card['rank'] });
    for (const v of Object.values(o)) cardsIn(v, out);
  }
  return out;
}

/** Fails when a payload holds a card of a hand its recipient may not see, or the current hand's seed. */
function assertRedacted(h: Harness): number {
  let checked = 0;
  for (const e of h.emitted) {
    const st = e.rec.engine;
    const forbidden = new Set<string>();
    st.hands.forEach((hand, s) => {
      const own = e.viewer === s;
      const ownHidden = own && (e.payload as { handHidden?: boolean }).handHidden === true;
      if (!own || ownHidden) hand.forEach((c) => forbidden.add(`${c.suit}${c.rank}`));
    });
    for (const c of cardsIn(e.payload)) {
      if (forbidden.has(`${c.suit}${c.rank}`)) {
        throw new Error(`${e.event} to ${e.to} (${e.viewer}) leaks ${c.suit}${c.rank}`);
      }
    }
    if (st.handSeed && JSON.stringify(e.payload).includes(st.handSeed)) throw new Error(`${e.event} leaks the seed`);
    checked++;
  }
  h.emitted = [];
  return checked;
}

describe('TableMachine', () => {
  it('plays a whole game of one human and three bots on the server timers; every payload is redacted', () => {
    const h = new Harness(settings());
    h.run((r, fx) => {
      for (const s of [1, 2, 3]) h.m.inviteBot(r, fx, 'u0', s, false);
    });
    h.run((r, fx) => h.m.spectate(r, fx, user(9)));
    h.run((r, fx) => h.m.start(r, fx, 'u0'));
    expect(h.rec.status).toBe('BIDDING');
    expect(h.rec.rated).toBe(false);
    let steps = 0;
    let humanMoves = 0;
    let checked = 0;
    while (h.rec.status !== 'COMPLETED' && steps < 20000) {
      steps++;
      const e = h.rec.engine;
      if ((e.phase === 'BIDDING' || e.phase === 'PLAYING') && e.turn === 0 && !h.rec.trickPending) {
        const view = tableView(h.rec, 0, h.t);
        if (view.handHidden) h.run((r, fx) => h.m.humanAction(r, fx, 'u0', 'reveal', {}));
        else if (e.phase === 'BIDDING')
          h.run((r, fx) => h.m.humanAction(r, fx, 'u0', 'bid', { bid: view.legalBids!.bids[0] }));
        else h.run((r, fx) => h.m.humanAction(r, fx, 'u0', 'play', { card: view.legalCards[0] }));
        humanMoves++;
      } else {
        expect(h.step()).toBe(true);
      }
      checked += assertRedacted(h);
    }
    expect(h.rec.status).toBe('COMPLETED');
    expect(h.rec.engine.result).not.toBeNull();
    expect(humanMoves).toBeGreaterThan(13);
    expect(checked).toBeGreaterThan(100);
    // clear the last trick: hand_completed then game_over
    h.step();
    const events = h.emitted.map((x) => x.event);
    expect(events).toContain('hand_completed');
    expect(events).toContain('game_over');
  });

  it('property: random variants, seats and timeouts never leak a hidden card to anyone', () => {
    const variants = fc.record({
      gameMode: fc.constantFrom('PARTNERS', 'SOLO'),
      biddingOption: fc.constantFrom('REG', 'WHIZ', 'MIRROR', 'GIMMICK'),
      gimmick: fc.constantFrom('4 OR NIL', 'BID 3', 'BID HEARTS', 'CRAZY ACES', 'SUICIDE'),
      allowBlindNil: fc.boolean(),
      rule: fc.constantFrom('none', 'screamer', 'assassin'),
      humans: fc.integer({ min: 1, max: 4 }),
    });
    fc.assert(
      fc.property(variants, (v) => {
        if (v.gimmick === 'SUICIDE' && v.gameMode === 'SOLO') return;
        const s = settings({
          gameMode: v.gameMode,
          biddingOption: v.biddingOption,
          gimmick: v.gimmick,
          maxPoints: 100,
          specialRules: {
            allowNil: true,
            allowBlindNil: blindNilOffered({ biddingOption: v.biddingOption, gimmick: v.gimmick }) && v.allowBlindNil,
            screamer: v.rule === 'screamer',
            assassin: v.rule === 'assassin',
          },
        });
        const h = new Harness(s);
        h.run((r, fx) => {
          for (let i = 1; i < 4; i++) {
            if (i < v.humans) h.m.join(r, fx, user(i), i);
            else h.m.inviteBot(r, fx, 'u0', i, false);
          }
          h.m.spectate(r, fx, user(9));
        });
        h.run((r, fx) => h.m.start(r, fx, 'u0'));
        // Humans never act: the turn timer plays for them (and removes them after 3 timeouts).
        let n = 0;
        let checked = 0;
        while (h.rec.status !== 'COMPLETED' && h.rec.status !== 'CLOSED' && n < 1500 && h.rec.engine.handNumber <= 1) {
          n++;
          if (!h.step()) break;
          checked += assertRedacted(h);
        }
        expect(checked).toBeGreaterThan(20);
        expect(['CLOSED', 'COMPLETED'].includes(h.rec.status) || h.rec.engine.handNumber > 1).toBe(true);
      }),
      { numRuns: 20 },
    );
  });

  // Fixed cases: the table's randomness (deal seeds, bot delays, bot choices: node:crypto randomBytes/randomInt)
  // drawn from mulberry32(seed), and the heuristic bot, whose play does not depend on the clock (the strong bot's
  // search is time-boxed, so on a loaded machine it played differently and the run was not reproducible).
  // Seed 572 is the deal sequence that comes closest to ending the game before the countdown (team 1 at -90).
  it.each([1, 2, 111, 396, 572])(
    'removes a player after 3 consecutive timeouts and starts the replacement countdown, then a bot takes the seat (seed %i)',
    (seed) => {
      const restore = seededCrypto(seed);
      try {
        timeoutsRemovePlayer();
      } finally {
        restore();
      }
    },
  );

  function timeoutsRemovePlayer(): void {
    const h = new Harness(settings({ maxPoints: 650, minPoints: -250 }));
    h.m = new TableMachine(heuristicCfg, () => h.t);
    h.run((r, fx) => {
      h.m.join(r, fx, user(1), 1);
      h.m.inviteBot(r, fx, 'u0', 2, false);
      h.m.inviteBot(r, fx, 'u0', 3, false);
    });
    h.run((r, fx) => h.m.start(r, fx, 'u0'));
    let replacement: { seatIndex: number; expiresAt: number } | undefined;
    // seat 0 always plays in time; seat 1 never does
    const advance = () => {
      const e = h.rec.engine;
      if (e.turn === 0 && !h.rec.trickPending && (e.phase === 'BIDDING' || e.phase === 'PLAYING')) {
        const view = tableView(h.rec, 0, h.t);
        // the lowest bid above Nil: a failed Nil (−100) plus a set partner could end the game below minPoints
        // (−250) in the first hand, before seat 1's third timeout (the ~1 in 300 flake of stops 21–22)
        const bids = view.legalBids?.bids ?? [];
        const bid = bids.find((b) => b > 0) ?? bids[0];
        if (e.phase === 'BIDDING') h.run((r, fx) => h.m.humanAction(r, fx, 'u0', 'bid', { bid }));
        else h.run((r, fx) => h.m.humanAction(r, fx, 'u0', 'play', { card: view.legalCards[0] }));
      } else expect(h.step()).toBe(true);
    };
    let timeouts = 0;
    for (let i = 0; i < 400 && !replacement; i++) {
      advance();
      timeouts = Math.max(timeouts, h.rec.timeouts[1]);
      const ev = h.emitted.find((x) => x.event === 'seat_replacement_started');
      if (ev) replacement = ev.payload as { seatIndex: number; expiresAt: number };
      h.emitted = [];
    }
    expect(timeouts).toBe(2);
    expect(replacement).toBeDefined();
    expect(replacement!.seatIndex).toBe(1);
    expect(replacement!.expiresAt).toBe(h.t + cfg.seatReplacementMs);
    expect(h.rec.seats[1]).toBeNull();
    expect(h.rec.timeouts[0]).toBe(0);
    // the countdown runs out: a bot takes the seat
    const expires = replacement!.expiresAt;
    for (let i = 0; i < 2000 && h.t < expires; i++) advance();
    expect(h.t).toBeGreaterThanOrEqual(expires);
    expect(h.rec.seats[1]?.kind).toBe('bot');
  }

  it('refuses host-only, partner-only and seated-only actions from the wrong user and changes nothing', () => {
    const h = new Harness(settings());
    h.run((r, fx) => h.m.join(r, fx, user(1), 1));
    const before = JSON.stringify(h.rec);
    expect(() => h.run((r, fx) => h.m.inviteBot(r, fx, 'u1', 2, false))).toThrow('Only the host can do that');
    expect(() => h.run((r, fx) => h.m.inviteBot(r, fx, 'u7', 2, false))).toThrow(TableError);
    expect(() => h.run((r, fx) => h.m.start(r, fx, 'u1'))).toThrow('Only the host can start the game');
    expect(() => h.run((r, fx) => h.m.start(r, fx, 'u0'))).toThrow('All four seats must be filled to start');
    expect(JSON.stringify(h.rec)).toBe(before);
    h.run((r, fx) => {
      h.m.inviteBot(r, fx, 'u0', 2, false);
      h.m.inviteBot(r, fx, 'u0', 3, false);
    });
    expect(() => h.run((r, fx) => h.m.removeBot(r, fx, 'u1', 3, false))).toThrow('Only the host can do that');
    h.run((r, fx) => h.m.start(r, fx, 'u0'));
    // mid-game: the bot in seat 3 is opposite u1 (seat 1): only u1 may remove it
    expect(() => h.run((r, fx) => h.m.removeBot(r, fx, 'u0', 3, true))).toThrow(
      'Only the player opposite that seat can do that',
    );
    // the bot in seat 2 is opposite u0 (seat 0)
    expect(() => h.run((r, fx) => h.m.removeBot(r, fx, 'u1', 2, true))).toThrow(
      'Only the player opposite that seat can do that',
    );
    const e = h.rec.engine;
    const notTurn = e.turn === 0 ? 'u1' : 'u0';
    expect(() => h.run((r, fx) => h.m.humanAction(r, fx, notTurn, 'bid', { bid: 3 }))).toThrow('It is not your turn');
    expect(() => h.run((r, fx) => h.m.humanAction(r, fx, 'u9', 'bid', { bid: 3 }))).toThrow(
      'You are not seated at this table',
    );
    h.run((r, fx) => h.m.removeBot(r, fx, 'u1', 3, true));
    expect(h.rec.seats[3]).toBeNull();
    expect(h.rec.replacements[3]).toBe(h.t + cfg.seatReplacementMs);
  });
  it('start_new_hand: the next hand is dealt when every seated human asked (or at the summary timer), idempotently', () => {
    const h = new Harness(settings({ maxPoints: 650, minPoints: -250 }));
    h.run((r, fx) => {
      h.m.join(r, fx, user(1), 1);
      h.m.inviteBot(r, fx, 'u0', 2, false);
      h.m.inviteBot(r, fx, 'u0', 3, false);
    });
    h.run((r, fx) => h.m.start(r, fx, 'u0'));
    const play = (uid: string, seat: 0 | 1) => {
      const view = tableView(h.rec, seat, h.t);
      if (h.rec.engine.phase === 'BIDDING')
        h.run((r, fx) =>
          h.m.humanAction(r, fx, uid, 'bid', { bid: view.legalBids!.bids[1] ?? view.legalBids!.bids[0] }),
        );
      else h.run((r, fx) => h.m.humanAction(r, fx, uid, 'play', { card: view.legalCards[0] }));
    };
    for (let i = 0; i < 500 && !(h.rec.status === 'HAND_COMPLETED' && !h.rec.trickPending); i++) {
      const e = h.rec.engine;
      if ((e.phase === 'BIDDING' || e.phase === 'PLAYING') && (e.turn === 0 || e.turn === 1))
        play(`u${e.turn}`, e.turn as 0 | 1);
      else h.step();
    }
    expect(h.rec.status).toBe('HAND_COMPLETED');
    expect(h.rec.flow?.kind).toBe('nextHand');
    h.run((r, fx) => h.m.startNewHand(r, fx, 'u0'));
    h.run((r, fx) => h.m.startNewHand(r, fx, 'u0'));
    expect(h.rec.engine.handNumber).toBe(1);
    h.run((r, fx) => h.m.startNewHand(r, fx, 'u1'));
    expect(h.rec.engine.handNumber).toBe(2);
    expect(h.rec.status).toBe('BIDDING');
    // late duplicates change nothing
    const before = JSON.stringify(h.rec.engine);
    h.run((r, fx) => h.m.startNewHand(r, fx, 'u1'));
    expect(JSON.stringify(h.rec.engine)).toBe(before);
    expect(() => h.run((r, fx) => h.m.startNewHand(r, fx, 'u5'))).toThrow('You are not seated at this table');
  });

  it('play again: waits for every human; at the result timer the others leave and the table returns to WAITING', () => {
    const h = new Harness(settings());
    h.run((r, fx) => {
      h.m.join(r, fx, user(1), 1);
      h.m.inviteBot(r, fx, 'u0', 2, false);
      h.m.inviteBot(r, fx, 'u0', 3, false);
    });
    h.run((r, fx) => h.m.start(r, fx, 'u0'));
    // nobody acts: timeouts would remove the humans, so act for them with the first legal option
    for (let i = 0; i < 5000 && h.rec.status !== 'COMPLETED'; i++) {
      const e = h.rec.engine;
      if ((e.phase === 'BIDDING' || e.phase === 'PLAYING') && (e.turn === 0 || e.turn === 1) && !h.rec.trickPending) {
        const view = tableView(h.rec, e.turn, h.t);
        const uid = `u${e.turn}`;
        if (e.phase === 'BIDDING')
          h.run((r, fx) => h.m.humanAction(r, fx, uid, 'bid', { bid: view.legalBids!.bids.at(-1) }));
        else h.run((r, fx) => h.m.humanAction(r, fx, uid, 'play', { card: view.legalCards[0] }));
      } else h.step();
    }
    expect(h.rec.status).toBe('COMPLETED');
    h.run((r, fx) => h.m.playAgain(r, fx, 'u0'));
    expect(h.rec.status).toBe('COMPLETED'); // u1 has not chosen yet
    while (h.rec.trickPending || h.rec.flow?.kind !== 'result') h.step();
    h.step(); // result timer
    expect(h.rec.status).toBe('WAITING');
    expect(h.rec.seats[0]?.userId).toBe('u0');
    expect(h.rec.seats[1]).toBeNull();
    expect(h.rec.gameNumber).toBe(2);
    expect(h.rec.engine.handNumber).toBe(0);
  });
});
