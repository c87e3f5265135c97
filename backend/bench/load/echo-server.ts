/**
 * The baseline of `bench:load`: a bare socket.io server (no Nest, no database, no game) in its own process.
 * A socket joins the room named by its handshake `auth.room` (its table); every `act` is answered with an ack and
 * four emits to that room (the size of the real server's incremental events), so the harness measures what
 * socket.io alone costs at the same rate and socket count.
 * Prints one line `{"port":N}` once it listens. Stops on SIGTERM or when its parent goes away.
 */
import { createServer } from 'node:http';
import { Server } from 'socket.io';

const http = createServer();
const io = new Server(http, { transports: ['websocket'], serveClient: false });

io.on('connection', (socket) => {
  const room = String((socket.handshake.auth as { room?: unknown })?.room ?? socket.id);
  void socket.join(room);
  socket.on('act', (payload: { gameId?: string; n?: number }, ack?: (r: unknown) => void) => {
    const gameId = payload?.gameId ?? room;
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
    to.emit('echo', { gameId, n: payload?.n ?? 0 });
  });
});

http.listen(0, '127.0.0.1', () => {
  const addr = http.address();
  process.stdout.write(`${JSON.stringify({ port: typeof addr === 'object' && addr ? addr.port : 0 })}\n`);
});

const stop = () => {
  io.close();
  http.close();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);
