/**
 * The baseline of `bench:load`: a bare socket.io server (no Nest, no database, no game) in its own process.
 * A socket joins the room named by its handshake `auth.room` (its table); every `act` is answered with an ack and
 * four emits to that room (the size of the real server's incremental events), so the harness measures what
 * socket.io alone costs at the same rate and socket count.
 *
 * Durable (`ECHO_DB=postgres` with ECHO_DATABASE_URL + ECHO_SCHEMA, or `ECHO_DB=pglite` with ECHO_DATA_DIR): the
 * same, but every `act` first stores one row and is answered only once that row is committed, the way the real
 * server stores a table's event before it answers (durable-echo.ts). This is the floor of "ack after a durable
 * write" on the machine, measured like the bare echo.
 * Prints one line `{"port":N}` once it listens. Stops on SIGTERM or when its parent goes away.
 */
import { createServer } from 'node:http';
import { Server } from 'socket.io';
import { DurableLog, openDurableLog } from './durable-echo';

const http = createServer();
const io = new Server(http, { transports: ['websocket'], serveClient: false });
let durable: DurableLog | null = null;

io.on('connection', (socket) => {
  const room = String((socket.handshake.auth as { room?: unknown })?.room ?? socket.id);
  void socket.join(room);
  socket.on('act', (payload: { gameId?: string; n?: number }, ack?: (r: unknown) => void) => {
    const gameId = payload?.gameId ?? room;
    const n = payload?.n ?? 0;
    if (!durable) return answer(room, gameId, n, ack);
    // like the real server: the row is committed before the ack and the updates go out
    durable.append(room, n).then(
      () => answer(room, gameId, n, ack),
      (e: Error) => typeof ack === 'function' && ack({ ok: false, message: e.message }),
    );
  });
});

function answer(room: string, gameId: string, n: number, ack?: (r: unknown) => void): void {
  if (typeof ack === 'function') ack({ ok: true });
  const to = io.to(room);
  to.emit('play_update', {
    gameId,
    currentTrick: [{ playerIndex: 0, suit: 'H', rank: 12 }],
    currentPlayerIndex: 1,
    currentPlayer: 'user-0000-0000',
    trickNumber: 3,
    spadesBroken: false,
  });
  to.emit('bidding_update', {
    gameId,
    currentBidderIndex: 1,
    currentPlayer: 'user-0000-0000',
    bids: [3, null, null, null],
    blind: [false, false, false, false],
  });
  to.emit('trick_complete', {
    gameId,
    trick: { winnerIndex: 1, leaderIndex: 0, cards: [] },
    trickNumber: 3,
    tricks: [1, 1, 0, 1],
  });
  to.emit('echo', { gameId, n });
}

void (async () => {
  durable = await openDurableLog(process.env);
  http.listen(0, '127.0.0.1', () => {
    const addr = http.address();
    process.stdout.write(`${JSON.stringify({ port: typeof addr === 'object' && addr ? addr.port : 0 })}\n`);
  });
})().catch((e: unknown) => {
  console.error(`echo server: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});

const stop = () => {
  io.close();
  http.close();
  void (durable?.close() ?? Promise.resolve()).finally(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);
