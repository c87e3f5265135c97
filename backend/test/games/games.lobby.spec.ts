/**
 * Lobby fan-out (issue #10): only sockets that `watch_lobby` get table-list traffic, as deltas
 * (game_added / game_changed / game_removed) after one full `games_updated`; a client applying them ends with
 * the same list as GET /api/games. Seated players who do not look at the lobby get none of it. Presence
 * changes reach the watchers coalesced (`presence_changed`).
 */
import type { TestApp } from '../support/test-app';
import { connectSocket, registerUser } from '../support/test-app';
import { Client, gamesSuite, SETTINGS } from './helpers';

const LIST_EVENTS = ['games_updated', 'game_added', 'game_changed', 'game_removed', 'presence_changed'];

/** A lobby client that keeps its list from the full list + deltas, in arrival order. */
function lobbyList(c: Client): Map<string, any> | null {
  let list: Map<string, any> | null = null;
  for (const r of c.received) {
    if (r.event === 'games_updated') list = new Map(r.payload.map((g: any) => [g.id, g]));
    else if (!list) continue;
    else if (r.event === 'game_added' || r.event === 'game_changed') list.set(r.payload.id, r.payload);
    else if (r.event === 'game_removed') list.delete(r.payload.id);
  }
  return list;
}

describe('lobby fan-out', () => {
  let t: TestApp;
  const { client } = gamesSuite((app) => (t = app), { BOT_DELAY_MIN_MS: '20', BOT_DELAY_MAX_MS: '30' });

  it('a client applying the deltas ends with the same list as GET /api/games; seated players get no lobby traffic', async () => {
    const watcher = await client();
    const [a, b, c] = [await client(), await client(), await client()];
    // a table that exists before the watcher looks
    const first = (await a.http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    expect((await watcher.emit('watch_lobby', {})).ok).toBe(true);
    await watcher.waitFor(() => watcher.events('games_updated').length === 1, 3000, 'initial list');
    expect(watcher.events('games_updated')[0].map((g: any) => g.id)).toContain(first);

    // b and c never look at the lobby; a sits at its table
    const second = (await b.http(t.url, 'POST', '/api/games', { ...SETTINGS, gameMode: 'SOLO' })).body.id;
    await watcher.waitFor(() => watcher.events('game_added').some((g) => g.id === second), 3000, 'game_added');
    expect((await c.http(t.url, 'POST', `/api/games/${first}/join`, { seat: 2 })).status).toBe(200);
    for (const s of [1, 3]) expect((await a.emit('invite_bot', { gameId: first, seatIndex: s })).ok).toBe(true);
    await watcher.waitFor(
      () => watcher.events('game_changed').filter((g) => g.id === first).length >= 3,
      3000,
      'game_changed',
    );
    for (const p of [a, c]) await p.emit('join_game', { gameId: first });
    expect((await a.emit('start_game', { gameId: first })).ok).toBe(true);
    await watcher.waitFor(
      () => watcher.events('game_changed').some((g) => g.id === first && g.status === 'PLAYING'),
      3000,
      'started',
    );
    // the second table closes: removed from the list
    expect((await b.emit('leave_game', { gameId: second })).ok).toBe(true);
    await watcher.waitFor(() => watcher.events('game_removed').some((g) => g.id === second), 3000, 'game_removed');
    // let the running game move on for a bit, then compare with the server's list
    await new Promise((r) => setTimeout(r, 300));
    const http = (await watcher.http(t.url, 'GET', '/api/games')).body as any[];
    await watcher.waitFor(
      () => {
        const mine = lobbyList(watcher)!;
        const now = [...mine.values()].sort((x, y) => x.id.localeCompare(y.id));
        return JSON.stringify(now) === JSON.stringify([...http].sort((x, y) => x.id.localeCompare(y.id)));
      },
      3000,
      'same list as GET /api/games',
    );
    expect(JSON.stringify(watcher.received.filter((r) => LIST_EVENTS.includes(r.event)))).not.toMatch(/"suit"/);

    // nobody else asked for the lobby: no list or presence traffic
    for (const p of [a, b, c]) expect(p.received.filter((r) => LIST_EVENTS.includes(r.event))).toEqual([]);

    // after unwatch_lobby: nothing more
    expect((await watcher.emit('unwatch_lobby', {})).ok).toBe(true);
    const seen = watcher.received.length;
    const third = (await b.http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    expect(third).toBeTruthy();
    await new Promise((r) => setTimeout(r, 300));
    expect(watcher.received.slice(seen).filter((r) => LIST_EVENTS.includes(r.event))).toEqual([]);
    await b.emit('leave_game', { gameId: third });
    for (const p of [a, c]) await p.emit('leave_game', { gameId: first });
  });

  it('presence: lobby watchers get online_users once, then coalesced presence_changed deltas', async () => {
    const watcher = await client();
    expect((await watcher.emit('watch_lobby', {})).ok).toBe(true);
    await watcher.waitFor(() => watcher.events('online_users').length === 1, 3000, 'online_users');
    expect(watcher.events('online_users')[0]).toContain(watcher.id);
    const u = await registerUser(t.url);
    const tab1 = await connectSocket(t.url, u.token);
    const tab2 = await connectSocket(t.url, u.token);
    await watcher.waitFor(
      () => watcher.events('presence_changed').some((p) => p.online.includes(u.user.id)),
      3000,
      'online',
    );
    tab1.close();
    await new Promise((r) => setTimeout(r, 500));
    // still online through the second tab
    expect(watcher.events('presence_changed').some((p) => p.offline.includes(u.user.id))).toBe(false);
    tab2.close();
    await watcher.waitFor(
      () => watcher.events('presence_changed').some((p) => p.offline.includes(u.user.id)),
      3000,
      'offline',
    );
    expect(watcher.events('presence_changed').filter((p) => p.online.includes(u.user.id))).toHaveLength(1);
  });
});
