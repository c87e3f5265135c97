/**
 * Four browser contexts play a rated PARTNERS game to the end (max points 100) through the real backend;
 * a fifth context spectates and never receives a hand; a player reloads mid-hand and is back at the
 * same state; coin balances change per §9 (pot 90% of 4 buy-ins, half to each winning partner).
 */
import { expect, test, type Page } from '@playwright/test';
import { base, newPlayer, playUntil, shot, shotBoth, tableSnapshot } from './helpers';

test.setTimeout(600_000);

async function coins(page: Page): Promise<number> {
  const token = await page.evaluate(() => localStorage.getItem('sessionToken'));
  const r = await fetch(`${base()}/api/auth/profile`, { headers: { Authorization: `Bearer ${token}` } });
  return ((await r.json()) as { coins: number }).coins;
}

test('four players finish a rated game; coins move per §9; a spectator never sees a hand; reload mid-hand', async ({
  browser,
}) => {
  const players: Awaited<ReturnType<typeof newPlayer>>[] = [];
  for (const n of ['north', 'east', 'south', 'west']) players.push(await newPlayer(browser, n));
  const [host, ...others] = players;

  // Host creates a short rated game (max points 100).
  await host.page.getByRole('button', { name: 'Create Game' }).first().click();
  const dialog = host.page.getByRole('dialog', { name: 'Create Game' });
  for (let i = 0; i < 8; i++) await dialog.getByRole('button', { name: 'Decrease Max points' }).click();
  await expect(dialog.getByTestId('value-Max points')).toHaveText('100');
  await dialog.getByRole('button', { name: 'Create Game' }).click();
  await expect(host.page).toHaveURL(/\/table\//);
  const gameId = host.page.url().split('/table/')[1];

  // The others join from the lobby (live list), each on a free seat.
  for (const p of others) {
    const card = p.page
      .getByTestId('game-card')
      .filter({ has: p.page.getByRole('button', { name: 'Join', exact: true }) })
      .first();
    await expect(card).toBeVisible();
    await card.getByRole('button', { name: 'Join', exact: true }).click();
    await expect(p.page).toHaveURL(new RegExp(`/table/${gameId}`));
  }

  // A spectator watches; every websocket frame it receives is checked for cards.
  const spectator = await newPlayer(browser, 'rail');
  const frames: string[] = [];
  spectator.page.on('websocket', (ws) =>
    ws.on('framereceived', (f) => frames.push(typeof f.payload === 'string' ? f.payload : f.payload.toString())),
  );
  await spectator.page.goto(`${base()}/table/${gameId}?spectate=1`);
  await expect(spectator.page.getByText('SPECTATING')).toBeVisible();

  // Four humans: Start Game goes straight through (no warning).
  await expect(host.page.getByText('4/4 seated')).toBeVisible();
  const before = await Promise.all(players.map((p) => coins(p.page)));
  await host.page.getByRole('button', { name: 'Start Game' }).click();
  for (const p of players)
    await expect(p.page.getByRole('toolbar', { name: /Your (hand|cards)/ })).toBeVisible({ timeout: 30_000 });
  await shotBoth(host.page, '50-rated-start');

  // Everybody bids 3, in turn: the page showing the bid panel is the one to bid.
  const bidPanel = (p: Page) => p.getByRole('dialog', { name: 'Make your bid' });
  /** Index of the (single) player for whom `locator(page)` is visible, waiting for it. */
  async function whoseTurn(locator: (p: Page) => ReturnType<Page['getByRole']>): Promise<number> {
    let who = -1;
    await expect
      .poll(
        async () => {
          const seen = await Promise.all(players.map((p) => locator(p.page).isVisible()));
          who = seen.indexOf(true);
          return seen.filter(Boolean).length;
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    return who;
  }
  for (let n = 0; n < 4; n++) {
    const i = await whoseTurn(bidPanel);
    await bidPanel(players[i].page).getByRole('button', { name: 'Bid 3' }).click();
    await expect(bidPanel(players[i].page)).toBeHidden();
  }

  // The leader plays a card; then the next player (whose turn it is: the table waits for a human) reloads
  // mid-hand and is back at the same state: same 13 cards, same bids and trick, still their turn.
  const yourTurn = (p: Page) => p.getByRole('status').filter({ hasText: /^Your turn$/ });
  const leader = await whoseTurn(yourTurn);
  await players[leader].page
    .getByRole('button', { name: /, playable$/ })
    .first()
    .click();
  await expect(yourTurn(players[leader].page)).toBeHidden();
  const next = await whoseTurn(yourTurn);
  expect(next).not.toBe(leader);
  const reloader = players[next].page;
  await expect(reloader.getByLabel('Current trick').getByRole('img')).toHaveCount(1);
  const snapshot = await tableSnapshot(reloader);
  expect(snapshot.hand).toHaveLength(13);
  expect(snapshot.trick).toHaveLength(1);
  expect(snapshot.seats.filter((l) => /bid 3, 0 tricks/.test(l))).toHaveLength(4);
  await reloader.reload();
  await expect(reloader.getByRole('button', { name: /, playable$/ }).first()).toBeVisible();
  expect(await tableSnapshot(reloader)).toEqual(snapshot);

  // Play to the end: every page bids and plays until its result dialog shows.
  const result = (p: Page) => p.getByRole('dialog', { name: /wins!|Game over/ });
  await Promise.all(players.map((p) => playUntil(p.page, result(p.page), { bid: 'Bid 3', maxMs: 520_000 })));
  await shotBoth(host.page, '51-rated-result');
  await shot(spectator.page, '52-spectator-result');

  // Coins per §9: winners +pot/2 − buy-in, losers −buy-in (pot = 4 × 100k × 0.9).
  const after = await Promise.all(players.map((p) => coins(p.page)));
  const deltas = after.map((a, i) => a - before[i]);
  expect([...deltas].sort((x, y) => x - y)).toEqual([-100_000, -100_000, 80_000, 80_000]);
  // Partners win together: seats 0+2 or 1+3 share the same result.
  expect(deltas[0]).toBe(deltas[2]);
  expect(deltas[1]).toBe(deltas[3]);

  // The spectator never saw a hand: no own-hand UI and no card in any hand field of any frame.
  await expect(spectator.page.getByRole('toolbar', { name: /Your (hand|cards)/ })).toHaveCount(0);
  const leaked = frames.filter((f) => /"hands":\[(\[\],)*\[\{/.test(f) || /"hand":\[\{/.test(f));
  expect(leaked).toEqual([]);
  expect(frames.length).toBeGreaterThan(10);
});
