/** What the hand summary and result dialogs show, derived from the payloads: pure functions, no React. */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, dealFromSeed, normalizeSeed, payoutsFor, seedCommitment, type Card } from '@spades/common';
import {
  bagsShown,
  checkRevealedDeal,
  gamePayouts,
  gameWinners,
  ordinal,
  resultTitle,
  soloStandings,
  summaryBidText,
} from './result-model';

const SEED = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';
const names = (s: number) => ['Ada', 'Bo', 'Cy', 'Di'][s];

describe('result model', () => {
  it('ordinals for places 1–4', () => {
    expect([1, 2, 3, 4].map(ordinal)).toEqual(['1st', '2nd', '3rd', '4th']);
  });

  it("SOLO standings: the server's places when given, else by score with ties sharing a place; best first", () => {
    expect(soloStandings({ places: [3, 1, 4, 2], finalScores: [0, 0, 0, 0] })).toEqual([
      { seat: 1, place: 1 },
      { seat: 3, place: 2 },
      { seat: 0, place: 3 },
      { seat: 2, place: 4 },
    ]);
    expect(soloStandings({ places: null, finalScores: [100, 250, 100, -20] })).toEqual([
      { seat: 1, place: 1 },
      { seat: 0, place: 2 },
      { seat: 2, place: 2 },
      { seat: 3, place: 4 },
    ]);
  });

  it('winners and title: a team (both seats), a SOLO player, or nobody', () => {
    const none = { winningTeam: null, winningPlayer: null };
    expect(gameWinners({ winningTeam: 'team1', winningPlayer: null }, 'PARTNERS')).toEqual([0, 2]);
    expect(gameWinners({ winningTeam: 'team2', winningPlayer: null }, 'PARTNERS')).toEqual([1, 3]);
    expect(gameWinners(none, 'PARTNERS')).toEqual([]);
    expect(gameWinners({ winningTeam: null, winningPlayer: 3 }, 'SOLO')).toEqual([3]);
    expect(gameWinners(none, 'SOLO')).toEqual([]);
    expect(resultTitle({ winningTeam: 'team1' }, 'PARTNERS', [0, 2], names)).toBe('Red team wins!');
    expect(resultTitle({ winningTeam: 'team2' }, 'PARTNERS', [1, 3], names)).toBe('Blue team wins!');
    expect(resultTitle({ winningTeam: null }, 'SOLO', [3], names)).toBe('Di wins!');
    expect(resultTitle({ winningTeam: null }, 'SOLO', [], names)).toBe('Game over');
  });

  it("payouts: the server's when sent, else common's payoutsFor the places of a rated game, none unrated", () => {
    const settings = { ...DEFAULT_SETTINGS, gameMode: 'SOLO' as const, buyIn: 100 };
    expect(gamePayouts({ payouts: [1, 2, 3, 4], rated: true, places: [1, 2, 3, 4] }, settings)).toEqual([1, 2, 3, 4]);
    expect(gamePayouts({ payouts: null, rated: true, places: [2, 1, 3, 4] }, settings)).toEqual(
      payoutsFor(settings, { places: [2, 1, 3, 4] }),
    );
    expect(gamePayouts({ payouts: null, rated: false, places: [2, 1, 3, 4] }, settings)).toBeNull();
    expect(gamePayouts({ payouts: null, rated: true, places: null }, settings)).toBeNull();
  });

  it('summary bids and bags as shown', () => {
    expect([undefined, -1, 0, 4].map(summaryBidText)).toEqual(['–', 'BN (−1)', 'Nil', '4']);
    expect([0, 7, 10, 13, -3].map(bagsShown)).toEqual([0, 7, 0, 3, 7]);
  });

  it("verify deal: the seed's commitment and the player's cards match, or each mismatch is reported", () => {
    const hands = dealFromSeed(normalizeSeed(SEED)!);
    const ok = checkRevealedDeal(SEED, seedCommitment(SEED).toUpperCase(), hands[2], 2)!;
    expect(ok.recomputed).toBe(seedCommitment(SEED));
    expect(ok.hands).toEqual(hands);
    expect(ok.commitmentMatches).toBe(true);
    expect(ok.handMatches).toBe(true);
    // the dealt cards in any order are the same hand
    expect(checkRevealedDeal(SEED, null, [...hands[2]].reverse(), 2)!.handMatches).toBe(true);
    const bad = checkRevealedDeal(SEED, '0'.repeat(64), hands[1], 2)!;
    expect(bad.commitmentMatches).toBe(false);
    expect(bad.handMatches).toBe(false);
    expect(checkRevealedDeal(SEED, null, hands[2], 2)!.commitmentMatches).toBe(false);
    // unknown or partial hands are not judged
    expect(checkRevealedDeal(SEED, null, null, 2)!.handMatches).toBeNull();
    expect(checkRevealedDeal(SEED, null, hands[2], null)!.handMatches).toBeNull();
    expect(checkRevealedDeal(SEED, null, hands[2].slice(1) as Card[], 2)!.handMatches).toBeNull();
    expect(checkRevealedDeal('not a seed', null, null, null)).toBeNull();
  });
});
