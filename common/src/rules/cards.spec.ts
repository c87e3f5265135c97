import { describe, it, expect } from 'vitest';
import {
  cardCode,
  cardEquals,
  cardFromIndex,
  cardIndex,
  DECK,
  normalizeCard,
  parseCard,
  sortHand,
  Card,
} from './cards';

describe('cards', () => {
  it('DECK has 52 distinct cards in index order', () => {
    expect(DECK.length).toBe(52);
    expect(new Set(DECK.map(cardCode)).size).toBe(52);
    DECK.forEach((c, i) => {
      expect(cardIndex(c)).toBe(i);
      expect(cardFromIndex(i)).toBe(c);
    });
  });

  it.each([
    ['AS', 'S', 14],
    ['10H', 'H', 10],
    ['QD', 'D', 12],
    ['2C', 'C', 2],
    ['jc', 'C', 11],
    ['K♠', 'S', 13],
    ['10♥', 'H', 10],
    ['A♦', 'D', 14],
    ['3♣', 'C', 3],
    ['A spades', 'S', 14],
    ['Q of hearts', 'H', 12],
    ['TS', 'S', 10],
  ])('parseCard(%s)', (code, suit, rank) => {
    expect(parseCard(code)).toEqual({ suit, rank });
  });

  it.each(['', '1S', '11', 'AX', 'ZZ', '15H', 'A', '10'])('parseCard(%j) is null', (code) => {
    expect(parseCard(code)).toBeNull();
  });

  it('cardCode round-trips through parseCard for every card', () => {
    for (const c of DECK) expect(cardEquals(parseCard(cardCode(c)) as Card, c)).toBe(true);
    expect(cardCode({ suit: 'H', rank: 10 })).toBe('10H');
    expect(cardCode({ suit: 'S', rank: 14 })).toBe('AS');
  });

  it('normalizeCard accepts the spec forms of card objects', () => {
    expect(normalizeCard({ suit: '♠', rank: 'A' })).toEqual({ suit: 'S', rank: 14 });
    expect(normalizeCard({ suit: 'hearts', rank: '10' })).toEqual({ suit: 'H', rank: 10 });
    expect(normalizeCard({ suit: 'D', rank: 12 })).toEqual({ suit: 'D', rank: 12 });
    expect(normalizeCard({ suit: 'X', rank: 12 })).toBeNull();
    expect(normalizeCard({ suit: 'S', rank: 1 })).toBeNull();
    expect(normalizeCard(null)).toBeNull();
    for (const bad of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(normalizeCard({ suit: bad, rank: 5 })).toBeNull();
      expect(normalizeCard({ suit: 'S', rank: bad })).toBeNull();
      expect(parseCard(`5 ${bad}`)).toBeNull();
    }
    expect(normalizeCard('QC')).toEqual({ suit: 'C', rank: 12 });
  });

  it('sortHand orders ♠ ♥ ♣ ♦ high to low and does not mutate', () => {
    const hand: Card[] = [parseCard('2D')!, parseCard('AS')!, parseCard('3H')!, parseCard('KC')!, parseCard('10S')!];
    const copy = hand.slice();
    expect(sortHand(hand).map(cardCode)).toEqual(['AS', '10S', '3H', 'KC', '2D']);
    expect(hand).toEqual(copy);
  });
});
