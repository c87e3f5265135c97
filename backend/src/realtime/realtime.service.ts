import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
  Optional,
} from '@nestjs/common';
import { SESSION_EXPIRED_MESSAGE, type ClientToServerEvents, type ServerToClientEvents } from '@spades/common';
import { EventEmitter } from 'node:events';
import type { RemoteSocket, Server, Socket } from 'socket.io';
import { AppConfig } from '../config/config.schema';
import { ClusterRedis } from './cluster-redis';
import type { PresenceDiff } from './presence.mirror';
import { ClusterPresenceStore } from './presence.store';
import { EngineConnection, writeTogether } from './write-together';

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

/** setTimeout's longest delay (~24.8 days); a later expiry is re-armed in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The `exp` (ms since the epoch) of a JWT the caller has already verified, or null when it has none. Decoding only:
 * never call it on an unverified token to decide anything else.
 */
export function verifiedTokenExpiry(token: unknown): number | null {
  if (typeof token !== 'string') return null;
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as {
      exp?: unknown;
    };
    return typeof payload.exp === 'number' && Number.isFinite(payload.exp) ? payload.exp * 1000 : null;
  } catch {
    return null;
  }
}

/** Room of all sockets of one user. */
export const userRoom = (userId: string) => `user:${userId}`;

/** socket.data of an authenticated socket. */
export interface SocketData {
  userId?: string;
  username?: string;
}

/** The socket.io server, typed in both directions with common's event maps (no server-to-server events). */
export type AppServer = Server<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;
export type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, Record<string, never>, SocketData>;

export interface PresenceEvents {
  /** The user's first socket authenticated (in cluster mode: their first socket on any node). */
  online: [userId: string];
  /** The user's last socket disconnected (in cluster mode: on every node, or the node holding it died). */
  offline: [userId: string];
}

/**
 * Injectable façade over the ONE socket.io server, for every module (social, games…): personalised emits
 * without touching gateway internals, plus presence (a user with several tabs/apps counts once).
 *
 * Presence on a single node is this process's sockets (in memory, no Redis). In cluster mode (DATABASE_URL +
 * REDIS_URL) it is cluster-wide: this node's users go to Redis through ClusterPresenceStore, every node mirrors
 * the cluster's online set, `isOnline` / `onlineUserIds` read that mirror (plus this node's own sockets, which
 * are online before the round trip), the 'online' / 'offline' events fire on every node once per cluster-wide
 * change, and each node sends `presence_changed` to its own lobby watchers (so every watcher gets each change once).
 */
@Injectable()
export class RealtimeService implements OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown {
  private readonly logger = new Logger('Realtime');
  private server: AppServer | undefined;
  private readonly socketsByUser = new Map<string, Set<string>>();
  /** 'online' / 'offline' presence events (e.g. the games module starts seat-replacement timers on offline). */
  readonly events = new EventEmitter<PresenceEvents>();
  /** Presence changes not yet sent to the lobby watchers (userId → online). */
  private readonly presence = new Map<string, boolean>();
  private presenceTimer: NodeJS.Timeout | null = null;
  /** Cluster mode only. */
  readonly cluster: ClusterPresenceStore | null = null;
  private readonly startWaitMs: number = 0;
  /** Per authenticated socket: the timer that ends it when its token expires (expireWithToken). */
  private readonly expiries = new WeakMap<Socket, NodeJS.Timeout>();

  constructor(@Optional() config?: AppConfig, @Optional() redis?: ClusterRedis) {
    if (!config?.cluster.enabled || !redis?.enabled) return;
    this.startWaitMs = config.cluster.leaseMs;
    this.cluster = new ClusterPresenceStore(redis.command, redis.subscriber, {
      prefix: redis.prefix,
      instance: redis.instance,
      leaseMs: config.cluster.leaseMs,
      localUsers: () => this.socketsByUser.keys(),
      onChange: (diff) => this.clusterChanged(diff),
      log: this.logger,
    });
  }

  /**
   * Cluster mode: joins the cluster's presence before the server listens (so the first `online_users` lists every
   * node's users). Waits at most CLUSTER_LEASE_MS for Redis; it goes on in the background after that.
   */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.cluster) return;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      this.cluster.start().then(() => false),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(true), this.startWaitMs))),
    ]);
    clearTimeout(timer);
    if (timedOut)
      this.logger.warn(`cluster presence: Redis has not answered within ${this.startWaitMs} ms; still trying`);
    else this.logger.log(`cluster presence: node ${this.cluster.instance} joined`);
  }

  /** First of the shutdown hooks (before the socket.io adapter and its Redis clients are closed). */
  onModuleDestroy(): void {
    if (this.presenceTimer) clearTimeout(this.presenceTimer);
    this.presenceTimer = null;
    this.server = undefined;
  }

  /**
   * Cluster mode: after every onModuleDestroy (a drain hands its tables over while this node still heartbeats) and
   * before the socket.io server closes its sockets, the node stops heartbeating WITHOUT removing its users: the
   * clients reconnecting to another node within the lease stay online without a flap; the others go offline when
   * the lease runs out, as after a kill. (ClusterRedis closes the connections after that.)
   */
  beforeApplicationShutdown(): void {
    this.cluster?.stop();
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

  /**
   * Runs `send` (synchronous emits) with the connections of these users on THIS server corked: what it sends each
   * connection leaves in one TCP write (write-together.ts).
   */
  toUsersTogether(userIds: Iterable<string>, send: () => void): void {
    const nsp = this.server?.sockets;
    if (!nsp) return send();
    const conns: EngineConnection[] = [];
    for (const userId of userIds) {
      for (const id of nsp.adapter.rooms.get(userRoom(userId)) ?? []) {
        const socket = nsp.sockets.get(id);
        if (socket) conns.push(socket.conn as unknown as EngineConnection);
      }
    }
    writeTogether(conns, send);
  }

  /** Cluster-wide in cluster mode (the node's mirror; at most a Redis round trip behind). */
  isOnline(userId: string): boolean {
    return this.socketsByUser.has(userId) || (this.cluster?.has(userId) ?? false);
  }

  /** Every online user (cluster-wide in cluster mode). */
  onlineUserIds(): string[] {
    if (!this.cluster) return [...this.socketsByUser.keys()];
    const ids = new Set(this.cluster.ids());
    for (const id of this.socketsByUser.keys()) ids.add(id);
    return [...ids];
  }

  /** Users with at least one socket on THIS server. */
  localOnlineCount(): number {
    return this.socketsByUser.size;
  }

  /**
   * Issue #24: a socket keeps its identity only as long as the token it signed in with. At the token's `exp` the
   * server sends `session_expired {message}` and disconnects the socket (the client shows the login page; a new
   * socket needs a valid token). Called on every successful sign-in of the socket: a later `authenticate` with a
   * newer token moves the deadline.
   */
  expireWithToken(socket: Socket, token: unknown): void {
    const previous = this.expiries.get(socket);
    if (previous) clearTimeout(previous);
    else socket.once('disconnect', () => clearTimeout(this.expiries.get(socket)));
    const exp = verifiedTokenExpiry(token);
    if (exp === null) return;
    const arm = () => {
      const left = exp - Date.now();
      const timer =
        left > MAX_TIMER_MS ? setTimeout(arm, MAX_TIMER_MS) : setTimeout(() => this.expire(socket), Math.max(0, left));
      this.expiries.set(socket, timer.unref());
    };
    arm();
  }

  private expire(socket: Socket): void {
    this.expiries.delete(socket);
    if (!socket.connected) return;
    socket.emit('session_expired', { message: SESSION_EXPIRED_MESSAGE });
    socket.disconnect(true);
  }

  /** Gateway bookkeeping; returns true when this server's online set changed. */
  markAuthenticated(userId: string, socketId: string): boolean {
    let set = this.socketsByUser.get(userId);
    const wasOffline = !set;
    if (!set) this.socketsByUser.set(userId, (set = new Set()));
    set.add(socketId);
    if (!wasOffline) return false;
    if (this.cluster) this.cluster.add(userId);
    else {
      this.presence.set(userId, true);
      this.events.emit('online', userId);
      this.schedulePresenceFlush();
    }
    return true;
  }

  markDisconnected(userId: string, socketId: string): boolean {
    const set = this.socketsByUser.get(userId);
    if (!set) return false;
    set.delete(socketId);
    if (set.size) return false;
    this.socketsByUser.delete(userId);
    if (this.cluster) this.cluster.remove(userId);
    else {
      this.presence.set(userId, false);
      this.events.emit('offline', userId);
      this.schedulePresenceFlush();
    }
    return true;
  }

  /** Cluster mode: the cluster-wide online set changed (reported once on every node). */
  private clusterChanged(diff: PresenceDiff): void {
    for (const id of diff.offline) this.presence.set(id, false);
    for (const id of diff.online) this.presence.set(id, true);
    for (const id of diff.offline) this.events.emit('offline', id);
    for (const id of diff.online) this.events.emit('online', id);
    this.schedulePresenceFlush();
  }

  /**
   * The lobby watchers get the presence changes coalesced into one `presence_changed {online, offline}` per
   * PRESENCE_FLUSH_MS (a reconnect storm costs a few small messages, not one full list per login).
   */
  private schedulePresenceFlush(): void {
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
      // cluster mode: every node tells its own watchers (each node hears every change once)
      (this.cluster ? this.server.local : this.server)
        .to(LOBBY_VIEW_ROOM)
        .emit('presence_changed', { online, offline });
    } catch (e) {
      this.logger.warn(`presence broadcast failed: ${(e as Error).message}`);
    }
    this.logger.debug(
      `online users: ${this.socketsByUser.size} here${this.cluster ? `, ${this.cluster.size} in the cluster` : ''}`,
    );
  }
}
