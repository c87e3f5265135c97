import { createServer, Server as HttpServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { Server, Socket as ServerSocket } from 'socket.io';
import { io, Socket } from 'socket.io-client';
import { coalesceWrites } from './coalesced-writes';

/** A socket.io server (writes coalesced or not) and one WebSocket client connected to it. */
async function pair(coalesce: boolean): Promise<{ http: HttpServer; server: Server; client: Socket; peer: ServerSocket }> {
  const http = createServer();
  const server = new Server(http);
  if (coalesce) coalesceWrites(server.engine);
  const connected = new Promise<ServerSocket>((r) => server.on('connection', r));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const client = io(`http://127.0.0.1:${(http.address() as AddressInfo).port}`, { transports: ['websocket'] });
  return { http, server, client, peer: await connected };
}

/** Counts the system-call-level writes (`_write` / `_writev`) of the server side's TCP socket while `fn` runs. */
function countWrites(peer: ServerSocket): { calls: () => number } {
  const tcp = (peer.conn as any).transport.socket._socket; // eslint-disable-line @typescript-eslint/no-explicit-any
  let calls = 0;
  for (const k of ['_write', '_writev'] as const) {
    const orig = tcp[k].bind(tcp);
    tcp[k] = (...args: unknown[]) => {
      calls++;
      return orig(...args);
    };
  }
  return { calls: () => calls };
}

describe('coalesced socket writes', () => {
  for (const coalesce of [true, false]) {
    it(`${coalesce ? 'sends' : 'without it, engine.io sends'} the packets of one turn in ${coalesce ? 'ONE write' : 'several writes'}, in order, callbacks included`, async () => {
      const { http, server, client, peer } = await pair(coalesce);
      try {
        const got: string[] = [];
        const all = new Promise<void>((r) => client.onAny((event: string, n: number) => got.push(`${event}:${n}`) === 4 && r()));
        const acked = new Promise<string>((r) => client.emit('hello', 'x', r));
        const writes = await new Promise<number>((r) => peer.on('hello', (_x: string, ack: (v: string) => void) => {
          const counter = countWrites(peer);
          // what a table command sends one recipient: its notes, game_update, then the ack
          peer.emit('card_played', 1);
          peer.emit('trick_complete', 2);
          peer.emit('game_update', 3);
          peer.emit('turn', 4);
          ack('ok');
          setTimeout(() => r(counter.calls()), 50);
        }));
        if (coalesce) expect(writes).toBe(1);
        else expect(writes).toBeGreaterThan(1);
        await all;
        expect(got).toEqual(['card_played:1', 'trick_complete:2', 'game_update:3', 'turn:4']);
        expect(await acked).toBe('ok');
      } finally {
        client.close();
        await server.close();
        http.close();
      }
    });
  }
});
