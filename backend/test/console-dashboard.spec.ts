/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw payloads */
/**
 * The console's Dashboard (issue #25) against a real server, database and socket.io clients: the guard, online
 * users and tables, actions per second and the players' ack p99 read from the server's own metrics after a real
 * game, this node in the node list, and the open reports count.
 */
import { DashboardSampler } from '../src/admin/dashboard.sampler';
import { api, registerUser, RegisteredUser, TestApp } from './support/test-app';
import { gamesSuite, SETTINGS } from './games/helpers';

describe('console dashboard', () => {
  let t: TestApp;
  const { client } = gamesSuite((app) => (t = app));
  let mod: RegisteredUser;

  beforeAll(async () => {
    mod = await registerUser(t.url);
    await t.dataSource.query(`UPDATE users SET role = 'moderator' WHERE id = $1`, [mod.user.id]);
  });

  const dashboard = () => api(t.url, 'GET', '/api/admin/dashboard', { token: mod.token });

  it('answers 401 without a token and 403 to players', async () => {
    const player = await client();
    expect((await api(t.url, 'GET', '/api/admin/dashboard')).status).toBe(401);
    const refused = await api(t.url, 'GET', '/api/admin/dashboard', { token: player.user.token });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Moderators and admins only');
    expect((await dashboard()).status).toBe(200);
  });

  it('counts online users and tables, and reads actions per second and the ack p99 from the metrics', async () => {
    const sampler = t.app.get(DashboardSampler);
    await sampler.sample();
    const before = (await dashboard()).body;
    const h = await client();
    const waiting = await client();
    await waiting.http(t.url, 'POST', '/api/games', SETTINGS);
    const gameId = (await h.http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    for (const s of [1, 2, 3])
      expect((await h.http(t.url, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex: s })).status).toBe(200);
    await h.emit('join_game', { gameId });
    h.auto = true;
    expect((await h.emit('start_game', { gameId })).ok).toBe(true);
    await h.waitFor(
      () => h.view?.handNumber >= 1 && h.view?.status === 'PLAYING' && h.view?.play?.trickNumber >= 2,
      30000,
      'two tricks',
    );
    h.auto = false;

    const d = (await dashboard()).body;
    expect(d.onlineUsers).toBeGreaterThanOrEqual(before.onlineUsers + 2);
    expect(d.liveTables).toBe(before.liveTables + 2);
    expect(d.playingTables).toBe(before.playingTables + 1);
    expect(d.waitingTables).toBe(before.waitingTables + 1);
    // the human's bids and cards were acknowledged: a p99 from the histogram's buckets; bots' moves count too
    expect(d.lastMinute.acks).toBeGreaterThan(before.lastMinute.acks);
    expect(d.lastMinute.actionsPerSecond).toBeGreaterThan(0);
    expect(typeof d.lastMinute.ackP99Ms).toBe('number');
    expect(d.lastMinute.ackP99Ms).toBeGreaterThan(0);
    expect(d.last5Minutes.acks).toBeGreaterThanOrEqual(d.lastMinute.acks);
    expect(d.series.length).toBeGreaterThanOrEqual(1);
    expect(d.series.some((p: any) => p.actionsPerSecond > 0)).toBe(true);
    expect(d.cluster).toBe(t.config.cluster.enabled);
    expect(d.nodes).toHaveLength(1);
    expect(d.nodes[0]).toMatchObject({ id: t.config.cluster.nodeId, reachable: true, draining: false });
    expect(d.nodes[0].sockets).toBeGreaterThanOrEqual(2);
    expect(d.nodes[0].rssMB).toBeGreaterThan(0);
    await h.http(t.url, 'POST', `/api/games/${gameId}/leave`, {});
  });

  it('counts the reports waiting for a moderator (open or assigned)', async () => {
    const [reporter, target] = [await client(), await client()];
    const before = (await dashboard()).body.openReports;
    const insert = (status: string, extra = '') =>
      t.dataSource.query(
        `INSERT INTO reports (reporter_id, target_id, category, context_kind, context, status${extra ? ', assignee_id, closed_at' : ''})
         VALUES ($1, $2, 'spam', 'profile', '{}'::jsonb, $3${extra})`,
        [reporter.id, target.id, status],
      );
    await insert('open');
    await insert('open');
    await insert('assigned', `, '${mod.user.id}'::uuid, NULL`);
    await insert('resolved', `, '${mod.user.id}'::uuid, now()`);
    await insert('dismissed', `, '${mod.user.id}'::uuid, now()`);
    expect((await dashboard()).body.openReports).toBe(before + 3);
  });
});
