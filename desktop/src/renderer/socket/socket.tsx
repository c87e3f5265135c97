/**
 * The realtime client (spec §4, §7, §9): one socket.io connection per signed-in session.
 * States: connecting, connected, authenticated; ready = connected && authenticated. A disconnect clears
 * all three; after a reconnect the client re-authenticates (and screens resync their state when `ready`
 * turns true again). Without a stored session token no connection is started.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { io, type Socket } from 'socket.io-client';
import { SESSION_EXPIRED_MESSAGE } from '@spades/common';
import type { ChatMessage as WireLobbyChatMessage, ClientToServerEvents, ServerToClientEvents } from '@spades/common';
import { sessionEnded } from '../lib/api';
import { getApiBase } from '../lib/platform';
import { normalizeChat, type ChatMessage } from '../lib/types';
import { useSession } from '../session/session';
import { useNotify } from '../components/ui';

export const SOCKET_OPTIONS = {
  transports: ['websocket', 'polling'],
  reconnection: true,
  reconnectionAttempts: 15,
  reconnectionDelay: 1000,
  reconnectionDelayMax: 10000,
  timeout: 30000,
} as const;
export const CONNECT_WAIT_MS = 10_000;

/**
 * Spec §7 lists a userId (at the table also a timestamp, in lobby chat the whole message object) on some emits.
 * common's protocol leaves them out: the server takes the identity from the authenticated socket and ignores
 * them. The client still sends them, typed as this explicit extension of common's payloads.
 */
export interface SpecIdentity {
  userId: string;
  username?: string;
  timestamp?: number;
}

/** The client side of common's typed wire protocol (spec §7). */
export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type ClientEvent = keyof ClientToServerEvents;
export type ServerEvent = keyof ServerToClientEvents;

export interface ConnectionState {
  connecting: boolean;
  connected: boolean;
  authenticated: boolean;
}

export interface SocketValue extends ConnectionState {
  socket: AppSocket | null;
  ready: boolean;
  error: string | null;
  onlineIds: ReadonlySet<string>;
  lobbyMessages: ChatMessage[];
  /** Emits if a socket exists; otherwise records 'No socket available' and returns false. */
  emit<E extends ClientEvent>(event: E, ...args: Parameters<ClientToServerEvents[E]>): boolean;
  clearError(): void;
}

const SocketContext = createContext<SocketValue | null>(null);

const initial: ConnectionState = { connecting: false, connected: false, authenticated: false };

export function SocketProvider({ children }: { children: ReactNode }) {
  const { token, user } = useSession();
  const notify = useNotify();
  const notifyRef = useRef(notify);
  notifyRef.current = notify;
  const [socket, setSocket] = useState<AppSocket | null>(null);
  const [conn, setConn] = useState<ConnectionState>(initial);
  const [error, setError] = useState<string | null>(null);
  const [onlineIds, setOnlineIds] = useState<ReadonlySet<string>>(new Set());
  const [lobbyMessages, setLobbyMessages] = useState<ChatMessage[]>([]);
  const userRef = useRef(user);
  userRef.current = user;
  const userId = user?.id;

  useEffect(() => {
    if (!token || !userId) {
      setConn(initial);
      return;
    }
    const u = userRef.current;
    const s: AppSocket = io(getApiBase() || undefined, {
      ...SOCKET_OPTIONS,
      transports: [...SOCKET_OPTIONS.transports],
      auth: { token, userId, username: u?.username, avatar: u?.avatar ?? null },
    });
    setSocket(s);
    setConn({ connecting: true, connected: false, authenticated: false });
    const timer = setTimeout(() => {
      if (!s.connected) setError('Socket connection timeout');
    }, CONNECT_WAIT_MS);

    const authenticate = () => {
      const cu = userRef.current;
      s.emit('authenticate', { token, userId, username: cu?.username });
    };
    s.on('connect', () => {
      clearTimeout(timer);
      setError(null);
      setConn({ connecting: false, connected: true, authenticated: false });
      authenticate();
    });
    s.on('authenticated', (p) => {
      const ok = p?.success !== false;
      setConn((c) => ({ ...c, authenticated: ok }));
      if (!ok) setError('Socket authentication failed');
    });
    s.on('disconnect', () => {
      setConn({ connecting: s.active, connected: false, authenticated: false });
    });
    // Issue #24: the server ends a socket when its token expires (and disconnects it): like an HTTP 401 (ruling 6),
    // the session is cleared and the login page shown, with the server's message.
    s.on('session_expired', (p) => {
      notifyRef.current(typeof p?.message === 'string' && p.message ? p.message : SESSION_EXPIRED_MESSAGE);
      sessionEnded();
    });
    s.on('connect_error', (err: Error) => {
      setConn((c) => ({ ...c, connecting: s.active }));
      setError(`Socket connection failed: ${err.message}`);
    });
    s.io.on('reconnect_attempt', () => setConn((c) => ({ ...c, connecting: true })));
    s.io.on('reconnect_failed', () => {
      setConn(initial);
      setError('Failed to reconnect after all attempts');
      notifyRef.current('Connection error - please refresh the page');
    });
    s.on('online_users', (ids) => {
      if (Array.isArray(ids)) setOnlineIds(new Set(ids.map(String)));
    });
    // lobby watchers: coalesced presence deltas after the one full online_users
    s.on('presence_changed', (p) => {
      if (!p || !Array.isArray(p.online) || !Array.isArray(p.offline)) return;
      setOnlineIds((prev) => {
        const next = new Set(prev);
        for (const id of p.offline) next.delete(String(id));
        for (const id of p.online) next.add(String(id));
        return next;
      });
    });
    s.on('lobby_chat_message', (raw: WireLobbyChatMessage) => {
      // Typed on the wire, still checked at runtime (§5: a message in an invalid format is logged and ignored).
      const m = normalizeChat(raw);
      if (!m) {
        console.warn('Ignoring chat message in an invalid format', raw);
        return;
      }
      setLobbyMessages((prev) => (prev.some((p) => p.id === m.id) ? prev : [...prev.slice(-199), m]));
    });
    return () => {
      clearTimeout(timer);
      s.removeAllListeners();
      s.io.removeAllListeners();
      s.disconnect();
      setSocket(null);
      setConn(initial);
    };
  }, [token, userId]);

  const emit = useCallback(
    <E extends ClientEvent>(event: E, ...args: Parameters<ClientToServerEvents[E]>) => {
      if (!socket) {
        setError('No socket available');
        return false;
      }
      // socket.io's EventParams<…, E> is Parameters<…[E]> for a generic E, which TypeScript cannot prove.
      (socket.emit as (ev: E, ...a: Parameters<ClientToServerEvents[E]>) => void)(event, ...args);
      return true;
    },
    [socket],
  );
  const clearError = useCallback(() => setError(null), []);

  const value = useMemo<SocketValue>(
    () => ({
      socket,
      ...conn,
      ready: conn.connected && conn.authenticated,
      error,
      onlineIds,
      lobbyMessages,
      emit,
      clearError,
    }),
    [socket, conn, error, onlineIds, lobbyMessages, emit, clearError],
  );
  return <SocketContext.Provider value={value}>{children}</SocketContext.Provider>;
}

export function useSocket(): SocketValue {
  const v = useContext(SocketContext);
  if (!v) throw new Error('useSocket outside SocketProvider');
  return v;
}

/** Subscribes to a server event for the lifetime of the component (re-subscribes on a new socket). */
export function useSocketEvent<E extends ServerEvent>(event: E, handler: ServerToClientEvents[E]): void {
  const { socket } = useSocket();
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!socket) return;
    const h = ((...args: Parameters<ServerToClientEvents[E]>) =>
      (ref.current as (...a: Parameters<ServerToClientEvents[E]>) => void)(...args)) as ServerToClientEvents[E];
    // Same generic-event limitation of socket.io's typings as in emit().
    const on = socket.on.bind(socket) as (ev: E, fn: ServerToClientEvents[E]) => void;
    const off = socket.off.bind(socket) as (ev: E, fn: ServerToClientEvents[E]) => void;
    on(event, h);
    return () => off(event, h);
  }, [socket, event]);
}

export const SocketContextForTests = SocketContext;
