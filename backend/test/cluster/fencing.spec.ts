/* eslint-disable @typescript-eslint/no-explicit-any -- raw SQL rows */
/**
 * Issue #13, fencing: a write carries the ownership epoch its node holds; once another node has raised the epoch
 * (a take-over), the late write is refused and nothing of it is stored — in a group commit with other tables'
 * writes, and inside a coins transaction (writeIn).
 */
import { DataSource } from 'typeorm';
import { SETTINGS } from '../games/helpers';
import { createTestApp, registerUser, api, TestApp } from '../support/test-app';
import { TableStore, TableWrite } from '../../src/games/table.store';
import { FencedError, TableOwnership } from '../../src/games/table.ownership';

describe('table ownership fencing', () => {
  let t: TestApp;
  beforeAll(async () => {
    // one node, no Redis: the store and ownership are exercised directly
    t = await createTestApp({ env: { REDIS_URL: undefined } });
  }, 60_000);
  afterAll(() => t?.close());

  async function newTable(): Promise<string> {
    const u = await registerUser(t.url);
    const res = await api(t.url, 'POST', '/api/games', { token: u.token, body: SETTINGS });
    expect(res.status).toBe(201);
    return res.body.id;
  }

  const write = (gameId: string, seq: number, epoch: number | null): TableWrite => ({
    gameId,
    seq,
    type: 'chat',
    actor: null,
    actorKind: 'server',
    actionId: null,
    payload: { message: `w${seq}` },
    result: null,
    actions: [],
    delta: null,
    snapshot: null,
    hand: null,
    epoch,
  });

  const events = async (gameId: string) =>
    (
      await t.dataSource.query(`SELECT seq FROM game_events WHERE game_id = $1 AND seq >= 1000 ORDER BY seq`, [gameId])
    ).map((r: any) => Number(r.seq));

  it('a write with the epoch the table has is stored; after a take-over the old epoch is refused, the new one stored', async () => {
    const store = t.app.get(TableStore);
    const own = t.app.get(TableOwnership);
    const [a, b] = [await newTable(), await newTable()];
    const before = await own.ownerOf(a);
    expect(before).toEqual({ node: null, epoch: 0 });
    await store.append(write(a, 1000, 0));
    expect(await events(a)).toEqual([1000]);

    // another node takes table a over: epoch 1
    expect(await own.claim(a, 'node-b', before!)).toBe(1);
    expect(await own.claim(a, 'node-c', before!)).toBeNull(); // compare-and-set: the stale owner view loses
    expect(await own.ownerOf(a)).toEqual({ node: 'node-b', epoch: 1 });

    // the old owner wakes up late: its write (epoch 0) is refused, while table b's write in the same group commit is kept
    const late = store.append(write(a, 1001, 0));
    const other = store.append(write(b, 1000, 0));
    await expect(late).rejects.toBeInstanceOf(FencedError);
    await expect(other).resolves.toBeUndefined();
    expect(await events(a)).toEqual([1000]);
    expect(await events(b)).toEqual([1000]);

    // the new owner writes with its epoch
    await store.append(write(a, 1001, 1));
    expect(await events(a)).toEqual([1000, 1001]);
  });

  it('in ONE group commit statement a fenced write is left out and the other tables are stored', async () => {
    const store = t.app.get(TableStore);
    const own = t.app.get(TableOwnership);
    const [a, b] = [await newTable(), await newTable()];
    await own.claim(a, 'node-b', (await own.ownerOf(a))!); // a's epoch is 1 now
    // writes appended in the same turn of the event loop go together in the next group commit: one statement
    const groups = jest.spyOn(store as any, 'writeGroup');
    try {
      const late = store.append(write(a, 1000, 0));
      const other = store.append(write(b, 1000, 0));
      await expect(late).rejects.toBeInstanceOf(FencedError);
      await expect(other).resolves.toBeUndefined();
      const batches = groups.mock.calls.map(([ws]) => (ws as { write: TableWrite }[]).map((r) => r.write.gameId));
      expect(batches).toEqual([[a, b]]);
      expect(await events(a)).toEqual([]);
      expect(await events(b)).toEqual([1000]);
    } finally {
      groups.mockRestore();
    }
  });

  it('keeps storing after the pool replaces its connections (the embedded database keeps one session across them)', async () => {
    const store = t.app.get(TableStore);
    const a = await newTable();
    await store.append(write(a, 1000, null));
    // close every idle pooled connection: the next write runs on a new one
    const pool = (t.app.get(DataSource).driver as any).master as {
      idleCount: number;
      connect(): Promise<{ release(destroy: boolean): void }>;
    };
    const idle = await Promise.all(Array.from({ length: pool.idleCount }, () => pool.connect()));
    expect(idle.length).toBeGreaterThan(0);
    for (const c of idle) c.release(true);
    await store.append(write(a, 1001, null));
    expect(await events(a)).toEqual([1000, 1001]);
  });

  it('inside a coins transaction (writeIn) a fenced write rolls the whole transaction back', async () => {
    const store = t.app.get(TableStore);
    const own = t.app.get(TableOwnership);
    const a = await newTable();
    await own.claim(a, 'node-b', (await own.ownerOf(a))!);
    const marker = `fence-${Date.now()}`;
    await expect(
      store.transaction(async (m) => {
        await m.query(`UPDATE games SET updated_at = now() WHERE id = $1`, [a]);
        await m.query(`CREATE TEMP TABLE IF NOT EXISTS fence_probe (v text)`);
        await m.query(`INSERT INTO fence_probe VALUES ($1)`, [marker]);
        await store.writeIn(m, write(a, 1000, 0));
      }),
    ).rejects.toBeInstanceOf(FencedError);
    expect(await events(a)).toEqual([]);
  });

  it('a hand-over and an orphan claim are compare-and-set too; closed tables are never claimed', async () => {
    const own = t.app.get(TableOwnership);
    const a = await newTable();
    const b = await newTable();
    await t.dataSource.query(`UPDATE games SET owner_node = 'dead-node', owner_epoch = 5 WHERE id = ANY($1::uuid[])`, [
      [a, b],
    ]);
    await t.dataSource.query(`UPDATE games SET status = 'CLOSED' WHERE id = $1`, [b]);
    expect(await own.handOver(a, 4, 'x')).toBe(false);
    const claimed = await own.claimOrphans('alive', ['alive'], 1000);
    expect(claimed.find((c) => c.id === a)).toEqual({ id: a, epoch: 6 });
    expect(claimed.find((c) => c.id === b)).toBeUndefined();
    expect(await own.handOver(a, 6, 'next')).toBe(true);
    expect(await own.ownerOf(a)).toEqual({ node: 'next', epoch: 7 });
  });
});
