/**
 * Node-to-node requests through Redis pub/sub (issue #13): every node subscribes to its own channel; a request
 * carries an id and the caller's node id, the answer comes back on the caller's channel. Used to forward a
 * table command to the node that owns the table, and to ask every live node for its part of the lobby. No
 * broker of our own: Redis is the only transport, as for the socket.io adapter.
 *
 * Errors cross as `{ message, status }` and are rethrown as `RemoteError` (an HttpException: the controller and
 * the gateway answer them exactly like the owner would have).
 */
import { HttpException, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { redisChannelKey } from '../config/redis-key';
import { AppConfig } from '../config/config.schema';

export type BusHandler = (args: unknown[], from: string) => unknown;

interface Request {
  t: 'req';
  id: string;
  from: string;
  method: string;
  args: unknown[];
}
interface Response {
  t: 'res';
  id: string;
  ok: boolean;
  value?: unknown;
  error?: { message: string; status: number; code?: string };
}

/** An error answered by another node, with its HTTP status (400 rules, 403, 404, 409 …) and its message. */
export class RemoteError extends HttpException {
  constructor(
    message: string,
    status: number,
    readonly code?: string,
  ) {
    super({ message }, status);
    this.name = 'RemoteError';
  }
}

/** The node asked is not there (no answer in time). */
export class NodeUnreachable extends Error {
  constructor(readonly node: string) {
    super(`node ${node} did not answer`);
    this.name = 'NodeUnreachable';
  }
}

export const BUS_TIMEOUT_MS = 10_000;

@Injectable()
export class ClusterBus implements OnApplicationShutdown {
  private readonly log = new Logger('ClusterBus');
  readonly enabled: boolean;
  readonly nodeId: string;
  private readonly prefix: string;
  private pub: Redis | null = null;
  private sub: Redis | null = null;
  private ready: Promise<void> | null = null;
  private readonly handlers = new Map<string, BusHandler>();
  private readonly waiting = new Map<
    string,
    { resolve: (v: unknown) => void; reject: (e: unknown) => void; timer: NodeJS.Timeout; node: string }
  >();
  private closed = false;

  constructor(config: AppConfig) {
    this.enabled = config.cluster.enabled;
    this.nodeId = config.cluster.nodeId;
    this.prefix = `${redisChannelKey(config)}:node:`;
    if (!this.enabled) return;
    const opts = { maxRetriesPerRequest: null, disconnectTimeout: 200 } as const;
    this.pub = new Redis(config.redisUrl!, opts);
    this.sub = new Redis(config.redisUrl!, opts);
    for (const c of [this.pub, this.sub]) c.on('error', (e: Error) => this.log.warn(`Redis: ${e.message}`));
    this.sub.on('messageBuffer', (_ch: Buffer, msg: Buffer) => this.onMessage(msg.toString('utf8')));
    this.ready = this.sub.subscribe(this.channel(this.nodeId)).then(() => undefined);
  }

  /**
   * Resolves once this node listens for requests, or after `waitMs` when Redis does not answer (the boot goes on:
   * readiness reports Redis down; the subscription completes when Redis comes back).
   */
  async start(waitMs = 3000): Promise<void> {
    if (!this.ready) return;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), waitMs)));
    const outcome = await Promise.race([this.ready.then(() => 'ready' as const), late]);
    clearTimeout(timer);
    if (outcome === 'late')
      this.log.warn(`Redis did not answer within ${waitMs} ms: forwarded table commands wait for it`);
  }

  /** Registers what this node answers to `method`. */
  handle(method: string, fn: BusHandler): void {
    this.handlers.set(method, fn);
  }

  /** Asks `node` to run `method(args)`; resolves with its value or rejects with its error (RemoteError). */
  call<T>(node: string, method: string, args: unknown[], timeoutMs = BUS_TIMEOUT_MS): Promise<T> {
    if (!this.pub || this.closed) return Promise.reject(new NodeUnreachable(node));
    if (node === this.nodeId) return this.local(method, args, node) as Promise<T>;
    const id = randomUUID();
    const req: Request = { t: 'req', id, from: this.nodeId, method, args };
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        reject(new NodeUnreachable(node));
      }, timeoutMs);
      timer.unref();
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject, timer, node });
      this.pub!.publish(this.channel(node), JSON.stringify(req)).then(
        (receivers) => {
          // nobody subscribed: the node is gone, no need to wait for the timeout
          if (receivers === 0) this.fail(id, new NodeUnreachable(node));
        },
        (e) => this.fail(id, e),
      );
    });
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    for (const [id] of this.waiting) this.fail(id, new NodeUnreachable('shutdown'));
    const clients = [this.sub, this.pub].filter((c): c is Redis => !!c);
    this.sub = this.pub = null;
    await Promise.all(
      clients.map((c) =>
        c.status === 'ready'
          ? c.quit().then(
              () => undefined,
              () => c.disconnect(),
            )
          : Promise.resolve(c.disconnect()),
      ),
    );
  }

  private channel(node: string): string {
    return this.prefix + node;
  }

  private fail(id: string, e: unknown): void {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    clearTimeout(w.timer);
    w.reject(e);
  }

  private async local(method: string, args: unknown[], from: string): Promise<unknown> {
    const h = this.handlers.get(method);
    if (!h) throw new RemoteError(`Unknown cluster method ${method}`, 500);
    return h(args, from);
  }

  private onMessage(raw: string): void {
    let msg: Request | Response;
    try {
      msg = JSON.parse(raw) as Request | Response;
    } catch {
      return;
    }
    if (msg.t === 'res') {
      const w = this.waiting.get(msg.id);
      if (!w) return;
      this.waiting.delete(msg.id);
      clearTimeout(w.timer);
      if (msg.ok) w.resolve(msg.value);
      else w.reject(new RemoteError(msg.error?.message ?? 'Error', msg.error?.status ?? 500, msg.error?.code));
      return;
    }
    if (msg.t !== 'req' || typeof msg.from !== 'string') return;
    void this.answer(msg);
  }

  private async answer(req: Request): Promise<void> {
    let res: Response;
    try {
      const value = await this.local(req.method, Array.isArray(req.args) ? req.args : [], req.from);
      res = { t: 'res', id: req.id, ok: true, value: value === undefined ? null : value };
    } catch (e) {
      res = { t: 'res', id: req.id, ok: false, error: errorPayload(e) };
      if (res.error!.status >= 500) this.log.warn(`${req.method} from ${req.from} failed: ${(e as Error).stack ?? e}`);
    }
    if (this.closed || !this.pub) return;
    await this.pub
      .publish(this.channel(req.from), JSON.stringify(res))
      .catch((e: Error) => this.log.warn(`answer to ${req.from}: ${e.message}`));
  }
}

/** `{ message, status, code }` of any error, as the HTTP layer would answer it. */
export function errorPayload(e: unknown): { message: string; status: number; code?: string } {
  if (e instanceof HttpException) {
    const r = e.getResponse();
    const message =
      typeof r === 'string'
        ? r
        : typeof (r as { message?: unknown }).message === 'string'
          ? (r as { message: string }).message
          : e.message;
    return { message, status: e.getStatus(), code: (e as { code?: string }).code };
  }
  const err = e as { message?: string; status?: unknown; code?: unknown };
  const status = typeof err?.status === 'number' ? err.status : 500;
  return {
    message: status >= 500 ? 'Internal server error' : (err?.message ?? 'Error'),
    status,
    code: typeof err?.code === 'string' ? err.code : undefined,
  };
}
