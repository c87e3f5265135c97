import { Injectable, Logger } from '@nestjs/common';
import type { ServerToClientEvents } from '@spades/common';
import { EventEmitter } from 'node:events';
import type { RemoteSocket, Server, Socket } from 'socket.io';

/** Room every authenticated socket joins (lobby broadcasts). */
export const LOBBY_ROOM = 'lobby';
/** Room of all sockets of one user. */
export const userRoom = (userId: string) => `user:${userId}`;

/** socket.data of an authenticated socket. */
export interface SocketData {
  userId?: string;
  username?: string;
}

export type AppServer = Server<Record<string, never>, ServerToClientEvents, Record<string, never>, SocketData>;
export type AppSocket = Socket<Record<string, never>, ServerToClientEvents, Record<string, never>, SocketData>;

export interface PresenceEvents {
  /** First socket of a user authenticated (user came online). */
  online: [userId: string];
  /** Last socket of a user disconnected (user went offline). */
  offline: [userId: string];
}

/**
 * Injectable façade over the ONE socket.io server, for every module (social, games…): personalised emits
 * without touching gateway internals, plus presence (a user with several tabs/apps counts once).
 */
@Injectable()
export class RealtimeService {
  private readonly logger = new Logger('Realtime');
  private server: AppServer | undefined;
  private readonly socketsByUser = new Map<string, Set<string>>();
  /** 'online' / 'offline' presence events (e.g. the games module starts seat-replacement timers on offline). */
  readonly events = new EventEmitter<PresenceEvents>();

  /** Called by the gateway once the server exists. */
  attachServer(server: AppServer): void {
    this.server = server;
  }

  get io(): AppServer {
    if (!this.server) throw new Error('socket.io server not initialised yet');
    return this.server;
  }

  emitToUser<E extends keyof ServerToClientEvents & string>(
    userId: string,
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void {
    if (!this.server) return;
    this.server.to(userRoom(userId)).emit(event, ...args);
  }

  emitToRoom<E extends keyof ServerToClientEvents & string>(
    room: string,
    event: E,
    ...args: Parameters<ServerToClientEvents[E]>
  ): void {
    if (!this.server) return;
    this.server.to(room).emit(event, ...args);
  }

  /** To every authenticated socket (lobby), optionally except some users. */
  emitToLobby<E extends keyof ServerToClientEvents & string>(
    event: E,
    args: Parameters<ServerToClientEvents[E]>,
    exceptUserIds: string[] = [],
  ): void {
    if (!this.server) return;
    let op = this.server.to(LOBBY_ROOM);
    if (exceptUserIds.length) op = op.except(exceptUserIds.map(userRoom));
    op.emit(event, ...args);
  }

  /** Live sockets of a user (join/leave rooms with them, e.g. `for (s of await socketsOfUser(id)) s.join(room)`). */
  async socketsOfUser(userId: string): Promise<RemoteSocket<ServerToClientEvents, SocketData>[]> {
    if (!this.server) return [];
    return this.server.in(userRoom(userId)).fetchSockets();
  }

  /** Puts every socket of the user into / out of a room (e.g. `game:<id>`). */
  joinUserToRoom(userId: string, room: string): void {
    this.server?.in(userRoom(userId)).socketsJoin(room);
  }

  removeUserFromRoom(userId: string, room: string): void {
    this.server?.in(userRoom(userId)).socketsLeave(room);
  }

  isOnline(userId: string): boolean {
    return this.socketsByUser.has(userId);
  }

  onlineUserIds(): string[] {
    return [...this.socketsByUser.keys()];
  }

  /** Gateway bookkeeping; returns true when the online set changed. */
  markAuthenticated(userId: string, socketId: string): boolean {
    let set = this.socketsByUser.get(userId);
    const wasOffline = !set;
    if (!set) this.socketsByUser.set(userId, (set = new Set()));
    set.add(socketId);
    if (wasOffline) this.events.emit('online', userId);
    return wasOffline;
  }

  markDisconnected(userId: string, socketId: string): boolean {
    const set = this.socketsByUser.get(userId);
    if (!set) return false;
    set.delete(socketId);
    if (set.size) return false;
    this.socketsByUser.delete(userId);
    this.events.emit('offline', userId);
    return true;
  }

  broadcastOnlineUsers(): void {
    if (!this.server) return;
    this.server.to(LOBBY_ROOM).emit('online_users', this.onlineUserIds());
    this.logger.debug(`online users: ${this.socketsByUser.size}`);
  }
}
