/* eslint-disable @typescript-eslint/no-explicit-any -- tests inspect raw wire payloads */
/**
 * A game action's acknowledgement leaves in the same TCP write as the updates it caused (issue #10): real server,
 * real database, real socket.io client; what the server hands the kernel for the acting player's socket is read
 * at node:net's `_write` / `_writev` (WebSocket frames from a server are not masked, so the packets are readable).
 */
import type { Socket as NetSocket } from 'node:net';
import { RealtimeService } from '../../src/realtime/realtime.service';
import type { TestApp } from '../support/test-app';
import { Client, gamesSuite, SETTINGS } from './helpers';

/** Every write to the user's socket(s) on the server, as text, from now on. */
function tapWrites(t: TestApp, userId: string): string[] {
  const writes: string[] = [];
  const nsp = t.app.get(RealtimeService).io.sockets;
  const mine = [...nsp.sockets.values()].filter((s) => s.data?.userId === userId);
  expect(mine).toHaveLength(1);
  const raw = (mine[0].conn.transport as unknown as { socket: { _socket: NetSocket } }).socket._socket;
  const hooks = raw as unknown as Record<'_write' | '_writev', (...a: any[]) => void>;
  const write = hooks._write.bind(raw);
  const writev = hooks._writev.bind(raw);
  hooks._write = (chunk: Buffer | string, ...rest: any[]) => {
    writes.push(Buffer.from(chunk).toString('latin1'));
    write(chunk, ...rest);
  };
  hooks._writev = (chunks: { chunk: Buffer | string }[], ...rest: any[]) => {
    writes.push(chunks.map((c) => Buffer.from(c.chunk).toString('latin1')).join(''));
    writev(chunks, ...rest);
  };
  return writes;
}

/** socket.io's acknowledgement packet for the client's next ack id carries `{"ok":true,"seq":…}`. */
const ACK = /43\d+\[\{"ok":true,"seq":\d+\}\]/g;

describe('games: the answer to an action travels with its updates', () => {
  let t: TestApp;
  const { client } = gamesSuite((app) => (t = app), { BOT_DELAY_MIN_MS: '500', BOT_DELAY_MAX_MS: '500' });

  async function tableWithBots(h: Client): Promise<string> {
    const gameId = (await h.http(t.url, 'POST', '/api/games', SETTINGS)).body.id;
    for (const s of [1, 2, 3]) await h.http(t.url, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex: s });
    await h.emit('join_game', { gameId });
    await h.emit('start_game', { gameId });
    await h.waitFor(() => h.view?.status === 'BIDDING' && h.view.currentPlayerIndex === 0 && !h.view.handHidden, 20000, 'my bid');
    return gameId;
  }

  it('a bid: bidding_update, game_update and the ok answer in one write, the answer exactly once', async () => {
    const h = await client();
    const gameId = await tableWithBots(h);
    const writes = tapWrites(t, h.id);
    const answer = await h.emit('make_bid', { gameId, bid: 3, actionId: 'answer-1' });
    expect(answer).toEqual({ seq: 0, ok: true });
    const withAnswer = writes.filter((w) => (w.match(ACK) ?? []).length > 0);
    expect(withAnswer).toHaveLength(1);
    expect(withAnswer[0].match(ACK)).toHaveLength(1);
    // the updates of this bid precede the answer inside that write
    const at = withAnswer[0].search(ACK);
    expect(withAnswer[0].lastIndexOf('"bidding_update"', at)).toBeGreaterThanOrEqual(0);
    expect(withAnswer[0].lastIndexOf('"game_update"', at)).toBeGreaterThan(withAnswer[0].lastIndexOf('"bidding_update"', at));
    // and nothing about this bid went out before it
    expect(writes.indexOf(withAnswer[0])).toBe(0);
    await h.emit('leave_game', { gameId });
  });

  it('a refused action and a repeated action id still get their answer (after the command)', async () => {
    const h = await client();
    const gameId = await tableWithBots(h);
    expect(await h.emit('make_bid', { gameId, bid: 14, actionId: 'answer-bad' })).toEqual({ ok: false, message: 'That bid is not allowed' });
    const first = await h.emit('make_bid', { gameId, bid: 2, actionId: 'answer-2' });
    expect(first).toEqual({ seq: 0, ok: true });
    const writes = tapWrites(t, h.id);
    expect(await h.emit('make_bid', { gameId, bid: 2, actionId: 'answer-2' })).toEqual(first);
    // a remembered result sends no update: its answer is a write of its own, sent once
    expect(writes.filter((w) => (w.match(ACK) ?? []).length > 0)).toHaveLength(1);
    expect(writes.join('').match(ACK)).toHaveLength(1);
    await h.emit('leave_game', { gameId });
  });
});
