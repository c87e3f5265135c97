import { anonymizeDoc, namesOf, wordMatcher } from './anonymize';

const ME = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const a = { userId: ME, names: new Set(['Al_ice', 'oldAl']), neutral: 'Deleted #0badc0de' };

describe('anonymizeDoc', () => {
  it('replaces the player’s name fields and avatar, others’ stay, engine and settings untouched', () => {
    const doc = {
      seats: [
        { kind: 'human', userId: ME, username: 'oldAl', avatar: 'data:image/png;base64,xx' },
        { kind: 'human', userId: OTHER, username: 'bob', avatar: null },
      ],
      invitations: [{ userId: OTHER, fromId: ME, fromName: 'AL_ICE' }],
      settings: { name: 'Al_ice' },
      engine: { players: ['Al_ice'] },
    };
    const { value, changed } = anonymizeDoc(doc, a);
    expect(changed).toBe(true);
    expect(value).toEqual({
      seats: [
        { kind: 'human', userId: ME, username: a.neutral, avatar: null },
        { kind: 'human', userId: OTHER, username: 'bob', avatar: null },
      ],
      invitations: [{ userId: OTHER, fromId: ME, fromName: a.neutral }],
      settings: { name: 'Al_ice' },
      engine: { players: ['Al_ice'] },
    });
  });

  it('rewrites whole-word mentions in chat lines (system lines and players’ lines)', () => {
    const chat = [
      { id: 'm1', userId: 'system', userName: 'System', message: 'Al_ice joined the game. Al_ice2 too, oldal left.' },
      { id: 'm2', userId: OTHER, userName: 'bob', message: 'gg Al_ice' },
      { id: 'm3', userId: ME, userName: 'Al_ice', message: 'thanks' },
    ];
    expect(anonymizeDoc(chat, a).value).toEqual([
      {
        id: 'm1',
        userId: 'system',
        userName: 'System',
        message: `${a.neutral} joined the game. Al_ice2 too, ${a.neutral} left.`,
      },
      { id: 'm2', userId: OTHER, userName: 'bob', message: `gg ${a.neutral}` },
      { id: 'm3', userId: ME, userName: a.neutral, message: 'thanks' },
    ]);
  });

  it('reports no change for a document without the player', () => {
    const doc = { seats: [{ userId: OTHER, username: 'bob' }], n: 3 };
    expect(anonymizeDoc(doc, a)).toEqual({ value: doc, changed: false });
    expect(anonymizeDoc(null, a)).toEqual({ value: null, changed: false });
  });
});

describe('namesOf / wordMatcher', () => {
  it('collects the names stored with the player’s id (an older name included)', () => {
    const doc = [
      { userId: ME, username: 'before_rename' },
      { id: ME, name: 'Al_ice' },
      { userId: OTHER, username: 'bob' },
    ];
    expect([...namesOf(doc, ME)].sort()).toEqual(['Al_ice', 'before_rename']);
  });

  it('matches whole names only, case-insensitively; none for no names', () => {
    const re = wordMatcher(['a-b'])!;
    expect('A-B left; xa-b, a-bc, a-b.'.replace(re, '#')).toBe('# left; xa-b, a-bc, #.');
    expect(wordMatcher([])).toBeNull();
  });
});
