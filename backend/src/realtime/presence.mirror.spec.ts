import { describe, expect, it } from '@jest/globals';
import { parsePresenceMessage, PresenceMirror } from './presence.mirror';

describe("PresenceMirror (a node's copy of the cluster-wide online set)", () => {
  it('ignores messages before the first snapshot and those the snapshot already holds', () => {
    const m = new PresenceMirror();
    expect(m.initialized).toBe(false);
    expect(m.apply({ s: 1, on: ['a'], off: [] })).toEqual({ kind: 'stale' });
    expect(m.has('a')).toBe(false);
    expect(m.reset(5, ['a', 'b'])).toEqual({ online: ['a', 'b'], offline: [] });
    expect(m.seq).toBe(5);
    expect(m.apply({ s: 4, on: [], off: ['a'] })).toEqual({ kind: 'stale' });
    expect(m.apply({ s: 5, on: [], off: ['a'] })).toEqual({ kind: 'stale' });
    expect(m.has('a')).toBe(true);
  });

  it('applies the next message and reports only real changes', () => {
    const m = new PresenceMirror();
    m.reset(0, ['a']);
    expect(m.apply({ s: 1, on: ['a', 'b'], off: ['c'] })).toEqual({
      kind: 'applied',
      diff: { online: ['b'], offline: [] },
    });
    expect(m.apply({ s: 2, on: [], off: ['a'] })).toEqual({ kind: 'applied', diff: { online: [], offline: ['a'] } });
    expect([...m.ids()]).toEqual(['b']);
    expect(m.size).toBe(1);
    expect(m.seq).toBe(2);
  });

  it('reports a gap (a lost message) without applying it; a snapshot then reports the difference', () => {
    const m = new PresenceMirror();
    m.reset(3, ['a', 'b']);
    expect(m.apply({ s: 5, on: ['c'], off: ['a'] })).toEqual({ kind: 'gap' });
    expect(m.seq).toBe(3);
    expect(m.has('c')).toBe(false);
    expect(m.reset(5, ['b', 'c'])).toEqual({ online: ['c'], offline: ['a'] });
    expect(m.apply({ s: 6, on: ['d'], off: [] }).kind).toBe('applied');
  });

  it('a snapshot with a LOWER sequence (Redis restarted empty) replaces the set and the sequence', () => {
    const m = new PresenceMirror();
    m.reset(40, ['a']);
    expect(m.reset(0, [])).toEqual({ online: [], offline: ['a'] });
    expect(m.apply({ s: 1, on: ['z'], off: [] }).kind).toBe('applied');
  });

  it('a snapshot taken while nodes are still registering again keeps the users it lacks, unreported', () => {
    const m = new PresenceMirror();
    m.reset(40, ['a', 'b']);
    // Redis restarted empty; only the node of `a` has registered again, with `c` too
    expect(m.reset(2, ['a', 'c'], true)).toEqual({ online: ['c'], offline: [] });
    expect([...m.ids()].sort()).toEqual(['a', 'b', 'c']);
    expect(m.seq).toBe(2);
    // `b`'s node registers again: no change to report
    expect(m.apply({ s: 3, on: ['b'], off: [] })).toEqual({ kind: 'applied', diff: { online: [], offline: [] } });
    // a later full snapshot reports whoever is really gone
    expect(m.reset(3, ['a', 'b'])).toEqual({ online: [], offline: ['c'] });
  });

  it("parses published messages, including Lua cjson's {} for an empty list, and refuses garbage", () => {
    expect(parsePresenceMessage('{"s":3,"on":{},"off":["x"]}')).toEqual({ s: 3, on: [], off: ['x'] });
    expect(parsePresenceMessage('{"s":1,"on":["a",2,null]}')).toEqual({ s: 1, on: ['a'], off: [] });
    for (const bad of ['', 'nope', '[]', '{"on":["a"]}', '{"s":0,"on":[]}', '{"s":1.5}', '{"s":"2"}', 'null'])
      expect(parsePresenceMessage(bad)).toBeNull();
  });
});
