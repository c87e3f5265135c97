import { describe, expect, it } from 'vitest';
import { Card, DEFAULT_SETTINGS, GameSettings, parseCard, PlayerView, Seat, TrickCard } from '../../rules';
import { heuristicAct, estimateTricks, nilDanger } from './index';
import { cardsToMasks } from '../../fast/hand';

function cards(codes: string): Card[] {
  return codes
    .split(/\s+/)
    .filter(Boolean)
    .map((c) => {
      const card = parseCard(c);
      if (!card) throw new Error(`bad card ${c}`);
      return card;
    });
}

function trick(...plays: [Seat, string][]): TrickCard[] {
  return plays.map(([seat, code]) => ({ seat, card: cards(code)[0] }));
}

interface Position {
  me: Seat;
  hand: string;
  trick?: TrickCard[];
  bids: number[];
  tricksWon: number[];
  trickNumber: number;
  spadesBroken?: boolean;
  settings?: GameSettings;
}

/** A constructed PLAYING view (what a bot receives). Other hands appear only as counts. */
function view(p: Position): PlayerView {
  const t = p.trick ?? [];
  const handCounts = [0, 1, 2, 3].map((s) => {
    const playedNow = t.some((x) => x.seat === s) ? 1 : 0;
    return 13 - p.trickNumber - playedNow;
  });
  const hand = cards(p.hand);
  expect(hand.length).toBe(handCounts[p.me]);
  const leader = t.length ? t[0].seat : p.me;
  return {
    viewer: p.me,
    settings: p.settings ?? DEFAULT_SETTINGS,
    phase: 'PLAYING',
    handNumber: 1,
    dealer: ((leader + 3) % 4) as Seat,
    hand,
    handHidden: false,
    handCounts,
    revealed: [true, true, true, true],
    bids: p.bids,
    blind: [false, false, false, false],
    autoBid: [false, false, false, false],
    turn: p.me,
    trick: t,
    trickLeader: leader,
    trickNumber: p.trickNumber,
    spadesBroken: p.spadesBroken ?? false,
    tricksWon: p.tricksWon,
    lastTrick: null,
    scores: [0, 0],
    bags: [0, 0],
    handCommitment: null,
    history: [],
    result: null,
  };
}

function played(v: PlayerView): string {
  const a = heuristicAct(v);
  if (!a || a.type !== 'play') throw new Error('expected a card');
  return `${a.card.rank === 14 ? 'A' : a.card.rank === 13 ? 'K' : a.card.rank === 12 ? 'Q' : a.card.rank === 11 ? 'J' : a.card.rank}${a.card.suit}`;
}

describe('heuristic bot: partner nil', () => {
  it('covers a nil partner who plays after it: goes over the trick with its highest card', () => {
    // seat 3 led ♥5; I (seat 0) play second; seat 1 then my nil partner (seat 2) follow
    const v = view({
      me: 0,
      hand: 'AH 4H 9C 8C 3D 2S 5S',
      trick: trick([3, '5H']),
      bids: [4, 3, 0, 3],
      tricksWon: [2, 2, 0, 2],
      trickNumber: 6,
    });
    expect(played(v)).toBe('AH');
  });

  it('overtakes a nil partner who is winning the trick', () => {
    // seat 1 led ♦3, my nil partner (seat 2) had to play ♦9 and is winning, seat 3 ducked ♦4; I am last
    const v = view({
      me: 0,
      hand: 'KD 2D 7C 6C 3H 9S',
      trick: trick([1, '3D'], [2, '9D'], [3, '4D']),
      bids: [5, 3, 0, 3],
      tricksWon: [3, 2, 0, 2],
      trickNumber: 7,
    });
    expect(played(v)).toBe('KD');
  });

  it('overtakes with a ruff when void and the nil partner is winning', () => {
    const v = view({
      me: 0,
      hand: '8S 3S 7H 6H 2H',
      trick: trick([1, '2C'], [2, 'JC'], [3, '5C']),
      bids: [5, 3, 0, 3],
      tricksWon: [3, 3, 0, 2],
      trickNumber: 8,
      spadesBroken: true,
    });
    const c = played(v);
    expect(c.endsWith('S')).toBe(true);
  });

  it('does not lead a low card into a nil partner: leads a winner', () => {
    const v = view({
      me: 0,
      hand: 'AH 3H QC 2C 7D 4D',
      bids: [5, 3, 0, 3],
      tricksWon: [3, 2, 0, 2],
      trickNumber: 7,
    });
    expect(played(v)).toBe('AH');
  });

  it('never leads low into a nil partner across many random hands (leads the top card of its suit)', () => {
    // property over constructed leads: whatever the hand, the lead is the highest card the bot holds in that suit
    let checked = 0;
    for (let seed = 1; seed <= 300; seed++) {
      let x = seed * 2654435761;
      const rnd = () => (x = (x * 1103515245 + 12345) >>> 0) / 4294967296;
      const deck = Array.from({ length: 52 }, (_, i) => i).sort(() => rnd() - 0.5);
      const handIdx = deck.slice(0, 6);
      const hand = handIdx.map((i) => ({
        suit: (['S', 'H', 'D', 'C'] as const)[Math.floor(i / 13)],
        rank: ((i % 13) + 2) as Card['rank'],
      }));
      if (hand.every((c) => c.suit === 'S')) continue;
      const code = (c: Card) =>
        `${c.rank === 14 ? 'A' : c.rank === 13 ? 'K' : c.rank === 12 ? 'Q' : c.rank === 11 ? 'J' : c.rank}${c.suit}`;
      const v = view({
        me: 0,
        hand: hand.map(code).join(' '),
        bids: [4, 3, 0, 3],
        tricksWon: [3, 2, 0, 2],
        trickNumber: 7,
      });
      const a = heuristicAct(v);
      if (!a || a.type !== 'play') throw new Error('no card');
      const top = Math.max(...hand.filter((c) => c.suit === a.card.suit).map((c) => c.rank));
      expect(a.card.rank).toBe(top);
      checked++;
    }
    expect(checked).toBeGreaterThan(250);
  });
});

describe('heuristic bot: tricks, bags and sets', () => {
  it('takes the setting trick when the opponents need every remaining trick (even though it is a bag)', () => {
    // we bid 3 and have 3 (made); they bid 10 and have 8 with 2 tricks left: winning this trick sets them
    const v = view({
      me: 0,
      hand: 'KH 4H',
      trick: trick([1, '10H'], [2, '2H'], [3, 'JH']),
      bids: [2, 5, 1, 5],
      tricksWon: [2, 4, 1, 4],
      trickNumber: 11,
    });
    expect(played(v)).toBe('KH');
  });

  it('ducks (avoids a bag) in the same spot when the opponents cannot be set', () => {
    const v = view({
      me: 0,
      hand: 'KH 4H',
      trick: trick([1, '10H'], [2, '2H'], [3, 'JH']),
      bids: [2, 4, 1, 4],
      tricksWon: [2, 4, 1, 4],
      trickNumber: 11,
    });
    expect(played(v)).toBe('4H');
  });

  it("does not overtake a partner's winning card needlessly", () => {
    const v = view({
      me: 0,
      hand: 'KD 2D 9C 5H',
      trick: trick([1, '5D'], [2, 'AD'], [3, '6D']),
      bids: [4, 3, 4, 3],
      tricksWon: [3, 2, 3, 1],
      trickNumber: 9,
    });
    expect(played(v)).toBe('2D');
  });

  it('wins the trick cheaply as last player when the contract needs it', () => {
    const v = view({
      me: 0,
      hand: 'AD QD 3D 9C',
      trick: trick([1, '5D'], [2, '2D'], [3, 'JD']),
      bids: [4, 3, 4, 3],
      tricksWon: [2, 2, 2, 3],
      trickNumber: 9,
    });
    expect(played(v)).toBe('QD');
  });

  it('as a nil bidder plays the highest card that still loses', () => {
    const v = view({
      me: 0,
      hand: 'QD 9D 3D 9C',
      trick: trick([1, '5D'], [2, '2D'], [3, 'JD']),
      bids: [0, 3, 4, 3],
      tricksWon: [0, 3, 3, 3],
      trickNumber: 9,
    });
    expect(played(v)).toBe('9D');
  });

  it('attacks an opponent nil: ducks under the nil bidder who is winning', () => {
    // seat 3 (nil) is winning with ♣9; I am last with ♣Q ♣4: play under
    const v = view({
      me: 0,
      hand: 'QC 4C 7H 8H',
      trick: trick([1, '3C'], [2, '2C'], [3, '9C']),
      bids: [3, 4, 3, 0],
      tricksWon: [3, 2, 2, 0],
      trickNumber: 9,
    });
    expect(played(v)).toBe('4C');
  });
});

describe('heuristic bidding evaluation', () => {
  const masks = (codes: string): Int32Array => {
    const m = new Int32Array(4);
    cardsToMasks(cards(codes), m, 0);
    return m;
  };
  it('counts spade honours and length, side aces and ruffs', () => {
    expect(estimateTricks(masks('AS KS QS JS 10S 9S AH KH 2D 3D 4D 5C 6C'))).toBeGreaterThan(7);
    expect(estimateTricks(masks('2S 3H 4H 5H 6D 7D 8D 9D 2C 3C 4C 5C 6C'))).toBeLessThan(1);
    expect(estimateTricks(masks('AH AD AC 2S 3S 4H 5H 6H 7D 8D 9C 10C JC'))).toBeGreaterThan(2.5);
  });
  it('finds nil hands safe and honour-heavy hands dangerous', () => {
    expect(nilDanger(masks('2S 3H 4H 5H 6D 7D 8D 9D 2C 3C 4C 5C 6C'))).toBeLessThan(1.1);
    expect(nilDanger(masks('AS 3H 4H 5H 6D 7D 8D 9D 2C 3C 4C 5C 6C'))).toBeGreaterThan(5);
    expect(nilDanger(masks('2S 3S AH KH 6D 7D 8D 9D 2C 3C 4C 5C 6C'))).toBeGreaterThan(1.5);
  });
});
