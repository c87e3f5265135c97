import { Logger, Optional, UseGuards } from '@nestjs/common';
import { MetricsService } from '../metrics/metrics.service';
import {
  ConnectedSocket,
  MessageBody,
  OnGatewayConnection,
  OnGatewayDisconnect,
  OnGatewayInit,
  SubscribeMessage,
  WebSocketGateway,
} from '@nestjs/websockets';
import { WireError, type ChatMessage, type ClientPayload } from '@spades/common';
import type { Socket } from 'socket.io';
import { TokenService } from '../auth/token.service';
import { reportUnexpected } from '../common/error-ref';
import { InvalidPayload, parsePayload } from '../common/payload';
import { SocialService } from '../social/social.service';
import { ChatRejected, LobbyChatService } from './lobby-chat.service';
import { AuthenticateInput, LobbyChatMessageInput } from './lobby.input';
import {
  LOBBY_ROOM,
  RealtimeService,
  userRoom,
  type AppServer,
  type AppSocket,
  type SocketData,
} from '../realtime/realtime.service';
import { socketUserId, WsAuthGuard } from '../realtime/ws-auth';

interface LoginState {
  /** Tail of this socket's serialized logins. */
  chain: Promise<void>;
  /** The login not finished yet, with its token (an identical `authenticate` joins it). */
  inFlight?: { token: unknown; done: Promise<void> };
}

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
  /** Per-socket login serialization (see authenticate). */
  private readonly logins = new WeakMap<Socket, LoginState>();

  constructor(
    private readonly realtime: RealtimeService,
    private readonly tokens: TokenService,
    private readonly social: SocialService,
    private readonly chat: LobbyChatService,
    @Optional() private readonly metrics?: MetricsService,
  ) {}

  afterInit(server: AppServer): void {
    this.realtime.attachServer(server);
    this.metrics?.gauge(
      'spades_sockets',
      'Connected socket.io clients on this server',
      () => server.engine?.clientsCount ?? 0,
    );
    this.metrics?.gauge('spades_online_users', 'Signed-in users with at least one socket on this server', () =>
      this.realtime.localOnlineCount(),
    );
    this.metrics?.gauge(
      'spades_presence_online_users',
      'Signed-in users online on any node (= spades_online_users on a single node)',
      () => this.realtime.onlineUserIds().length,
    );
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
  async onAuthenticate(
    @ConnectedSocket() socket: AppSocket,
    @MessageBody() payload: ClientPayload<'authenticate'>,
  ): Promise<void> {
    let token: string;
    try {
      token = parsePayload(AuthenticateInput, payload).token;
    } catch (e) {
      // a malformed payload is answered like a refused login, with the DTO's message; nothing else runs
      const message = e instanceof InvalidPayload ? e.message : reportUnexpected(this.logger, 'authenticate', e);
      socket.emit('authenticated', { success: false, message });
      return;
    }
    await this.authenticate(socket, token);
  }

  @UseGuards(WsAuthGuard)
  @SubscribeMessage('lobby_chat_message')
  async onLobbyChat(
    @ConnectedSocket() socket: AppSocket,
    @MessageBody() payload: ClientPayload<'lobby_chat_message'>,
  ): Promise<void> {
    const userId = socketUserId(socket)!;
    const previous = this.chatQueues.get(userId) ?? Promise.resolve();
    const next = previous.then(() => this.postChat(socket, userId, payload));
    this.chatQueues.set(userId, next);
    await next;
    if (this.chatQueues.get(userId) === next) this.chatQueues.delete(userId);
  }

  private async postChat(socket: Socket, userId: string, payload: unknown): Promise<void> {
    try {
      const input = parsePayload(LobbyChatMessageInput, payload);
      const message = await this.chat.post(userId, input.message);
      const blockers = await this.social.blockersOf(userId);
      this.realtime.emitToLobby('lobby_chat_message', [message], blockers);
    } catch (e) {
      socket.emit('error', {
        message:
          e instanceof ChatRejected || e instanceof InvalidPayload
            ? e.message
            : reportUnexpected(this.logger, 'lobby chat', e),
        event: 'lobby_chat_message',
        ...(e instanceof InvalidPayload ? { code: WireError.INVALID_PAYLOAD } : {}),
      });
    }
  }

  handleDisconnect(socket: Socket): void {
    const userId = socketUserId(socket);
    if (userId) this.realtime.markDisconnected(userId, socket.id);
  }

  /**
   * Logins of one socket are serialized, and the decision is recorded synchronously (before any await): the
   * client sends its token in the handshake AND emits `authenticate` on connect, and both must not run a full
   * login (two `authenticated`, two history replays). An `authenticate` with the same token as a login still in
   * flight joins it (one answer); one arriving after a login of the same user is answered
   * `authenticated {success:true}` without replaying the history.
   */
  private authenticate(socket: Socket, token: unknown): Promise<void> {
    let state = this.logins.get(socket);
    if (!state) this.logins.set(socket, (state = { chain: Promise.resolve() }));
    if (state.inFlight && state.inFlight.token === token) return state.inFlight.done;
    const done = state.chain.then(() =>
      this.login(socket, token).catch((e: unknown) => {
        const message = reportUnexpected(this.logger, 'socket login', e);
        if (socket.connected)
          socket.emit('authenticated', { success: false, message: `Could not sign in: ${message}` });
      }),
    );
    const current = { token, done };
    state.chain = done;
    state.inFlight = current;
    void done.then(() => {
      if (state.inFlight === current) state.inFlight = undefined;
    });
    return done;
  }

  private async login(socket: Socket, token: unknown): Promise<void> {
    const user = await this.tokens.authenticate(token);
    if (!socket.connected) return;
    if (!user) {
      socket.emit('authenticated', { success: false, message: 'Invalid or expired session' });
      return;
    }
    const data = socket.data as SocketData;
    if (data.userId === user.id) {
      // already signed in as this user (e.g. a later `authenticate`): answer, no second history replay
      this.realtime.expireWithToken(socket, token);
      socket.emit('authenticated', { success: true, userId: user.id });
      return;
    }
    // Join the rooms BEFORE reading the history, so chat posted meanwhile (on this server or, with the Redis
    // adapter, on another one) is delivered live instead of lost; the replay skips what was delivered live.
    // The client also ignores a message id it already has.
    const live = new Set<string>();
    const trackLive = (event: string, m?: { id?: unknown }) => {
      if (event === 'lobby_chat_message' && typeof m?.id === 'string') live.add(m.id);
    };
    socket.onAnyOutgoing(trackLive);
    socket.join([userRoom(user.id), LOBBY_ROOM]);
    let history: ChatMessage[];
    try {
      history = await this.chat.history(user.id);
    } catch (e) {
      socket.leave(userRoom(user.id));
      if (!data.userId) socket.leave(LOBBY_ROOM);
      throw e;
    } finally {
      socket.offAnyOutgoing(trackLive);
    }
    if (!socket.connected) return;
    if (data.userId && data.userId !== user.id) {
      socket.leave(userRoom(data.userId));
      this.realtime.markDisconnected(data.userId, socket.id);
    }
    data.userId = user.id;
    data.username = user.username;
    this.realtime.expireWithToken(socket, token); // issue #24: the socket ends with its token
    socket.emit('authenticated', { success: true, userId: user.id });
    this.realtime.markAuthenticated(user.id, socket.id);
    for (const m of history) if (!live.has(m.id)) socket.emit('lobby_chat_message', m);
  }
}
