import { Logger, UseGuards } from '@nestjs/common';
import {
  ConnectedSocket,
  MessageBody,
  OnGatewayConnection,
  OnGatewayDisconnect,
  OnGatewayInit,
  SubscribeMessage,
  WebSocketGateway,
} from '@nestjs/websockets';
import type { Socket } from 'socket.io';
import { TokenService } from '../auth/token.service';
import { SocialService } from '../social/social.service';
import { UsersService } from '../users/users.service';
import { ChatRejected, LobbyChatService } from './lobby-chat.service';
import { AppServer, LOBBY_ROOM, RealtimeService, SocketData, userRoom } from './realtime.service';
import { socketUserId, WsAuthGuard } from './ws-auth';

/** Sockets that have not authenticated within this time are disconnected. */
export const AUTH_TIMEOUT_MS = 30_000;

/**
 * The ONE thin gateway of the platform (other gateways, e.g. games, share the same socket.io server):
 * authentication (handshake `auth.token` or the `authenticate` event → `authenticated {success}`),
 * presence (`online_users`), lobby chat. Until authenticated a socket may only authenticate: any other
 * event is answered with `error { message: 'Not authenticated' }` and ignored.
 */
@WebSocketGateway()
export class LobbyGateway implements OnGatewayInit, OnGatewayConnection, OnGatewayDisconnect {
  private readonly logger = new Logger('LobbyGateway');
  /** Per-user queue: one user's messages are stored and broadcast in the order they were sent. */
  private readonly chatQueues = new Map<string, Promise<void>>();

  constructor(
    private readonly realtime: RealtimeService,
    private readonly tokens: TokenService,
    private readonly users: UsersService,
    private readonly social: SocialService,
    private readonly chat: LobbyChatService,
  ) {}

  afterInit(server: AppServer): void {
    this.realtime.attachServer(server);
  }

  async handleConnection(socket: Socket): Promise<void> {
    socket.onAny((event: string) => {
      if (event !== 'authenticate' && !socketUserId(socket)) {
        socket.emit('error', { message: 'Not authenticated', event });
      }
    });
    const timer = setTimeout(() => {
      if (!socketUserId(socket)) socket.disconnect(true);
    }, AUTH_TIMEOUT_MS);
    socket.once('disconnect', () => clearTimeout(timer));
    const token = (socket.handshake.auth as { token?: unknown } | undefined)?.token;
    if (token !== undefined) await this.authenticate(socket, token);
  }

  @SubscribeMessage('authenticate')
  async onAuthenticate(@ConnectedSocket() socket: Socket, @MessageBody() payload: unknown): Promise<void> {
    const token = payload && typeof payload === 'object' ? (payload as { token?: unknown }).token : payload;
    await this.authenticate(socket, token);
  }

  @UseGuards(WsAuthGuard)
  @SubscribeMessage('lobby_chat_message')
  async onLobbyChat(@ConnectedSocket() socket: Socket, @MessageBody() payload: unknown): Promise<void> {
    const userId = socketUserId(socket)!;
    const previous = this.chatQueues.get(userId) ?? Promise.resolve();
    const next = previous.then(() => this.postChat(socket, userId, payload));
    this.chatQueues.set(userId, next);
    await next;
    if (this.chatQueues.get(userId) === next) this.chatQueues.delete(userId);
  }

  private async postChat(socket: Socket, userId: string, payload: unknown): Promise<void> {
    try {
      const message = await this.chat.post(userId, payload);
      const blockers = await this.social.blockersOf(userId);
      this.realtime.emitToLobby('lobby_chat_message', [message], blockers);
    } catch (e) {
      if (!(e instanceof ChatRejected)) this.logger.error(`lobby chat failed: ${(e as Error).message}`);
      socket.emit('error', {
        message: e instanceof ChatRejected ? e.message : 'Could not send the message',
        event: 'lobby_chat_message',
      });
    }
  }

  handleDisconnect(socket: Socket): void {
    const userId = socketUserId(socket);
    if (userId && this.realtime.markDisconnected(userId, socket.id)) this.realtime.broadcastOnlineUsers();
  }

  private async authenticate(socket: Socket, token: unknown): Promise<void> {
    const userId = this.tokens.verify(token);
    const user = userId ? await this.users.findById(userId) : null;
    if (!socket.connected) return;
    if (!user) {
      socket.emit('authenticated', { success: false, message: 'Invalid or expired session' });
      return;
    }
    const data = socket.data as SocketData;
    const first = data.userId !== user.id;
    // history snapshot BEFORE joining the lobby room, then everything below runs in one tick: the client gets
    // `authenticated`, the history (oldest first), then live messages, without duplicates.
    const history = first ? await this.chat.history(await this.social.blockedBy(user.id)) : [];
    if (!socket.connected) return;
    if (data.userId && data.userId !== user.id) {
      socket.leave(userRoom(data.userId));
      if (this.realtime.markDisconnected(data.userId, socket.id)) this.realtime.broadcastOnlineUsers();
    }
    data.userId = user.id;
    data.username = user.username;
    socket.join([userRoom(user.id), LOBBY_ROOM]);
    socket.emit('authenticated', { success: true, userId: user.id });
    if (!first) return;
    const changed = this.realtime.markAuthenticated(user.id, socket.id);
    if (changed) this.realtime.broadcastOnlineUsers();
    else socket.emit('online_users', this.realtime.onlineUserIds());
    for (const m of history) socket.emit('lobby_chat_message', m);
  }
}
