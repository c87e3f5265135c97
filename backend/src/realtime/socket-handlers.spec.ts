/**
 * bindMessageHandlers (the app's socket adapter): the behaviour of Nest's IoAdapter.bindMessageHandlers — acks,
 * `{event, data}` responses, Observable results, the disconnect cut-off — with one plain listener per handler and
 * no per-socket RxJS pipeline (issue #10: ~100 KB of heap per socket before).
 */
import { EventEmitter } from 'node:events';
import { createServer, Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { from, mergeAll, Observable, of } from 'rxjs';
import { Server, Socket as ServerSocket } from 'socket.io';
import { io, Socket as ClientSocket } from 'socket.io-client';
import { bindMessageHandlers, mapPayload, MessageHandler } from './socket-handlers';

/** Nest's transform of a handler's result (WebSocketsController.subscribeMessages / pickResult). */
const nestTransform = (result: unknown): Observable<unknown> =>
  from(
    (async () => {
      const r = await result;
      return r instanceof Observable ? r : of(r);
    })(),
  ).pipe(mergeAll());

describe('bindMessageHandlers', () => {
  let http: HttpServer;
  let ioServer: Server;
  let url: string;
  const clients: ClientSocket[] = [];
  let onConnect: (s: ServerSocket) => void = () => undefined;
  const errors: string[] = [];

  beforeAll(async () => {
    http = createServer();
    ioServer = new Server(http);
    ioServer.on('connection', (s) => onConnect(s));
    await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    await new Promise((r) => ioServer.close(r));
  });

  async function connect(handlers: MessageHandler[]): Promise<{ client: ClientSocket; server: ServerSocket }> {
    const server = new Promise<ServerSocket>((resolve) => {
      onConnect = (s) => {
        bindMessageHandlers(s, handlers, nestTransform, (event, e) => errors.push(`${event}: ${(e as Error).message}`));
        resolve(s);
      };
    });
    const client = io(url, { transports: ['websocket'], forceNew: true, reconnection: false });
    clients.push(client);
    await new Promise<void>((r) => client.once('connect', () => r()));
    return { client, server: await server };
  }

  const ack = (c: ClientSocket, event: string, ...args: unknown[]) =>
    new Promise<unknown>((resolve) => c.emit(event, ...args, (a: unknown) => resolve(a)));

  it('answers the ack with the (async) result, with the payload as data; one listener per handler', async () => {
    const seen: unknown[] = [];
    const { client, server } = await connect([
      { message: 'echo', callback: async (data) => ({ ok: true, got: data }) },
      {
        message: 'sync',
        callback: (data) => {
          seen.push(data);
          return { n: 1 };
        },
      },
    ]);
    expect(await ack(client, 'echo', { a: 1 })).toEqual({ ok: true, got: { a: 1 } });
    expect(await ack(client, 'sync', 'x')).toEqual({ n: 1 });
    // several arguments arrive as an array (fromEvent), the ack is split off
    expect(await ack(client, 'echo', 1, 2)).toEqual({ ok: true, got: [1, 2] });
    expect(seen).toEqual(['x']);
    expect(server.listenerCount('echo')).toBe(1);
    expect(server.listenerCount('sync')).toBe(1);
  });

  it('emits {event, data} responses, answers each value of an Observable, never acks nil or a manual-ack handler', async () => {
    const manual: unknown[] = [];
    const { client } = await connect([
      { message: 'evt', callback: () => ({ event: 'pong', data: { x: 2 } }) },
      { message: 'nil', callback: async () => undefined },
      { message: 'many', callback: () => of(null, { first: true }) },
      {
        message: 'manual',
        isAckHandledManually: true,
        callback: (data, ackFn) => {
          manual.push(data);
          (ackFn as (r: unknown) => void)({ mine: true });
          return { ignored: true };
        },
      },
    ]);
    const pong = new Promise((r) => client.once('pong', r));
    client.emit('evt', {});
    expect(await pong).toEqual({ x: 2 });
    expect(await ack(client, 'many', {})).toEqual({ first: true });
    expect(await ack(client, 'manual', 7)).toEqual({ mine: true });
    expect(manual).toEqual([7]);
    let answered = false;
    client.emit('nil', {}, () => (answered = true));
    await ack(client, 'many', {}); // a later round trip: the nil handler had its turn
    expect(answered).toBe(false);
  });

  it('logs a failing result and keeps serving the socket', async () => {
    errors.length = 0;
    const { client } = await connect([
      { message: 'boom', callback: () => Promise.reject(new Error('bad')) },
      { message: 'ok', callback: () => ({ fine: true }) },
    ]);
    client.emit('boom', {});
    expect(await ack(client, 'ok', {})).toEqual({ fine: true });
    expect(errors).toEqual(['boom: bad']);
  });

  it('sends nothing to a socket after it disconnected (Nest: takeUntil(disconnect))', async () => {
    // a fake socket: the handler's result arrives after the disconnect
    const socket = Object.assign(new EventEmitter(), { connected: true });
    const emitted: unknown[] = [];
    const realEmit = socket.emit.bind(socket);
    let release!: (v: unknown) => void;
    bindMessageHandlers(
      {
        get connected() {
          return socket.connected;
        },
        on: (e, l) => socket.on(e, l),
        emit: (e, ...a) => {
          emitted.push([e, ...a]);
          return true;
        },
      },
      [
        { message: 'slow', callback: () => new Promise((r) => (release = r)) },
        { message: 'evt', callback: () => ({ event: 'x', data: 1 }) },
      ],
      nestTransform,
      () => undefined,
    );
    const acks: unknown[] = [];
    realEmit('slow', (a: unknown) => acks.push(a));
    socket.connected = false;
    release({ late: true });
    await new Promise((r) => setTimeout(r, 10));
    realEmit('evt', {});
    await new Promise((r) => setTimeout(r, 10));
    expect(acks).toEqual([]);
    expect(emitted).toEqual([]);
  });
});

describe('mapPayload (as Nest IoAdapter.mapPayload)', () => {
  const fn = () => undefined;
  it('splits the ack off the payload', () => {
    expect(mapPayload({ a: 1 })).toEqual({ data: { a: 1 } });
    expect(mapPayload(fn)).toEqual({ data: undefined, ack: fn });
    expect(mapPayload([1, fn])).toEqual({ data: 1, ack: fn });
    expect(mapPayload([1, 2, fn])).toEqual({ data: [1, 2], ack: fn });
    expect(mapPayload([1, 2])).toEqual({ data: [1, 2] });
  });
});
