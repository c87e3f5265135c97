/* eslint-disable @typescript-eslint/no-explicit-any -- the heartbeat round's result is set directly (no database) */
import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config.schema';
import { ClusterNodes, NodeInfo, PLACEMENT_SLACK_TABLES } from './cluster.nodes';

function nodesAt(round: Record<string, number>, liveNow: number): ClusterNodes {
  const config = { cluster: { enabled: true, nodeId: 'self', leaseMs: 5000 } } as AppConfig;
  const n = new ClusterNodes(config, {} as DataSource);
  (n as any).nodes = Object.entries(round).map(([id, liveTables]): NodeInfo => ({
    id,
    draining: false,
    liveTables,
    botQueue: 0,
  }));
  n.setLoadProvider(() => ({ liveTables: liveNow, botQueue: 0 }));
  return n;
}

describe('ClusterNodes.leastLoaded (placement)', () => {
  it('keeps a table on this node within the slack, else sends it to the least-loaded node', () => {
    expect(nodesAt({ self: 5 + PLACEMENT_SLACK_TABLES, a: 5, b: 4 }, 5 + PLACEMENT_SLACK_TABLES).leastLoaded()).toBe(
      'self',
    );
    expect(nodesAt({ self: 30, a: 5, b: 4 }, 30).leastLoaded()).toBe('b');
  });

  it('compares loads of the same round: tables this node created since its heartbeat do not count against it', () => {
    // a burst: 40 live here now, but every node reported about the same a moment ago (the others grew too, unseen)
    expect(nodesAt({ self: 10, a: 9, b: 10 }, 40).leastLoaded()).toBe('self');
  });

  it('counts what it placed on a node since that node reported', () => {
    const n = nodesAt({ self: 40, a: 5, b: 6 }, 40);
    expect(n.leastLoaded()).toBe('a');
    n.notePlaced('a');
    n.notePlaced('a');
    expect(n.leastLoaded()).toBe('b');
  });

  it('before its first round (or alone) it keeps the table', () => {
    expect(nodesAt({}, 100).leastLoaded()).toBe('self');
    expect(nodesAt({ self: 100 }, 100).leastLoaded()).toBe('self');
  });
});
