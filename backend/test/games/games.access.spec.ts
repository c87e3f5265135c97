/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw wire payloads */
/**
 * Issue #24 (items 1 and 2, ruling 15): one access rule for private tables, tried as an attacker would, on
 * PostgreSQL and the embedded database in the same run. One private table goes through WAITING, a running game
 * and CLOSED; at each status every route that returns table data is asked by every kind of viewer and the answer
 * is compared with the table EXPECTED below. Then: replay share links (forged, revoked, another game's) and the
 * host removing an admitted player before the start.
 */
import { WireError } from '@spades/common';
import { createTestApp, TestApp, usingEmbedded } from '../support/test-app';
import { Client, expectLedgerBalanced, SETTINGS, storedTable, useFastTimers } from './helpers';

type Viewer = 'outsider' | 'former' | 'admitted' | 'invitee' | 'participant' | 'admin';
type Status = 'waiting' | 'playing' | 'closed';
type Route = 'list' | 'lobby' | 'view' | 'socket' | 'replay' | 'history';

const VIEWERS: Viewer[] = ['outsider', 'former', 'admitted', 'invitee', 'participant', 'admin'];
/** While open: members, admitted players (the former member is admitted), invitees; admins always. */
const OPEN: Viewer[] = ['former', 'admitted', 'invitee', 'participant', 'admin'];
/** Lobby lists are the same rule without the admin override (they list tables to join; decision noted in table.access.ts). */
const LOBBY: Viewer[] = ['former', 'admitted', 'invitee', 'participant'];
/** After the end: the players who sat at the game, and admins. */
const ENDED: Viewer[] = ['participant', 'admin'];

/**
 * Who gets the table's data, per status and route. `replay` is the HTTP status per viewer (404: no finished game
 * yet, 403 in progress / private, 200 the document). `socket` at CLOSED: nobody (a closed table cannot be joined).
 */
const EXPECTED: Record<
  Status,
  {
    list: Viewer[];
    lobby: Viewer[];
    view: Viewer[];
    socket: Viewer[];
    history: Viewer[];
    replay: (v: Viewer) => number;
  }
> = {
  waiting: { list: LOBBY, lobby: LOBBY, view: OPEN, socket: OPEN, history: [], replay: () => 404 },
  playing: { list: LOBBY, lobby: LOBBY, view: OPEN, socket: OPEN, history: [], replay: () => 403 },
  closed: {
    list: [],
    lobby: [],
    view: ENDED,
    socket: [],
    history: ENDED,
    replay: (v) => (ENDED.includes(v) ? 200 : 403),
  },
};

const DBS: [string, { embedded?: boolean }][] = usingEmbedded()
  ? [['embedded database', { embedded: true }]]
  : [
      ['PostgreSQL', {}],
      ['embedded database', { embedded: true }],
    ];

describe.each(DBS)('private table access on %s (integration)', (_name, opts) => {
  let t: TestApp;
  const clients: Client[] = [];
  const client = async () => {
    const c = await Client.create(t.url);
    clients.push(c);
    return c;
  };
  beforeAll(async () => {
    useFastTimers({ RESULT_MS: '600000', INVITE_RESERVATION_MS: '600000' });
    t = await createTestApp(opts);
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await expectLedgerBalanced((sql) => t.dataSource.query(sql));
    await t?.close();
  });
  const befriend = async (a: Client, b: Client) => {
    expect((await a.http(t.url, 'POST', '/api/social/friends/add', { friendId: b.id })).status).toBeLessThan(300);
    expect((await b.http(t.url, 'POST', '/api/social/friends/add', { friendId: a.id })).status).toBeLessThan(300);
  };
  const lobbyHas = async (c: Client, gameId: string): Promise<boolean> => {
    const before = c.events('games_updated').length;
    expect((await c.emit('watch_lobby', {})).ok).toBe(true);
    await c.waitFor(() => c.events('games_updated').length > before, 5000, 'games_updated');
    return c
      .events('games_updated')
      .at(-1)
      .some((g: any) => g.id === gameId);
  };

  it('every route × status × viewer follows the one rule; share links; removing an admitted player', async () => {
    const host = await client();
    const v: Record<Viewer, Client> = {
      outsider: await client(),
      former: await client(),
      admitted: await client(),
      invitee: await client(),
      participant: await client(),
      admin: await client(),
    };
    /** A new admin per status: watching a private table admits a user, and the matrix asks about the role alone. */
    const freshAdmin = async () => {
      const c = await client();
      await t.dataSource.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [c.id]);
      return c;
    };
    const gameId = (await host.http(t.url, 'POST', '/api/games', { ...SETTINGS, private: true })).body.id;
    expect((await host.emit('join_game', { gameId })).ok).toBe(true);
    const token = (await host.http(t.url, 'GET', `/api/games/${gameId}/invite-link`)).body.token;
    // the participant sits with the link, the admitted player watches with it, the former member came and left
    expect(await v.participant.emit('join_game', { gameId, invite: token })).toMatchObject({ ok: true, seat: 1 });
    expect(await v.admitted.emit('join_game_as_spectator', { gameId, invite: token })).toMatchObject({ ok: true });
    expect(await v.former.emit('join_game_as_spectator', { gameId, invite: token })).toMatchObject({ ok: true });
    expect((await v.former.emit('leave_game', { gameId })).ok).toBe(true);
    await befriend(host, v.invitee);
    expect(await host.emit('invite_player', { gameId, userId: v.invitee.id })).toMatchObject({ ok: true });
    // the host renews the link: from now on only admissions and invitations count, not the token the viewers saw
    await host.http(t.url, 'POST', `/api/games/${gameId}/invite-link`);

    const seated = (c: Client) => c === v.participant;
    const members = async () => {
      const s = (await storedTable(t, gameId)).snapshot;
      return new Set<string>([
        ...s.seats.filter((o: any) => o?.kind === 'human').map((o: any) => o.userId),
        ...s.spectators.map((o: any) => o.userId),
      ]);
    };

    const check = async (status: Status) => {
      const exp = EXPECTED[status];
      v.admin = await freshAdmin();
      const got: Record<Route, Viewer[]> = { list: [], lobby: [], view: [], socket: [], history: [], replay: [] };
      const replayCodes: Record<string, number> = {};
      const wantCodes: Record<string, number> = {};
      for (const name of VIEWERS) {
        const c = v[name];
        if ((await c.http(t.url, 'GET', '/api/games')).body.some((g: any) => g.id === gameId)) got.list.push(name);
        if (await lobbyHas(c, gameId)) got.lobby.push(name);
        const view = await c.http(t.url, 'GET', `/api/games/${gameId}`);
        if (view.status === 200) {
          got.view.push(name);
          expect(view.body.id).toBe(gameId);
        } else {
          // the refusal carries its message and typed code only: no chat, no history, no seat
          expect(view.status).toBe(403);
          expect(view.body).toEqual({
            message: expect.stringMatching(/private/),
            code: status === 'closed' ? WireError.PRIVATE_GAME : WireError.PRIVATE_TABLE,
          });
        }
        // socket: a member re-subscribes; anybody else asks to watch (and leaves again, so the next status starts alike)
        const wasMember = (await members()).has(c.id);
        const updates = c.events('game_update').length;
        const ack = await c.emit(seated(c) ? 'join_game' : 'join_game_as_spectator', { gameId });
        if (ack.ok) {
          got.socket.push(name);
          if (!wasMember) expect((await c.emit('leave_game', { gameId })).ok).toBe(true);
        } else {
          expect(
            c
              .events('game_update')
              .slice(updates)
              .some((u: any) => u.id === gameId),
          ).toBe(false);
          expect((await members()).has(c.id)).toBe(wasMember);
        }
        const replay = await c.http(t.url, 'GET', `/api/games/${gameId}/replay`);
        replayCodes[name] = replay.status;
        wantCodes[name] = exp.replay(name);
        if (replay.status !== 200) expect(JSON.stringify(replay.body)).not.toMatch(/"cards"/);
        const hist = await c.http(t.url, 'GET', `/api/users/${v.participant.id}/games`);
        expect(hist.status).toBe(200);
        if (hist.body.items.some((g: any) => g.gameId === gameId)) got.history.push(name);
        expect(hist.body.total).toBe(hist.body.items.length);
      }
      expect({
        status,
        list: got.list,
        lobby: got.lobby,
        view: got.view,
        socket: got.socket,
        history: got.history,
        replay: replayCodes,
      }).toEqual({
        status,
        list: exp.list,
        lobby: exp.lobby,
        view: exp.view,
        socket: exp.socket,
        history: exp.history,
        replay: wantCodes,
      });
    };

    await check('waiting');

    for (const s of [2, 3])
      expect((await host.http(t.url, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex: s })).status).toBe(200);
    expect((await host.emit('start_game', { gameId })).ok).toBe(true);
    await host.waitFor(() => host.view?.status === 'BIDDING' || host.view?.status === 'PLAYING', 10000, 'game running');
    await check('playing');

    for (const c of [host, v.participant]) {
      c.auto = true;
      c.maybeAct();
    }
    await host.waitFor(() => host.events('game_over').length > 0, 90000, 'game_over');
    for (const c of [host, v.participant, v.admitted]) expect((await c.emit('leave_game', { gameId })).ok).toBe(true);
    expect((await storedTable(t, gameId)).snapshot.status).toBe('CLOSED');
    await check('closed');
    // the host sat at it too: the participant sees it in the host's list, an outsider does not
    expect(
      (await v.participant.http(t.url, 'GET', `/api/users/${host.id}/games`)).body.items.map((g: any) => g.gameId),
    ).toContain(gameId);
    expect((await v.outsider.http(t.url, 'GET', `/api/users/${host.id}/games`)).body).toMatchObject({
      items: [],
      total: 0,
    });

    // ------------------------------------------------------------------ share links (ruling 15)
    const outsiderShare = await v.outsider.http(t.url, 'POST', `/api/games/${gameId}/replay/shares`, {});
    expect(outsiderShare.status).toBe(403);
    expect((await v.former.http(t.url, 'POST', `/api/games/${gameId}/replay/shares`, {})).status).toBe(403);
    const share = (await v.participant.http(t.url, 'POST', `/api/games/${gameId}/replay/shares`, {})).body;
    expect(share).toMatchObject({
      gameId,
      gameNumber: 1,
      token: expect.stringMatching(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]{43}$/),
    });
    // issue #31: the route for the client to put after the address in use; the test app sets CLIENT_URL, so the
    // server's own link is the one to share
    expect(share.path).toBe(`/replay/${gameId}?game=1&share=${encodeURIComponent(share.token)}`);
    expect(share).toMatchObject({ url: `http://localhost:5173${share.path}`, configured: true });
    const shared = (tok: string, id = gameId) =>
      fetch(`${t.url}/api/shared-replays/${id}?share=${encodeURIComponent(tok)}`);
    // without signing in: the replay document
    const anon = await shared(share.token);
    expect(anon.status).toBe(200);
    expect(await anon.json()).toMatchObject({ gameId, gameNumber: 1, private: true });
    // forged / altered / another game's id / no token: one refusal, no document
    const [id, sig] = share.token.split('.');
    const flipped = sig.slice(0, -2) + (sig.at(-2) === 'A' ? 'B' : 'A') + sig.at(-1);
    const otherGame = (await host.http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    for (const [tok, gid] of [
      [`${id}.${flipped}`, gameId],
      [`${id}.`, gameId],
      [`00000000-0000-4000-8000-000000000000.${sig}`, gameId],
      [share.token, otherGame],
      ['', gameId],
      ['x'.repeat(300), gameId],
    ]) {
      const r = await shared(tok, gid);
      expect(r.status).toBe(403);
      expect(await r.json()).toEqual({ message: 'This share link is not valid or was revoked' });
    }
    // the token opens nothing else: the table view still refuses an outsider holding it
    expect((await v.outsider.http(t.url, 'GET', `/api/games/${gameId}?invite=${share.token}`)).status).toBe(403);
    expect((await v.outsider.http(t.url, 'GET', `/api/games/${gameId}/replay?share=${share.token}`)).status).toBe(403);
    // listed for its maker only; revoked by its maker only
    expect(
      (await v.participant.http(t.url, 'GET', `/api/games/${gameId}/replay/shares`)).body.map((s: any) => s.id),
    ).toEqual([share.id]);
    expect((await host.http(t.url, 'GET', `/api/games/${gameId}/replay/shares`)).body).toEqual([]);
    expect((await host.http(t.url, 'DELETE', `/api/games/${gameId}/replay/shares/${share.id}`)).status).toBe(404);
    expect((await shared(share.token)).status).toBe(200);
    expect((await v.participant.http(t.url, 'DELETE', `/api/games/${gameId}/replay/shares/${share.id}`)).status).toBe(
      200,
    );
    expect((await shared(share.token)).status).toBe(403);
    expect((await v.participant.http(t.url, 'GET', `/api/games/${gameId}/replay/shares`)).body).toEqual([]);
    await host.emit('leave_game', { gameId: otherGame });

    // ------------------------------------------------------------------ the host removes an admitted player
    const table = (await host.http(t.url, 'POST', '/api/games', { ...SETTINGS, private: true })).body.id;
    expect((await host.emit('join_game', { gameId: table })).ok).toBe(true);
    const link = (await host.http(t.url, 'GET', `/api/games/${table}/invite-link`)).body.token;
    const guest = v.former;
    expect(await guest.emit('join_game', { gameId: table, invite: link })).toMatchObject({ ok: true, seat: 1 });
    expect(await v.outsider.emit('join_game_as_spectator', { gameId: table, invite: link })).toMatchObject({
      ok: true,
    });
    // only the host, only someone at the table, not themselves
    expect(
      (await guest.http(t.url, 'POST', `/api/games/${table}/remove-player`, { userId: v.outsider.id })).status,
    ).toBe(403);
    expect((await host.http(t.url, 'POST', `/api/games/${table}/remove-player`, { userId: v.admin.id })).status).toBe(
      404,
    );
    expect((await host.http(t.url, 'POST', `/api/games/${table}/remove-player`, { userId: host.id })).status).toBe(400);
    expect((await host.http(t.url, 'POST', `/api/games/${table}/remove-player`, {})).status).toBe(400);
    expect((await host.http(t.url, 'POST', `/api/games/${table}/remove-player`, { userId: guest.id })).status).toBe(
      200,
    );
    expect(
      (await host.http(t.url, 'POST', `/api/games/${table}/remove-player`, { userId: v.outsider.id })).status,
    ).toBe(200);
    // each is told (the client leaves the table page with this message)
    for (const c of [guest, v.outsider]) {
      await c.waitFor(
        () =>
          c
            .events('removed_from_table')
            .some((p: any) => p.gameId === table && p.reason === 'The host removed you from this table'),
        5000,
        'removed_from_table',
      );
    }
    const after = (await storedTable(t, table)).snapshot;
    expect(after.seats.map((s: any) => s?.userId ?? null)).toEqual([host.id, null, null, null]);
    expect(after.spectators).toEqual([]);
    expect(after.admitted).not.toContain(guest.id);
    // the still-current link does not bring them back; the table is gone from their lobby and its view refused
    for (const c of [guest, v.outsider]) {
      const again = await c.http(t.url, 'POST', `/api/games/${table}/join`, { invite: link });
      expect(again.status).toBe(403);
      expect(again.body).toEqual({
        message: 'The host removed you from this table',
        code: WireError.REMOVED_FROM_TABLE,
      });
      expect(await c.emit('join_game', { gameId: table, invite: link })).toMatchObject({
        ok: false,
        message: 'The host removed you from this table',
        code: WireError.REMOVED_FROM_TABLE,
      });
      expect((await c.http(t.url, 'GET', `/api/games/${table}`)).status).toBe(403);
      expect(await lobbyHas(c, table)).toBe(false);
    }
    // a new in-app invitation from the host lifts it
    await befriend(host, guest);
    expect(await host.emit('invite_player', { gameId: table, userId: guest.id })).toMatchObject({ ok: true });
    expect(await guest.emit('join_game', { gameId: table })).toMatchObject({ ok: true, seat: 1 });
    // not once the game has started
    for (const s of [2, 3])
      expect((await host.http(t.url, 'POST', `/api/games/${table}/invite-bot`, { seatIndex: s })).status).toBe(200);
    expect((await host.emit('start_game', { gameId: table })).ok).toBe(true);
    const late = await host.http(t.url, 'POST', `/api/games/${table}/remove-player`, { userId: guest.id });
    expect(late.status).toBe(400);
    expect(late.body.message).toMatch(/before the game starts/);
    for (const c of [host, guest]) await c.emit('leave_game', { gameId: table });
  }, 180000);
});
