import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Socket } from 'socket.io';
import type { SocketData } from './realtime.service';

/** The authenticated user id of a socket, or undefined. Set only by the gateway after verifying the JWT. */
export function socketUserId(socket: Socket): string | undefined {
  return (socket.data as SocketData | undefined)?.userId;
}

/**
 * Guard for @SubscribeMessage handlers in ANY gateway (games too): lets the event through only on an
 * authenticated socket, otherwise answers `error { message: 'Not authenticated' }` and drops the event.
 * Use `socketUserId(client)` inside the handler; never trust a userId sent in a payload.
 */
@Injectable()
export class WsAuthGuard implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const client = ctx.switchToWs().getClient<Socket>();
    if (socketUserId(client)) return true;
    const event = ctx.switchToWs().getPattern?.();
    client.emit('error', { message: 'Not authenticated', event: typeof event === 'string' ? event : undefined });
    return false;
  }
}
