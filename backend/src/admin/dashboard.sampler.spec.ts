import { NodeActivity, p99, seriesOf, windowOf } from './dashboard.sampler';

const bounds = [1, 5, 10, 50, null];
const node = (id: string, samples: [number, number, number[]][]): NodeActivity => ({
  nodeId: id,
  bounds,
  samples: samples.map(([at, actions, ackBuckets]) => ({ at, actions, ackBuckets })),
  sockets: null,
  eventLoopP99Ms: null,
  rssMB: null,
});

describe('dashboard figures', () => {
  it('p99 is the upper bound of the bucket holding the 99th percentile; +Inf answers the largest bound', () => {
    expect(p99(bounds, [0, 0, 0, 0, 0])).toBeNull();
    expect(p99(bounds, [98, 100, 100, 100, 100])).toBe(5);
    expect(p99(bounds, [99, 100, 100, 100, 100])).toBe(1);
    expect(p99(bounds, [100, 100, 100, 100, 100])).toBe(1);
    expect(p99(bounds, [0, 0, 0, 0, 3])).toBe(50);
  });

  it('a window sums the nodes’ rates and buckets between the sample at its start and the latest', () => {
    const now = 600_000;
    const a = node('a', [
      [0, 0, [0, 0, 0, 0, 0]],
      [now - 60_000, 100, [10, 10, 10, 10, 10]],
      [now, 700, [60, 110, 110, 110, 110]],
    ]);
    const b = node('b', [
      [now - 60_000, 0, [0, 0, 0, 0, 0]],
      [now, 600, [0, 0, 0, 100, 100]],
    ]);
    const w = windowOf([a, b], 1, now);
    expect(w.actionsPerSecond).toBe(20); // (600 + 600) / 60 s
    expect(w.acks).toBe(200);
    expect(w.ackP99Ms).toBe(50);
    expect(windowOf([a], 5, now)).toEqual({ minutes: 5, actionsPerSecond: 10, ackP99Ms: 5, acks: 100 });
    // a window longer than the samples starts at the oldest one
    expect(windowOf([a], 15, now)).toEqual({ minutes: 15, actionsPerSecond: 1.2, ackP99Ms: 5, acks: 110 });
  });

  it('a restarted node never gives a negative rate; a node with one sample adds nothing', () => {
    const now = 100_000;
    const restarted = node('a', [
      [now - 10_000, 500, [5, 5, 5, 5, 5]],
      [now, 20, [1, 1, 1, 1, 1]],
    ]);
    expect(windowOf([restarted, node('b', [[now, 9, [1, 1, 1, 1, 1]]])], 1, now)).toEqual({
      minutes: 1,
      actionsPerSecond: 0,
      ackP99Ms: null,
      acks: 0,
    });
  });

  it('the series bins every node’s intervals by wall clock, oldest first', () => {
    const a = node('a', [
      [0, 0, [0, 0, 0, 0, 0]],
      [10_000, 100, [1, 1, 1, 1, 1]],
      [20_000, 300, [1, 2, 2, 2, 2]],
      [25_000, 400, [1, 2, 2, 2, 2]],
    ]);
    const b = node('b', [
      [1_000, 0, [0, 0, 0, 0, 0]],
      [11_000, 50, [0, 0, 0, 0, 0]],
    ]);
    expect(seriesOf([a, b])).toEqual([
      { at: new Date(10_000).toISOString(), actionsPerSecond: 10, ackP99Ms: 1 },
      { at: new Date(20_000).toISOString(), actionsPerSecond: 25, ackP99Ms: 5 },
      { at: new Date(30_000).toISOString(), actionsPerSecond: 20, ackP99Ms: null },
    ]);
  });
});
