/**
 * What a player sees around a game (issue 15): Play Again at a table with bots starts the next game and closes the
 * result dialog; keyboard focus stays on the hand after a play and the blind-nil prompt focuses the safe choice;
 * the SOLO result lists places 1–4 with their coins; a spectator is announced as watching and is told why the
 * table closed.
 */
import { expect, test, type Page } from '@playwright/test';
import { apiCreateGame, apiRegister, base, newPlayer, playUntil, shot, shotBoth } from './helpers';
import { tableFixture } from './fixtures';

async function api(token: string, method: string, path: string, body: unknown = {}) {
  const r = await fetch(`${base()}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: method === 'GET' ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json().catch(() => null)) as Record<string, unknown> };
}

async function openFixture(page: Page, fixture: unknown) {
  await page.unrouteAll();
  await page.route('**/api/games/fixture-table', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(fixture) }),
  );
  await page.route('**/api/games/fixture-table/*', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(fixture) }),
  );
  await page.goto(`${base()}/table/fixture-table`);
  await page.addStyleTag({ content: '.toasts { display: none !important; }' });
  await expect(page.locator('.table-page')).toBeVisible();
}

test('Play Again with bots starts the next game at the same table and closes the result dialog; focus stays on the hand', async ({
  browser,
}) => {
  const { page, id } = await newPlayer(browser, 'again');
  const token = await page.evaluate(() => localStorage.getItem('sessionToken') as string);
  // -100..100 and a bid of 13: our side is set in the first hand, the game ends after one hand
  const gameId = await apiCreateGame(token, { maxPoints: 100, minPoints: -100 });
  for (const seatIndex of [1, 2, 3])
    expect(
      (await api(token, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex, requesterId: id })).status,
    ).toBeLessThan(300);
  expect((await api(token, 'POST', `/api/games/${gameId}/start`)).status).toBeLessThan(300);
  await page.goto(`${base()}/table/${gameId}`);
  const hand = page.getByRole('toolbar', { name: 'Your hand' });
  await expect(hand).toBeVisible({ timeout: 30_000 });

  // Keyboard: play a card with Enter; the focus comes back to the hand (not the page body).
  const bidPanel = page.getByRole('dialog', { name: 'Make your bid' });
  await expect(bidPanel).toBeVisible({ timeout: 60_000 });
  await bidPanel.getByRole('button', { name: 'Bid 13' }).click();
  const playable = page.getByRole('button', { name: /, playable$/ });
  await expect(playable.first()).toBeVisible({ timeout: 60_000 });
  await playable.first().focus();
  await page.keyboard.press('Enter');
  await expect(hand.locator('.hand-card')).toHaveCount(12, { timeout: 15_000 });
  await expect
    .poll(() => page.evaluate(() => !!document.activeElement?.closest('[role="toolbar"][aria-label="Your hand"]')))
    .toBe(true);

  const result = page.getByRole('dialog', { name: /wins!|Game over/ });
  await playUntil(page, result, { bid: 'Bid 13', maxMs: 170_000 });
  await expect(result).toContainText('Leaving the table in');
  await shot(page, '41-play-again-result');
  await result.getByRole('button', { name: 'Play Again' }).click();
  // the next game is dealt at once: the dialog closes, a new hand of 13 cards, still at this table
  await expect(result).toBeHidden({ timeout: 15_000 });
  await expect(page.getByText('Starting new game...')).toHaveCount(0);
  await expect(hand.locator('.hand-card')).toHaveCount(13, { timeout: 30_000 });
  expect(page.url()).toContain(`/table/${gameId}`);
  const view = await api(token, 'GET', `/api/games/${gameId}`);
  expect(view.body.gameNumber).toBe(2);
  expect(['BIDDING', 'PLAYING']).toContain(view.body.status);
  await shot(page, '42-play-again-next-game');
  await api(token, 'POST', `/api/games/${gameId}/leave`);
});

test('the blind-nil prompt focuses No; the SOLO result lists places 1–4 with their coins', async ({ browser }) => {
  const { page, username, id } = await newPlayer(browser, 'keys');
  await openFixture(page, tableFixture({ selfId: id, selfName: username, status: 'BIDDING', blindNil: true }));
  const prompt = page.getByRole('alertdialog', { name: 'Bid blind nil?' });
  await expect(prompt).toBeVisible();
  await expect(prompt.getByRole('button', { name: 'No' })).toBeFocused();

  const solo = tableFixture({ selfId: id, selfName: username, status: 'COMPLETED', gameMode: 'SOLO' });
  Object.assign(solo, {
    rated: true,
    winningTeam: null,
    winningPlayer: 1,
    places: [3, 1, 2, 4],
    playerScores: [120, 512, 300, -40],
    payouts: [0, 260_000, 100_000, 0],
  });
  await openFixture(page, solo);
  const result = page.getByRole('dialog', { name: 'Marlowe wins!' });
  await expect(result).toBeVisible();
  const places = result.getByRole('list', { name: 'Places' }).getByRole('listitem');
  await expect(places).toHaveText([
    /^1st\s*Marlowe.*512 pts.*\+260,000/,
    /^2nd\s*Bot Bella.*300 pts.*\+100,000/,
    new RegExp(`^3rd\\s*${username}.*120 pts.*0$`),
    /^4th\s*Queenie.*-40 pts.*0$/,
  ]);
  await shotBoth(page, '43-solo-result-places');
});

test('a spectator is announced as watching and is told why the table closed', async ({ browser }) => {
  const host = await apiRegister('hst');
  const gameId = await apiCreateGame(host.token, {});
  const { page, username } = await newPlayer(browser, 'watch');
  await page.goto(`${base()}/table/${gameId}?spectate=1`);
  await expect(page.getByText(`${username} is watching.`)).toBeVisible();
  await expect(page.getByText(`${username} joined the game.`)).toHaveCount(0);
  expect((await api(host.token, 'POST', `/api/games/${gameId}/leave`)).status).toBeLessThan(300);
  await expect(page.getByText('The table was closed: All players left the table.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Available Games' })).toBeVisible();
  await shot(page, '44-spectator-table-closed');
});
