/**
 * Cluster-wide presence (issue #13, cluster mode: DATABASE_URL + REDIS_URL): who is online, whichever node their
 * sockets are on. Each node (one process: `instance` = NODE_ID + a random suffix, so a restarted replica is a new
 * member) keeps in Redis only WHICH users have at least one socket on it; socket counts stay in its memory and only
 * a user's first socket / last socket on the node costs a Redis call.
 *
 * Keys, under the prefix of redisChannelKey(config) (servers on other databases sharing the Redis never mix):
 * - `{P:presence}:nodes`        sorted set: instance → time of its last heartbeat (Redis server time, ms)
 * - `{P:presence}:node:<inst>`  hash: userId → 1 for every user with a socket on that instance
 * - `{P:presence}:seq`          sequence number of the last published change
 * - channel `P:presence`        `{s, on, off}`: every change of the cluster-wide online set, once
 *
 * A user is online while some registered instance's hash holds them. Every change goes through one Lua script
 * (atomic), which publishes exactly the transitions it caused: a user's first socket in the cluster (`on`), their
 * last one (`off`), or the death of a node. A node heartbeats every heartbeatMs (≤ 1 s); the heartbeat of any live
 * node reaps the instances silent for more than leaseMs: their users who have no socket on another node go
 * offline (a user whose socket moved to another node within the lease stays online, without a flap). Every key
 * expires after ttlMs without a heartbeat, so a cluster that is gone leaves nothing behind.
 *
 * Every node mirrors the set (PresenceMirror) from the channel, so isOnline / onlineUserIds are memory reads and
 * the 'online' / 'offline' events fire on every node, once per change. A lost message (sequence gap, subscriber
 * reconnect, Redis restarted) makes the node resync from a snapshot and report the difference.
 */
import type Redis from 'ioredis';
import { parsePresenceMessage, PresenceDiff, PresenceMirror } from './presence.mirror';

/** Shared Lua: arguments, server time, "held by another instance", reaping and publishing. */
const PRELUDE = `
local registry, seqKey, myKey = KEYS[1], KEYS[2], KEYS[3]
local channel, nodePrefix, me = ARGV[1], ARGV[2], ARGV[3]
local leaseMs, ttlMs = tonumber(ARGV[4]), tonumber(ARGV[5])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local on, off = {}, {}
local function heldElsewhere(user, nodes)
  for _, n in ipairs(nodes) do
    if n ~= me and redis.call('HEXISTS', nodePrefix .. n, user) == 1 then return true end
  end
  return false
end
local function reap()
  local dead = redis.call('ZRANGEBYSCORE', registry, '-inf', '(' .. (now - leaseMs))
  if #dead == 0 then return end
  local users, list = {}, {}
  for _, d in ipairs(dead) do
    redis.call('ZREM', registry, d)
    for _, u in ipairs(redis.call('HKEYS', nodePrefix .. d)) do
      if not users[u] then users[u] = true; list[#list + 1] = u end
    end
    redis.call('DEL', nodePrefix .. d)
  end
  local alive = redis.call('ZRANGE', registry, 0, -1)
  for _, u in ipairs(list) do
    local held = false
    for _, n in ipairs(alive) do
      if redis.call('HEXISTS', nodePrefix .. n, u) == 1 then held = true; break end
    end
    if not held then off[#off + 1] = u end
  end
end
local function touch()
  redis.call('PEXPIRE', registry, ttlMs)
  redis.call('PEXPIRE', myKey, ttlMs)
  redis.call('PEXPIRE', seqKey, ttlMs)
end
local function publish()
  if #on == 0 and #off == 0 then return tonumber(redis.call('GET', seqKey) or '0') end
  local s = redis.call('INCR', seqKey)
  redis.call('PEXPIRE', seqKey, ttlMs)
  redis.call('PUBLISH', channel, cjson.encode({ s = s, on = on, off = off }))
  return s
end
`;

/** Replaces this instance's users with ARGV[6..] (registers it): start-up, and after it was reaped or Redis lost it. */
const SYNC = `${PRELUDE}
redis.call('ZADD', registry, now, me)
local old = {}
for _, u in ipairs(redis.call('HKEYS', myKey)) do old[u] = true end
redis.call('DEL', myKey)
local nodes = redis.call('ZRANGE', registry, 0, -1)
local new = {}
for i = 6, #ARGV do
  local u = ARGV[i]
  if not new[u] then
    new[u] = true
    redis.call('HSET', myKey, u, 1)
    if not old[u] and not heldElsewhere(u, nodes) then on[#on + 1] = u end
  end
end
for u in pairs(old) do
  if not new[u] and not heldElsewhere(u, nodes) then off[#off + 1] = u end
end
touch()
reap()
return { 1, publish() }
`;

/** The user's first socket on this instance. { 0 } when the instance is not registered (it must sync). */
const ADD = `${PRELUDE}
if not redis.call('ZSCORE', registry, me) then return { 0, 0 } end
local u = ARGV[6]
if redis.call('HSET', myKey, u, 1) == 1 and not heldElsewhere(u, redis.call('ZRANGE', registry, 0, -1)) then
  on[1] = u
end
return { 1, publish() }
`;

/** The user's last socket on this instance closed. */
const REMOVE = `${PRELUDE}
if not redis.call('ZSCORE', registry, me) then return { 0, 0 } end
local u = ARGV[6]
if redis.call('HDEL', myKey, u) == 1 and not heldElsewhere(u, redis.call('ZRANGE', registry, 0, -1)) then
  off[1] = u
end
return { 1, publish() }
`;

/** Renews this instance's lease and reaps the dead ones; returns { registered, current sequence }. */
const HEARTBEAT = `${PRELUDE}
if not redis.call('ZSCORE', registry, me) then return { 0, tonumber(redis.call('GET', seqKey) or '0') } end
redis.call('ZADD', registry, now, me)
touch()
reap()
return { 1, publish() }
`;

/** { sequence, users online on any registered instance } — read-only. */
const SNAPSHOT = `
local registry, seqKey, nodePrefix = KEYS[1], KEYS[2], ARGV[1]
local seen, out = {}, {}
for _, n in ipairs(redis.call('ZRANGE', registry, 0, -1)) do
  for _, u in ipairs(redis.call('HKEYS', nodePrefix .. n)) do
    if not seen[u] then seen[u] = true; out[#out + 1] = u end
  end
end
return { tonumber(redis.call('GET', seqKey) or '0'), out }
`;

/** Messages kept while a snapshot is read (more are dropped: the resync then sees a gap and reads again). */
const MAX_BUFFERED = 10_000;

type Reply = [number, number];
interface PresenceCommands {
  spadesPresenceSync(k1: string, k2: string, k3: string, ...args: string[]): Promise<Reply>;
  spadesPresenceAdd(k1: string, k2: string, k3: string, ...args: string[]): Promise<Reply>;
  spadesPresenceRemove(k1: string, k2: string, k3: string, ...args: string[]): Promise<Reply>;
  spadesPresenceHeartbeat(k1: string, k2: string, k3: string, ...args: string[]): Promise<Reply>;
  spadesPresenceSnapshot(k1: string, k2: string, nodePrefix: string): Promise<[number, string[]]>;
}

function defineCommands(redis: Redis): PresenceCommands {
  const r = redis as Redis & Partial<PresenceCommands>;
  if (!r.spadesPresenceSync) {
    redis.defineCommand('spadesPresenceSync', { numberOfKeys: 3, lua: SYNC });
    redis.defineCommand('spadesPresenceAdd', { numberOfKeys: 3, lua: ADD });
    redis.defineCommand('spadesPresenceRemove', { numberOfKeys: 3, lua: REMOVE });
    redis.defineCommand('spadesPresenceHeartbeat', { numberOfKeys: 3, lua: HEARTBEAT });
    redis.defineCommand('spadesPresenceSnapshot', { numberOfKeys: 2, lua: SNAPSHOT });
  }
  return r as unknown as PresenceCommands;
}

export interface PresenceStoreOptions {
  /** redisChannelKey(config). */
  prefix: string;
  /** This process among the nodes (unique per process: NODE_ID + a random suffix). */
  instance: string;
  /** A node silent this long is dead (CLUSTER_LEASE_MS). */
  leaseMs: number;
  /** Default: min(1000, leaseMs / 3). */
  heartbeatMs?: number;
  /** Keys expire this long after the last heartbeat of any node. Default: max(4 × leaseMs, 60 s). */
  ttlMs?: number;
  /** This node's users (at least one socket here): sent whole when the node (re)registers. */
  localUsers: () => Iterable<string>;
  /** A change of the cluster-wide online set (after the first snapshot), in order. */
  onChange: (diff: PresenceDiff) => void;
  log?: { warn(message: string): void; debug?(message: string): void };
}

export function presenceKeys(prefix: string, instance = '') {
  const tag = `{${prefix}:presence}`;
  return {
    registry: `${tag}:nodes`,
    seq: `${tag}:seq`,
    nodePrefix: `${tag}:node:`,
    node: `${tag}:node:${instance}`,
    channel: `${prefix}:presence`,
  };
}

export class ClusterPresenceStore {
  private readonly cmd: PresenceCommands;
  private readonly keys: ReturnType<typeof presenceKeys>;
  private readonly mirror = new PresenceMirror();
  private readonly heartbeatMs: number;
  private readonly ttlMs: number;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private started: Promise<void> | null = null;
  /** Messages received while a snapshot is read. */
  private buffer: string[] | null = null;
  private resyncing = false;
  private resyncAgain = false;
  private beating = false;
  private needSync = false;
  private syncing: Promise<void> | null = null;
  /** Sequence the previous heartbeat saw: the mirror must have reached it by now. */
  private lastBeatSeq = 0;
  /**
   * Redis lost this node's registration (restarted empty, or reaped this node after a stall): the other nodes may
   * have lost theirs too and register again on their next heartbeat. Until this time (one lease: every live node has
   * heartbeated by then) a snapshot may lack the users of nodes that have not yet, so the users it lacks are kept,
   * not reported offline; then one full resync reports who is really gone. 0: none pending.
   */
  private registrationGraceUntil = 0;
  private failing = false;
  private readonly onMessage = (channel: string, raw: string) => {
    if (channel === this.keys.channel) this.received(raw);
  };
  private readonly onSubscriberReady = () => {
    // ioredis resubscribes after a reconnect; what was published meanwhile is lost: resync
    if (this.mirror.initialized && !this.stopped) void this.resync();
  };

  constructor(
    private readonly redis: Redis,
    private readonly sub: Redis,
    private readonly opts: PresenceStoreOptions,
  ) {
    this.cmd = defineCommands(redis);
    this.keys = presenceKeys(opts.prefix, opts.instance);
    this.heartbeatMs = opts.heartbeatMs ?? Math.max(50, Math.min(1000, Math.floor(opts.leaseMs / 3)));
    this.ttlMs = opts.ttlMs ?? Math.max(4 * opts.leaseMs, 60_000);
  }

  get instance(): string {
    return this.opts.instance;
  }

  /**
   * Subscribes, registers this node with its current users, reads the first snapshot and starts the heartbeat.
   * Resolves once that is done (it waits while Redis is unreachable; local changes queue meanwhile, in order); a
   * failed step is retried by the heartbeat.
   */
  start(): Promise<void> {
    this.started ??= this.doStart();
    return this.started;
  }

  private async doStart(): Promise<void> {
    this.buffer = [];
    this.sub.on('message', this.onMessage);
    await this.sub.subscribe(this.keys.channel);
    this.sub.on('ready', this.onSubscriberReady);
    if (this.stopped) return;
    await this.sync().catch(() => undefined); // failed: the heartbeat registers
    if (this.stopped) return;
    this.timer = setInterval(() => void this.heartbeat(), this.heartbeatMs);
    this.timer.unref();
    await this.resync(false);
  }

  /** Stops heartbeating and listening WITHOUT removing this node's keys: its users stay online for the lease. */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.sub.off('message', this.onMessage);
    this.sub.off('ready', this.onSubscriberReady);
  }

  has(userId: string): boolean {
    return this.mirror.has(userId);
  }

  ids(): IterableIterator<string> {
    return this.mirror.ids();
  }

  get size(): number {
    return this.mirror.size;
  }

  /** Sequence of the last change the mirror applied (-1 before the first snapshot). */
  get seq(): number {
    return this.mirror.seq;
  }

  /** The user's first socket on this node (in call order with remove: one connection, FIFO). */
  add(userId: string): void {
    if (this.stopped) return;
    this.after(this.cmd.spadesPresenceAdd(...this.scriptArgs(), userId));
  }

  /** The user's last socket on this node closed. */
  remove(userId: string): void {
    if (this.stopped) return;
    this.after(this.cmd.spadesPresenceRemove(...this.scriptArgs(), userId));
  }

  /** One heartbeat (the timer calls it; tests may too). Never throws. */
  async heartbeat(): Promise<void> {
    if (this.beating || this.stopped) return;
    this.beating = true;
    try {
      if (this.needSync) await this.sync();
      const [registered, seq] = await this.cmd.spadesPresenceHeartbeat(...this.scriptArgs());
      if (this.mirror.initialized && (!registered || seq < this.mirror.seq))
        this.registrationGraceUntil = Date.now() + this.opts.leaseMs;
      if (!registered) {
        // reaped (this process stalled longer than the lease) or Redis lost its data: register again, whole
        this.opts.log?.warn(`presence: node ${this.opts.instance} was not registered any more; registering again`);
        this.needSync = true;
        await this.sync();
        await this.resync();
      } else if (!this.mirror.initialized || seq < this.mirror.seq || this.mirror.seq < this.lastBeatSeq) {
        // no snapshot yet, the sequence went back (Redis restarted empty) or a message never arrived
        await this.resync(this.mirror.initialized);
      } else if (this.registrationGraceUntil && Date.now() >= this.registrationGraceUntil) {
        // every live node has registered again: who is still missing is really gone
        this.registrationGraceUntil = 0;
        await this.resync();
      }
      this.lastBeatSeq = registered ? seq : 0;
      this.recovered();
    } catch (e) {
      this.failed('heartbeat', e);
    } finally {
      this.beating = false;
    }
  }

  private scriptArgs(): [string, string, string, string, string, string, string, string] {
    const k = this.keys;
    return [
      k.registry,
      k.seq,
      k.node,
      k.channel,
      k.nodePrefix,
      this.opts.instance,
      String(this.opts.leaseMs),
      String(this.ttlMs),
    ];
  }

  private after(reply: Promise<Reply>): void {
    reply.then(
      ([registered]) => {
        if (!registered) this.requestSync();
      },
      (e: unknown) => {
        this.failed('update', e);
        this.requestSync();
      },
    );
  }

  /** Registers again with the whole local set (coalesced; sent behind the commands already queued). */
  private requestSync(): void {
    if (this.stopped || this.needSync) return;
    this.needSync = true;
    void this.sync()
      .then(() => this.resync())
      .catch(() => undefined);
  }

  private sync(): Promise<void> {
    this.syncing ??= (async () => {
      try {
        this.needSync = false;
        await this.cmd.spadesPresenceSync(...this.scriptArgs(), ...new Set(this.opts.localUsers()));
      } catch (e) {
        this.needSync = true; // the next heartbeat tries again
        this.failed('sync', e);
        throw e;
      } finally {
        this.syncing = null;
      }
    })();
    return this.syncing;
  }

  private received(raw: string): void {
    if (this.stopped) return;
    if (this.buffer) {
      // a long wait for the snapshot: what is dropped here is either in the snapshot or shows up as a gap
      if (this.buffer.length >= MAX_BUFFERED) this.buffer.length = 0;
      this.buffer.push(raw);
      return;
    }
    const m = parsePresenceMessage(raw);
    if (!m) return;
    const r = this.mirror.apply(m);
    if (r.kind === 'applied') this.report(r.diff);
    else if (r.kind === 'gap') void this.resync();
  }

  /**
   * Reads a snapshot and replaces the mirror with it, reporting the difference (`report` false: the first one),
   * then applies the messages that arrived meanwhile. Never throws (a failure is retried by the heartbeat).
   */
  private async resync(report = true): Promise<void> {
    if (this.resyncing) {
      this.resyncAgain = true; // the running one reads again when done
      return;
    }
    this.resyncing = true;
    this.buffer ??= [];
    try {
      do {
        this.resyncAgain = false;
        const [seq, users] = await this.cmd.spadesPresenceSnapshot(
          this.keys.registry,
          this.keys.seq,
          this.keys.nodePrefix,
        );
        if (this.stopped) return;
        const diff = this.mirror.reset(Number(seq), users, Date.now() < this.registrationGraceUntil);
        if (report) this.report(diff);
        report = true;
        // synchronously from here: nothing new can arrive before the buffer is drained
        for (const raw of this.buffer.splice(0)) {
          const m = parsePresenceMessage(raw);
          if (!m) continue;
          const r = this.mirror.apply(m);
          if (r.kind === 'applied') this.report(r.diff);
          else if (r.kind === 'gap') this.resyncAgain = true;
        }
      } while (this.resyncAgain && !this.stopped);
      this.buffer = null;
    } catch (e) {
      this.failed('snapshot', e);
      // an initialised mirror goes on applying messages (the heartbeat sees it behind and reads again); before the
      // first snapshot they stay buffered until the heartbeat's next try
      if (this.mirror.initialized) {
        const pending = this.buffer?.splice(0) ?? [];
        this.buffer = null;
        for (const raw of pending) this.received(raw);
      }
    } finally {
      this.resyncing = false;
      if (this.stopped) this.buffer = null;
    }
  }

  private report(diff: PresenceDiff): void {
    if (diff.online.length || diff.offline.length) this.opts.onChange(diff);
  }

  private failed(what: string, e: unknown): void {
    if (this.failing || this.stopped) return;
    this.failing = true; // one line per outage, not one per call
    this.opts.log?.warn(`presence ${what} failed (Redis): ${(e as Error)?.message ?? e}`);
  }

  private recovered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.opts.log?.warn('presence: Redis answers again');
  }
}
