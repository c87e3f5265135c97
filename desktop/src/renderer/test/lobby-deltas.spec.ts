import { describe, expect, it } from 'vitest';
import { applyGameDelta } from '../lib/queries';
import type { GameListItem } from '../lib/types';

const item = (id: string, status = 'WAITING', extra: Record<string, unknown> = {}) => ({
  id,
  status,
  phase: status,
  gameMode: 'PARTNERS',
  players: [null, null, null, null],
  buyIn: 100_000,
  createdAt: new Date(0).toISOString(),
  ...extra,
});

describe('lobby deltas (watch_lobby)', () => {
  it('adds new tables first, replaces changed ones in place, removes closed ones', () => {
    let list: GameListItem[] = [];
    list = applyGameDelta(list, 'game_added', item('a'));
    list = applyGameDelta(list, 'game_added', item('b'));
    expect(list.map((g) => g.id)).toEqual(['b', 'a']);
    list = applyGameDelta(list, 'game_changed', item('a', 'PLAYING'));
    expect(list.map((g) => [g.id, g.status])).toEqual([
      ['b', 'WAITING'],
      ['a', 'PLAYING'],
    ]);
    // a change for a table we did not have (e.g. missed while reconnecting) adds it
    list = applyGameDelta(list, 'game_changed', item('c'));
    expect(list.map((g) => g.id)).toEqual(['c', 'b', 'a']);
    list = applyGameDelta(list, 'game_removed', { id: 'b', gameId: 'b' });
    expect(list.map((g) => g.id)).toEqual(['c', 'a']);
    // malformed payloads change nothing
    expect(applyGameDelta(list, 'game_changed', null)).toBe(list);
  });
});
