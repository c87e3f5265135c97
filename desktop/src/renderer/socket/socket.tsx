/**
 * The realtime client (spec §4, §7, §9): one socket.io connection per signed-in session.
 * States: connecting, connected, authenticated; ready = connected && authenticated. A disconnect clears
 * all three; after a reconnect the client re-authenticates (and screens resync their state when `ready`
 * turns true again). Without a stored session token no connection is started.
 */
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { io, type Socket } from 'socket.io-client';
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

export interface ConnectionState {
  connecting: boolean;
  connected: boolean;
  authenticated: boolean;
}

export interface SocketValue extends ConnectionState {
  socket: Socket | null;
  ready: boolean;
  error: string | null;
  onlineIds: ReadonlySet<string>;
  lobbyMessages: ChatMessage[];
  /** Emits if a socket exists; otherwise records 'No socket available' and returns false. */
  emit(event: string, ...args: unknown[]): boolean;
  clearError(): void;
}

const SocketContext = createContext<SocketValue | null>(null);

const initial: ConnectionState = { connecting: false, connected: false, authenticated: false };

export function SocketProvider({ children }: { children: ReactNode }) {
  const { token, user } = useSession();
  const notify = useNotify();
  const notifyRef = useRef(notify);
  notifyRef.current = notify;
  const [socket, setSocket] = useState<Socket | null>(null);
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
    const s = io(getApiBase() || undefined, {
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
    s.on('authenticated', (p: { success?: boolean } | undefined) => {
      const ok = p?.success !== false;
      setConn((c) => ({ ...c, authenticated: ok }));
      if (!ok) setError('Socket authentication failed');
    });
    s.on('disconnect', () => {
      setConn({ connecting: s.active, connected: false, authenticated: false });
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
    s.on('online_users', (ids: unknown) => {
      if (Array.isArray(ids)) setOnlineIds(new Set(ids.map(String)));
    });
    s.on('lobby_chat_message', (raw: unknown) => {
      const m = normalizeChat(raw);
      if (!m) {
        console.warn('Ignoring chat message in an invalid format', raw);
        return;
      }
      setLobbyMessages((prev) => (prev.some((p) => p.id === m.id) ? prev : [...prev.slice(-199), m]));
    });
    s.on('lobby_chat_history', (raw: unknown) => {
      if (!Array.isArray(raw)) return;
      const list = raw.map(normalizeChat).filter((m): m is ChatMessage => m !== null);
      setLobbyMessages(list);
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
    (event: string, ...args: unknown[]) => {
      if (!socket) {
        setError('No socket available');
        return false;
      }
      socket.emit(event, ...args);
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

/** Subscribes to a socket event for the lifetime of the component (re-subscribes on a new socket). */
export function useSocketEvent<T = unknown>(event: string, handler: (payload: T, ...rest: unknown[]) => void): void {
  const { socket } = useSocket();
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!socket) return;
    const h = (p: T, ...rest: unknown[]) => ref.current(p, ...rest);
    socket.on(event, h);
    return () => {
      socket.off(event, h);
    };
  }, [socket, event]);
}

export const SocketContextForTests = SocketContext;
