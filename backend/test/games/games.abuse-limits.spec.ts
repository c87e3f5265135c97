/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw wire payloads */
// Issue #24 items 4 and 7: table chat has the lobby chat's per-user limit; in-app invitations are limited per
// inviter and reach a player only from someone on that player's own friend list (ruling 13); invite links unchanged.
import { CHAT_RATE_MAX } from '@spades/common';
import { RATE_MESSAGES } from '../../src/realtime/rate.limiter';
import { TestApp } from '../support/test-app';
import { Client, gamesSuite, SETTINGS, storedTable } from './helpers';

const INVITES_PER_MINUTE = 3;

describe('games: table chat limit, invitation limit and consent (issue #24)', () => {
  let t: TestApp;
  const { client } = gamesSuite((app) => (t = app), {
    INVITE_MAX_PER_MINUTE: String(INVITES_PER_MINUTE),
    INVITE_RESERVATION_MS: '600000',
  });
  const friendAdd = async (who: Client, target: Client) =>
    expect((await who.http(t.url, 'POST', '/api/social/friends/add', { friendId: target.id })).status).toBeLessThan(
      300,
    );
  const chatRows = async (gameId: string, actor: string): Promise<number> =>
    (
      await t.dataSource.query(
        `SELECT count(*)::int AS n FROM game_events WHERE game_id = $1 AND type = 'chat' AND actor = $2`,
        [gameId, actor],
      )
    )[0].n;
  const table = async (host: Client, extra: Record<string, unknown> = {}): Promise<string> => {
    const gameId = (await host.http(t.url, 'POST', '/api/games', { ...SETTINGS, ...extra })).body.id;
    expect((await host.emit('join_game', { gameId })).ok).toBe(true);
    return gameId;
  };

  it('60 chat_message at once: 3 accepted, the rest refused with the lobby message and never stored; a new second admits again', async () => {
    const host = await client();
    const watcher = await client();
    const gameId = await table(host);
    expect((await watcher.emit('join_game_as_spectator', { gameId })).ok).toBe(true);
    const before = await chatRows(gameId, host.id);

    const acks = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        host.emit('chat_message', { gameId, message: `spam ${i}`, actionId: `c${i}` }),
      ),
    );
    const ok = acks.filter((a) => a.ok === true);
    const refused = acks.filter((a) => a.ok === false);
    expect(ok).toHaveLength(CHAT_RATE_MAX);
    expect(refused).toHaveLength(60 - CHAT_RATE_MAX);
    for (const r of refused) expect(r.message).toBe(RATE_MESSAGES.chatTooFast);
    expect(RATE_MESSAGES.chatTooFast).toBe('You are sending messages too fast. Please wait a moment.');
    expect((await chatRows(gameId, host.id)) - before).toBe(CHAT_RATE_MAX);
    await watcher.waitFor(
      () => watcher.events('chat_message').filter((m) => /^spam /.test(m.message?.message)).length >= CHAT_RATE_MAX,
      5000,
      'chat',
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(watcher.events('chat_message').filter((m) => /^spam /.test(m.message?.message))).toHaveLength(CHAT_RATE_MAX);

    // the window slides: after it, the member may chat again; another member was never limited by the spammer
    expect(await watcher.emit('chat_message', { gameId, message: 'hello' })).toEqual({ ok: true });
    await new Promise((r) => setTimeout(r, 1100));
    expect(await host.emit('chat_message', { gameId, message: 'calm now' })).toEqual({ ok: true });
  });

  it('a retry of an admitted chat action id is not counted (it cannot add a message); new messages are', async () => {
    const host = await client();
    const gameId = await table(host);
    const first = await host.emit('chat_message', { gameId, message: 'once', actionId: 'r-1' });
    expect(first).toEqual({ ok: true });
    for (let i = 0; i < 5; i++)
      expect(await host.emit('chat_message', { gameId, message: 'once', actionId: 'r-1' })).toEqual(first);
    expect(await host.emit('chat_message', { gameId, message: 'other', actionId: 'r-1' })).toEqual({
      ok: false,
      message: 'Duplicate action id',
    });
    expect(await host.emit('chat_message', { gameId, message: 'two', actionId: 'r-2' })).toEqual({ ok: true });
    expect(await host.emit('chat_message', { gameId, message: 'three' })).toEqual({ ok: true });
    expect(await host.emit('chat_message', { gameId, message: 'four', actionId: 'r-4' })).toEqual({
      ok: false,
      message: RATE_MESSAGES.chatTooFast,
    });
    expect(await chatRows(gameId, host.id)).toBe(CHAT_RATE_MAX);
  });

  it('an invitee who has not friended the inviter gets nothing; one who has (or mutual friends) is invited; links unchanged', async () => {
    const host = await client();
    const oneSided = await client(); // the host added them; they did not add the host
    const fan = await client(); // added the host; the host did not add them
    const mutual = await client();
    const gameId = await table(host, { private: true });
    await friendAdd(host, oneSided);
    await friendAdd(fan, host);
    await friendAdd(host, mutual);
    await friendAdd(mutual, host);
    const chatBefore = (await storedTable(t, gameId)).snapshot.chat?.length ?? 0;

    const expected = `${oneSided.user.user.username} has not added you as a friend; send them the table's invite link instead`;
    expect(await host.emit('invite_player', { gameId, userId: oneSided.id, reserveSeat: true })).toEqual({
      ok: false,
      message: expected,
    });
    const http = await host.http(t.url, 'POST', `/api/games/${gameId}/invite`, {
      userId: oneSided.id,
      reserveSeat: true,
    });
    expect(http.status).toBe(403);
    expect(http.body.message).toBe(expected);
    // nothing reached them: no notification, no pending invitation, no held seat, no system chat line, no access
    await new Promise((r) => setTimeout(r, 300));
    expect(oneSided.events('game_invitation')).toEqual([]);
    expect((await oneSided.http(t.url, 'GET', '/api/invitations')).body).toEqual([]);
    const snap = (await storedTable(t, gameId)).snapshot;
    expect(snap.chat?.length ?? 0).toBe(chatBefore);
    expect(JSON.stringify(snap)).not.toContain(oneSided.id);
    expect((await oneSided.http(t.url, 'GET', `/api/games/${gameId}`)).status).toBe(403);

    // the invitee's own list decides: a fan of the host and a mutual friend are invited
    expect(await host.emit('invite_player', { gameId, userId: fan.id })).toMatchObject({ ok: true });
    expect((await host.http(t.url, 'POST', `/api/games/${gameId}/invite`, { userId: mutual.id })).status).toBe(200);
    await fan.waitFor(() => fan.events('game_invitation').length === 1, 5000, 'game_invitation');
    await mutual.waitFor(() => mutual.events('game_invitation').length === 1, 5000, 'game_invitation');

    // the invite link is for anyone who holds it
    const token = (await host.http(t.url, 'GET', `/api/games/${gameId}/invite-link`)).body.token;
    expect(await oneSided.emit('join_game', { gameId, invite: token })).toMatchObject({ ok: true });
  });

  it(`invitations are limited per inviter (${INVITES_PER_MINUTE} a minute here): over the limit refused on socket and HTTP, nothing sent`, async () => {
    const host = await client();
    const other = await client();
    const gameId = await table(host);
    const otherGame = await table(other);
    const invitees: Client[] = [];
    for (let i = 0; i < INVITES_PER_MINUTE + 2; i++) {
      const c = await client();
      await friendAdd(c, host);
      await friendAdd(c, other);
      invitees.push(c);
    }
    for (let i = 0; i < INVITES_PER_MINUTE; i++)
      expect(await host.emit('invite_player', { gameId, userId: invitees[i].id })).toMatchObject({ ok: true });
    const late = invitees[INVITES_PER_MINUTE];
    expect(await host.emit('invite_player', { gameId, userId: late.id })).toEqual({
      ok: false,
      message: RATE_MESSAGES.invitesTooFast,
    });
    const http = await host.http(t.url, 'POST', `/api/games/${gameId}/invite`, {
      userId: invitees[INVITES_PER_MINUTE + 1].id,
    });
    expect(http.status).toBe(429);
    expect(http.body.message).toBe(RATE_MESSAGES.invitesTooFast);
    await new Promise((r) => setTimeout(r, 300));
    expect(late.events('game_invitation')).toEqual([]);
    expect((await late.http(t.url, 'GET', '/api/invitations')).body).toEqual([]);
    // per inviter: another host is not affected
    expect(await other.emit('invite_player', { gameId: otherGame, userId: late.id })).toMatchObject({ ok: true });
  });
});
