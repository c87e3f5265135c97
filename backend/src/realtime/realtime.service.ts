import { Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { ServerToClientEvents } from '@spades/common';
import { EventEmitter } from 'node:events';
import type { RemoteSocket, Server, Socket } from 'socket.io';

/** Room every authenticated socket joins (lobby broadcasts). */
export const LOBBY_ROOM = 'lobby';
/**
 * Sockets that show the lobby (`watch_lobby`): table-list deltas and presence changes go only to them, so a
 * player seated at a table gets no lobby-list traffic it does not show.
 */
export const LOBBY_VIEW_ROOM = 'lobby:view';
/** Lobby watchers that asked for the full `games_updated` list (coalesced, at most once a second). */
export const LOBBY_LIST_FULL_ROOM = 'lobby:view:full';
/** Presence changes are coalesced over this window into one `presence_changed`. */
export const PRESENCE_FLUSH_MS = 250;

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
export class RealtimeService implements OnModuleDestroy {
  private readonly logger = new Logger('Realtime');
  private server: AppServer | undefined;
  private readonly socketsByUser = new Map<string, Set<string>>();
  /** 'online' / 'offline' presence events (e.g. the games module starts seat-replacement timers on offline). */
  readonly events = new EventEmitter<PresenceEvents>();
  /** Presence changes not yet sent to the lobby watchers (userId → online). */
  private readonly presence = new Map<string, boolean>();
  private presenceTimer: NodeJS.Timeout | null = null;

  /** First of the shutdown hooks (before the socket.io adapter and its Redis clients are closed). */
  onModuleDestroy(): void {
    if (this.presenceTimer) clearTimeout(this.presenceTimer);
    this.presenceTimer = null;
    this.server = undefined;
  }

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

  /** Sockets of THIS server in a room (socket.io's local adapter state; other nodes are not counted). */
  localRoomSize(room: string): number {
    return this.server?.sockets.adapter.rooms.get(room)?.size ?? 0;
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
    if (wasOffline) {
      this.presence.set(userId, true);
      this.events.emit('online', userId);
    }
    return wasOffline;
  }

  markDisconnected(userId: string, socketId: string): boolean {
    const set = this.socketsByUser.get(userId);
    if (!set) return false;
    set.delete(socketId);
    if (set.size) return false;
    this.socketsByUser.delete(userId);
    this.presence.set(userId, false);
    this.events.emit('offline', userId);
    return true;
  }

  /**
   * Presence changed: the lobby watchers get the changes coalesced into one `presence_changed {online, offline}`
   * per PRESENCE_FLUSH_MS (a reconnect storm costs a few small messages, not one full list per login).
   */
  presenceChanged(): void {
    // what changed is recorded by markAuthenticated / markDisconnected
    if (!this.server || this.presenceTimer) return;
    this.presenceTimer = setTimeout(() => this.flushPresence(), PRESENCE_FLUSH_MS);
    this.presenceTimer.unref?.();
  }

  private flushPresence(): void {
    this.presenceTimer = null;
    if (!this.server || !this.presence.size) return;
    const online: string[] = [];
    const offline: string[] = [];
    for (const [id, on] of this.presence) (on ? online : offline).push(id);
    this.presence.clear();
    try {
      this.server.to(LOBBY_VIEW_ROOM).emit('presence_changed', { online, offline });
    } catch (e) {
      this.logger.warn(`presence broadcast failed: ${(e as Error).message}`);
    }
    this.logger.debug(`online users: ${this.socketsByUser.size}`);
  }
}
