import { describe, it, expect } from 'vitest';
import { Card, cardCode, DECK, parseCard } from './cards';
import { firstDealerFromSeed, Seat, seedCommitment } from './deal';
import { apply, ApplyResult, createGame, GameAction } from './engine';
import { engineErrorMessage } from './errors';
import { DEFAULT_SETTINGS, GameSettings, Gimmick } from './settings';
import { toHex } from './sha256';
import { GameState } from './state';
import { displayBid, legalBids, legalCards, statusMark, viewFor } from './view';

function seedOf(n: number): Uint8Array {
  const s = new Uint8Array(32);
  s[0] = n & 255;
  s[1] = (n >> 8) & 255;
  s[31] = 7;
  return s;
}
function settings(
  o: {
    mode?: 'PARTNERS' | 'SOLO';
    opt?: GameSettings['biddingOption'];
    g?: Gimmick;
    nil?: boolean;
    blind?: boolean;
    screamer?: boolean;
    assassin?: boolean;
    max?: number;
    min?: number;
  } = {},
): GameSettings {
  return {
    ...DEFAULT_SETTINGS,
    gameMode: o.mode ?? 'PARTNERS',
    biddingOption: o.g ? 'GIMMICK' : (o.opt ?? 'REG'),
    gimmick: o.g ?? null,
    minPoints: o.min ?? -100,
    maxPoints: o.max ?? 500,
    specialRules: {
      allowNil: o.nil ?? true,
      allowBlindNil: o.blind ?? false,
      screamer: o.screamer ?? false,
      assassin: o.assassin ?? false,
    },
  };
}
function ok(r: ApplyResult): GameState {
  if (!r.ok) throw new Error(`expected ok, got ${r.error}`);
  return r.state;
}
function errOf(r: ApplyResult): string | null {
  return r.ok ? null : r.error;
}
/** The state is plain JSON, so a JSON round trip is a faithful deep clone. */
const clone = <T>(o: T): T => JSON.parse(JSON.stringify(o)) as T;
function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object' && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o)) deepFreeze(v);
  }
  return o;
}
/** Applies on a deep-frozen clone and checks the input is unchanged. */
function step(s: GameState, a: GameAction): ApplyResult {
  const before = clone(s);
  const r = apply(deepFreeze(clone(s)), a);
  expect(s).toEqual(before);
  return r;
}
const cards = (s: string): Card[] => s.split(' ').map((c) => parseCard(c)!);
const suitHands = (): Card[][] => (['S', 'H', 'D', 'C'] as const).map((suit) => DECK.filter((c) => c.suit === suit));

describe('engine: phases and dealing', () => {
  it('createGame is WAITING with zero scores; invalid settings throw', () => {
    const g = createGame(settings());
    expect(g.phase).toBe('WAITING');
    expect(g.scores).toEqual([0, 0]);
    expect(createGame(settings({ mode: 'SOLO' })).scores).toEqual([0, 0, 0, 0]);
    expect(() => createGame({ ...settings(), buyIn: 1 })).toThrow(RangeError);
    expect(JSON.parse(JSON.stringify(g))).toEqual(g);
  });

  it('deal: first dealer from the seed, bidding starts left of the dealer, commitment stored', () => {
    const seed = seedOf(1);
    const s = ok(step(createGame(settings()), { type: 'deal', seed }));
    const dealer = firstDealerFromSeed(seed);
    expect(s.phase).toBe('BIDDING');
    expect(s.dealer).toBe(dealer);
    expect(s.turn).toBe((dealer + 1) % 4);
    expect(s.hands.map((h) => h.length)).toEqual([13, 13, 13, 13]);
    expect(s.handSeed).toBe(toHex(seed));
    expect(s.handCommitment).toBe(seedCommitment(seed));
    expect(s.handNumber).toBe(1);
    // hex seed gives the same deal
    expect(ok(apply(createGame(settings()), { type: 'deal', seed: toHex(seed) })).hands).toEqual(s.hands);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });

  it.each([
    ['short seed', new Uint8Array(31)],
    ['bad hex', 'zz'.repeat(32)],
    ['short hex', 'ab'],
  ])('rejects %s', (_n, seed) => {
    expect(errOf(step(createGame(settings()), { type: 'deal', seed }))).toBe('INVALID_SEED');
  });

  it.each([
    ['null action', null, 'INVALID_ACTION'],
    ['string action', 'bid', 'INVALID_ACTION'],
    ['unknown type', { type: 'cheat' }, 'INVALID_ACTION'],
    ['deal without seed', { type: 'deal' }, 'INVALID_SEED'],
    ['deal with a number seed', { type: 'deal', seed: 5 }, 'INVALID_SEED'],
    ['deal with an array seed', { type: 'deal', seed: new Array(32).fill(1) }, 'INVALID_SEED'],
  ])('malformed input in WAITING: %s → %s', (_n, action, code) => {
    expect(errOf(step(createGame(settings()), action as unknown as GameAction))).toBe(code);
  });

  it.each([
    ['bid without seat', { type: 'bid', bid: 3 }, 'INVALID_SEAT'],
    ['bid with string seat', { type: 'bid', seat: '0', bid: 3 }, 'INVALID_SEAT'],
    ['bid with string bid', { type: 'bidTURN', bid: '3' }, 'ILLEGAL_BID'],
    ['reveal seat 4', { type: 'reveal', seat: 4 }, 'INVALID_SEAT'],
  ])('malformed input in BIDDING: %s → %s', (_n, action, code) => {
    const s = ok(apply(createGame(settings()), { type: 'deal', seed: seedOf(8) }));
    const a = (action as { type: string }).type === 'bidTURN' ? { ...action, type: 'bid', seat: s.turn } : action;
    expect(errOf(step(s, a as unknown as GameAction))).toBe(code);
  });

  it('accepts a 32-byte Uint8Array subclass (e.g. a Node Buffer) as seed', () => {
    class Bytes extends Uint8Array {}
    const seed = new Bytes(32).fill(3);
    const s = ok(apply(createGame(settings()), { type: 'deal', seed }));
    expect(s.handSeed).toBe('03'.repeat(32));
  });

  it('actions in the wrong phase are rejected', () => {
    const g = createGame(settings());
    expect(errOf(step(g, { type: 'bid', seat: 0, bid: 3 }))).toBe('WRONG_PHASE');
    expect(errOf(step(g, { type: 'play', seat: 0, card: DECK[0] }))).toBe('WRONG_PHASE');
    expect(errOf(step(g, { type: 'reveal', seat: 0 }))).toBe('WRONG_PHASE');
    const b = ok(apply(g, { type: 'deal', seed: seedOf(2) }));
    expect(errOf(step(b, { type: 'deal', seed: seedOf(3) }))).toBe('WRONG_PHASE');
    expect(errOf(step(b, { type: 'play', seat: b.turn as Seat, card: b.hands[b.turn as Seat][0] }))).toBe(
      'WRONG_PHASE',
    );
    expect(errOf(step(b, { type: 'nope' } as unknown as GameAction))).toBe('INVALID_ACTION');
  });

  it('every action keeps exactly the GameState fields (no field dropped or added)', () => {
    const g = createGame(settings({ blind: true }));
    const keys = Object.keys(g).sort();
    let s = ok(apply(g, { type: 'deal', seed: seedOf(4) }));
    expect(Object.keys(s).sort()).toEqual(keys);
    s = ok(apply(s, { type: 'reveal', seat: s.turn as Seat }));
    expect(Object.keys(s).sort()).toEqual(keys);
    while (s.phase === 'BIDDING') s = ok(apply(s, { type: 'bid', seat: s.turn as Seat, bid: 3 }));
    expect(Object.keys(s).sort()).toEqual(keys);
    while (s.phase === 'PLAYING') {
      const seat = s.turn as Seat;
      s = ok(apply(s, { type: 'play', seat, card: legalCards(viewFor(s, seat))[0] }));
      expect(Object.keys(s).sort()).toEqual(keys);
    }
  });

  it('a JSON round trip after every action (persist/restore) changes nothing', () => {
    const st = settings({ g: 'SUICIDE', blind: true, assassin: true });
    let direct = createGame(st);
    let restored = clone(direct);
    for (let h = 0; h < 3 && direct.phase !== 'COMPLETED'; h++) {
      const deal: GameAction = { type: 'deal', seed: seedOf(50 + h) };
      direct = ok(apply(direct, deal));
      restored = clone(ok(apply(restored, deal)));
      while (direct.phase === 'BIDDING' || direct.phase === 'PLAYING') {
        const seat = direct.turn as Seat;
        const v = viewFor(direct, seat);
        const lb = legalBids(v);
        const action: GameAction =
          direct.phase === 'BIDDING'
            ? lb.blindNil
              ? { type: 'bid', seat, bid: 0, blind: true }
              : { type: 'bid', seat, bid: lb.bids[lb.bids.length - 1] }
            : { type: 'play', seat, card: legalCards(v)[0] };
        direct = ok(apply(direct, action));
        restored = clone(ok(apply(restored, clone(action))));
        expect(restored).toEqual(clone(direct));
      }
    }
    expect(direct.history.length).toBeGreaterThan(0);
  });

  it('dealer rotates clockwise each hand', () => {
    let s = createGame(settings({ g: 'BID 3', max: 650, min: -250 }));
    const dealers: number[] = [];
    for (let h = 0; h < 3; h++) {
      s = ok(apply(s, { type: 'deal', seed: seedOf(10 + h) }));
      dealers.push(s.dealer as number);
      while (s.phase === 'PLAYING') {
        const seat = s.turn as Seat;
        s = ok(apply(s, { type: 'play', seat, card: legalCards(viewFor(s, seat))[0] }));
      }
      expect(['HAND_COMPLETED', 'COMPLETED']).toContain(s.phase);
    }
    expect(dealers[1]).toBe((dealers[0] + 1) % 4);
    expect(dealers[2]).toBe((dealers[0] + 2) % 4);
  });
});

describe('engine: bidding', () => {
  const start = (st: GameSettings, n = 5) => ok(apply(createGame(st), { type: 'deal', seed: seedOf(n) }));

  it('REG: turn order, illegal bids, and transition to PLAYING led by the first bidder', () => {
    const s0 = start(settings());
    const first = s0.turn as Seat;
    const other = ((first + 1) % 4) as Seat;
    expect(errOf(step(s0, { type: 'bid', seat: other, bid: 3 }))).toBe('NOT_YOUR_TURN');
    expect(errOf(step(s0, { type: 'bid', seat: 7 as Seat, bid: 3 }))).toBe('INVALID_SEAT');
    for (const bad of [14, -1, 2.5, Number.NaN])
      expect(errOf(step(s0, { type: 'bid', seat: first, bid: bad }))).toBe('ILLEGAL_BID');
    expect(errOf(step(s0, { type: 'bid', seat: first, bid: 0, blind: true }))).toBe('BLIND_NIL_NOT_ALLOWED');
    let s = s0;
    for (let i = 0; i < 4; i++) s = ok(step(s, { type: 'bid', seat: s.turn as Seat, bid: i + 1 }));
    expect(s.phase).toBe('PLAYING');
    expect(s.turn).toBe(first);
    expect(s.trickLeader).toBe(first);
    expect(s.bids[first]).toBe(1);
  });

  it('nil off: nil rejected', () => {
    const s = start(settings({ nil: false }));
    expect(errOf(step(s, { type: 'bid', seat: s.turn as Seat, bid: 0 }))).toBe('ILLEGAL_BID');
    expect(legalBids(viewFor(s, s.turn as Seat)).bids).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });

  it.each([
    ['BID 3', settings({ g: 'BID 3' }), (_h: Card[]) => 3],
    ['BID HEARTS', settings({ g: 'BID HEARTS' }), (h: Card[]) => h.filter((c) => c.suit === 'H').length],
    ['CRAZY ACES', settings({ g: 'CRAZY ACES' }), (h: Card[]) => 3 * h.filter((c) => c.rank === 14).length],
    ['MIRROR', settings({ opt: 'MIRROR' }), (h: Card[]) => h.filter((c) => c.suit === 'S').length],
  ])('%s: all bids are auto-applied at the deal', (_n, st, expected) => {
    for (let n = 0; n < 5; n++) {
      const s = start(st, 100 + n);
      expect(s.phase).toBe('PLAYING');
      expect(s.autoBid).toEqual([true, true, true, true]);
      s.hands.forEach((h, seat) => expect(s.bids[seat]).toBe(expected(h)));
    }
  });

  it('WHIZ: forced nil without spades, forced count with A♠, choice otherwise', () => {
    let seen = 0;
    for (let n = 0; n < 40; n++) {
      let s = start(settings({ opt: 'WHIZ' }), 200 + n);
      while (s.phase === 'BIDDING') {
        const seat = s.turn as Seat;
        const lb = legalBids(viewFor(s, seat));
        const spades = s.hands[seat].filter((c) => c.suit === 'S');
        expect(spades.length).toBeGreaterThan(0);
        expect(spades.some((c) => c.rank === 14)).toBe(false);
        expect(lb.bids).toEqual([0, spades.length]);
        s = ok(step(s, { type: 'bid', seat, bid: spades.length === 1 ? 0 : spades.length }));
        seen++;
      }
      s.hands.forEach((h, seat) => {
        const sp = h.filter((c) => c.suit === 'S');
        if (sp.length === 0) expect(s.bids[seat]).toBe(0);
        if (sp.some((c) => c.rank === 14)) expect(s.bids[seat]).toBe(sp.length);
        if (s.autoBid[seat]) expect(sp.length === 0 || sp.some((c) => c.rank === 14)).toBe(true);
      });
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('SUICIDE: first partner > 0 → second auto-nil; first nil → second must bid 1..13', () => {
    const s0 = start(settings({ g: 'SUICIDE' }));
    const a = s0.turn as Seat;
    const s1 = ok(step(s0, { type: 'bid', seat: a, bid: 4 }));
    const b = s1.turn as Seat;
    const s2 = ok(step(s1, { type: 'bid', seat: b, bid: 0 }));
    // a's partner is auto-nil; b's partner must bid 1..13 (turn is at b's partner)
    expect(s2.bids[(a + 2) % 4]).toBe(0);
    expect(s2.autoBid[(a + 2) % 4]).toBe(true);
    expect(s2.turn).toBe((b + 2) % 4);
    expect(errOf(step(s2, { type: 'bid', seat: s2.turn as Seat, bid: 0 }))).toBe('ILLEGAL_BID');
    expect(legalBids(viewFor(s2, s2.turn as Seat)).bids[0]).toBe(1);
    const s3 = ok(step(s2, { type: 'bid', seat: s2.turn as Seat, bid: 5 }));
    expect(s3.phase).toBe('PLAYING');
  });

  it('4 OR NIL: only 4 or nil', () => {
    const s = start(settings({ g: '4 OR NIL', nil: false }));
    const seat = s.turn as Seat;
    expect(legalBids(viewFor(s, seat)).bids).toEqual([0, 4]);
    expect(errOf(step(s, { type: 'bid', seat, bid: 3 }))).toBe('ILLEGAL_BID');
    expect(step(s, { type: 'bid', seat, bid: 0 }).ok).toBe(true);
  });

  it('blind nil: hand hidden until reveal; only before reveal; reveal twice fails', () => {
    const s0 = start(settings({ blind: true }));
    const seat = s0.turn as Seat;
    const v = viewFor(s0, seat);
    expect(v.hand).toBeNull();
    expect(v.handHidden).toBe(true);
    expect(legalBids(v).blindNil).toBe(true);
    expect(errOf(step(s0, { type: 'bid', seat, bid: 2, blind: true }))).toBe('ILLEGAL_BID');
    // blind nil keeps the cards hidden until bidding ends
    const sb = ok(step(s0, { type: 'bid', seat, bid: 0, blind: true }));
    expect(sb.blind[seat]).toBe(true);
    expect(viewFor(sb, seat).hand).toBeNull();
    // …and a reveal after the blind nil is refused with a typed code, state unchanged (step checks that)
    expect(errOf(step(sb, { type: 'reveal', seat }))).toBe('BLIND_NIL_CARDS_HIDDEN');
    expect(engineErrorMessage('BLIND_NIL_CARDS_HIDDEN')).toMatch(/hidden until the bidding ends/);
    // still hidden while the others bid; visible once the bidding has ended
    let sp = sb;
    while (sp.phase === 'BIDDING') {
      expect(viewFor(sp, seat).hand).toBeNull();
      expect(errOf(step(sp, { type: 'reveal', seat }))).toBe('BLIND_NIL_CARDS_HIDDEN');
      const t = sp.turn as Seat;
      sp = ok(step(sp, { type: 'bid', seat: t, bid: legalBids(viewFor(sp, t)).bids[0] }));
    }
    expect(viewFor(sp, seat).hand).toEqual(s0.hands[seat]);
    expect(errOf(step(sp, { type: 'reveal', seat }))).toBe('WRONG_PHASE');
    // reveal, then blind nil is no longer possible
    const sr = ok(step(s0, { type: 'reveal', seat }));
    expect(viewFor(sr, seat).hand).toEqual(s0.hands[seat]);
    expect(legalBids(viewFor(sr, seat)).blindNil).toBe(false);
    expect(errOf(step(sr, { type: 'bid', seat, bid: 0, blind: true }))).toBe('ALREADY_REVEALED');
    expect(errOf(step(sr, { type: 'reveal', seat }))).toBe('ALREADY_REVEALED');
    // a seat may look at its cards before its turn
    const other = ((seat + 1) % 4) as Seat;
    expect(ok(step(s0, { type: 'reveal', seat: other })).revealed[other]).toBe(true);
    // a regular bid reveals
    expect(ok(step(s0, { type: 'bid', seat, bid: 3 })).revealed[seat]).toBe(true);
  });

  it('blind nil not offered and hands visible in WHIZ even in a (legacy) state whose table allows blind nil', () => {
    // validateSettings rejects WHIZ + Blind Nil (BLIND_NIL_NOT_OFFERED), so createGame would throw; a state
    // stored before that rule is still handled: blind nil is never offered there.
    expect(() => createGame(settings({ opt: 'WHIZ', blind: true }))).toThrow(/BLIND_NIL_NOT_OFFERED/);
    const w = start(settings({ opt: 'WHIZ' }));
    const s: GameState = {
      ...w,
      settings: { ...w.settings, specialRules: { ...w.settings.specialRules, allowBlindNil: true } },
    };
    for (const seat of [0, 1, 2, 3] as Seat[]) expect(viewFor(s, seat).hand).not.toBeNull();
    const seat = s.turn as Seat;
    if (legalBids(viewFor(s, seat)).bids.length > 0) expect(legalBids(viewFor(s, seat)).blindNil).toBe(false);
    expect(errOf(step(s, { type: 'bid', seat, bid: 0, blind: true }))).toBe('BLIND_NIL_NOT_ALLOWED');
  });

  it('SUICIDE with blind nil: second partner after a non-nil bid chooses nil or blind nil', () => {
    const s0 = start(settings({ g: 'SUICIDE', blind: true }));
    let s = s0;
    const a = s.turn as Seat;
    s = ok(step(s, { type: 'reveal', seat: a }));
    s = ok(step(s, { type: 'bid', seat: a, bid: 3 }));
    s = ok(step(s, { type: 'reveal', seat: s.turn as Seat }));
    s = ok(step(s, { type: 'bid', seat: s.turn as Seat, bid: 0 }));
    expect(s.turn).toBe((a + 2) % 4);
    const lb = legalBids(viewFor(s, s.turn as Seat));
    expect(lb).toEqual({ bids: [0], blindNil: true, forced: false });
    expect(ok(step(s, { type: 'bid', seat: s.turn as Seat, bid: 0, blind: true })).blind[(a + 2) % 4]).toBe(true);
  });

  it('SUICIDE with blind nil: the second partner who reveals gets the forced nil placed by the engine', () => {
    let s = start(settings({ g: 'SUICIDE', blind: true }));
    const a = s.turn as Seat;
    const b = ((a + 2) % 4) as Seat;
    s = ok(step(s, { type: 'reveal', seat: a }));
    s = ok(step(s, { type: 'bid', seat: a, bid: 3 }));
    s = ok(step(s, { type: 'reveal', seat: s.turn as Seat }));
    s = ok(step(s, { type: 'bid', seat: s.turn as Seat, bid: 0 }));
    expect(s.turn).toBe(b);
    // revealing on its turn: the nil is forced and placed within the reveal
    const r = ok(step(s, { type: 'reveal', seat: b }));
    expect(r.bids[b]).toBe(0);
    expect(r.autoBid[b]).toBe(true);
    expect(r.blind[b]).toBe(false);
    expect(r.turn).toBe((b + 1) % 4);
    // revealing before its turn: the nil is placed when the turn reaches it
    let e = start(settings({ g: 'SUICIDE', blind: true }));
    e = ok(step(e, { type: 'reveal', seat: b }));
    e = ok(step(e, { type: 'reveal', seat: a }));
    e = ok(step(e, { type: 'bid', seat: a, bid: 2 }));
    e = ok(step(e, { type: 'reveal', seat: e.turn as Seat }));
    e = ok(step(e, { type: 'bid', seat: e.turn as Seat, bid: 0 }));
    expect(e.bids[b]).toBe(0);
    expect(e.autoBid[b]).toBe(true);
    expect(e.turn).toBe((b + 1) % 4);
    // the seat to bid never sees a forced choice
    if (e.phase === 'BIDDING') expect(legalBids(viewFor(e, e.turn as Seat)).forced).toBe(false);
  });
});

describe('engine: play and scoring of a rigged hand', () => {
  /** Seat s holds all of suit s (S, H, D, C). */
  function rigged(st: GameSettings, dealer: Seat, bids: number[]): GameState {
    const s = ok(apply(createGame(st), { type: 'deal', seed: seedOf(1) }));
    const first = ((dealer + 1) % 4) as Seat;
    return {
      ...s,
      dealer,
      hands: suitHands(),
      bids,
      revealed: [true, true, true, true],
      phase: 'PLAYING',
      turn: first,
      trickLeader: first,
    };
  }

  it('seat 0 (all spades) takes every trick; scores 67 / −40', () => {
    let s = rigged(settings(), 0, [4, 3, 2, 1]);
    expect(s.turn).toBe(1);
    // seat 1 must lead hearts; seat 0 can't lead spades before broken? It holds only spades → allowed later.
    expect(errOf(step(s, { type: 'play', seat: 2, card: parseCard('2D')! }))).toBe('NOT_YOUR_TURN');
    expect(errOf(step(s, { type: 'play', seat: 1, card: parseCard('2S')! }))).toBe('CARD_NOT_IN_HAND');
    expect(errOf(step(s, { type: 'play', seat: 1, card: { suit: 'X', rank: 2 } as unknown as Card }))).toBe(
      'INVALID_CARD',
    );
    let tricks = 0;
    while (s.phase === 'PLAYING') {
      const seat = s.turn as Seat;
      const legal = legalCards(viewFor(s, seat));
      s = ok(step(s, { type: 'play', seat, card: legal[legal.length - 1] }));
      if (s.trick.length === 0) {
        tricks++;
        expect(s.lastTrick?.winner).toBe(0);
        expect(s.lastTrick?.cards.map((t) => t.seat).sort()).toEqual([0, 1, 2, 3]);
      }
    }
    expect(tricks).toBe(13);
    expect(s.phase).toBe('HAND_COMPLETED');
    expect(s.tricksWon).toEqual([13, 0, 0, 0]);
    expect(s.scores).toEqual([67, -40]);
    expect(s.bags).toEqual([7, 0]);
    const rec = s.history[0];
    expect(rec.sides.map((x) => x.delta)).toEqual([67, -40]);
    expect(rec.seed).toBe(toHex(seedOf(1)));
    expect(s.handSeed).toBeNull();
    expect(s.turn).toBeNull();
  });

  it('a spade played in the current trick breaks spades for the next lead', () => {
    let s = rigged(settings(), 0, [4, 3, 2, 1]);
    expect(s.spadesBroken).toBe(false);
    s = ok(step(s, { type: 'play', seat: 1, card: parseCard('2H')! }));
    s = ok(step(s, { type: 'play', seat: 2, card: parseCard('2D')! }));
    s = ok(step(s, { type: 'play', seat: 3, card: parseCard('2C')! }));
    s = ok(step(s, { type: 'play', seat: 0, card: parseCard('2S')! }));
    expect(s.spadesBroken).toBe(true);
    expect(s.turn).toBe(0);
  });

  it('SPADES_NOT_BROKEN for a spade lead while holding other suits', () => {
    const hands = [
      cards('AS 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH'),
      cards('KS AH 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD'),
      cards('QS KD AD 2C 3C 4C 5C 6C 7C 8C 9C 10C JC'),
      cards('JS 10S 9S 8S 7S 6S 5S 4S 3S 2S QC KC AC'),
    ];
    const base = rigged(settings(), 3, [1, 1, 1, 1]);
    const s = { ...base, hands };
    expect(s.turn).toBe(0);
    const r = step(s, { type: 'play', seat: 0, card: parseCard('AS')! });
    expect(errOf(r)).toBe('SPADES_NOT_BROKEN');
    expect(legalCards(viewFor(s, 0)).every((c) => c.suit === 'H')).toBe(true);
  });

  it('game ends when a side reaches maxPoints; result and places are set', () => {
    const st = settings({ max: 100 });
    let s = rigged(st, 0, [4, 3, 2, 1]);
    s = { ...s, scores: [40, 0] };
    while (s.phase === 'PLAYING') {
      const seat = s.turn as Seat;
      s = ok(apply(s, { type: 'play', seat, card: legalCards(viewFor(s, seat))[0] }));
    }
    expect(s.phase).toBe('COMPLETED');
    expect(s.scores).toEqual([107, -40]);
    expect(s.result).toMatchObject({ winnerTeam: 0, places: [1, 2, 1, 2] });
    expect(errOf(step(s, { type: 'deal', seed: seedOf(9) }))).toBe('WRONG_PHASE');
  });
});

describe('viewFor', () => {
  it('shows only the own hand, counts for others, no current seed', () => {
    const s = ok(apply(createGame(settings()), { type: 'deal', seed: seedOf(77) }));
    for (const seat of [0, 1, 2, 3] as Seat[]) {
      const v = viewFor(s, seat);
      expect(v.hand).toEqual(s.hands[seat]);
      expect(v.handCounts).toEqual([13, 13, 13, 13]);
      const json = JSON.stringify(v);
      expect(json).not.toContain(s.handSeed as string);
      for (const other of [0, 1, 2, 3]) {
        if (other === seat) continue;
        // none of the other seats' cards appear anywhere in the view
        for (const c of s.hands[other]) expect(v.hand!.some((h) => cardCode(h) === cardCode(c))).toBe(false);
      }
      expect(Object.keys(v)).not.toContain('hands');
      expect(Object.keys(v)).not.toContain('handSeed');
    }
    const sp = viewFor(s, 'spectator');
    expect(sp.hand).toBeNull();
    expect(legalBids(sp).bids).toEqual([]);
    expect(legalCards(sp)).toEqual([]);
  });
});

describe('display helpers', () => {
  it('displayBid shows blind nil as -1', () => {
    expect(displayBid(0, true)).toBe(-1);
    expect(displayBid(0, false)).toBe(0);
    expect(displayBid(5, false)).toBe(5);
    expect(displayBid(null, false)).toBeNull();
  });
  it.each([
    // mode, bids, tricksWon, trickNumber, seat, expected
    ['PARTNERS', [3, 4, 2, 4], [2, 1, 3, 0], 6, 0, 'made'],
    ['PARTNERS', [3, 4, 2, 4], [2, 1, 1, 0], 4, 0, 'pending'],
    ['PARTNERS', [6, 4, 5, 4], [0, 4, 1, 4], 9, 0, 'failed'],
    ['PARTNERS', [0, 4, 5, 4], [1, 4, 1, 4], 10, 0, 'failed'],
    ['PARTNERS', [0, 4, 5, 4], [0, 4, 1, 4], 9, 0, 'pending'],
    ['SOLO', [3, 4, 2, 4], [2, 1, 3, 0], 6, 0, 'pending'],
    ['SOLO', [3, 4, 2, 4], [3, 1, 3, 0], 7, 0, 'made'],
    ['SOLO', [5, 4, 2, 4], [0, 4, 5, 3], 12, 0, 'failed'],
  ] as const)('statusMark %s %j tricks %j after %i → %s', (mode, bids, tricksWon, trickNumber, seat, expected) => {
    const view = {
      settings: settings({ mode }),
      phase: 'PLAYING' as const,
      bids: [...bids],
      tricksWon: [...tricksWon],
      trickNumber,
    };
    expect(statusMark(view, seat as Seat)).toBe(expected);
  });
  it('statusMark: nil made when the hand is over without tricks', () => {
    const view = {
      settings: settings(),
      phase: 'HAND_COMPLETED' as const,
      bids: [0, 4, 5, 4],
      tricksWon: [0, 4, 5, 4],
      trickNumber: 13,
    };
    expect(statusMark(view, 0)).toBe('made');
    expect(statusMark({ ...view, phase: 'BIDDING' }, 0)).toBe('pending');
  });
});
