/**
 * writeTogether / RealtimeService.toUsersTogether against a real socket.io server and client: what one piece of
 * synchronous code sends a connection leaves in ONE write to its TCP socket, in order, at once (nothing waits for
 * the end of the turn); without it every packet is a write of its own; a client whose transport is busy is left to
 * engine.io's flow control and still gets everything in order.
 */
import { createServer, Server as HttpServer } from 'node:http';
import type { AddressInfo, Socket as NetSocket } from 'node:net';
import { Server, Socket as ServerSocket } from 'socket.io';
import { io, Socket as ClientSocket } from 'socket.io-client';
import { AppServer, RealtimeService, userRoom } from './realtime.service';
import { EngineConnection, writeTogether } from './write-together';

describe('writeTogether', () => {
  let http: HttpServer;
  let ioServer: Server;
  let url: string;
  const clients: ClientSocket[] = [];

  beforeEach(async () => {
    http = createServer();
    ioServer = new Server(http);
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    for (const c of clients.splice(0)) c.close();
    await new Promise<void>((r) => ioServer.close(() => r()));
  });

  /** A connected client, its server socket, and a counter of what node:net hands to the kernel for it. */
  async function connect(): Promise<{ client: ClientSocket; server: ServerSocket; writes: () => number }> {
    const server = new Promise<ServerSocket>((r) => ioServer.once('connection', r));
    const client = io(url, { transports: ['websocket'], forceNew: true });
    clients.push(client);
    await new Promise<void>((r) => client.once('connect', () => r()));
    const s = await server;
    const raw = (s.conn.transport as unknown as { socket: { _socket: NetSocket } }).socket._socket;
    const hooks = raw as unknown as { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void };
    let writes = 0;
    for (const k of ['_write', '_writev'] as const) {
      const original = hooks[k].bind(raw);
      hooks[k] = (...a: unknown[]) => {
        writes++;
        original(...a);
      };
    }
    return { client, server: s, writes: () => writes };
  }

  const received = (client: ClientSocket, n: number): Promise<string[]> =>
    new Promise((resolve) => {
      const got: string[] = [];
      client.onAny((event: string, payload: { i: number }) => {
        got.push(`${event}:${payload.i}`);
        if (got.length === n) resolve(got);
      });
    });

  const conn = (s: ServerSocket) => s.conn as unknown as EngineConnection;

  it('sends what the callback emits in one write, in order, before it returns', async () => {
    const { client, server, writes } = await connect();
    const got = received(client, 3);
    const before = writes();
    writeTogether([conn(server)], () => {
      server.emit('play_update', { i: 1 });
      server.emit('game_update', { i: 2 });
      server.emit('chat_message', { i: 3 });
    });
    // handed to the kernel already: nothing waits for a later turn of the event loop
    expect(writes() - before).toBe(1);
    expect(await got).toEqual(['play_update:1', 'game_update:2', 'chat_message:3']);
    expect(writes() - before).toBe(1);
  });

  it('without it every packet is a write of its own', async () => {
    const { client, server, writes } = await connect();
    const got = received(client, 3);
    const before = writes();
    server.emit('play_update', { i: 1 });
    server.emit('game_update', { i: 2 });
    server.emit('chat_message', { i: 3 });
    expect(await got).toHaveLength(3);
    expect(writes() - before).toBe(3);
  });

  it('a busy client (its transport still writing) gets every packet in order', async () => {
    const { client, server } = await connect();
    const n = 300;
    const got = received(client, n);
    for (let round = 0; round < n / 3; round++) {
      writeTogether([conn(server)], () => {
        // the first packet of a round is large: the socket buffer fills and later rounds find the transport busy
        for (let k = 0; k < 3; k++) server.emit('e', { i: round * 3 + k, pad: 'x'.repeat(k === 0 ? 60_000 : 10) });
      });
      if (round % 10 === 0) await new Promise((r) => setImmediate(r));
    }
    expect(await got).toEqual(Array.from({ length: n }, (_x, i) => `e:${i}`));
  });

  it('a callback that throws still uncorks: the packets sent before the error go out', async () => {
    const { client, server, writes } = await connect();
    const got = received(client, 2);
    const before = writes();
    expect(() =>
      writeTogether([conn(server)], () => {
        server.emit('a', { i: 1 });
        server.emit('b', { i: 2 });
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(await got).toEqual(['a:1', 'b:2']);
    expect(writes() - before).toBe(1);
  });

  it('RealtimeService.toUsersTogether corks the sockets in the users’ rooms (and only those)', async () => {
    const rt = new RealtimeService();
    rt.attachServer(ioServer as unknown as AppServer);
    const a = await connect();
    const b = await connect();
    await a.server.join(userRoom('u1'));
    await b.server.join(userRoom('u2'));
    const gotA = received(a.client, 2);
    const gotB = received(b.client, 2);
    const [beforeA, beforeB] = [a.writes(), b.writes()];
    const emit = (u: string, event: string, payload: unknown) =>
      (rt.emitToUser as (u: string, e: string, p: unknown) => void).call(rt, u, event, payload);
    rt.toUsersTogether(['u1'], () => {
      for (const u of ['u1', 'u2']) {
        emit(u, 'game_update', { i: 1 });
        emit(u, 'chat_message', { i: 2 });
      }
    });
    expect(await gotA).toEqual(['game_update:1', 'chat_message:2']);
    expect(await gotB).toEqual(['game_update:1', 'chat_message:2']);
    expect(a.writes() - beforeA).toBe(1);
    expect(b.writes() - beforeB).toBe(2);
  });
});
