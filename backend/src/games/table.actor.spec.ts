import { DEFAULT_SETTINGS } from '@spades/common';
import { draftOf, freezeCommitted, newTable } from './table.new';
import { DoneAction, rememberResult, TableRegistry } from './table.actor';

const creator = { userId: 'u0', username: 'User 0', avatar: null };
const table = () => newTable('00000000-0000-4000-8000-000000000001', DEFAULT_SETTINGS, creator, 1_000);

describe('draftOf', () => {
  it('copies the record and its arrays: a command writing them leaves the committed record as it was', () => {
    const rec = table();
    freezeCommitted(rec);
    const draft = draftOf(rec);
    draft.seats[1] = { kind: 'bot', userId: 'bot_1', username: 'Bot 2', avatar: null };
    draft.timeouts[0] += 1;
    draft.chat.push({
      id: 'm1',
      gameId: rec.id,
      userId: 'system',
      userName: 'System',
      message: 'hi',
      timestamp: 1,
    } as never);
    draft.status = 'BIDDING';
    expect(rec.seats[1]).toBeNull();
    expect(rec.timeouts[0]).toBe(0);
    expect(rec.chat).toEqual([]);
    expect(rec.status).toBe('WAITING');
    expect(draft.engine).toBe(rec.engine); // the immutable engine state is shared
  });

  it('under tests a committed record is frozen deeply: changing a shared object in place throws', () => {
    const rec = table();
    new TableRegistry().add(rec, 1);
    const draft = draftOf(rec);
    expect(() => {
      (draft.seats[0] as { username: string }).username = 'changed';
    }).toThrow(TypeError);
    expect(() => {
      (draft.settings as { buyIn: number }).buyIn = 1;
    }).toThrow(TypeError);
    expect(() => rec.chat.push({} as never)).toThrow(TypeError);
  });
});

describe('rememberResult', () => {
  it('keeps the latest results per table, oldest dropped first; a retry refreshes its entry', () => {
    const actor = new TableRegistry().add(table(), 1);
    const done = (n: number): DoneAction => ({ type: 'bid', payload: `{"bid":${n}}`, result: { ok: true, seq: n } });
    for (let i = 0; i < 5; i++) rememberResult(actor, `u0:a${i}`, done(i), 3);
    expect([...actor.results.keys()]).toEqual(['u0:a2', 'u0:a3', 'u0:a4']);
    rememberResult(actor, 'u0:a2', done(2), 3);
    rememberResult(actor, 'u0:a5', done(5), 3);
    expect([...actor.results.keys()]).toEqual(['u0:a4', 'u0:a2', 'u0:a5']);
    expect(actor.results.get('u0:a5')).toEqual(done(5));
  });
});
