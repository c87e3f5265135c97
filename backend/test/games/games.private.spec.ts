/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw wire payloads */
/**
 * Issue #12: private tables, invite links and in-app invitations with a real server, database and socket.io
 * clients. A private table never appears in `GET /api/games` or `games_updated` for non-members; a wrong or
 * revoked invite token seats nobody; a friend's invitation can hold a seat, be declined, and expires with the table.
 */
import { WireError } from '@spades/common';
import { AppConfig } from '../../src/config/config.schema';
import { ACCESS_ERRORS } from '../../src/games/table.access';
import type { TestApp } from '../support/test-app';
import { Client, gamesSuite, SETTINGS, storedTable } from './helpers';

describe('private tables and invitations (integration)', () => {
  let t: TestApp;
  const { client } = gamesSuite((app) => (t = app), { INVITE_RESERVATION_MS: '600000' });

  /** Whether a client ever received the table in its lobby traffic (full list or deltas). */
  const listed = (c: Client, gameId: string) =>
    c.received.some(
      (r) =>
        (r.event === 'games_updated' && r.payload.some((g: any) => g.id === gameId)) ||
        ((r.event === 'game_added' || r.event === 'game_changed') && r.payload.id === gameId),
    );
  const seats = async (gameId: string) =>
    (await storedTable(t, gameId)).snapshot.seats.map((s: any) => s?.userId ?? null);

  it('is listed only for members; a wrong or revoked token seats nobody; the current link seats, or lets watch when full', async () => {
    const host = await client();
    const outsider = await client();
    const guest = await client();
    const late = await client();

    // everybody looks at the lobby (watch_lobby: the full list once, then deltas)
    for (const c of [host, outsider, guest, late]) expect((await c.emit('watch_lobby', {})).ok).toBe(true);
    const fullWatcher = await client();
    expect((await fullWatcher.emit('watch_lobby', { full: true })).ok).toBe(true);
    const created = await host.http(t.url, 'POST', '/api/games', { ...SETTINGS, private: true });
    expect(created.status).toBe(201);
    const gameId = created.body.id;
    expect(created.body.private).toBe(true);
    expect((await host.http(t.url, 'POST', '/api/games', { ...SETTINGS, private: 'yes' })).status).toBe(400);
    // a public table created afterwards reaches everybody: the outsider's lobby is live
    const other = await client();
    const publicId = (await other.http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    await outsider.waitFor(() => listed(outsider, publicId), 5000, 'public table in the lobby deltas');
    await fullWatcher.waitFor(
      () => fullWatcher.events('games_updated').some((l: any[]) => l.some((g) => g.id === publicId)),
      5000,
      'full list',
    );

    // HTTP list and view
    expect((await host.http(t.url, 'GET', '/api/games')).body.find((g: any) => g.id === gameId)).toMatchObject({
      private: true,
    });
    expect((await outsider.http(t.url, 'GET', '/api/games')).body.some((g: any) => g.id === gameId)).toBe(false);
    expect((await outsider.http(t.url, 'GET', `/api/games/${gameId}`)).status).toBe(403);

    // no token, a wrong token: refused everywhere, nothing changes
    const before = await storedTable(t, gameId);
    for (const body of [{}, { invite: 'wrong' }, { invite: 'x'.repeat(24) }, { seat: 1, invite: 'wrong' }]) {
      const r = await guest.http(t.url, 'POST', `/api/games/${gameId}/join`, body);
      // refused by its typed code (the client reacts to it), the text unchanged
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ message: ACCESS_ERRORS.PRIVATE_TABLE, code: WireError.PRIVATE_TABLE });
      const spectate = await guest.http(t.url, 'POST', `/api/games/${gameId}/spectate`, body);
      expect({ status: spectate.status, code: spectate.body.code }).toEqual({
        status: 403,
        code: WireError.PRIVATE_TABLE,
      });
      const refused = { ok: false, code: WireError.PRIVATE_TABLE };
      expect(await guest.emit('join_game', { gameId, ...body })).toMatchObject(refused);
      expect(await guest.emit('join_game_as_spectator', { gameId, ...body })).toMatchObject(refused);
    }
    expect((await storedTable(t, gameId)).seq).toBe(before.seq);

    // the host's link; a non-host cannot see or change it
    const link = (await host.http(t.url, 'GET', `/api/games/${gameId}/invite-link`)).body;
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(link.url).toBe(`${t.app.get(AppConfig).clientUrl}/table/${gameId}?invite=${link.token}`);
    expect(link.appUrl).toBe(`spades://table/${gameId}?invite=${link.token}`);
    expect((await host.http(t.url, 'GET', `/api/games/${gameId}/invite-link`)).body.token).toBe(link.token);
    for (const m of ['GET', 'POST', 'DELETE'])
      expect((await guest.http(t.url, m, `/api/games/${gameId}/invite-link`)).status).toBe(403);

    // revoked: the old token seats nobody
    expect((await host.http(t.url, 'DELETE', `/api/games/${gameId}/invite-link`)).status).toBe(200);
    expect((await guest.http(t.url, 'POST', `/api/games/${gameId}/join`, { invite: link.token })).status).toBe(403);
    expect(await guest.emit('join_game', { gameId, invite: link.token })).toMatchObject({ ok: false });
    // renewed: a new token; the revoked one still does nothing
    const renewed = (await host.http(t.url, 'POST', `/api/games/${gameId}/invite-link`)).body;
    expect(renewed.token).not.toBe(link.token);
    expect((await guest.http(t.url, 'POST', `/api/games/${gameId}/join`, { invite: link.token })).status).toBe(403);
    expect(await seats(gameId)).toEqual([host.id, null, null, null]);

    // the current link seats the guest (socket join_game, as the client does when opening the link)
    const ack = await guest.emit('join_game', { gameId, invite: renewed.token });
    expect(ack).toMatchObject({ ok: true, seat: 1 });
    expect(await seats(gameId)).toEqual([host.id, guest.id, null, null]);
    // now a member: listed for the guest, still not for the outsider
    expect((await guest.http(t.url, 'GET', '/api/games')).body.some((g: any) => g.id === gameId)).toBe(true);
    await guest.waitFor(() => listed(guest, gameId), 5000, 'private table in the guest lobby');

    // full table: the link lets a late comer watch
    for (const s of [2, 3])
      expect((await host.http(t.url, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex: s })).status).toBe(200);
    const watched = await late.http(t.url, 'POST', `/api/games/${gameId}/join`, { invite: renewed.token });
    expect(watched.status).toBe(200);
    expect(watched.body).toMatchObject({ mySeat: null, viewer: 'spectator' });
    expect((await storedTable(t, gameId)).snapshot.spectators.map((s: any) => s.userId)).toEqual([late.id]);

    // the outsider (and a full-list watcher) never received the private table in any lobby traffic
    expect(outsider.events('games_updated').length).toBeGreaterThan(0);
    expect(listed(outsider, gameId)).toBe(false);
    expect(listed(fullWatcher, gameId)).toBe(false);
    expect(JSON.stringify(outsider.received)).not.toContain(gameId);
    expect(listed(host, gameId)).toBe(true);
    // a new lobby watcher's first list: the private table only for members
    const fresh = await client();
    expect((await fresh.emit('watch_lobby', {})).ok).toBe(true);
    expect((await guest.emit('watch_lobby', {})).ok).toBe(true);
    await fresh.waitFor(() => fresh.events('games_updated').length > 0, 3000, 'initial list');
    expect(fresh.events('games_updated')[0].some((g: any) => g.id === gameId)).toBe(false);
    await guest.waitFor(() => guest.events('games_updated').length > 1, 3000, 'initial list');
    expect(
      guest
        .events('games_updated')
        .at(-1)
        .some((g: any) => g.id === gameId),
    ).toBe(true);
    for (const c of [host, guest, late, other]) await c.emit('leave_game', { gameId: c === other ? publicId : gameId });
    // closed: the members are told it is gone
    await host.waitFor(() => host.events('game_removed').some((g: any) => g.id === gameId), 3000, 'game_removed');
  });

  it('a friend invited from the table gets Join / Decline; a held seat; a declined invitation admits nobody; invitations expire with the table', async () => {
    const host = await client();
    const friend = await client();
    const stranger = await client();
    const third = await client();
    const gameId = (await host.http(t.url, 'POST', '/api/games', { ...SETTINGS, private: true })).body.id;
    expect((await host.emit('join_game', { gameId })).ok).toBe(true);

    // ruling 13: only players who added the host as a friend (the host's own list does not count)
    expect((await host.http(t.url, 'POST', '/api/social/friends/add', { friendId: friend.id })).status).toBeLessThan(
      300,
    );
    const notFriend = await host.emit('invite_player', { gameId, userId: friend.id });
    expect(notFriend).toEqual({
      ok: false,
      message: `${friend.user.user.username} has not added you as a friend; send them the table's invite link instead`,
    });
    for (const c of [friend, stranger, third])
      expect((await c.http(t.url, 'POST', '/api/social/friends/add', { friendId: host.id })).status).toBeLessThan(300);
    // a player who blocked the host cannot be invited
    expect((await stranger.http(t.url, 'POST', '/api/social/block', { blockId: host.id })).status).toBeLessThan(300);
    expect(await host.emit('invite_player', { gameId, userId: stranger.id })).toMatchObject({ ok: false });
    // only seated players invite
    expect(await friend.emit('invite_player', { gameId, userId: third.id })).toMatchObject({ ok: false });

    // invitation with a held seat
    expect(await host.emit('invite_player', { gameId, userId: friend.id, reserveSeat: true })).toMatchObject({
      ok: true,
      reservedSeat: 1,
    });
    await friend.waitFor(() => friend.events('game_invitation').length > 0, 5000, 'game_invitation');
    const inv = friend.events('game_invitation')[0];
    expect(inv).toMatchObject({ gameId, from: { id: host.id }, to: friend.id, reservedSeat: 1, private: true });
    expect(inv.reservedUntil).toBeGreaterThan(Date.now());
    expect((await friend.http(t.url, 'GET', '/api/invitations')).body.map((i: any) => i.gameId)).toEqual([gameId]);
    expect((await friend.http(t.url, 'GET', '/api/games')).body.some((g: any) => g.id === gameId)).toBe(true);

    // the third player comes in with the link: not in the held seat
    const token = (await host.http(t.url, 'GET', `/api/games/${gameId}/invite-link`)).body.token;
    expect(
      (await third.http(t.url, 'POST', `/api/games/${gameId}/join`, { seat: 1, invite: token })).body.message,
    ).toBe('That seat is reserved for an invited player');
    expect((await third.http(t.url, 'POST', `/api/games/${gameId}/join`, { invite: token })).body.mySeat).toBe(2);
    // nor a bot
    expect((await host.http(t.url, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex: 1 })).status).toBe(400);

    // decline: the host is told, the friend can no longer enter
    expect(await friend.emit('decline_invitation', { gameId })).toEqual({ ok: true });
    await host.waitFor(() => host.events('invitation_declined').length > 0, 5000, 'invitation_declined');
    expect(host.events('invitation_declined')[0]).toMatchObject({ gameId, userId: friend.id });
    expect((await friend.http(t.url, 'GET', '/api/invitations')).body).toEqual([]);
    expect((await friend.http(t.url, 'POST', `/api/games/${gameId}/join`, {})).status).toBe(403);
    expect(await friend.emit('decline_invitation', { gameId })).toMatchObject({ ok: false });
    expect(await seats(gameId)).toEqual([host.id, null, third.id, null]);

    // invited again (no held seat): Join seats the friend with the invitation alone
    expect(await host.emit('invite_player', { gameId, userId: friend.id })).toMatchObject({
      ok: true,
      reservedSeat: null,
    });
    expect((await friend.http(t.url, 'POST', `/api/games/${gameId}/join`, {})).body.mySeat).toBe(1);
    expect((await friend.http(t.url, 'GET', '/api/invitations')).body).toEqual([]);

    // a pending invitation is cancelled when the table closes
    const fourth = await client();
    expect((await fourth.http(t.url, 'POST', '/api/social/friends/add', { friendId: host.id })).status).toBeLessThan(
      300,
    );
    expect(await host.emit('invite_player', { gameId, userId: fourth.id })).toMatchObject({ ok: true });
    await fourth.waitFor(() => fourth.events('game_invitation').length > 0, 5000, 'game_invitation');
    for (const c of [friend, third, host]) expect((await c.emit('leave_game', { gameId })).ok).toBe(true);
    await fourth.waitFor(
      () => fourth.events('game_invitation_cancelled').length > 0,
      5000,
      'game_invitation_cancelled',
    );
    expect(fourth.events('game_invitation_cancelled')[0]).toMatchObject({ gameId });
    expect((await fourth.http(t.url, 'GET', '/api/invitations')).body).toEqual([]);
  });
});
