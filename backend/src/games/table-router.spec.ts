/**
 * A command forwarded (bus `games`) to a node that does not drive the table: the node answers NOT_OWNER so that the
 * caller looks the owner up again. A node going away (draining, stopping) answers so at once, without its database:
 * after a drain its connections may already be closed, and a "Connection terminated" would have failed the
 * player's command instead of sending it on to the table's new owner (seen in cluster.spec's drain test).
 */
import { RemoteError } from '../cluster/cluster.bus';
import type { ClusterPeers } from './cluster-peers';
import type { LocalTables } from './local-tables.service';
import { TableRouter } from './table-router';
import type { TableFailover } from './table-failover';

const GAME = '8e372250-877a-409c-a8c9-3e476aee6c65';

function routerOn(node: { draining?: boolean; stopping?: boolean; owner?: string }) {
  const ownerOf = jest.fn(async () => {
    if (node.draining || node.stopping) throw new Error('Connection terminated');
    return { node: node.owner ?? 'node-c', epoch: 3 };
  });
  const adopt = jest.fn(async () => undefined);
  const local = { tables: { get: () => undefined }, isStopping: !!node.stopping } as unknown as LocalTables;
  const peers = {
    enabled: true,
    nodes: { nodeId: 'node-b', isDraining: !!node.draining },
    ownership: { ownerOf },
  } as unknown as ClusterPeers;
  const failover = { adopt } as unknown as TableFailover;
  const none = {} as never;
  return { router: new TableRouter(local, peers, failover, none, none, none, none, none), ownerOf, adopt };
}

async function refusal(p: Promise<unknown>): Promise<RemoteError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(RemoteError);
  return e as RemoteError;
}

describe('TableRouter.remote: a forwarded command for a table this node does not drive', () => {
  it.each([
    ['draining', { draining: true }],
    ['stopping', { stopping: true }],
  ])('a %s node answers NOT_OWNER without asking its database', async (_, state) => {
    const { router, ownerOf, adopt } = routerOn(state);
    const e = await refusal(router.remote('view', [GAME, 'user-1']));
    expect(e.code).toBe('NOT_OWNER');
    expect(e.getStatus()).toBe(409);
    expect(ownerOf).not.toHaveBeenCalled();
    expect(adopt).not.toHaveBeenCalled();
  });

  it('a running node that is not the owner answers NOT_OWNER after looking it up', async () => {
    const { router, ownerOf, adopt } = routerOn({ owner: 'node-c' });
    const e = await refusal(router.remote('view', [GAME, 'user-1']));
    expect(e.code).toBe('NOT_OWNER');
    expect(ownerOf).toHaveBeenCalledWith(GAME);
    expect(adopt).not.toHaveBeenCalled();
  });

  it('refuses an unknown command with a 400', async () => {
    const { router, ownerOf } = routerOn({});
    await expect(router.remote('dropTables', [GAME])).rejects.toMatchObject({ status: 400 });
    expect(ownerOf).not.toHaveBeenCalled();
  });
});
