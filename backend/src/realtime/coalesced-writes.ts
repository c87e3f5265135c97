/**
 * One socket write per connection per turn of the event loop (issue #10).
 *
 * engine.io sends a packet as soon as its transport is writable and keeps the next ones until that write's
 * callback; each packet then becomes a WebSocket frame of its own, i.e. a system call each. A table command sends
 * its recipient a few packets at once (its notes, `game_update`, the ack): two or three writes, and on a busy
 * machine each write to a local peer can wake it and cost the event loop its core.
 *
 * Here a connection's flush waits for the end of the current turn (setImmediate), and the frames of one flush go
 * out corked: one write with every packet of the turn, in order. Nothing else changes: the packets, their order and
 * their callbacks are engine.io's own.
 */
/** engine.io's server, as far as used here (socket.io's `server.engine`). */
interface EngineServer {
  on(event: 'connection', listener: (socket: EngineSocket) => void): unknown;
}
type EngineSocket = object;

/** The parts of engine.io's socket this relies on (not in its public types). */
interface FlushableSocket {
  flush(): void;
  transport?: { socket?: { _socket?: { cork?: () => void; uncork?: () => void } } };
}

const PATCHED = Symbol('spades.coalescedWrites');

/** Coalesces one connection's writes (idempotent). */
export function coalesceSocketWrites(socket: EngineSocket): void {
  const s = socket as unknown as FlushableSocket & { [PATCHED]?: true };
  if (s[PATCHED]) return;
  s[PATCHED] = true;
  const flushNow = s.flush.bind(s);
  let scheduled = false;
  const flushCorked = () => {
    scheduled = false;
    // the WebSocket transport's TCP socket (the polling transport has none: it answers one HTTP request per flush)
    const tcp = s.transport?.socket?._socket;
    const cork = typeof tcp?.cork === 'function' && typeof tcp.uncork === 'function';
    if (cork) tcp!.cork!();
    try {
      flushNow();
    } finally {
      if (cork) tcp!.uncork!();
    }
  };
  s.flush = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(flushCorked);
  };
}

/** Coalesces the writes of every connection the engine.io server accepts from now on. */
export function coalesceWrites(engine: EngineServer): void {
  engine.on('connection', (socket: EngineSocket) => coalesceSocketWrites(socket));
}
