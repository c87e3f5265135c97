import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { LeaderboardResponse, Stats } from '@spades/common';
import { CoinsService, InsufficientFundsError } from '../src/coins/coins.service';
import { StatsService } from '../src/stats/stats.service';
import { api, createTestApp, registerUser, RegisteredUser, TestApp } from './support/test-app';

describe('coins ledger, stats and leaderboard', () => {
  let t: TestApp;
  let coins: CoinsService;
  let stats: StatsService;
  beforeAll(async () => {
    t = await createTestApp();
    coins = t.app.get(CoinsService);
    stats = t.app.get(StatsService);
  });
  afterAll(async () => {
    await t?.close();
  });

  const sumOfBalances = async () =>
    (await t.dataSource.query(`SELECT COALESCE(SUM(balance), 0)::text AS s FROM coin_accounts`))[0].s;
  const entriesBalanced = async () =>
    (
      await t.dataSource.query(
        `SELECT count(*)::int AS n FROM (SELECT transfer_id FROM coin_entries GROUP BY transfer_id HAVING SUM(amount) <> 0 OR count(*) <> 2) x`,
      )
    )[0].n;
  const balancesMatchEntries = async () =>
    (
      await t.dataSource.query(
        `SELECT count(*)::int AS n FROM coin_accounts a
          WHERE a.balance <> COALESCE((SELECT SUM(amount) FROM coin_entries e WHERE e.account_id = a.id), 0)`,
      )
    )[0].n;

  it('conserves coins: every transfer is two entries summing to 0, balances equal their entries, total is 0', async () => {
    const a = await registerUser(t.url);
    const b = await registerUser(t.url);
    const gameId = 'game-ledger-1';
    await t.dataSource.transaction(async (m) => {
      await coins.transfer(m, { userId: a.user.id }, { escrow: gameId }, 100_000, 'buy_in', gameId);
      await coins.transfer(m, { userId: b.user.id }, { escrow: gameId }, 100_000, 'buy_in', gameId);
    });
    expect(await coins.balanceOf({ escrow: gameId })).toBe(200_000n);
    await t.dataSource.transaction(async (m) => {
      await coins.transfer(m, { escrow: gameId }, { userId: a.user.id }, 180_000, 'payout', gameId);
      await coins.transfer(m, { escrow: gameId }, 'house', 20_000, 'rake', gameId);
    });
    expect(await coins.balanceOf({ userId: a.user.id })).toBe(5_080_000n);
    expect(await coins.balanceOf({ userId: b.user.id })).toBe(4_900_000n);
    expect(await coins.balanceOf({ escrow: gameId })).toBe(0n);
    expect(await sumOfBalances()).toBe('0');
    expect(await coins.totalSupplyCheck()).toBe(0n);
    expect(await entriesBalanced()).toBe(0);
    expect(await balancesMatchEntries()).toBe(0);
    const profile = await api<{ coins: number }>(t.url, 'GET', '/api/auth/profile', { token: a.token });
    expect(profile.body.coins).toBe(5_080_000);
  });

  it('refuses overdrafts before writing anything, and a failed caller transaction rolls the transfer back', async () => {
    const a = await registerUser(t.url);
    const entriesBefore = (await t.dataSource.query(`SELECT count(*)::int AS n FROM coin_entries`))[0].n;
    await expect(
      t.dataSource.transaction((m) =>
        coins.transfer(m, { userId: a.user.id }, { escrow: 'g-over' }, 5_000_001, 'buy_in', 'g-over'),
      ),
    ).rejects.toBeInstanceOf(InsufficientFundsError);
    await expect(
      t.dataSource.transaction(async (m) => {
        await coins.transfer(m, { userId: a.user.id }, { escrow: 'g-rollback' }, 1_000, 'buy_in', 'g-rollback');
        throw new Error('settlement failed later');
      }),
    ).rejects.toThrow('settlement failed later');
    expect(await coins.balanceOf({ userId: a.user.id })).toBe(5_000_000n);
    expect((await t.dataSource.query(`SELECT count(*)::int AS n FROM coin_entries`))[0].n).toBe(entriesBefore);
    await expect(
      coins.transfer(t.dataSource.manager, { userId: a.user.id }, { escrow: 'x' }, 0, 'buy_in'),
    ).rejects.toThrow(RangeError);
    await expect(
      coins.transfer(t.dataSource.manager, { userId: a.user.id }, { escrow: 'x' }, -5, 'buy_in'),
    ).rejects.toThrow(RangeError);
    await expect(
      coins.transfer(t.dataSource.manager, { userId: a.user.id }, { escrow: 'x' }, 1.5, 'buy_in'),
    ).rejects.toThrow();
    expect(await sumOfBalances()).toBe('0');
  });

  it('the database itself enforces non-negative balances (CHECK constraint) for users and escrows, not the house', async () => {
    const a = await registerUser(t.url);
    await expect(
      t.dataSource.query(`UPDATE coin_accounts SET balance = -1 WHERE user_id = $1`, [a.user.id]),
    ).rejects.toThrow(/coin_accounts_balance_non_negative/);
    await expect(
      t.dataSource.query(`INSERT INTO coin_accounts (key, kind, balance) VALUES ('escrow:neg', 'escrow', -5)`),
    ).rejects.toThrow(/coin_accounts_balance_non_negative/);
    await expect(
      t.dataSource.query(
        `INSERT INTO coin_entries (transfer_id, account_id, amount, reason) SELECT gen_random_uuid(), id, 0, 'x' FROM coin_accounts LIMIT 1`,
      ),
    ).rejects.toThrow();
    const [house] = await t.dataSource.query(`SELECT balance::text AS b FROM coin_accounts WHERE kind = 'house'`);
    expect(BigInt(house.b)).toBeLessThan(0n);
    expect(await coins.balanceOf({ userId: a.user.id })).toBe(5_000_000n);
  });

  it('concurrent transfers from one account never lose updates', async () => {
    const a = await registerUser(t.url);
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.dataSource.transaction((m) =>
          coins.transfer(m, { userId: a.user.id }, { escrow: `conc-${i % 2}` }, 1_000, 'buy_in', `c${i}`),
        ),
      ),
    );
    expect(await coins.balanceOf({ userId: a.user.id })).toBe(4_992_000n);
    expect((await coins.balanceOf({ escrow: 'conc-0' })) + (await coins.balanceOf({ escrow: 'conc-1' }))).toBe(8_000n);
    expect(await sumOfBalances()).toBe('0');
  });

  async function playGame(
    gameId: string,
    mode: 'PARTNERS' | 'SOLO',
    winners: RegisteredUser[],
    losers: RegisteredUser[],
    extra: Partial<{
      gameType: 'REG' | 'WHIZ' | 'MIRROR' | 'GIMMICK';
      specialRule: 'SCREAMER' | 'ASSASSIN' | null;
    }> = {},
  ) {
    return t.dataSource.transaction((m) =>
      stats.recordGameResult(m, {
        gameId,
        mode,
        gameType: extra.gameType ?? 'REG',
        specialRule: extra.specialRule ?? null,
        players: [
          ...winners.map((u) => ({
            userId: u.user.id,
            won: true,
            bags: 3,
            nilsBid: 1,
            nilsMade: 1,
            blindNilsBid: 0,
            blindNilsMade: 0,
          })),
          ...losers.map((u) => ({
            userId: u.user.id,
            won: false,
            bags: 1,
            nilsBid: 1,
            nilsMade: 0,
            blindNilsBid: 1,
            blindNilsMade: 1,
          })),
        ],
      }),
    );
  }

  it('records stats per mode inside a transaction, idempotently, and serves every field (ALL/PARTNERS/SOLO)', async () => {
    const [p1, p2, p3, p4] = await Promise.all([1, 2, 3, 4].map(() => registerUser(t.url)));
    const zero = await api<Stats>(t.url, 'GET', `/api/users/${p1.user.id}/stats`, { token: p2.token });
    expect(zero.status).toBe(200);
    expect(Object.values(zero.body).every((v) => v === 0)).toBe(true);
    expect(Object.keys(zero.body)).toHaveLength(20);

    expect(await playGame('st-1', 'PARTNERS', [p1, p3], [p2, p4], { gameType: 'WHIZ', specialRule: 'SCREAMER' })).toBe(
      true,
    );
    expect(await playGame('st-1', 'PARTNERS', [p1, p3], [p2, p4])).toBe(false); // same game again: no-op
    expect(await playGame('st-2', 'SOLO', [p1], [p2, p3, p4], { gameType: 'GIMMICK', specialRule: 'ASSASSIN' })).toBe(
      true,
    );
    // a failing settlement transaction leaves no stats behind
    await expect(
      t.dataSource.transaction(async (m) => {
        await stats.recordGameResult(m, {
          gameId: 'st-3',
          mode: 'SOLO',
          gameType: 'REG',
          specialRule: null,
          players: [
            { userId: p1.user.id, won: true, bags: 0, nilsBid: 0, nilsMade: 0, blindNilsBid: 0, blindNilsMade: 0 },
          ],
        });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');

    const get = async (mode?: string) =>
      (
        await api<Stats>(t.url, 'GET', `/api/users/${p1.user.id}/stats${mode ? `?mode=${mode}` : ''}`, {
          token: p2.token,
        })
      ).body;
    expect(await get()).toEqual({
      gamesPlayed: 2,
      gamesWon: 2,
      nilsBid: 2,
      nilsMade: 2,
      blindNilsBid: 0,
      blindNilsMade: 0,
      totalBags: 6,
      bagsPerGame: 3,
      regPlayed: 0,
      regWon: 0,
      whizPlayed: 1,
      whizWon: 1,
      mirrorPlayed: 0,
      mirrorWon: 0,
      gimmickPlayed: 1,
      gimmickWon: 1,
      screamerPlayed: 1,
      screamerWon: 1,
      assassinPlayed: 1,
      assassinWon: 1,
    });
    expect(await get('ALL')).toEqual(await get());
    expect(await get('PARTNERS')).toMatchObject({
      gamesPlayed: 1,
      whizPlayed: 1,
      gimmickPlayed: 0,
      screamerWon: 1,
      assassinPlayed: 0,
    });
    expect(await get('SOLO')).toMatchObject({
      gamesPlayed: 1,
      whizPlayed: 0,
      gimmickPlayed: 1,
      assassinWon: 1,
      screamerPlayed: 0,
    });
    const p2stats = (await api<Stats>(t.url, 'GET', `/api/users/${p2.user.id}/stats`, { token: p1.token })).body;
    expect(p2stats).toMatchObject({
      gamesPlayed: 2,
      gamesWon: 0,
      blindNilsBid: 2,
      blindNilsMade: 2,
      nilsMade: 0,
      totalBags: 2,
      bagsPerGame: 1,
    });
    const profile = await api<{ stats: Stats }>(t.url, 'GET', '/api/auth/profile', { token: p1.token });
    expect(profile.body.stats.gamesWon).toBe(2);

    expect((await api(t.url, 'GET', `/api/users/${p1.user.id}/stats?mode=TEAM`, { token: p2.token })).status).toBe(400);
    expect(
      (await api(t.url, 'GET', `/api/users/00000000-0000-4000-8000-000000000000/stats`, { token: p2.token })).status,
    ).toBe(404);
    expect((await api(t.url, 'GET', `/api/users/not-an-id/stats`, { token: p2.token })).status).toBe(404);
    expect((await api(t.url, 'GET', `/api/users/${p1.user.id}/stats`)).status).toBe(401);
  });

  it("leaderboard: top by coins, wins and win rate (≥ 10 games), plus the caller's own rank", async () => {
    // fresh, clearly separated players
    const rich = await registerUser(t.url);
    const poor = await registerUser(t.url);
    await t.dataSource.transaction((m) =>
      coins.transfer(m, 'house', { userId: rich.user.id }, 90_000_000, 'adjustment', 'test'),
    );
    await t.dataSource.transaction((m) =>
      coins.transfer(m, { userId: poor.user.id }, 'house', 4_999_999, 'adjustment', 'test'),
    );
    const byCoins = await api<LeaderboardResponse>(t.url, 'GET', '/api/leaderboard?by=coins', { token: poor.token });
    expect(byCoins.status).toBe(200);
    expect(byCoins.body.by).toBe('coins');
    expect(byCoins.body.entries[0]).toMatchObject({ rank: 1, userId: rich.user.id, coins: 95_000_000 });
    const coinsList = byCoins.body.entries.map((e) => e.coins);
    expect(coinsList).toEqual([...coinsList].sort((x, y) => y - x));
    expect(byCoins.body.me).toMatchObject({ userId: poor.user.id, coins: 1 });
    expect(byCoins.body.me!.rank).toBe(byCoins.body.entries.length); // poorest is last
    const defaultBy = await api<LeaderboardResponse>(t.url, 'GET', '/api/leaderboard', { token: poor.token });
    expect(defaultBy.body.by).toBe('coins');

    // win rate: veteran 8/10, grinder 9/12, newbie 3/3 (not enough games)
    const [veteran, grinder, newbie, filler] = await Promise.all([1, 2, 3, 4].map(() => registerUser(t.url)));
    const games: [RegisteredUser, number, number][] = [
      [veteran, 10, 8],
      [grinder, 12, 9],
      [newbie, 3, 3],
    ];
    for (const [u, played, won] of games) {
      for (let i = 0; i < played; i++) {
        await playGame(`lb-${u.user.id}-${i}`, 'SOLO', i < won ? [u] : [], i < won ? [filler] : [u, filler]);
      }
    }
    const byRate = await api<LeaderboardResponse>(t.url, 'GET', '/api/leaderboard?by=winRate', { token: newbie.token });
    const ids = byRate.body.entries.map((e) => e.userId);
    expect(ids.indexOf(veteran.user.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(veteran.user.id)).toBeLessThan(ids.indexOf(grinder.user.id));
    expect(ids).not.toContain(newbie.user.id);
    expect(byRate.body.me).toBeNull();
    expect(byRate.body.entries.find((e) => e.userId === veteran.user.id)).toMatchObject({
      gamesPlayed: 10,
      gamesWon: 8,
      winRate: 80,
    });
    expect(byRate.body.entries.every((e) => e.gamesPlayed >= 10)).toBe(true);

    const byWins = await api<LeaderboardResponse>(t.url, 'GET', '/api/leaderboard?by=wins', { token: newbie.token });
    const wins = byWins.body.entries.map((e) => e.gamesWon);
    expect(wins).toEqual([...wins].sort((x, y) => y - x));
    const w = byWins.body.entries;
    expect(w.findIndex((e) => e.userId === grinder.user.id)).toBeLessThan(
      w.findIndex((e) => e.userId === veteran.user.id),
    );
    expect(byWins.body.me).toMatchObject({ userId: newbie.user.id, gamesWon: 3 });

    expect((await api(t.url, 'GET', '/api/leaderboard?by=luck', { token: newbie.token })).status).toBe(400);
    expect((await api(t.url, 'GET', '/api/leaderboard?by=coins&x=1', { token: newbie.token })).status).toBe(400);
    expect((await api(t.url, 'GET', '/api/leaderboard')).status).toBe(401);
    expect(await sumOfBalances()).toBe('0');
  });
});
