// ClusterPresenceStore against a real Redis (REDIS_URL): several "nodes" (a store each, with its own connections)
// in this process, on a key prefix of their own. Without REDIS_URL the suite says why and skips.
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import { closeRedis, createRedisClient } from '../common/redis';
import type { PresenceDiff } from './presence.mirror';
import { ClusterPresenceStore, presenceKeys } from './presence.store';

const REDIS_URL = process.env.REDIS_URL;
if (!REDIS_URL) console.warn('[presence.store.spec] REDIS_URL not set: skipping the Redis presence store tests');
const describeWithRedis = REDIS_URL ? describe : describe.skip;

const LEASE = 600;
const BEAT = 100;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitUntil(what: string, pred: () => boolean | Promise<boolean>, timeoutMs = 4000): Promise<number> {
  const t0 = Date.now();
  while (!(await pred())) {
    if (Date.now() - t0 > timeoutMs) throw new Error(`timed out waiting for: ${what}`);
    await sleep(10);
  }
  return Date.now() - t0;
}

interface TestNode {
  name: string;
  store: ClusterPresenceStore;
  changes: PresenceDiff[];
  connect(userId: string): void;
  disconnect(userId: string): void;
  /** kill -9: no more heartbeats or commands, keys left as they are. */
  kill(): void;
  close(): Promise<void>;
  /** How many times this node reported the user online / offline. */
  count(userId: string, kind: 'online' | 'offline'): number;
}

describeWithRedis('ClusterPresenceStore (Redis)', () => {
  const prefix = `spades:test-presence-${randomBytes(4).toString('hex')}`;
  const nodes: TestNode[] = [];
  let raw: Redis;

  function node(name: string, opts: { heartbeatMs?: number; prefix?: string } = {}): TestNode {
    const cmd = createRedisClient(REDIS_URL!);
    const sub = createRedisClient(REDIS_URL!);
    const sockets = new Map<string, number>();
    const changes: PresenceDiff[] = [];
    const store = new ClusterPresenceStore(cmd, sub, {
      prefix: opts.prefix ?? prefix,
      instance: `${name}/${randomBytes(3).toString('hex')}`,
      leaseMs: LEASE,
      heartbeatMs: opts.heartbeatMs ?? BEAT,
      localUsers: () => sockets.keys(),
      onChange: (d) => changes.push(d),
    });
    let closed = false;
    const n: TestNode = {
      name,
      store,
      changes,
      connect(u) {
        const k = (sockets.get(u) ?? 0) + 1;
        sockets.set(u, k);
        if (k === 1) store.add(u);
      },
      disconnect(u) {
        const k = (sockets.get(u) ?? 0) - 1;
        if (k > 0) sockets.set(u, k);
        else if (sockets.delete(u)) store.remove(u);
      },
      kill() {
        store.stop();
        cmd.disconnect();
        sub.disconnect();
        closed = true;
      },
      async close() {
        store.stop();
        if (closed) return;
        closed = true;
        await Promise.all([closeRedis(cmd), closeRedis(sub)]);
      },
      count: (u, kind) => changes.filter((d) => d[kind].includes(u)).length,
    };
    nodes.push(n);
    return n;
  }

  async function cluster(...names: string[]): Promise<TestNode[]> {
    const list = names.map((n) => node(n));
    await Promise.all(list.map((n) => n.store.start()));
    return list;
  }

  const everywhere = (list: TestNode[], u: string, online: boolean) => () =>
    list.every((n) => n.store.has(u) === online);

  afterEach(async () => {
    await Promise.all(nodes.splice(0).map((n) => n.close()));
  });

  afterAll(async () => {
    raw = createRedisClient(REDIS_URL!);
    const keys = await raw.keys(`{${prefix}:presence}:*`);
    if (keys.length) await raw.del(...keys);
    await closeRedis(raw);
  });

  it("a user's first socket anywhere is one 'online' on every node; 'offline' once only when the last node lets go", async () => {
    const list = await cluster('n1', 'n2', 'n3');
    const [n1, n2] = list;
    n1.connect('alice');
    n1.connect('alice'); // a second tab on the same node: no Redis change
    await waitUntil('alice online everywhere', everywhere(list, 'alice', true));
    n2.connect('alice'); // and a socket on another node
    await sleep(300);
    n1.disconnect('alice');
    n1.disconnect('alice'); // gone from n1, still on n2
    await sleep(300);
    for (const n of list) {
      expect(n.store.has('alice')).toBe(true);
      expect(n.count('alice', 'online')).toBe(1);
      expect(n.count('alice', 'offline')).toBe(0);
    }
    n2.disconnect('alice');
    await waitUntil('alice offline everywhere', everywhere(list, 'alice', false));
    await sleep(200);
    for (const n of list) expect([n.count('alice', 'online'), n.count('alice', 'offline')]).toEqual([1, 1]);
  });

  it('a node that starts later mirrors the users already online (its snapshot is no change: no events)', async () => {
    const [n1] = await cluster('n1');
    n1.connect('bob');
    await waitUntil('bob online on n1', () => n1.store.has('bob'));
    const late = node('late');
    await late.store.start();
    expect(late.store.has('bob')).toBe(true);
    expect(late.changes).toEqual([]);
    expect(late.store.seq).toBe(n1.store.seq);
  });

  it("a killed node's users go offline on the others within the lease + a heartbeat; one who moved in time never flaps", async () => {
    const list = await cluster('n1', 'n2', 'n3');
    const [n1, n2, n3] = list;
    n1.connect('carol');
    n1.connect('dave');
    n3.connect('erin');
    await waitUntil('all online', () => ['carol', 'dave', 'erin'].every((u) => everywhere(list, u, true)()));
    const keys = presenceKeys(prefix, n1.store.instance);
    n1.kill();
    const t0 = Date.now();
    n2.connect('dave'); // dave's client reconnected to n2 right away
    await waitUntil('carol offline on n2 and n3', everywhere([n2, n3], 'carol', false), LEASE + 10 * BEAT + 2000);
    const elapsed = Date.now() - t0;
    expect(elapsed).toBeGreaterThanOrEqual(LEASE - 50);
    expect(elapsed).toBeLessThanOrEqual(LEASE + 3 * BEAT + 500);
    await sleep(2 * BEAT);
    for (const n of [n2, n3]) {
      expect(n.count('carol', 'offline')).toBe(1);
      expect(n.store.has('dave')).toBe(true);
      expect(n.count('dave', 'offline')).toBe(0);
      expect(n.count('dave', 'online')).toBe(1);
      expect(n.store.has('erin')).toBe(true);
    }
    // the dead node is gone from Redis
    raw = createRedisClient(REDIS_URL!);
    try {
      expect(await raw.zscore(keys.registry, n1.store.instance)).toBeNull();
      expect(await raw.exists(keys.node)).toBe(0);
      // and what remains expires if the whole cluster goes away
      const ttl = await raw.pttl(keys.registry);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(60_000);
    } finally {
      await closeRedis(raw);
    }
  });

  it('a node that stalled past its lease is reaped, and registers again with its users when it wakes up', async () => {
    const [watcher] = await cluster('watcher');
    const stalled = node('stalled', { heartbeatMs: 60_000 }); // never beats by itself
    await stalled.store.start();
    stalled.connect('frank');
    await waitUntil('frank online', () => watcher.store.has('frank'));
    await waitUntil('frank reaped', () => !watcher.store.has('frank'), LEASE + 10 * BEAT + 2000);
    await stalled.store.heartbeat(); // wakes up: not registered any more → registers again with frank
    await waitUntil('frank back online', () => watcher.store.has('frank') && stalled.store.has('frank'));
    expect([watcher.count('frank', 'online'), watcher.count('frank', 'offline')]).toEqual([2, 1]);
    expect(stalled.store.seq).toBe(watcher.store.seq);
  });

  it('Redis losing the presence keys (restarted empty): the nodes register again and the mirrors converge, no flap', async () => {
    const list = await cluster('n1', 'n2');
    const [n1, n2] = list;
    n1.connect('gina');
    n2.connect('hank');
    await waitUntil('both online', () => everywhere(list, 'gina', true)() && everywhere(list, 'hank', true)());
    // some history, so that the sequence after the loss is surely below this one (whichever test ran before)
    for (let i = 0; i < 5; i++) {
      n1.connect('xavi');
      n1.disconnect('xavi');
    }
    await waitUntil('the history mirrored', () => n2.count('xavi', 'offline') === 5);
    const before = n1.store.seq;
    raw = createRedisClient(REDIS_URL!);
    try {
      const keys = await raw.keys(`{${prefix}:presence}:*`);
      await raw.del(...keys);
      await waitUntil('sequence restarted', () => n1.store.seq < before && n2.store.seq < before, 3000);
    } finally {
      await closeRedis(raw);
    }
    n2.connect('ivan');
    await waitUntil('ivan online on n1', () => n1.store.has('ivan'));
    for (const n of list) {
      expect(n.store.has('gina') && n.store.has('hank')).toBe(true);
      expect(n.count('gina', 'offline') + n.count('hank', 'offline')).toBe(0);
    }
    expect(n1.store.seq).toBe(n2.store.seq);
  });

  it('after Redis lost the presence keys, a user whose node died meanwhile goes offline once the lease has passed', async () => {
    const list = await cluster('n1', 'n2', 'n3');
    const [n1, n2, n3] = list;
    n1.connect('kim');
    n3.connect('lou');
    await waitUntil('both online', () => everywhere(list, 'kim', true)() && everywhere(list, 'lou', true)());
    n3.kill(); // dies with Redis: it never registers again
    raw = createRedisClient(REDIS_URL!);
    try {
      await raw.del(...(await raw.keys(`{${prefix}:presence}:*`)));
    } finally {
      await closeRedis(raw);
    }
    const took = await waitUntil(
      'lou offline on n1 and n2',
      everywhere([n1, n2], 'lou', false),
      LEASE + 20 * BEAT + 2000,
    );
    // not before the nodes had a lease to register again
    expect(took).toBeGreaterThanOrEqual(LEASE - 2 * BEAT);
    await sleep(3 * BEAT);
    for (const n of [n1, n2]) {
      expect([n.count('lou', 'online'), n.count('lou', 'offline')]).toEqual([1, 1]);
      expect(n.count('kim', 'offline')).toBe(0);
      expect(n.store.has('kim')).toBe(true);
    }
  });

  it('a lost message (a gap in the sequence) makes a node resync: it still sees the change', async () => {
    const list = await cluster('n1', 'n2');
    const [n1, n2] = list;
    raw = createRedisClient(REDIS_URL!);
    try {
      await raw.incr(presenceKeys(prefix).seq); // a change published to nobody
    } finally {
      await closeRedis(raw);
    }
    n1.connect('judy');
    await waitUntil('judy online on n2', () => n2.store.has('judy'));
    expect(n2.count('judy', 'online')).toBe(1);
    expect(n2.store.seq).toBe(n1.store.seq);
  });

  it('another deployment (another prefix) on the same Redis never sees these users', async () => {
    const [n1] = await cluster('n1');
    const other = node('other', { prefix: `${prefix}-other` });
    await other.store.start();
    n1.connect('kim');
    await waitUntil('kim online on n1', () => n1.store.has('kim'));
    await sleep(200);
    expect(other.store.has('kim')).toBe(false);
    expect(other.changes).toEqual([]);
    await other.close();
    const keys = await (async () => {
      raw = createRedisClient(REDIS_URL!);
      try {
        return await raw.keys(`{${prefix}-other:presence}:*`);
      } finally {
        await closeRedis(raw);
      }
    })();
    expect(keys.length).toBeGreaterThan(0); // its own registry, under its own prefix
  });
});
