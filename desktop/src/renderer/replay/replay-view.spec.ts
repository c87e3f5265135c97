/** What the replay viewer shows and does, derived from the document: pure functions, no React. */
import { describe, expect, it } from 'vitest';
import type { GameReplay, ReplayHand } from '@spades/common';
import { nextStop, nextTrick, prevStop, prevTrick } from './replay-model';
import {
  deltaText,
  mayShareReplay,
  playerName,
  replayDownloadUrl,
  replayFileName,
  replayKeyAction,
  replayUrl,
  replayWinners,
  sideBid,
} from './replay-view';

const players = [
  { seat: 0, userId: 'u0', username: 'Ada', kind: 'human' },
  { seat: 1, userId: null, username: 'Bot 2', kind: 'bot' },
] as GameReplay['players'];

const result = (over: Partial<GameReplay['result']>): GameReplay['result'] => ({
  winnerTeam: null,
  winnerSeat: null,
  finalScores: [],
  places: [],
  ...over,
});
const mode = (gameMode: 'PARTNERS' | 'SOLO') => ({ gameMode }) as GameReplay['settings'];

describe('replay view', () => {
  it('loads by game (with its number) or through a share link, every part encoded', () => {
    expect(replayUrl('g 1', null, null)).toBe('/api/games/g%201/replay');
    expect(replayUrl('g1', '2', null)).toBe('/api/games/g1/replay?game=2');
    expect(replayUrl('g1', '2', 'a&b')).toBe('/api/shared-replays/g1?share=a%26b');
    expect(replayDownloadUrl({ gameId: 'g/1', gameNumber: 3 })).toBe('/api/games/g%2F1/replay?game=3&download=1');
    expect(replayFileName({ gameId: 'g1', gameNumber: 3 })).toBe('spades-replay-g1-3.json');
  });

  it('keys: arrows step by card, Shift+arrows and up/down by trick, Space toggles, fields and other keys are left alone', () => {
    expect(replayKeyAction({ key: 'ArrowRight' }, null)).toBe(nextStop);
    expect(replayKeyAction({ key: 'ArrowLeft' }, { tagName: 'BODY' })).toBe(prevStop);
    expect(replayKeyAction({ key: 'ArrowRight', shiftKey: true }, null)).toBe(nextTrick);
    expect(replayKeyAction({ key: 'ArrowLeft', shiftKey: true }, null)).toBe(prevTrick);
    expect(replayKeyAction({ key: 'ArrowDown' }, null)).toBe(nextTrick);
    expect(replayKeyAction({ key: 'ArrowUp' }, null)).toBe(prevTrick);
    expect(replayKeyAction({ key: ' ' }, null)).toBe('toggle');
    expect(replayKeyAction({ key: 'Spacebar', code: 'Space' }, null)).toBe('toggle');
    expect(replayKeyAction({ key: 'a' }, null)).toBeNull();
    for (const tagName of ['INPUT', 'SELECT', 'TEXTAREA'])
      expect(replayKeyAction({ key: 'ArrowRight' }, { tagName })).toBeNull();
    expect(replayKeyAction({ key: ' ' }, { tagName: 'DIV', isContentEditable: true })).toBeNull();
  });

  it('names a player, or the seat when the document has none', () => {
    expect(playerName({ players }, 0)).toBe('Ada');
    expect(playerName({ players }, 3)).toBe('Seat 4');
  });

  it('only a signed-in player of a private game, not on a share link, may share it', () => {
    const doc = { private: true, players };
    expect(mayShareReplay(doc, 'u0', false)).toBe(true);
    expect(mayShareReplay(doc, 'u0', true)).toBe(false);
    expect(mayShareReplay(doc, null, false)).toBe(false);
    expect(mayShareReplay(doc, 'u9', false)).toBe(false);
    expect(mayShareReplay({ ...doc, private: false }, 'u0', false)).toBe(false);
  });

  it('winners: a team is its two seats, SOLO its one seat, nobody without a winner', () => {
    expect(replayWinners({ settings: mode('PARTNERS'), result: result({ winnerTeam: 0 }) })).toEqual([0, 2]);
    expect(replayWinners({ settings: mode('PARTNERS'), result: result({ winnerTeam: 1 }) })).toEqual([1, 3]);
    expect(replayWinners({ settings: mode('PARTNERS'), result: result({}) })).toEqual([]);
    expect(replayWinners({ settings: mode('SOLO'), result: result({ winnerSeat: 2 }) })).toEqual([2]);
    expect(replayWinners({ settings: mode('SOLO'), result: result({}) })).toEqual([]);
  });

  it("a side's bid joins the partners' bids (nil, blind nil), SOLO shows the one seat's", () => {
    const h = { score: { bids: [3, 0, 0, 4], blind: [false, true, false, false] } } as unknown as Pick<
      ReplayHand,
      'score'
    >;
    expect(sideBid(h, 0, true)).toBe('3+Nil');
    expect(sideBid(h, 1, true)).toBe('BN+4');
    expect(sideBid(h, 3, false)).toBe('4');
  });

  it('a score change carries its sign', () => {
    expect(deltaText(12)).toBe('+12');
    expect(deltaText(0)).toBe('+0');
    expect(deltaText(undefined)).toBe('+0');
    expect(deltaText(-40)).toBe('-40');
  });
});
