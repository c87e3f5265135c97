/* eslint-disable @typescript-eslint/no-explicit-any -- tests read raw response bodies */
/**
 * Reports (issue #25): players report a player from a chat line (lobby or table), a seat (the game) or a profile;
 * the server captures the context itself; confirmation, de-duplication, rate limit, no self-report. The console
 * queue: guards (401/403), list with counts, detail, assign, resolve with a sanction, dismiss — each audited.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { REPORT_RATE_MAX } from '@spades/common';
import { SanctionsService } from '../src/moderation/sanctions.service';
import { LobbyChatService } from '../src/lobby/lobby-chat.service';
import { Client, SETTINGS, useFastTimers } from './games/helpers';
import { api, createTestApp, registerUser, RegisteredUser, TestApp } from './support/test-app';

describe('reports', () => {
  let t: TestApp;
  let admin: RegisteredUser;
  let mod: RegisteredUser;
  let reporter: RegisteredUser;
  let target: RegisteredUser;
  let chat: LobbyChatService;
  const clients: Client[] = [];

  const auditOf = async (ref: string) =>
    (
      await t.dataSource.query(
        `SELECT action, actor_id, target_user_id, reason, after FROM audit_log WHERE target_ref = $1 ORDER BY id`,
        [ref],
      )
    ).map((r: any) => ({ ...r }));
  const say = (u: RegisteredUser, text: string) => chat.post(u.user.id, text);
  const report = (who: RegisteredUser, body: unknown) =>
    api<any>(t.url, 'POST', '/api/reports', { token: who.token, body });

  beforeAll(async () => {
    useFastTimers();
    t = await createTestApp();
    [admin, mod, reporter, target] = await Promise.all([1, 2, 3, 4].map(() => registerUser(t.url)));
    await t.dataSource.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.user.id]);
    await t.dataSource.query(`UPDATE users SET role = 'moderator' WHERE id = $1`, [mod.user.id]);
    chat = t.app.get(LobbyChatService);
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await t?.close();
  });

  it('guards every console route: 401 without a token, 403 for players; player routes need a token', async () => {
    const routes: [string, string][] = [
      ['GET', '/api/admin/reports'],
      ['GET', '/api/admin/reports/1'],
      ['POST', '/api/admin/reports/1/assign'],
      ['POST', '/api/admin/reports/1/resolve'],
      ['POST', '/api/admin/reports/1/dismiss'],
    ];
    for (const [method, path] of routes) {
      const body = method === 'GET' ? undefined : { reason: 'x' };
      expect((await api(t.url, method, path, { body })).status).toBe(401);
      const asPlayer = await api<any>(t.url, method, path, { token: reporter.token, body });
      expect(asPlayer.status).toBe(403);
      expect(asPlayer.body.message).toBe('Moderators and admins only');
    }
    expect((await api(t.url, 'GET', '/api/admin/reports', { token: mod.token })).status).toBe(200);
    for (const [method, path] of [
      ['POST', '/api/reports'],
      ['GET', '/api/mutes'],
      ['PUT', `/api/mutes/${target.user.id}`],
      ['DELETE', `/api/mutes/${target.user.id}`],
    ])
      expect((await api(t.url, method, path)).status).toBe(401);
  });

  it('a report from a lobby chat line captures the lines around it on the server, and confirms', async () => {
    const before = await say(reporter, 'before the insult');
    const line = await say(target, 'the insult');
    const after = await say(reporter, 'after the insult');
    const r = await report(reporter, {
      userId: target.user.id,
      category: 'abusive_chat',
      text: 'rude',
      context: { kind: 'lobby_chat', messageId: line.id, lines: [{ message: 'forged evidence' }] },
    });
    expect(r.status).toBe(201);
    expect(r.body).toEqual({
      id: expect.any(String),
      message: `Thanks — your report about ${target.user.username} was sent to the moderators.`,
    });
    const again = await report(reporter, {
      userId: target.user.id,
      category: 'abusive_chat',
      context: { kind: 'lobby_chat', messageId: line.id },
    });
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(r.body.id);

    const d = await api<any>(t.url, 'GET', `/api/admin/reports/${r.body.id}`, { token: mod.token });
    expect(d.status).toBe(200);
    expect(d.body).toMatchObject({
      status: 'open',
      category: 'abusive_chat',
      text: 'rude',
      contextKind: 'lobby_chat',
      targetId: target.user.id,
      targetName: target.user.username,
      reporterId: reporter.user.id,
      reporterName: reporter.user.username,
      assigneeId: null,
      resolution: null,
      reportsAgainstTarget: 1,
    });
    const lines = d.body.context.lines;
    expect(JSON.stringify(d.body.context)).not.toContain('forged evidence');
    const i = lines.findIndex((l: any) => l.id === line.id);
    expect(lines[i]).toMatchObject({ userId: target.user.id, message: 'the insult', reported: true });
    expect(lines[i - 1]).toMatchObject({ id: before.id, reported: false });
    expect(lines[i + 1]).toMatchObject({ id: after.id, message: 'after the insult', reported: false });
  });

  it('refuses a self-report, a line someone else wrote, an unknown line or player, bad input; rate-limits', async () => {
    const mine = await say(reporter, 'my own words');
    const cases: [unknown, number, unknown][] = [
      [{ userId: reporter.user.id, category: 'spam', context: { kind: 'profile' } }, 400, 'You cannot report yourself'],
      [
        { userId: target.user.id, category: 'spam', context: { kind: 'lobby_chat', messageId: mine.id } },
        400,
        'That chat line was not written by this player',
      ],
      [
        {
          userId: target.user.id,
          category: 'spam',
          context: { kind: 'lobby_chat', messageId: '00000000-0000-4000-8000-000000000000' },
        },
        400,
        'That chat line is no longer available',
      ],
      [
        { userId: '00000000-0000-4000-8000-000000000001', category: 'spam', context: { kind: 'profile' } },
        404,
        'Player not found',
      ],
      [
        { userId: target.user.id, category: 'auto-mute', context: { kind: 'profile' } },
        400,
        expect.stringContaining('category must be one of'),
      ],
    ];
    for (const [body, status, message] of cases) {
      const r = await report(reporter, body);
      expect({ status: r.status, message: r.body.message }).toEqual({ status, message });
    }

    const flooder = await registerUser(t.url);
    for (let n = 0; n < REPORT_RATE_MAX; n++)
      expect(
        (
          await report(flooder, {
            userId: target.user.id,
            category: 'spam',
            text: `n${n}`,
            context: { kind: 'profile' },
          })
        ).status,
      ).toBeLessThan(300);
    const over = await report(flooder, { userId: target.user.id, category: 'other', context: { kind: 'profile' } });
    expect(over.status).toBe(429);
    expect(over.body.message).toMatch(/wait/);
  });

  it('reports from a table chat line and from a seat capture the table chat and seats', async () => {
    const host = await Client.create(t.url);
    const rude = await Client.create(t.url);
    clients.push(host, rude);
    const gameId = (await host.http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    expect((await rude.emit('join_game', { gameId })).ok).toBe(true);
    expect((await host.emit('chat_message', { gameId, message: 'good luck' })).ok).toBe(true);
    expect((await rude.emit('chat_message', { gameId, message: 'you are terrible' })).ok).toBe(true);
    const view = (await host.http(t.url, 'GET', `/api/games/${gameId}`)).body;
    const line = view.chat.find((m: any) => m.message === 'you are terrible');
    // muted right after reading the line: the report still carries it (the context is not the reporter's view)
    expect((await host.http(t.url, 'PUT', `/api/mutes/${rude.id}`)).status).toBe(200);

    const fromLine = await report(host.user, {
      userId: rude.id,
      category: 'abusive_chat',
      context: { kind: 'table_chat', gameId, messageId: line.id },
    });
    expect(fromLine.status).toBe(201);
    const d1 = (await api<any>(t.url, 'GET', `/api/admin/reports/${fromLine.body.id}`, { token: mod.token })).body;
    expect(d1.context).toMatchObject({ kind: 'table_chat', gameId, messageId: line.id });
    expect(d1.context.lines.map((l: any) => [l.message, l.reported])).toEqual(
      expect.arrayContaining([
        ['good luck', false],
        ['you are terrible', true],
      ]),
    );

    const fromSeat = await report(host.user, {
      userId: rude.id,
      category: 'cheating',
      context: { kind: 'game', gameId },
    });
    expect(fromSeat.status).toBe(201);
    const d2 = (await api<any>(t.url, 'GET', `/api/admin/reports/${fromSeat.body.id}`, { token: mod.token })).body;
    expect(d2.context).toMatchObject({ kind: 'game', gameId, status: 'WAITING', private: false, targetPresent: true });
    expect(
      d2.context.seats
        .filter((s: any) => s.userId)
        .map((s: any) => s.userId)
        .sort(),
    ).toEqual([host.id, rude.id].sort());
    expect(d2.context.chat.map((l: any) => l.message)).toContain('you are terrible');

    const wrong = await report(host.user, {
      userId: rude.id,
      category: 'abusive_chat',
      context: { kind: 'table_chat', gameId, messageId: view.chat.find((m: any) => m.message === 'good luck').id },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('That chat line was not written by this player');
  });

  it('the queue lists by status with counts; assign, resolve with a sanction and dismiss are audited', async () => {
    const victim = await registerUser(t.url);
    const offender = await registerUser(t.url);
    const l1 = await say(offender, 'first offence');
    const r1 = (
      await report(victim, {
        userId: offender.user.id,
        category: 'abusive_chat',
        context: { kind: 'lobby_chat', messageId: l1.id },
      })
    ).body.id;
    const r2 = (
      await report(victim, { userId: offender.user.id, category: 'offensive_name', context: { kind: 'profile' } })
    ).body.id;

    const open = await api<any>(t.url, 'GET', `/api/admin/reports?status=open&target=${offender.user.id}`, {
      token: mod.token,
    });
    expect(open.status).toBe(200);
    expect(open.body.reports.map((r: any) => r.id)).toEqual([r2, r1]);
    expect(open.body.counts.open).toBeGreaterThanOrEqual(2);
    const page = await api<any>(t.url, 'GET', `/api/admin/reports?target=${offender.user.id}&limit=1`, {
      token: mod.token,
    });
    expect(page.body.reports.map((r: any) => r.id)).toEqual([r2]);
    const next = await api<any>(
      t.url,
      'GET',
      `/api/admin/reports?target=${offender.user.id}&limit=1&before=${page.body.nextBefore}`,
      {
        token: mod.token,
      },
    );
    expect(next.body.reports.map((r: any) => r.id)).toEqual([r1]);
    const byCategory = await api<any>(
      t.url,
      'GET',
      `/api/admin/reports?category=offensive_name&target=${offender.user.id}`,
      {
        token: mod.token,
      },
    );
    expect(byCategory.body.reports.map((r: any) => r.id)).toEqual([r2]);
    for (const bad of ['status=closed', 'category=rude', 'target=x', 'assignee=x', 'before=abc', 'limit=0'])
      expect((await api(t.url, 'GET', `/api/admin/reports?${bad}`, { token: mod.token })).status).toBe(400);
    expect((await api(t.url, 'GET', '/api/admin/reports/999999999', { token: mod.token })).status).toBe(404);

    // assign: a reason is required; only to staff; default to the caller
    const noReason = await api<any>(t.url, 'POST', `/api/admin/reports/${r1}/assign`, { token: mod.token, body: {} });
    expect(noReason.status).toBe(400);
    const toPlayer = await api<any>(t.url, 'POST', `/api/admin/reports/${r1}/assign`, {
      token: mod.token,
      body: { assigneeId: victim.user.id, reason: 'please look' },
    });
    expect(toPlayer.status).toBe(400);
    expect(toPlayer.body.message).toBe('Reports can be assigned only to moderators and admins');
    const assigned = await api<any>(t.url, 'POST', `/api/admin/reports/${r1}/assign`, {
      token: mod.token,
      body: { reason: 'mine' },
    });
    expect(assigned.status).toBe(200);
    expect(assigned.body).toMatchObject({
      status: 'assigned',
      assigneeId: mod.user.id,
      assigneeName: mod.user.username,
    });
    const mine = await api<any>(t.url, 'GET', `/api/admin/reports?assignee=${mod.user.id}&status=assigned`, {
      token: mod.token,
    });
    expect(mine.body.reports.map((r: any) => r.id)).toEqual([r1]);

    // resolve with a 60-minute mute: the sanction is applied, the report closed, both audited
    const resolved = await api<any>(t.url, 'POST', `/api/admin/reports/${r1}/resolve`, {
      token: mod.token,
      body: { action: { kind: 'mute', minutes: 60, reason: 'insults in the lobby' }, reason: 'confirmed' },
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body).toMatchObject({
      status: 'resolved',
      resolution: { status: 'resolved', byId: mod.user.id, reason: 'confirmed', action: { kind: 'mute', minutes: 60 } },
    });
    expect(resolved.body.resolution.sanctionId).toEqual(expect.any(String));
    expect(await t.app.get(SanctionsService).muteFor(offender.user.id, 'lobby')).toMatchObject({
      kind: 'mute',
      reason: 'insults in the lobby',
    });
    const again = await api<any>(t.url, 'POST', `/api/admin/reports/${r1}/dismiss`, {
      token: mod.token,
      body: { reason: 'x' },
    });
    expect(again.status).toBe(409);
    expect((await auditOf(`report:${r1}`)).map((a: any) => [a.action, a.actor_id, a.target_user_id])).toEqual([
      ['report.assign', mod.user.id, offender.user.id],
      ['report.resolve', mod.user.id, offender.user.id],
    ]);
    expect((await auditOf(`sanction:${resolved.body.resolution.sanctionId}`)).map((a: any) => a.action)).toEqual([
      'player.mute',
    ]);

    // a bad action changes nothing
    const badAction = await api<any>(t.url, 'POST', `/api/admin/reports/${r2}/resolve`, {
      token: mod.token,
      body: { action: { kind: 'explode', reason: 'x' }, reason: 'x' },
    });
    expect(badAction.status).toBe(400);
    const dismissed = await api<any>(t.url, 'POST', `/api/admin/reports/${r2}/dismiss`, {
      token: admin.token,
      body: { reason: 'name is fine' },
    });
    expect(dismissed.status).toBe(200);
    expect(dismissed.body).toMatchObject({
      status: 'dismissed',
      resolution: { status: 'dismissed', byId: admin.user.id, reason: 'name is fine', action: null },
    });
    expect((await auditOf(`report:${r2}`)).map((a: any) => [a.action, a.reason])).toEqual([
      ['report.dismiss', 'name is fine'],
    ]);
  });
});
