import { describe, it, expect } from 'vitest';
import { Card, parseCard } from './cards';
import { allowedBids, blindNilPossible, computeLegalBids, computeLegalCards, playError, trickWinner } from './legal';
import { DEFAULT_SETTINGS, GameSettings, Gimmick } from './settings';
import { TrickCard } from './state';
import { engineErrorMessage, SPADE_RULE_ERRORS } from './errors';

const cards = (s: string): Card[] => (s ? s.split(' ').map((c) => parseCard(c)!) : []);
const trick = (s: string, leader = 0): TrickCard[] =>
  cards(s).map((card, i) => ({ seat: ((leader + i) % 4) as 0, card }));
function settings(
  o: {
    mode?: 'PARTNERS' | 'SOLO';
    opt?: GameSettings['biddingOption'];
    g?: Gimmick;
    nil?: boolean;
    blind?: boolean;
    screamer?: boolean;
    assassin?: boolean;
  } = {},
): GameSettings {
  return {
    ...DEFAULT_SETTINGS,
    gameMode: o.mode ?? 'PARTNERS',
    biddingOption: o.g ? 'GIMMICK' : (o.opt ?? 'REG'),
    gimmick: o.g ?? null,
    specialRules: {
      allowNil: o.nil ?? true,
      allowBlindNil: o.blind ?? false,
      screamer: o.screamer ?? false,
      assassin: o.assassin ?? false,
    },
  };
}
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
const N = [null, null, null, null];

describe('allowedBids per variant', () => {
  const H1 = cards('AS KS 5S AH 2H 3H AD KD QD 2C 3C 4C 5C'); // 3 spades incl. A♠, 3 hearts, 3 aces
  const H2 = cards('KS 5S 4H 2H 3H 9H AD KD QD 2C 3C 4C 5C'); // 2 spades no A♠, 4 hearts, 1 ace
  const H3 = cards('KH 5H 4H 2H 3H 9H AD KD QD 2C 3C 4C 5C'); // no spades, 6 hearts, 1 ace
  it.each([
    ['REG nil on', settings(), H1, N, 0, range(0, 13)],
    ['REG nil off', settings({ nil: false }), H1, N, 0, range(1, 13)],
    ['WHIZ with A♠: only the spade count', settings({ opt: 'WHIZ' }), H1, N, 0, [3]],
    ['WHIZ without A♠: count or nil', settings({ opt: 'WHIZ' }), H2, N, 0, [0, 2]],
    ['WHIZ without A♠, nil off: count only', settings({ opt: 'WHIZ', nil: false }), H2, N, 0, [2]],
    ['WHIZ no spades: forced nil (even with nil off)', settings({ opt: 'WHIZ', nil: false }), H3, N, 0, [0]],
    ['MIRROR: spade count', settings({ opt: 'MIRROR' }), H1, N, 0, [3]],
    ['MIRROR no spades: nil', settings({ opt: 'MIRROR' }), H3, N, 0, [0]],
    ['4 OR NIL', settings({ g: '4 OR NIL' }), H1, N, 0, [0, 4]],
    ['4 OR NIL with nil off', settings({ g: '4 OR NIL', nil: false }), H1, N, 0, [0, 4]],
    ['BID 3', settings({ g: 'BID 3' }), H1, N, 0, [3]],
    ['BID HEARTS', settings({ g: 'BID HEARTS' }), H2, N, 0, [4]],
    ['BID HEARTS none', settings({ g: 'BID HEARTS' }), cards('AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S'), N, 0, [0]],
    ['CRAZY ACES', settings({ g: 'CRAZY ACES' }), H1, N, 0, [9]],
    ['SUICIDE first partner', settings({ g: 'SUICIDE' }), H1, N, 0, range(0, 13)],
    ['SUICIDE partner bid 3 → nil', settings({ g: 'SUICIDE' }), H1, [null, 2, 3, null], 0, [0]],
    ['SUICIDE partner bid nil → 1..13', settings({ g: 'SUICIDE' }), H1, [null, 2, 0, null], 0, range(1, 13)],
  ] as const)('%s', (_n, s, hand, bids, seat, expected) => {
    expect(allowedBids(s, seat, hand, bids)).toEqual(expected);
  });
});

describe('blind nil availability (clarification 1)', () => {
  it.each([
    ['REG nil+blind', settings({ blind: true }), N, true],
    ['REG blind off', settings({ blind: false }), N, false],
    ['SOLO REG blind', settings({ mode: 'SOLO', blind: true }), N, true],
    ['4 OR NIL', settings({ g: '4 OR NIL', blind: true }), N, true],
    ['SUICIDE partner not yet bid', settings({ g: 'SUICIDE', blind: true }), N, true],
    ['SUICIDE partner bid 4', settings({ g: 'SUICIDE', blind: true }), [null, null, 4, null], true],
    ['SUICIDE partner bid nil', settings({ g: 'SUICIDE', blind: true }), [null, null, 0, null], false],
    ['WHIZ', settings({ opt: 'WHIZ', blind: true }), N, false],
    ['MIRROR', settings({ opt: 'MIRROR', blind: true }), N, false],
    ['BID 3', settings({ g: 'BID 3', blind: true }), N, false],
    ['BID HEARTS', settings({ g: 'BID HEARTS', blind: true }), N, false],
    ['CRAZY ACES', settings({ g: 'CRAZY ACES', blind: true }), N, false],
  ] as const)('%s → %s', (_n, s, bids, expected) => {
    expect(blindNilPossible(s, 0, bids)).toBe(expected);
    expect(computeLegalBids(s, 0, [], bids, false).blindNil).toBe(expected);
    expect(computeLegalBids(s, 0, [], bids, true).blindNil).toBe(false); // never after looking
  });
  it('forced flag', () => {
    expect(computeLegalBids(settings({ g: 'BID 3' }), 0, [], N, false).forced).toBe(true);
    expect(computeLegalBids(settings({ g: 'SUICIDE' }), 0, [], [null, null, 4, null], false).forced).toBe(true);
    expect(computeLegalBids(settings({ g: 'SUICIDE', blind: true }), 0, [], [null, null, 4, null], false)).toEqual({
      bids: [0],
      blindNil: true,
      forced: false,
    });
    // once the seat has looked at its cards blind nil is no longer offered: the nil is forced
    expect(computeLegalBids(settings({ g: 'SUICIDE', blind: true }), 0, [], [null, null, 4, null], true)).toEqual({
      bids: [0],
      blindNil: false,
      forced: true,
    });
    expect(computeLegalBids(settings({ g: '4 OR NIL', blind: true }), 0, [], N, true)).toEqual({
      bids: [0, 4],
      blindNil: false,
      forced: false,
    });
    expect(computeLegalBids(settings(), 0, [], N, false).forced).toBe(false);
  });
});

describe('play legality', () => {
  const normal = settings();
  const scr = settings({ screamer: true });
  const ass = settings({ assassin: true });
  it.each([
    // name, settings, hand, trick so far, spadesBroken, card, expected error
    ['follow suit ok', normal, 'AH 2D 3S', '5H', false, 'AH', null],
    ['must follow suit', normal, 'AH 2D 3S', '5H', false, '2D', 'MUST_FOLLOW_SUIT'],
    ['void: any card', normal, '2D 3S', '5H', false, '3S', null],
    ['void: discard', normal, '2D 3S', '5H', false, '2D', null],
    ['lead spade before broken', normal, 'AH 3S', '', false, '3S', 'SPADES_NOT_BROKEN'],
    ['lead spade after broken', normal, 'AH 3S', '', true, '3S', null],
    ['lead spade when only spades remain', normal, '3S 4S', '', false, '3S', null],
    ['lead non-spade', normal, 'AH 3S', '', false, 'AH', null],
    ['screamer void: no spade while holding others', scr, '2D 3S', '5H', true, '3S', 'SCREAMER_NO_SPADES'],
    ['screamer void: non-spade ok', scr, '2D 3S', '5H', true, '2D', null],
    ['screamer void: only spades', scr, '3S 4S', '5H', true, '3S', null],
    ['screamer follow spade lead', scr, '3S 2D', '5S', true, '3S', null],
    ['screamer must still follow spades', scr, '3S 2D', '5S', true, '2D', 'MUST_FOLLOW_SUIT'],
    ['screamer lead spade after broken', scr, 'AH 3S', '', true, '3S', 'SCREAMER_NO_SPADES'],
    ['screamer lead only spades', scr, '3S 4S', '', false, '4S', null],
    ['assassin void: must play spade', ass, '2D 3S', '5H', false, '2D', 'ASSASSIN_MUST_PLAY_SPADE'],
    ['assassin void: spade ok', ass, '2D 3S', '5H', false, '3S', null],
    ['assassin void, no spades: discard', ass, '2D 3C', '5H', false, '2D', null],
    ['assassin follows suit', ass, 'AH 3S', '5H', false, 'AH', null],
    ['assassin lead after broken: must lead spade', ass, 'AH 3S', '', true, 'AH', 'ASSASSIN_MUST_LEAD_SPADES'],
    ['assassin lead after broken: spade ok', ass, 'AH 3S', '', true, '3S', null],
    ['assassin lead before broken: normal rule', ass, 'AH 3S', '', false, '3S', 'SPADES_NOT_BROKEN'],
    ['assassin lead before broken: non-spade', ass, 'AH 3S', '', false, 'AH', null],
    ['assassin lead before broken: only spades', ass, '3S', '', false, '3S', null],
  ] as const)('%s', (_n, s, hand, tr, broken, card, expected) => {
    const h = cards(hand);
    expect(playError(s, h, trick(tr), broken, parseCard(card)!)).toBe(expected);
    const legal = computeLegalCards(s, h, trick(tr), broken).map((c) => c.suit + c.rank);
    expect(legal.includes(parseCard(card)!.suit + parseCard(card)!.rank)).toBe(expected === null);
  });

  it.each([
    ['2H 5H AH 3H', 2],
    ['2H 5H 2S 3H', 2],
    ['2H AD KC 3H', 3],
    ['KS AS 2H 3H', 1],
    ['AH 2S 3S 4S', 3],
  ])('trick winner of %s (leader seat 0) is seat %i', (t, w) => {
    expect(trickWinner(trick(t))).toBe(w);
  });

  it('spade-rule error messages contain the word "spades"', () => {
    for (const code of SPADE_RULE_ERRORS) expect(engineErrorMessage(code)).toContain('spades');
  });
});
