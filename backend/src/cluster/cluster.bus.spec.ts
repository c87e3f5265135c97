/**
 * ClusterBus over a real Redis: a request reaches the named node only, its value or its error (status + message)
 * comes back, a node nobody listens for fails fast, nodes of another database never hear each other.
 */
import { NotFoundException } from '@nestjs/common';
import { TableError } from '../games/table';
import { AppConfig } from '../config/config.schema';
import { ClusterBus, errorPayload, NodeUnreachable, RemoteError } from './cluster.bus';

const REDIS_URL = process.env.REDIS_URL;
const d = REDIS_URL ? describe : describe.skip;
if (!REDIS_URL) console.warn('[cluster.bus.spec] REDIS_URL not set: the Redis-backed bus tests are skipped');

const config = (nodeId: string, db = 'postgres://x/bus-spec'): AppConfig =>
  ({
    databaseUrl: db,
    redisUrl: REDIS_URL,
    dataDir: '/tmp',
    cluster: { enabled: true, nodeId, leaseMs: 5000 },
  }) as unknown as AppConfig;

describe('errorPayload', () => {
  it('keeps the status and message of HTTP and table errors, hides internal ones', () => {
    expect(errorPayload(new TableError('Not your turn', 400))).toEqual({
      message: 'Not your turn',
      status: 400,
      code: undefined,
    });
    expect(errorPayload(new NotFoundException('Game not found'))).toMatchObject({
      message: 'Game not found',
      status: 404,
    });
    expect(errorPayload(new RemoteError('x', 409, 'NOT_OWNER'))).toMatchObject({
      message: 'x',
      status: 409,
      code: 'NOT_OWNER',
    });
    expect(errorPayload(new Error('secret stack detail'))).toEqual({
      message: 'Internal server error',
      status: 500,
      code: undefined,
    });
  });
});

d('ClusterBus (Redis)', () => {
  const buses: ClusterBus[] = [];
  const bus = async (nodeId: string, db?: string) => {
    const b = new ClusterBus(config(`${nodeId}-${process.pid}`, db));
    buses.push(b);
    await b.start();
    return b;
  };
  afterAll(() => Promise.all(buses.map((b) => b.onApplicationShutdown())));

  it('calls the named node and returns its value; errors keep status and message', async () => {
    const a = await bus('a');
    const b = await bus('b');
    const c = await bus('c');
    const seen: string[] = [];
    b.handle('echo', (args, from) => {
      seen.push(`b:${from}`);
      return { args, by: 'b' };
    });
    c.handle('echo', () => {
      seen.push('c');
      return 'c';
    });
    b.handle('fail', () => {
      throw new TableError('Not your turn', 400);
    });
    await expect(a.call(b.nodeId, 'echo', [1, 'two', { three: 3 }])).resolves.toEqual({
      args: [1, 'two', { three: 3 }],
      by: 'b',
    });
    expect(seen).toEqual([`b:${a.nodeId}`]);
    const err = await a.call(b.nodeId, 'fail', []).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RemoteError);
    expect((err as RemoteError).getStatus()).toBe(400);
    expect((err as RemoteError).message).toBe('Not your turn');
    await expect(a.call(b.nodeId, 'nope', [])).rejects.toMatchObject({ status: 500 });
  });

  it('a node nobody listens for fails at once; a silent node times out', async () => {
    const a = await bus('a2');
    const t0 = Date.now();
    await expect(a.call('no-such-node', 'echo', [])).rejects.toBeInstanceOf(NodeUnreachable);
    expect(Date.now() - t0).toBeLessThan(2000);
    const slow = await bus('slow');
    slow.handle('hang', () => new Promise(() => undefined));
    await expect(a.call(slow.nodeId, 'hang', [], 300)).rejects.toBeInstanceOf(NodeUnreachable);
  });

  it('nodes of another database (another channel prefix) are not reached', async () => {
    const a = await bus('a3', 'postgres://x/one');
    const other = await bus('b3', 'postgres://x/two');
    other.handle('echo', () => 'wrong cluster');
    await expect(a.call(other.nodeId, 'echo', [])).rejects.toBeInstanceOf(NodeUnreachable);
  });
});
