/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw wire payloads */
/**
 * Who is at a table (issue 15): blocks hide a blocked player's game chat (live and history), spectators are
 * announced as watching, every leave is announced, a table with bots stays open while somebody still watches
 * (and closes with a reason once nobody is left), and a WAITING table whose host went offline is given up.
 */
import type { TestApp } from '../support/test-app';
import { Client, gamesSuite, SETTINGS, storedTable } from './helpers';

describe('games presence: blocks in game chat, spectators, leaves, abandoned tables (integration)', () => {
  let t: TestApp;
  const { client } = gamesSuite((app) => (t = app), { RESULT_MS: '600000', WAITING_HOST_TIMEOUT_MS: '400' });
  const name = (c: Client) => c.user.user.username;
  const texts = (c: Client) => c.events('chat_message').map((m) => m.message.message);

  async function tableWithBots(host: Client, bots: number[]): Promise<string> {
    const gameId = (await host.http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    for (const s of bots)
      expect((await host.http(t.url, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex: s })).status).toBe(200);
    expect((await host.emit('join_game', { gameId })).ok).toBe(true);
    return gameId;
  }

  it('a player never sees the game chat of a player they block: live, in game_update and over HTTP', async () => {
    const [a, b, c] = [await client(), await client(), await client()];
    const gameId = await tableWithBots(a, []);
    for (const p of [b, c]) expect((await p.emit('join_game', { gameId })).ok).toBe(true);
    expect((await a.http(t.url, 'POST', '/api/social/block', { blockId: b.id })).status).toBeLessThan(300);
    const start = a.received.length;
    expect((await b.emit('chat_message', { gameId, message: 'from the blocked one' })).ok).toBe(true);
    expect((await c.emit('chat_message', { gameId, message: 'from a friend' })).ok).toBe(true);
    await a.waitFor(() => texts(a).includes('from a friend'), 3000, 'c message');
    await c.waitFor(() => texts(c).includes('from the blocked one'), 3000, 'b message at c');
    const seenByA = a.received.slice(start);
    expect(JSON.stringify(seenByA)).not.toContain('from the blocked one');
    expect(a.view.chat.map((m: any) => m.message)).toContain('from a friend');
    expect(a.view.chat.map((m: any) => m.message)).not.toContain('from the blocked one');
    const viaHttp = await a.http(t.url, 'GET', `/api/games/${gameId}`);
    expect(viaHttp.body.chat.map((m: any) => m.message)).toEqual(
      expect.arrayContaining([`${name(b)} joined the game.`, 'from a friend']),
    );
    expect(viaHttp.body.chat.map((m: any) => m.message)).not.toContain('from the blocked one');
    // the blocked player still sees the blocker's messages (a block is the blocker's choice, as in the lobby)
    expect((await a.emit('chat_message', { gameId, message: 'hello all' })).ok).toBe(true);
    await b.waitFor(() => texts(b).includes('hello all'), 3000, 'a message at b');
    // unblocked: visible again, history included
    expect((await a.http(t.url, 'POST', '/api/social/unblock', { blockId: b.id })).status).toBeLessThan(300);
    const after = await a.http(t.url, 'GET', `/api/games/${gameId}`);
    expect(after.body.chat.map((m: any) => m.message)).toContain('from the blocked one');
    for (const p of [c, b, a]) await p.emit('leave_game', { gameId });
  });

  it('a spectator is announced as watching, not as joining; leaves of players and spectators are announced', async () => {
    const [host, p, spec] = [await client(), await client(), await client()];
    const gameId = await tableWithBots(host, []);
    expect((await spec.emit('join_game_as_spectator', { gameId })).ok).toBe(true);
    await host.waitFor(() => texts(host).includes(`${name(spec)} is watching.`), 3000, 'watching');
    expect(texts(host)).not.toContain(`${name(spec)} joined the game.`);
    expect((await p.emit('join_game', { gameId })).ok).toBe(true);
    expect((await p.emit('leave_game', { gameId })).ok).toBe(true);
    await host.waitFor(() => texts(host).includes(`${name(p)} left the table.`), 3000, 'left');
    expect((await spec.emit('leave_game', { gameId })).ok).toBe(true);
    await host.waitFor(() => texts(host).includes(`${name(spec)} stopped watching.`), 3000, 'stopped watching');
    await host.emit('leave_game', { gameId });
  });

  it('the only human leaves a bot table: a bot takes the seat, the spectator keeps watching; the table closes when nobody is left', async () => {
    const [h, spec] = [await client(), await client()];
    const gameId = await tableWithBots(h, [1, 2, 3]);
    expect((await h.emit('start_game', { gameId })).ok).toBe(true);
    expect((await spec.emit('join_game_as_spectator', { gameId })).ok).toBe(true);
    await spec.waitFor(() => spec.view?.status === 'BIDDING' || spec.view?.status === 'PLAYING', 5000, 'running');
    expect((await h.emit('leave_game', { gameId })).ok).toBe(true);
    await spec.waitFor(
      () => texts(spec).includes(`${name(h)} left the game. A bot plays seat 1.`),
      3000,
      'leave announced',
    );
    // the game goes on for the spectator: the bot logic plays the vacated seat
    const cardsSeen = () => spec.events('game_update').filter((v) => v.status === 'PLAYING').length;
    const trickBefore = cardsSeen();
    await spec.waitFor(() => cardsSeen() > trickBefore + 4, 20000, 'bots keep playing');
    expect(spec.events('game_closed')).toHaveLength(0);
    const stored = await storedTable(t, gameId);
    expect(stored.snapshot.status).not.toBe('CLOSED');
    expect(stored.snapshot.replacements[0]).not.toBeNull();
    // nobody left: closed
    expect((await spec.emit('leave_game', { gameId })).ok).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    expect((await storedTable(t, gameId)).snapshot.status).toBe('CLOSED');
  });

  it('a WAITING table whose last player leaves tells the remaining spectator why it closed', async () => {
    const [h, spec] = [await client(), await client()];
    const gameId = await tableWithBots(h, [1]);
    expect((await spec.emit('join_game_as_spectator', { gameId })).ok).toBe(true);
    expect((await h.emit('leave_game', { gameId })).ok).toBe(true);
    await spec.waitFor(() => spec.events('game_closed').length > 0, 3000, 'game_closed');
    expect(spec.events('game_closed')[0]).toEqual({ gameId, reason: 'All players left the table' });
  });

  it('a WAITING table whose host went offline closes after WAITING_HOST_TIMEOUT_MS; an online host keeps it', async () => {
    const [gone, stays, lobby] = [await client(), await client(), await client()];
    expect((await lobby.emit('watch_lobby', {})).ok).toBe(true);
    const abandoned = await tableWithBots(gone, [1]);
    const kept = await tableWithBots(stays, [1]);
    const listed = async () => ((await lobby.http(t.url, 'GET', '/api/games')).body as any[]).map((g) => g.id);
    expect(await listed()).toEqual(expect.arrayContaining([abandoned, kept]));
    gone.close();
    await lobby.waitFor(
      () => lobby.events('game_removed').some((g) => g.id === abandoned),
      5000,
      'abandoned table gone',
    );
    const ids = await listed();
    expect(ids).not.toContain(abandoned);
    expect(ids).toContain(kept);
    const stored = await storedTable(t, abandoned);
    expect(stored.snapshot.status).toBe('CLOSED');
    expect(stored.snapshot.chat.map((m: any) => m.message)).toContain(`${name(gone)} left the table (offline).`);
    await stays.emit('leave_game', { gameId: kept });
  });
});
