import { describe, it, expect } from 'vitest';
import {
  apply,
  createGame,
  DEFAULT_SETTINGS,
  GameSettings,
  GameState,
  Gimmick,
  legalBids,
  legalCards,
  parseCard,
  Seat,
  viewFor,
} from '../rules';
import { basicBot } from './basic';
import { randomBot } from './random';
import { getBot, BOTS, mulberry32, playGame, randomSeed } from './index';

function settings(
  o: {
    mode?: 'PARTNERS' | 'SOLO';
    opt?: GameSettings['biddingOption'];
    g?: Gimmick;
    nil?: boolean;
    blind?: boolean;
  } = {},
): GameSettings {
  return {
    ...DEFAULT_SETTINGS,
    gameMode: o.mode ?? 'PARTNERS',
    biddingOption: o.g ? 'GIMMICK' : (o.opt ?? 'REG'),
    gimmick: o.g ?? null,
    specialRules: { allowNil: o.nil ?? true, allowBlindNil: o.blind ?? false, screamer: false, assassin: false },
  };
}
function dealt(st: GameSettings, n: number): GameState {
  const r = apply(createGame(st), { type: 'deal', seed: randomSeed(mulberry32(n)) });
  if (!r.ok) throw new Error(r.error);
  return r.state;
}

describe('bot registry and prng', () => {
  it('getBot finds registered bots only', () => {
    expect(getBot('random')).toBe(randomBot);
    expect(getBot('basic')).toBe(basicBot);
    expect(getBot('nope')).toBeUndefined();
    expect(getBot('constructor')).toBeUndefined();
    expect(BOTS.basic.name).toBe('basic');
  });
  it('mulberry32 is deterministic and in [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    for (let i = 0; i < 1000; i++) {
      const x = a();
      expect(x).toBe(b());
      expect(x >= 0 && x < 1).toBe(true);
    }
    expect(mulberry32(1)()).not.toBe(mulberry32(2)());
  });
});

describe('basic bot', () => {
  it.each([
    ['REG', settings(), (_n: number[]) => 4],
    ['REG nil off', settings({ nil: false }), () => 4],
    ['4 OR NIL', settings({ g: '4 OR NIL' }), () => 4],
    ['SUICIDE first partner', settings({ g: 'SUICIDE' }), () => 4],
  ])('bids 4 when allowed (%s)', (_n, st, expected) => {
    const s = dealt(st, 1);
    const seat = s.turn as Seat;
    expect(basicBot.act(viewFor(s, seat), mulberry32(1))).toEqual({ type: 'bid', seat, bid: expected([]) });
  });

  it('WHIZ: bids the legal bid nearest 4 (ties: the lower)', () => {
    for (let n = 0; n < 30; n++) {
      const s = dealt(settings({ opt: 'WHIZ' }), n);
      if (s.phase !== 'BIDDING') continue;
      const seat = s.turn as Seat;
      const v = viewFor(s, seat);
      const options = legalBids(v).bids;
      const a = basicBot.act(v, mulberry32(1));
      const best = [...options].sort((x, y) => Math.abs(x - 4) - Math.abs(y - 4) || x - y)[0];
      expect(a).toEqual({ type: 'bid', seat, bid: best });
    }
  });

  it('reveals first when its cards are withheld (blind nil possible), never bids blind', () => {
    const s = dealt(settings({ blind: true }), 3);
    const seat = s.turn as Seat;
    expect(basicBot.act(viewFor(s, seat), mulberry32(1))).toEqual({ type: 'reveal', seat });
    const r = apply(s, { type: 'reveal', seat });
    if (!r.ok) throw new Error(r.error);
    expect(basicBot.act(viewFor(r.state, seat), mulberry32(1))).toEqual({ type: 'bid', seat, bid: 4 });
  });

  it('returns null when it is not its turn or for spectators', () => {
    const s = dealt(settings(), 4);
    const other = (((s.turn as Seat) + 1) % 4) as Seat;
    expect(basicBot.act(viewFor(s, other), mulberry32(1))).toBeNull();
    expect(basicBot.act(viewFor(s, 'spectator'), mulberry32(1))).toBeNull();
    expect(randomBot.act(viewFor(s, other), mulberry32(1))).toBeNull();
  });

  it('plays the lowest winning card, else the lowest card; ducks as a nil bidder', () => {
    const base = dealt(settings(), 5);
    const hand0 = ['AH', '10H', '5H', '2C'].map((c) => parseCard(c)!);
    const mk = (bids: number[], trick: string[]): GameState => ({
      ...base,
      phase: 'PLAYING',
      bids,
      hands: [hand0, base.hands[1], base.hands[2], base.hands[3]],
      trick: trick.map((c, i) => ({ seat: ((i + 4 - trick.length) % 4) as Seat, card: parseCard(c)! })),
      turn: 0,
    });
    // trick led by seat 3 (an opponent) with JH
    const s1 = mk([3, 3, 3, 3], ['JH']);
    expect(basicBot.act(viewFor(s1, 0), mulberry32(1))).toEqual({ type: 'play', seat: 0, card: parseCard('AH') });
    const s2 = mk([3, 3, 3, 3], ['8H']);
    expect(basicBot.act(viewFor(s2, 0), mulberry32(1))).toEqual({ type: 'play', seat: 0, card: parseCard('10H') });
    // nil bidder: highest card that does not win
    const s3 = mk([0, 3, 3, 3], ['JH']);
    expect(basicBot.act(viewFor(s3, 0), mulberry32(1))).toEqual({ type: 'play', seat: 0, card: parseCard('10H') });
    // partner (seat 2) winning: lowest card
    const s4 = mk([3, 3, 3, 3], ['KH', '2H']); // seat 2 led KH, seat 3 played 2H
    expect(basicBot.act(viewFor(s4, 0), mulberry32(1))).toEqual({ type: 'play', seat: 0, card: parseCard('5H') });
  });
});

describe('random bot', () => {
  it('only makes legal moves and covers every legal option', () => {
    const s = dealt(settings({ blind: true }), 6);
    const seat = s.turn as Seat;
    const seen = new Set<string>();
    const rng = mulberry32(9);
    for (let i = 0; i < 2000; i++) {
      const a = randomBot.act(viewFor(s, seat), rng)!;
      expect(apply(s, a).ok).toBe(true);
      seen.add(JSON.stringify(a));
    }
    expect(seen.size).toBe(15); // 0..13 + blind nil
  });
  it('plays only legal cards', () => {
    let s = dealt(settings(), 7);
    while (s.phase === 'BIDDING')
      s = (apply(s, { type: 'bid', seat: s.turn as Seat, bid: 3 }) as { ok: true; state: GameState }).state;
    const rng = mulberry32(3);
    while (s.phase === 'PLAYING') {
      const seat = s.turn as Seat;
      const v = viewFor(s, seat);
      const a = randomBot.act(v, rng);
      expect(a?.type).toBe('play');
      if (a?.type === 'play') expect(legalCards(v)).toContainEqual(a.card);
      const r = apply(s, a!);
      expect(r.ok).toBe(true);
      if (r.ok) s = r.state;
    }
    expect(s.history.length).toBe(1);
  });
  it('playGame completes games with basic and random bots in every variant', () => {
    for (const st of [
      settings(),
      settings({ opt: 'WHIZ' }),
      settings({ opt: 'MIRROR' }),
      settings({ g: 'SUICIDE', blind: true }),
      settings({ mode: 'SOLO', g: 'CRAZY ACES' }),
    ]) {
      const r = playGame(st, { bots: [basicBot, randomBot, basicBot, randomBot], rng: mulberry32(11) });
      expect(r.state.phase).toBe('COMPLETED');
      expect(r.state.result).not.toBeNull();
    }
  });
});
