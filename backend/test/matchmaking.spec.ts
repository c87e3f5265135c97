/**
 * Issue #28: quick play against a real server, real database and real socket.io clients: 40 players (8 teams of two
 * partners + 24 singles) queue at once and every table formed has four distinct players, keeps teams as partners
 * and starts rated; a lone player gets the bot offer and takes it; "Play bots now" seats three labelled bots.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { QuickPlayMatched, TableView } from '@spades/common';
import {
  api,
  connectSocket,
  createTestApp,
  registerUser,
  RegisteredUser,
  TestApp,
  TestSocket,
  waitForEvent,
} from './support/test-app';

const ENV = {
  MATCHMAKING_TICK_MS: '100',
  MATCHMAKING_BOT_OFFER_MS: '1500',
  BOT_DELAY_MIN_MS: '60000',
  BOT_DELAY_MAX_MS: '60000',
};

type Ack = { ok: boolean; message?: string; gameId?: string; [k: string]: unknown };
const emit = (s: TestSocket, event: string, payload?: unknown) =>
  new Promise<Ack>((resolve) =>
    (s as unknown as { emit: (e: string, p: unknown, cb: (r: Ack) => void) => void }).emit(
      event,
      payload ?? {},
      resolve,
    ),
  );

describe('quick play (issue #28)', () => {
  let t: TestApp;
  const saved: Record<string, string | undefined> = {};
  const sockets: TestSocket[] = [];
  beforeAll(async () => {
    for (const [k, v] of Object.entries(ENV)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    t = await createTestApp({ env: ENV });
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await t?.close();
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });

  const player = async (): Promise<{ u: RegisteredUser; s: TestSocket }> => {
    const u = await registerUser(t.url);
    const s = await connectSocket(t.url, u.token, { timeoutMs: 15000 });
    sockets.push(s);
    return { u, s };
  };
  const view = async (who: RegisteredUser, gameId: string) =>
    (await api<TableView>(t.url, 'GET', `/api/games/${gameId}`, { token: who.token })).body;
  const queue = { mode: 'PARTNERS', stake: 'low', pace: 'normal' };

  it('40 players (8 teams) queueing at once get 10 started, rated tables of four distinct players; teams sit as partners', async () => {
    const players = [];
    for (let i = 0; i < 40; i++) players.push(await player());
    const teams = [];
    for (let i = 0; i < 8; i++) {
      const a = players[2 * i]!;
      const b = players[2 * i + 1]!;
      // the invitee must have added the inviter as a friend (as for table invitations)
      expect(
        (await api(t.url, 'POST', '/api/social/friends/add', { token: b.u.token, body: { friendId: a.u.user.id } }))
          .status,
      ).toBe(200);
      const invited = waitForEvent(b.s, 'partner_invitation');
      expect(await emit(a.s, 'partner_invite', { userId: b.u.user.id, ...queue })).toMatchObject({ ok: true });
      expect((await invited).fromId).toBe(a.u.user.id);
      teams.push([a, b] as const);
    }
    const matched = new Map<string, Promise<QuickPlayMatched>>();
    for (const p of players)
      matched.set(
        p.u.user.id,
        waitForEvent(p.s, 'quickplay_matched', () => true, 30000),
      );
    // everyone at once: the 8 partners accept, the 24 singles join
    const acks = await Promise.all([
      ...teams.map(([a, b]) => emit(b.s, 'partner_accept', { fromId: a.u.user.id })),
      ...players.slice(16).map((p) => emit(p.s, 'quickplay_join', queue)),
    ]);
    for (const a of acks) expect(a).toMatchObject({ ok: true, queued: true });
    const results = new Map<string, QuickPlayMatched>();
    for (const [id, m] of matched) results.set(id, await m);
    const games = new Set([...results.values()].map((r) => r.gameId));
    expect(games.size).toBe(10);
    const seated = new Set<string>();
    for (const gameId of games) {
      const someone = players.find((p) => results.get(p.u.user.id)!.gameId === gameId)!;
      const v = await view(someone.u, gameId);
      const ids = v.players.map((p) => p!.id);
      expect(new Set(ids).size).toBe(4);
      for (const id of ids) {
        expect(seated.has(id)).toBe(false);
        seated.add(id);
      }
      expect(v.players.every((p) => p!.type === 'human')).toBe(true);
      expect(v.status).toBe('BIDDING');
      expect(v.rated).toBe(true);
      for (const [a, b] of teams) {
        const ia = ids.indexOf(a.u.user.id);
        if (ia < 0) continue;
        expect(ids.indexOf(b.u.user.id)).toBe((ia + 2) % 4);
        expect(results.get(a.u.user.id)!.partnerId).toBe(b.u.user.id);
      }
    }
    expect(seated.size).toBe(40);
    // a seated player cannot queue again
    expect(await emit(players[0]!.s, 'quickplay_join', queue)).toMatchObject({
      ok: false,
      message: 'You are already seated at a table',
    });
  }, 120000);

  it('a lone player is offered bots after the wait, takes them: an unrated table with three labelled bots', async () => {
    const { u, s } = await player();
    const offer = waitForEvent(s, 'quickplay_bot_offer', () => true, 10000);
    expect(await emit(s, 'quickplay_join', { mode: 'SOLO', stake: 'low', pace: 'fast' })).toMatchObject({
      ok: true,
      queued: true,
      waiting: 1,
    });
    expect(await offer).toMatchObject({ queued: true, botOffer: true });
    const ack = await emit(s, 'quickplay_bots');
    expect(ack.ok).toBe(true);
    const v = await view(u, ack.gameId!);
    expect(v.players[0]!.id).toBe(u.user.id);
    expect(v.players.slice(1).map((p) => [p!.type, p!.username])).toEqual([
      ['bot', 'Ada (Normal)'],
      ['bot', 'Max (Normal)'],
      ['bot', 'Ivy (Normal)'],
    ]);
    expect(v.rated).toBe(false);
    expect(v.status).toBe('BIDDING');
    expect((await emit(s, 'quickplay_status')).queued).toBe(false);
    // fast pace: half of TURN_TIMEOUT_MS (30 s by default) per turn, stored with the table
    const rows: { snapshot: { turnMs?: number } }[] = await t.dataSource.query(
      `SELECT snapshot FROM games WHERE id = $1`,
      [ack.gameId],
    );
    expect(rows[0]!.snapshot.turnMs).toBe(15000);
  }, 30000);

  it('"Play bots now" seats the player with three bots of the chosen level at once; bad input changes nothing', async () => {
    const { u } = await player();
    const bad = await api(t.url, 'POST', '/api/quickplay/bots', { token: u.token, body: { level: 'insane' } });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ message: 'level must be easy, normal or strong' });
    const r = await api<{ gameId: string }>(t.url, 'POST', '/api/quickplay/bots', {
      token: u.token,
      body: { level: 'easy' },
    });
    expect(r.status).toBe(200);
    const v = await view(u, r.body.gameId);
    expect(v.status).toBe('BIDDING');
    expect(v.players.slice(1).map((p) => p!.username)).toEqual(['Ada (Easy)', 'Max (Easy)', 'Ivy (Easy)']);
    // the level's bot is the seat's: stored with the seat, so a restart keeps it
    const rows: { snapshot: { seats: { kind: string; level?: string }[] } }[] = await t.dataSource.query(
      `SELECT snapshot FROM games WHERE id = $1`,
      [r.body.gameId],
    );
    expect(rows[0]!.snapshot.seats.slice(1).map((s) => s.level)).toEqual(['basic', 'basic', 'basic']);
    const again = await api(t.url, 'POST', '/api/quickplay/bots', { token: u.token, body: { level: 'strong' } });
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ message: 'You are already seated at a table' });
  }, 30000);

  it('preferred partners: the players one partnered most in finished PARTNERS games', async () => {
    const { u } = await player();
    const mate = await registerUser(t.url);
    const foe = await registerUser(t.url);
    const r = await api<{ gameId: string }>(t.url, 'POST', '/api/quickplay/bots', {
      token: u.token,
      body: { level: 'easy' },
    });
    // a finished game's record, as history writes it (seat 2 is the partner of seat 0)
    await t.dataSource.query(
      `INSERT INTO game_records (game_id, game_number, finished_at, mode, rated, settings, players, participants, result, final_state)
       VALUES ($1, 1, now(), 'PARTNERS', true, '{}', '[]', '[]', '{}', '{}')`,
      [r.body.gameId],
    );
    for (const [id, seat] of [
      [u.user.id, 0],
      [foe.user.id, 1],
      [mate.user.id, 2],
    ] as const)
      await t.dataSource.query(
        `INSERT INTO game_record_players (game_id, game_number, user_id, seat, finished_at) VALUES ($1, 1, $2, $3, now())`,
        [r.body.gameId, id, seat],
      );
    const got = await api(t.url, 'GET', '/api/quickplay/partners', { token: u.token });
    expect(got.status).toBe(200);
    expect(got.body).toEqual([{ userId: mate.user.id, username: mate.user.username, games: 1 }]);
    expect((await api(t.url, 'GET', '/api/quickplay/partners')).status).toBe(401);
  }, 30000);

  it('refuses bad queue input and a partner who has not added the inviter', async () => {
    const a = await player();
    const b = await player();
    expect(await emit(a.s, 'quickplay_join', { mode: 'TRIO', stake: 'low', pace: 'normal' })).toMatchObject({
      ok: false,
      message: 'mode must be PARTNERS or SOLO',
    });
    expect(await emit(a.s, 'quickplay_join', { mode: 'SOLO', stake: 'huge', pace: 'normal' })).toMatchObject({
      ok: false,
      message: 'stake must be low, mid or high',
    });
    expect(await emit(a.s, 'partner_invite', { userId: b.u.user.id, ...queue })).toMatchObject({
      ok: false,
      message: 'You can invite only a friend who has added you',
    });
    expect(await emit(b.s, 'partner_accept', { fromId: a.u.user.id })).toMatchObject({
      ok: false,
      message: 'That partner invitation is no longer open',
    });
    expect((await emit(a.s, 'quickplay_status')).queued).toBe(false);
    // joining then leaving
    expect(await emit(a.s, 'quickplay_join', { mode: 'SOLO', stake: 'mid', pace: 'normal' })).toMatchObject({
      ok: true,
      queued: true,
      stake: 'mid',
    });
    expect(await emit(a.s, 'quickplay_leave')).toMatchObject({ ok: true });
    expect((await emit(a.s, 'quickplay_status')).queued).toBe(false);
  }, 30000);
});
