/* eslint-disable @typescript-eslint/no-explicit-any -- tests read raw response bodies */
/**
 * Player mutes and the auto-mute (issue #25): a mute hides the muted player's chat lines for the muter, in the
 * lobby (live and history) and at a table (live and in the table view), through the block path; a player muted by
 * `autoMuteThreshold` distinct players within 24 h is muted in lobby chat until a moderator reviews the
 * 'auto-mute' report (dismiss lifts it; resolve applies the chosen sanction instead). Real Postgres and sockets.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ChatMessage } from '@spades/common';
import { PLAYER_MUTE_RATE_MAX } from '@spades/common';
import { SanctionsService } from '../src/moderation/sanctions.service';
import { ChatRejected, LobbyChatService } from '../src/lobby/lobby-chat.service';
import { Client, SETTINGS, useFastTimers } from './games/helpers';
import {
  api,
  connectSocket,
  createTestApp,
  recordEvents,
  registerUser,
  RegisteredUser,
  TestApp,
  TestSocket,
  waitForEvent,
} from './support/test-app';

describe('player mutes and the auto-mute', () => {
  let t: TestApp;
  let admin: RegisteredUser;
  let mod: RegisteredUser;
  let chat: LobbyChatService;
  let sanctions: SanctionsService;
  const sockets: TestSocket[] = [];
  const clients: Client[] = [];

  const mute = (who: RegisteredUser, target: RegisteredUser) =>
    api<any>(t.url, 'PUT', `/api/mutes/${target.user.id}`, { token: who.token });
  const autoReports = (target: RegisteredUser) =>
    t.dataSource.query(
      `SELECT id::text AS id, status, sanction_id FROM reports WHERE target_id = $1 AND category = 'auto-mute' ORDER BY id`,
      [target.user.id],
    );
  const users = (n: number) => Promise.all(Array.from({ length: n }, () => registerUser(t.url)));

  beforeAll(async () => {
    useFastTimers();
    t = await createTestApp();
    [admin, mod] = await users(2);
    await t.dataSource.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.user.id]);
    await t.dataSource.query(`UPDATE users SET role = 'moderator' WHERE id = $1`, [mod.user.id]);
    chat = t.app.get(LobbyChatService);
    sanctions = t.app.get(SanctionsService);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    for (const c of clients) c.close();
    await t?.close();
  });

  it('mutes, lists and unmutes (idempotent); refuses self, unknown players', async () => {
    const [me, a, b] = await users(3);
    expect((await mute(me, a)).body).toEqual({ userId: a.user.id, muted: true });
    expect((await mute(me, a)).status).toBe(200);
    expect((await mute(me, b)).status).toBe(200);
    const list = await api<any>(t.url, 'GET', '/api/mutes', { token: me.token });
    expect(list.body.mutes.map((m: any) => m.userId).sort()).toEqual([a.user.id, b.user.id].sort());
    expect(list.body.mutes[0]).toEqual({
      userId: expect.any(String),
      username: expect.any(String),
      mutedAt: expect.any(String),
    });
    const un = await api<any>(t.url, 'DELETE', `/api/mutes/${a.user.id}`, { token: me.token });
    expect(un.body).toEqual({ userId: a.user.id, muted: false });
    expect((await api<any>(t.url, 'DELETE', `/api/mutes/${a.user.id}`, { token: me.token })).status).toBe(200);
    expect(
      (await api<any>(t.url, 'GET', '/api/mutes', { token: me.token })).body.mutes.map((m: any) => m.userId),
    ).toEqual([b.user.id]);
    const self = await mute(me, me);
    expect(self.status).toBe(400);
    expect(self.body.message).toBe('You cannot mute yourself');
    expect(
      (await api(t.url, 'PUT', '/api/mutes/00000000-0000-4000-8000-000000000000', { token: me.token })).status,
    ).toBe(404);
    expect((await api(t.url, 'PUT', '/api/mutes/nope', { token: me.token })).status).toBe(404);
  });

  it('limits mutes and unmutes to PLAYER_MUTE_RATE_MAX a minute per player', async () => {
    const [busy, a] = await users(2);
    for (let n = 0; n < PLAYER_MUTE_RATE_MAX; n++) expect((await mute(busy, a)).status).toBe(200);
    const over = await api<any>(t.url, 'DELETE', `/api/mutes/${a.user.id}`, { token: busy.token });
    expect(over.status).toBe(429);
    expect(over.body.message).toBe('You are muting players too fast. Please wait a minute.');
    expect(
      (await api<any>(t.url, 'GET', '/api/mutes', { token: busy.token })).body.mutes.map((m: any) => m.userId),
    ).toEqual([a.user.id]);
  });

  it('hides the muted player’s lobby lines for the muter, live and in the history; unmute shows them again', async () => {
    const [muter, loud, other] = await users(3);
    await mute(muter, loud);
    const sMuter = await connectSocket(t.url, muter.token);
    const sLoud = await connectSocket(t.url, loud.token);
    const sOther = await connectSocket(t.url, other.token);
    sockets.push(sMuter, sLoud, sOther);
    const seen = recordEvents(sMuter, 'lobby_chat_message');
    const otherGot = waitForEvent(sOther, 'lobby_chat_message', (m) => m.message === 'LOUD LINE');
    sLoud.emit('lobby_chat_message', 'LOUD LINE');
    await otherGot;
    const sentinel = waitForEvent(sMuter, 'lobby_chat_message', (m) => m.message === 'sentinel');
    sOther.emit('lobby_chat_message', 'sentinel');
    await sentinel;
    const texts = (got: ChatMessage[]) => got.map((m) => m.message);
    expect(texts(seen)).toContain('sentinel');
    expect(texts(seen)).not.toContain('LOUD LINE');
    expect((await chat.history(muter.user.id)).map((m) => m.message)).not.toContain('LOUD LINE');
    expect((await chat.history(other.user.id)).map((m) => m.message)).toContain('LOUD LINE');
    await api(t.url, 'DELETE', `/api/mutes/${loud.user.id}`, { token: muter.token });
    expect((await chat.history(muter.user.id)).map((m) => m.message)).toContain('LOUD LINE');
  });

  it('hides the muted player’s table chat for the muter, live and in the table view', async () => {
    const host = await Client.create(t.url);
    const loud = await Client.create(t.url);
    const other = await Client.create(t.url);
    clients.push(host, loud, other);
    const gameId = (await host.http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    for (const c of [loud, other]) expect((await c.emit('join_game', { gameId })).ok).toBe(true);
    expect((await host.http(t.url, 'PUT', `/api/mutes/${loud.id}`)).status).toBe(200);
    expect((await loud.emit('chat_message', { gameId, message: 'table insult' })).ok).toBe(true);
    expect((await other.emit('chat_message', { gameId, message: 'table sentinel' })).ok).toBe(true);
    await host.waitFor(
      () => host.events('chat_message').some((m: any) => m.message.message === 'table sentinel'),
      3000,
      'sentinel',
    );
    expect(host.events('chat_message').map((m: any) => m.message.message)).not.toContain('table insult');
    const hostView = (await host.http(t.url, 'GET', `/api/games/${gameId}`)).body;
    expect(hostView.chat.map((m: any) => m.message)).not.toContain('table insult');
    const otherView = (await other.http(t.url, 'GET', `/api/games/${gameId}`)).body;
    expect(otherView.chat.map((m: any) => m.message)).toContain('table insult');
  });

  it('auto-mutes in lobby chat after 3 distinct mutes, files one auto-mute report; dismissing lifts it', async () => {
    const [target, m1, m2, m3, m4, m5] = await users(6);
    await chat.post(target.user.id, 'annoying line');
    const sTarget = await connectSocket(t.url, target.token);
    sockets.push(sTarget);
    const notice = waitForEvent(sTarget, 'sanction_notice', (n) => n.kind === 'mute');
    await mute(m1, target);
    await mute(m2, target);
    expect(await autoReports(target)).toEqual([]);
    expect(await sanctions.muteFor(target.user.id, 'lobby')).toBeNull();
    await mute(m3, target);
    const reason = 'Muted by 3 players in 24 h — pending review';
    expect(await notice).toEqual({ kind: 'mute', scope: 'lobby', endsAt: null, reason });
    expect(await sanctions.muteFor(target.user.id, 'lobby')).toMatchObject({ scope: 'lobby', endsAt: null, reason });
    expect(await sanctions.muteFor(target.user.id, 'table')).toBeNull();
    await expect(chat.post(target.user.id, 'still talking')).rejects.toThrow(ChatRejected);
    await mute(m4, target); // already pending: no second report, no second mute
    const [rep, ...more] = await autoReports(target);
    expect(more).toEqual([]);
    expect(rep.status).toBe('open');

    const d = (await api<any>(t.url, 'GET', `/api/admin/reports/${rep.id}`, { token: mod.token })).body;
    expect(d).toMatchObject({
      category: 'auto-mute',
      contextKind: 'auto_mute',
      reporterId: null,
      text: reason,
      targetId: target.user.id,
    });
    expect(d.context).toMatchObject({ kind: 'auto_mute', threshold: 3, sanctionId: rep.sanction_id });
    expect(d.context.mutedBy.map((x: any) => x.userId)).toEqual([m1.user.id, m2.user.id, m3.user.id]);
    expect(d.context.lines.map((l: any) => l.message)).toEqual(['annoying line']);
    const auto = await t.dataSource.query(
      `SELECT actor_id, target_user_id, reason FROM audit_log WHERE action = 'automod.mute' AND target_user_id = $1`,
      [target.user.id],
    );
    expect(auto).toEqual([{ actor_id: null, target_user_id: target.user.id, reason }]);

    const dismissed = await api<any>(t.url, 'POST', `/api/admin/reports/${rep.id}/dismiss`, {
      token: mod.token,
      body: { reason: 'banter' },
    });
    expect(dismissed.status).toBe(200);
    expect(await sanctions.muteFor(target.user.id, 'lobby')).toBeNull();
    const steps = await t.dataSource.query(
      `SELECT action FROM audit_log WHERE target_user_id = $1 AND actor_id = $2 ORDER BY id`,
      [target.user.id, mod.user.id],
    );
    expect(steps.map((s: any) => s.action)).toEqual(['player.unmute', 'report.dismiss']);
    // mutes made before the review no longer count: one more mute does not start it again
    await mute(m5, target);
    expect((await autoReports(target)).length).toBe(1);
    expect(await sanctions.muteFor(target.user.id, 'lobby')).toBeNull();
  });

  it('resolving an auto-mute with another sanction replaces the mute; staff are never auto-muted', async () => {
    const [target, ...muters] = await users(4);
    for (const m of muters) await mute(m, target);
    const [rep] = await autoReports(target);
    const resolved = await api<any>(t.url, 'POST', `/api/admin/reports/${rep.id}/resolve`, {
      token: mod.token,
      body: { action: { kind: 'warn', reason: 'mind your language' }, reason: 'a warning is enough' },
    });
    expect(resolved.status).toBe(200);
    expect(await sanctions.muteFor(target.user.id, 'lobby')).toBeNull();
    expect((await sanctions.list(target.user.id)).map((s) => [s.kind, s.liftedAt === null])).toEqual([
      ['warn', true],
      ['mute', false],
    ]);

    for (const m of muters) await mute(m, mod);
    expect(await autoReports(mod)).toEqual([]);
    expect(await sanctions.muteFor(mod.user.id, 'lobby')).toBeNull();
  });

  it('reads the threshold from the server settings', async () => {
    const put = await api<any>(t.url, 'PUT', '/api/admin/settings', {
      token: admin.token,
      body: { changes: { autoMuteThreshold: 2 }, reason: 'small community' },
    });
    expect(put.status).toBe(200);
    const [target, m1, m2] = await users(3);
    await mute(m1, target);
    expect(await autoReports(target)).toEqual([]);
    await mute(m2, target);
    expect((await autoReports(target)).length).toBe(1);
    expect(await sanctions.muteFor(target.user.id, 'lobby')).toMatchObject({
      reason: 'Muted by 2 players in 24 h — pending review',
    });
  });
});
