/**
 * The access rule of private tables (issue #24) as a truth table over the pure function: every kind of viewer
 * against an open and an ended, private and public table.
 */
import { DEFAULT_SETTINGS } from '@spades/common';
import { Participant, TableRecord } from './table';
import { newTable } from './table.new';
import { mayAccess, refusalOf, subjectOf, Viewer } from './table.access';
import { canSeeInLobby, mayEnter } from './table.access';

const user = (n: string): Participant => ({ userId: `u-${n}`, username: n, avatar: null });
const host = user('host');

function privateTable(): TableRecord {
  const rec = newTable('00000000-0000-4000-8000-0000000000aa', DEFAULT_SETTINGS, host, 0, { private: true });
  rec.seats[1] = { ...user('seated'), kind: 'human' } as TableRecord['seats'][number];
  rec.spectators = [user('watcher')];
  rec.admitted = [host.userId, 'u-seated', 'u-watcher', 'u-former', 'u-removed'];
  rec.removed = ['u-removed'];
  rec.invitations = [
    {
      userId: 'u-invitee',
      username: 'invitee',
      fromId: host.userId,
      fromName: 'host',
      fromAvatar: null,
      createdAt: 0,
      seat: null,
      reservedUntil: null,
    },
  ];
  rec.inviteToken = 'current-token-current-tok';
  return rec;
}

const v = (id: string | null, extra: Partial<Viewer> = {}): Viewer => ({ userId: id, ...extra });

describe('mayAccess', () => {
  it('an open private table: members, invitees, admitted players, the current token; admins; never the removed', () => {
    const s = subjectOf(privateTable());
    const allowed: [Viewer, boolean][] = [
      [v(host.userId), true],
      [v('u-seated'), true],
      [v('u-watcher'), true],
      [v('u-invitee'), true],
      [v('u-former'), true],
      [v('u-outsider'), false],
      [v(null), false],
      [v('u-outsider', { invite: 'current-token-current-tok' }), true],
      [v('u-outsider', { invite: 'current-token-current-toX' }), false],
      [v('u-outsider', { invite: 'short' }), false],
      [v('u-removed'), false],
      [v('u-removed', { invite: 'current-token-current-tok' }), false],
      [v('u-outsider', { admin: true }), true],
    ];
    expect(allowed.map(([viewer]) => mayAccess(s, viewer))).toEqual(allowed.map(([, ok]) => ok));
    expect(refusalOf(s, v('u-removed')).message).toBe('The host removed you from this table');
    expect(refusalOf(s, v('u-outsider')).message).toMatch(/private/);
  });

  it('a closed private table: only the players who sat at it (and admins), whoever was admitted or invited', () => {
    const rec = privateTable();
    rec.status = 'CLOSED';
    rec.seats = [null, null, null, null];
    rec.spectators = [];
    const s = subjectOf(rec, ['u-player']);
    for (const id of [host.userId, 'u-seated', 'u-watcher', 'u-invitee', 'u-former', 'u-outsider'])
      expect([id, mayAccess(s, v(id))]).toEqual([id, false]);
    expect(mayAccess(s, v('u-outsider', { invite: 'current-token-current-tok' }))).toBe(false);
    expect(mayAccess(s, v('u-player'))).toBe(true);
    expect(mayAccess(s, v('u-outsider', { admin: true }))).toBe(true);
    expect(refusalOf(s, v('u-outsider')).message).toMatch(/only its players/);
  });

  it('public tables and games: everybody, signed in or not', () => {
    const rec = newTable('00000000-0000-4000-8000-0000000000bb', DEFAULT_SETTINGS, host, 0);
    expect(mayAccess(subjectOf(rec), v(null))).toBe(true);
    rec.status = 'CLOSED';
    expect(mayAccess(subjectOf(rec), v('u-outsider'))).toBe(true);
    expect(mayAccess({ kind: 'ended', private: false, players: new Set() }, v(null))).toBe(true);
  });

  it('the lobby and entering follow it: the lobby without the token, entering with it', () => {
    const rec = privateTable();
    expect(canSeeInLobby(rec, 'u-former')).toBe(true);
    expect(canSeeInLobby(rec, 'u-removed')).toBe(false);
    expect(canSeeInLobby(rec, 'u-outsider')).toBe(false);
    expect(mayEnter(rec, 'u-outsider', 'current-token-current-tok')).toBe(true);
    expect(mayEnter(rec, 'u-removed', 'current-token-current-tok')).toBe(false);
  });
});
