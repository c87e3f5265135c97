/**
 * Binds a gateway's `@SubscribeMessage` handlers to one socket with plain listeners (issue #10: memory per socket).
 *
 * Nest's IoAdapter builds an RxJS pipeline per handler per socket (`fromEvent → mergeMap → takeUntil(disconnect$)`
 * and its subscription): with the ~22 handlers of the lobby and games gateways that is ~100 KB of heap that every
 * connected socket keeps for its whole life (4,000 sockets: ~400 MB). Here each handler is one listener; the
 * per-message work (the handler's result through Nest's `transform`) is the same as Nest's and lives only while a
 * message is handled. Behaviour kept from IoAdapter.bindMessageHandlers:
 * - the payload as `fromEvent` gives it (one argument, or the array of several) split into data and ack by
 *   `mapPayload`;
 * - every non-nil value the result emits: `{ event, data }` is emitted to the socket, anything else answers the
 *   ack (unless the handler acknowledges by itself);
 * - nothing is sent to a socket after it disconnected (Nest's `takeUntil(disconnect$)`).
 */
import type { Observable } from 'rxjs';

export interface MessageHandler {
  message: unknown;
  callback: (...args: unknown[]) => unknown;
  isAckHandledManually?: boolean;
}

/** The parts of a socket.io socket used here. */
export interface HandlerSocket {
  readonly connected: boolean;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  emit(event: string, ...args: unknown[]): unknown;
}

type Ack = (response: unknown) => void;

/** Nest's IoAdapter.mapPayload: the last argument is the ack when it is a function. */
export function mapPayload(payload: unknown): { data: unknown; ack?: Ack } {
  if (!Array.isArray(payload)) {
    if (typeof payload === 'function') return { data: undefined, ack: payload as Ack };
    return { data: payload };
  }
  const last: unknown = payload[payload.length - 1];
  if (typeof last === 'function') {
    const size = payload.length - 1;
    return { data: size === 1 ? payload[0] : payload.slice(0, size), ack: last as Ack };
  }
  return { data: payload };
}

export function bindMessageHandlers(
  socket: HandlerSocket,
  handlers: readonly MessageHandler[],
  transform: (data: unknown) => Observable<unknown>,
  onError: (message: string, e: unknown) => void,
): void {
  for (const { message, callback, isAckHandledManually } of handlers) {
    const event = String(message);
    socket.on(event, (...args: unknown[]) => {
      if (!socket.connected) return;
      const { data, ack } = mapPayload(args.length > 1 ? args : args[0]);
      transform(callback(data, ack)).subscribe({
        next: (response) => {
          if (response === null || response === undefined || !socket.connected) return;
          const r = response as { event?: unknown; data?: unknown };
          if (r.event) {
            socket.emit(String(r.event), r.data);
            return;
          }
          if (!isAckHandledManually && typeof ack === 'function') ack(response);
        },
        error: (e: unknown) => onError(event, e),
      });
    });
  }
}
