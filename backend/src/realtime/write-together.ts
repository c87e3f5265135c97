import type { Socket as NetSocket } from 'node:net';

/**
 * One TCP write per connection for what one piece of synchronous code sends it (issue #10).
 *
 * The spec sends a command's notes and its `game_update` as separate events (`play_update` + `game_update` for a
 * card), and engine.io writes each packet on its own: the WebSocket transport has one batch in flight, so the
 * second packet waits in the connection's buffer until the first write's callback (the next tick) and then goes out
 * in a second `writev`. Each write to a local peer costs a system call and a wakeup, a quarter of the event loop's
 * time at 2,000 tables. `writeTogether` corks the connections' TCP sockets, runs `send` (synchronous emits), hands
 * the packets engine.io buffered behind the first one to the transport, and uncorks at once: nothing is deferred
 * past the caller's own code (corking until the end of the event-loop turn was measured and made answers later).
 *
 * Only WebSocket transports whose socket is open and writable, and whose transport was writable before `send`
 * (a slow client's pending write is left to engine.io's own flow control), are corked.
 */
export function writeTogether(conns: Iterable<EngineConnection>, send: () => void): void {
  const corked: { raw: NetSocket; conn: EngineConnection; transport: EngineTransport }[] = [];
  for (const conn of conns) {
    const transport = conn.transport;
    const raw = transport?.name === 'websocket' && transport.writable ? transport.socket?._socket : null;
    if (!raw || raw.destroyed || !raw.writable || raw.writableCorked) continue;
    raw.cork();
    corked.push({ raw, conn, transport });
  }
  try {
    send();
  } finally {
    for (const { raw, conn, transport } of corked) {
      try {
        // the transport is not writable only because of the write this cork holds back: send what waits behind it
        if (conn.transport === transport && !transport.writable && conn.writeBuffer.length > 0) {
          transport.writable = true;
          conn.flush();
        }
      } catch {
        // a transport failing here is closed by engine.io's own error handling; the others still go out
      } finally {
        raw.uncork();
      }
    }
  }
}

/** The parts of an engine.io (6) socket and its WebSocket transport this relies on. */
export interface EngineConnection {
  transport: EngineTransport;
  writeBuffer: unknown[];
  flush(): void;
}

export interface EngineTransport {
  name: string;
  writable: boolean;
  /** The `ws` WebSocket of a WebSocket transport; `_socket` is its TCP socket. */
  socket?: { _socket?: NetSocket | null };
}
