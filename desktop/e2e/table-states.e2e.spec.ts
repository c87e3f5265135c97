/**
 * Every table state rendered from a server TableView (GET /api/games/:id answered with a fixture of the
 * protocol shape; the rest of the app talks to the real backend). Complements client.e2e.spec.ts, which
 * plays through the real games backend.
 */
import { expect, test, type Page } from '@playwright/test';
import { base, newPlayer, shot, shotBoth } from './helpers';
import { tableFixture } from './fixtures';

async function openFixture(page: Page, fixture: unknown, query = '') {
  await page.route('**/api/games/fixture-table', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(fixture) }),
  );
  await page.route('**/api/games/fixture-table/*', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(fixture) }),
  );
  await page.goto(`${base()}/table/fixture-table${query}`);
  // The fixture table exists only in this page: the real server answers the socket's join_game for it with a
  // "Game not found" toast, which is no part of the state being shown.
  await page.addStyleTag({ content: '.toasts { display: none !important; }' });
  // (a modal dialog hides the rest from the accessibility tree, so wait for the layout itself)
  await expect(page.locator('.table-page')).toBeVisible();
}

test('table states: waiting, bidding, playing, summary with verified deal, result, spectator', async ({ browser }) => {
  const { page, username, id } = await newPlayer(browser, 'fx');

  // Host waiting with empty seats: Start Game, Add bot, the §8 warning.
  await openFixture(page, tableFixture({ selfId: id, selfName: username, status: 'WAITING', emptySeats: [1, 3] }));
  await expect(page.getByRole('button', { name: 'Start Game' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Invite a bot to seat/ })).toHaveCount(2);
  await expect(page.getByRole('button', { name: 'Remove bot from seat 3' })).toBeVisible();
  await shotBoth(page, '30-fx-waiting-host');
  await page.getByRole('button', { name: 'Start Game' }).click();
  await expect(page.getByText('Coin games require 4 human players. You have 2 empty seat(s).')).toBeVisible();
  await shot(page, '31-fx-start-warning');
  await page.getByRole('button', { name: 'Cancel' }).click();

  // Bidding: exactly common's legal bids (REG with Nil: Nil, 1–13).
  await page.unrouteAll();
  await openFixture(page, tableFixture({ selfId: id, selfName: username, status: 'BIDDING' }));
  const bidPanel = page.getByRole('dialog', { name: 'Make your bid' });
  await expect(bidPanel).toBeVisible();
  await expect(bidPanel.getByRole('button')).toHaveCount(14);
  await expect(bidPanel.getByRole('button', { name: 'Bid nil' })).toBeVisible();
  await shotBoth(page, '32-fx-bidding');

  // Blind nil allowed and cards not seen yet: the prompt comes after 1 s; cards stay face down.
  await page.unrouteAll();
  await openFixture(page, tableFixture({ selfId: id, selfName: username, status: 'BIDDING', blindNil: true }));
  const prompt = page.getByRole('alertdialog', { name: 'Bid blind nil?' });
  await expect(prompt).toBeVisible();
  await expect(prompt.getByRole('button', { name: 'Yes' })).toBeVisible();
  await expect(prompt.getByRole('button', { name: 'No' })).toBeVisible();
  await expect(page.getByRole('toolbar', { name: 'Your cards (face down)' })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Make your bid' })).toHaveCount(0);
  await shotBoth(page, '32-fx-blind-nil-prompt');

  // Playing: own turn, legal cards from common (follow suit), turn timer in the last 10 s.
  await page.unrouteAll();
  await openFixture(page, tableFixture({ selfId: id, selfName: username, status: 'PLAYING' }));
  await expect(page.getByRole('toolbar', { name: 'Your hand' })).toBeVisible();
  const playable = page.getByRole('button', { name: /, playable$/ });
  const unplayable = page.getByRole('button', { name: /, not playable$/ });
  expect((await playable.count()) + (await unplayable.count())).toBe(9);
  expect(await playable.count()).toBeGreaterThan(0);
  await expect(page.getByRole('timer')).toBeVisible();
  await page.getByRole('tab', { name: 'Players' }).click();
  await expect(page.getByLabel('Spectator')).toBeVisible();
  await page.getByRole('tab', { name: 'Chat' }).click();
  await shotBoth(page, '33-fx-playing');
  await page.setViewportSize({ width: 844, height: 390 });
  await page.waitForTimeout(300);
  await shot(page, '33-fx-playing-phone-landscape');
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.waitForTimeout(300);
  await shot(page, '33-fx-playing-tablet');
  await page.setViewportSize({ width: 1440, height: 900 });

  // Hand summary (reload during HAND_COMPLETED) with Verify deal.
  await page.unrouteAll();
  await openFixture(page, tableFixture({ selfId: id, selfName: username, status: 'HAND_COMPLETED' }));
  const summary = page.getByRole('dialog', { name: /Hand 2 complete/ });
  await expect(summary).toBeVisible();
  await expect(summary).toContainText('Next hand in');
  await summary.getByRole('button', { name: 'Verify deal' }).click();
  await expect(summary.getByText(/Deal verified: the revealed seed matches the commitment/)).toBeVisible();
  await shotBoth(page, '34-fx-summary-verified');

  // Result dialog (game over) with its 30 s countdown and Play Again.
  await page.unrouteAll();
  await openFixture(page, tableFixture({ selfId: id, selfName: username, status: 'COMPLETED' }));
  const result = page.getByRole('dialog', { name: 'Red team wins!' });
  await expect(result).toBeVisible();
  await expect(result).toContainText('Leaving the table in');
  await expect(result.getByRole('button', { name: 'Play Again' })).toBeVisible();
  await shotBoth(page, '35-fx-result');

  // Spectator: no hand, Join buttons on empty seats are not offered to spectators; seat replacement countdown.
  await page.unrouteAll();
  await openFixture(
    page,
    tableFixture({ selfId: id, selfName: username, status: 'PLAYING', mySeat: null, emptySeats: [3] }),
    '?spectate=1',
  );
  await expect(page.getByRole('toolbar', { name: 'Your hand' })).toHaveCount(0);
  await expect(page.getByText('SPECTATING')).toBeVisible();
  await expect(page.getByText(/Bot joins in/)).toBeVisible();
  await shotBoth(page, '36-fx-spectator');
});
