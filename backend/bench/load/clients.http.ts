/**
 * HTTP and socket helpers of a client process: registration and API calls routed to a node (sticky or random),
 * socket connections (game server, echo), acks with a timeout, a bounded pool.
 */
import { randomBytes } from 'node:crypto';
import { io, Socket } from 'socket.io-client';

export type Any = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- raw wire payloads

/** Throw-away accounts of one run: a random password per client process (never reused, never logged). */
const PASSWORD = randomBytes(12).toString('base64url');

export interface User {
  id: string;
  token: string;
  username: string;
}

/**
 * The nodes' URLs. `--http sticky` (default): a user's HTTP requests go to the node of their socket, like behind the
 * nginx example (the same address hash for /api/ and /socket.io/), so a table is created through its host's node
 * and the server's placement decides whether it stays there. `--http random`: each request to a node drawn at
 * random, independently of the sockets (a balancer without sticky sessions: more forwarding).
 */
let urls: string[] = [];
let stickyHttp = false;
/** With sticky HTTP: the node of each user's socket. */
export const userNode = new Map<string, string>();

/** Setup: the nodes' URLs and the HTTP routing (`--http`). */
export function routeHttp(nodeUrls: string[], sticky: boolean): void {
  urls = nodeUrls;
  stickyHttp = sticky;
}

const httpUrl = (userId?: string) =>
  (stickyHttp && userId && userNode.get(userId)) || urls[Math.floor(Math.random() * urls.length)];

export async function register(username: string): Promise<User> {
  const url = httpUrl();
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(`${url}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, email: `${username.toLowerCase()}@bench.test`, password: PASSWORD }),
      });
      const body = (await res.json()) as Any;
      if (res.status !== 201) throw new Error(`register ${res.status}: ${body.message}`);
      return { id: body.user.id, token: body.token, username };
    } catch (e) {
      if (attempt >= 3) throw e;
      await sleep(500 * (attempt + 1));
    }
  }
}

export async function api(user: User, method: string, path: string, body: unknown): Promise<Any> {
  const res = await fetch(`${httpUrl(user.id)}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
    body: JSON.stringify(body),
  });
  const json = (await res.json().catch(() => ({}))) as Any;
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${json.message ?? ''}`);
  return json;
}

export function connect(url: string, auth: Record<string, unknown>, reconnection: boolean): Promise<Socket> {
  const socket = io(url, {
    auth,
    transports: ['websocket'],
    forceNew: true,
    reconnection,
    reconnectionDelay: 1000,
    reconnectionDelayMax: 5000,
    timeout: 30000,
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('socket: no authenticated event in 60 s')), 60000);
    socket.once('authenticated', (p: Any) => {
      clearTimeout(timer);
      if (p?.success) resolve(socket);
      else reject(new Error(`socket authentication failed: ${p?.message}`));
    });
    socket.once('connect_error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
  });
}

export function connectEcho(url: string, room: string): Promise<Socket> {
  const socket = io(url, { auth: { room }, transports: ['websocket'], forceNew: true, reconnection: false });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

export function emitAck(socket: Socket, event: string, payload: unknown, timeoutMs = 60000): Promise<Any> {
  return new Promise((resolve) => {
    socket
      .timeout(timeoutMs)
      .emit(event, payload, (err: Error | null, ack: Any) =>
        resolve(err ? { ok: false, message: `${event}: no ack` } : ack),
      );
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs `fn` over `items` with at most `limit` in flight. */
export async function pool<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T, i: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
