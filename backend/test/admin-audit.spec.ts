/**
 * The console's foundation (issue #25): StaffGuard (401 without a token, 403 for players, admin-only routes 403 for
 * moderators), the append-only audit log (the database itself refuses UPDATE/DELETE/TRUNCATE), its filters and
 * its CSV/JSON export.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AuditService } from '../src/admin/audit.service';
import { api, createTestApp, registerUser, RegisteredUser, TestApp } from './support/test-app';

describe('console guard and audit log', () => {
  let t: TestApp;
  let admin: RegisteredUser;
  let mod: RegisteredUser;
  let player: RegisteredUser;
  let audit: AuditService;

  beforeAll(async () => {
    t = await createTestApp();
    [admin, mod, player] = await Promise.all([registerUser(t.url), registerUser(t.url), registerUser(t.url)]);
    await t.dataSource.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.user.id]);
    await t.dataSource.query(`UPDATE users SET role = 'moderator' WHERE id = $1`, [mod.user.id]);
    audit = t.app.get(AuditService);
  });
  afterAll(() => t?.close());

  it('answers 401 without a token, 403 to players, and admin-only routes 403 to moderators', async () => {
    expect((await api(t.url, 'GET', '/api/admin/me')).status).toBe(401);
    expect((await api(t.url, 'GET', '/api/admin/me', { token: 'nonsense' })).status).toBe(401);
    const asPlayer = await api<{ message: string }>(t.url, 'GET', '/api/admin/me', { token: player.token });
    expect(asPlayer.status).toBe(403);
    expect(asPlayer.body.message).toBe('Moderators and admins only');
    const asMod = await api(t.url, 'GET', '/api/admin/me', { token: mod.token });
    expect(asMod.status).toBe(200);
    expect(asMod.body).toEqual({ id: mod.user.id, username: mod.user.username, role: 'moderator' });
    expect((await api(t.url, 'GET', '/api/admin/audit', { token: mod.token })).status).toBe(403);
    expect((await api(t.url, 'GET', '/api/admin/audit/export', { token: player.token })).status).toBe(403);
    expect((await api(t.url, 'GET', '/api/admin/audit', { token: admin.token })).status).toBe(200);
  });

  it('lists entries newest first with filters and pages, and refuses bad filters', async () => {
    await audit.record(null, {
      actorId: admin.user.id,
      action: 'player.warn',
      targetUserId: player.user.id,
      reason: 'spam',
    });
    await audit.record(null, {
      actorId: mod.user.id,
      action: 'player.mute',
      targetUserId: player.user.id,
      reason: 'insults',
      before: { mutedUntil: null },
      after: { mutedUntil: '2030-01-01T00:00:00.000Z' },
    });
    await audit.record(null, { actorId: null, action: 'automod.mute', targetUserId: mod.user.id });
    const all = await api(t.url, 'GET', '/api/admin/audit?limit=2', { token: admin.token });
    expect(all.status).toBe(200);
    expect(all.body.entries.map((e: { action: string }) => e.action)).toEqual(['automod.mute', 'player.mute']);
    expect(all.body.entries[1]).toMatchObject({
      actorName: mod.user.username,
      targetName: player.user.username,
      reason: 'insults',
      after: { mutedUntil: '2030-01-01T00:00:00.000Z' },
    });
    const older = await api(t.url, 'GET', `/api/admin/audit?limit=2&before=${all.body.nextBefore}`, {
      token: admin.token,
    });
    expect(older.body.entries.map((e: { action: string }) => e.action)).toContain('player.warn');
    const byTarget = await api(t.url, 'GET', `/api/admin/audit?target=${player.user.id}&action=player.warn`, {
      token: admin.token,
    });
    expect(byTarget.body.entries).toHaveLength(1);
    expect(byTarget.body.entries[0].actorId).toBe(admin.user.id);
    for (const bad of ['action=nope', 'actor=1', 'before=abc', 'limit=0']) {
      const r = await api<{ message: string }>(t.url, 'GET', `/api/admin/audit?${bad}`, { token: admin.token });
      expect(r.status).toBe(400);
      expect(r.body.message).toEqual(expect.any(String));
    }
  });

  it('exports CSV and JSON with the same filters', async () => {
    const csv = await api<string>(t.url, 'GET', `/api/admin/audit/export?format=csv&target=${player.user.id}`, {
      token: admin.token,
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('id,at,actorId,actorName,action,targetUserId,targetName,targetRef,reason,before,after');
    expect(lines).toHaveLength(3);
    expect(csv.body).toContain('"{""mutedUntil"":null}"');
    const json = await api(t.url, 'GET', '/api/admin/audit/export?format=json&action=automod.mute', {
      token: admin.token,
    });
    expect(json.body).toHaveLength(1);
    expect(json.body[0]).toMatchObject({ action: 'automod.mute', actorId: null, targetUserId: mod.user.id });
    expect((await api(t.url, 'GET', '/api/admin/audit/export?format=xml', { token: admin.token })).status).toBe(400);
  });

  it('is append-only in the database itself', async () => {
    await expect(t.dataSource.query(`UPDATE audit_log SET reason = 'rewritten'`)).rejects.toThrow(/append-only/);
    await expect(t.dataSource.query(`DELETE FROM audit_log`)).rejects.toThrow(/append-only/);
    await expect(t.dataSource.query(`TRUNCATE audit_log`)).rejects.toThrow(/append-only/);
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM audit_log`);
    expect(n).toBe(3);
  });
});
