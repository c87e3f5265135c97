import { expect, test } from '@playwright/test';
import {
  base,
  newPlayer,
  playHandUntilSummary,
  registerViaForm,
  shot,
  shotBoth,
  tableSnapshot,
  uniqueName,
} from './helpers';

test.describe.configure({ mode: 'serial' });

test('public screens: sign in, create account, registration form, unknown route', async ({ page }) => {
  await page.goto(`${base()}/somewhere/else`);
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in with Discord' })).toBeVisible();
  await shotBoth(page, '01-login');
  await page.getByLabel('Email address').fill('nobody@example.com');
  await page.getByLabel('Password').fill('wrong-password-1');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await shotBoth(page, '02-login-error');
  await page.getByRole('button', { name: "Don't have an account? Create account" }).click();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByLabel('Username')).toBeVisible();
  await shotBoth(page, '03-create-account');

  await page.goto(`${base()}/register`);
  await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
  await page.getByLabel('Username').fill('mismatch');
  await page.getByLabel('Email', { exact: true }).fill('mismatch@example.com');
  await page.getByLabel('Password', { exact: true }).fill('first-password');
  await page.getByLabel('Confirm Password').fill('other-password');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await shotBoth(page, '04-register-mismatch');

  await page.goto(`${base()}/auth/callback`);
  await expect(page).toHaveURL(/\/login$/);
});

test('register → welcome dialog → lobby, menus, rules, stats, leaderboard, profile, create-game dialog', async ({
  page,
}) => {
  const name = uniqueName('ace');
  await registerViaForm(page, name);

  // Welcome dialog: new account with 5,000,000 coins and no games.
  const welcome = page.getByRole('dialog', { name: 'Welcome to Spades!' });
  await expect(welcome).toBeVisible();
  await expect(welcome).toContainText('5,000,000');
  await shotBoth(page, '05-welcome');
  await welcome.getByRole('button', { name: "Let's Play!" }).click();
  await expect(welcome).toBeHidden();
  await expect(page.getByTestId('coin-balance')).toHaveText('5M');
  await shotBoth(page, '06-lobby');
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Available Games' })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Welcome to Spades!' })).toHaveCount(0);

  // Side panel: players tab.
  await page.getByRole('tab', { name: 'Players' }).click();
  await expect(page.getByRole('list', { name: 'Players' })).toContainText(name);
  await shot(page, '07-lobby-players');
  await page.getByRole('tab', { name: 'Chat' }).click();

  // Avatar menu, Game Rules (3 tabs), My Stats.
  await page.getByRole('button', { name: 'Account menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Change Avatar' })).toBeVisible();
  await shot(page, '08-account-menu');
  await page.getByRole('menuitem', { name: 'Game Rules' }).click();
  const rules = page.getByRole('dialog', { name: 'Game Rules' });
  await expect(rules.getByRole('tab')).toHaveText(['Rules', 'Game Types', 'Scoring']);
  await shotBoth(page, '09-rules');
  await rules.getByRole('tab', { name: 'Game Types' }).click();
  await shot(page, '09-rules-types');
  await rules.getByRole('tab', { name: 'Scoring' }).click();
  await shot(page, '09-rules-scoring');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'My Stats' }).click();
  const stats = page.getByRole('dialog', { name: 'My Stats' });
  await expect(stats.getByTestId('win-pct')).toHaveText('0%');
  await stats.getByRole('radio', { name: 'PARTNERS' }).click();
  await expect(stats.getByTestId('games-played')).toHaveText('0');
  await shotBoth(page, '10-my-stats');
  await page.keyboard.press('Escape');

  // Leaderboard and profile.
  await page.getByRole('link', { name: /Leaderboard/ }).click();
  await expect(page.getByRole('heading', { name: 'Leaderboard' })).toBeVisible();
  await page.waitForTimeout(500);
  await shotBoth(page, '11-leaderboard');
  await page.goto(`${base()}/profile`);
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await shotBoth(page, '12-profile');
  await page.goto(`${base()}/`);

  // Create Game dialog.
  await page.getByRole('button', { name: 'Create Game' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create Game' });
  await expect(dialog.getByLabel('Prize preview')).toContainText('180,000');
  await shotBoth(page, '13-create-game');
  await dialog.getByRole('radio', { name: 'GIMMICK' }).click();
  await dialog.getByRole('radio', { name: 'SOLO' }).click();
  await expect(dialog.getByLabel('Gimmick')).toHaveValue('4 OR NIL');
  await dialog.getByRole('radio', { name: 'MIRROR' }).click();
  await expect(dialog.getByRole('switch', { name: 'Blind Nil' })).toBeDisabled();
  await shot(page, '13-create-game-mirror-solo');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});

test('table: create game → start warnings (empty seats, then three bots) → bid → reload mid-hand → play a full hand → summary → verify the deal', async ({
  browser,
}) => {
  const { page } = await newPlayer(browser, 'host');
  await page.getByRole('button', { name: 'Create Game' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Create Game' });
  await dialog.getByRole('button', { name: 'Create Game' }).click();
  await expect(page).toHaveURL(/\/table\//);
  const gameId = page.url().split('/table/')[1];

  // Table while waiting: host controls and empty seats.
  await expect(page.getByRole('button', { name: 'Start Game' })).toBeVisible();
  await shotBoth(page, '14-table-waiting');
  await page
    .getByRole('button', { name: /Invite a bot to seat/ })
    .first()
    .click();
  await expect(page.getByRole('button', { name: /Remove bot from seat/ })).toHaveCount(1);
  await page.getByRole('button', { name: 'Table details' }).click();
  await expect(page.getByText('Table details')).toBeVisible();
  await shot(page, '15-table-details');
  await page.keyboard.press('Escape');

  // Start with empty seats: the §8 warning (Cancel / Play with Bots); cancel it.
  await page.getByRole('button', { name: 'Start Game' }).click();
  const emptyWarning = page.getByRole('dialog', { name: 'Empty seats' });
  await expect(emptyWarning.getByText('Coin games require 4 human players. You have 2 empty seat(s).')).toBeVisible();
  await expect(
    emptyWarning.getByText(
      'If you continue, the game will start with bot players in all empty seats and the game will not be rated.',
    ),
  ).toBeVisible();
  await expect(emptyWarning.getByRole('button')).toHaveText(['Cancel', 'Play with Bots']);
  await shotBoth(page, '16-start-warning');
  await emptyWarning.getByRole('button', { name: 'Cancel' }).click();
  await expect(emptyWarning).toBeHidden();

  // Three bots invited (no empty seat left): Start shows 'Bot Players Detected' (Cancel / Start Game).
  while ((await page.getByRole('button', { name: /Invite a bot to seat/ }).count()) > 0) {
    const before = await page.getByRole('button', { name: /Remove bot from seat/ }).count();
    await page
      .getByRole('button', { name: /Invite a bot to seat/ })
      .first()
      .click();
    await expect(page.getByRole('button', { name: /Remove bot from seat/ })).toHaveCount(before + 1);
  }
  await expect(page.getByRole('button', { name: /Remove bot from seat/ })).toHaveCount(3);
  await expect(page.getByText('4/4 seated')).toBeVisible();
  await page.getByRole('button', { name: 'Start Game' }).click();
  const botWarning = page.getByRole('dialog', { name: 'Bot Players Detected' });
  await expect(botWarning).toBeVisible();
  await expect(botWarning).toContainText(
    'This table has 3 bot player(s). The game will start, but it will not be rated.',
  );
  await expect(botWarning.getByRole('button')).toHaveText(['Cancel', 'Start Game']);
  await shotBoth(page, '16-start-warning-bots');
  // Cancel keeps the table waiting; Start Game starts it.
  await botWarning.getByRole('button', { name: 'Cancel' }).click();
  await expect(botWarning).toBeHidden();
  await expect(page.getByRole('region', { name: 'Waiting for players' })).toBeVisible();
  await page.getByRole('button', { name: 'Start Game' }).click();
  await botWarning.getByRole('button', { name: 'Start Game' }).click();

  // Bidding: exactly common's legal bids (REG with nil: Nil and 1–13).
  const bidPanel = page.getByRole('dialog', { name: 'Make your bid' });
  const summary = page.getByRole('dialog', { name: /Hand \d* ?complete/ });
  await expect(page.getByRole('toolbar', { name: 'Your hand' })).toBeVisible({ timeout: 30_000 });
  await expect(bidPanel).toBeVisible({ timeout: 60_000 });
  await expect(bidPanel.getByRole('button')).toHaveCount(14);
  await shotBoth(page, '17-bidding');
  await bidPanel.getByRole('button', { name: 'Bid 3' }).click();

  // Play: a card that is not playable stays greyed.
  await expect(page.getByRole('button', { name: /, playable$/ }).first()).toBeVisible({ timeout: 60_000 });
  await shotBoth(page, '18-playing');

  // Reload mid-hand on our turn (the bots wait for us): same hand, same bids, same trick, still our turn.
  const before = await tableSnapshot(page);
  expect(before.hand).toHaveLength(13);
  expect(before.yourTurn).toBe(true);
  await page.reload();
  await expect(page.getByRole('button', { name: /, playable$/ }).first()).toBeVisible();
  expect(page.url()).toContain(gameId);
  expect(await tableSnapshot(page)).toEqual(before);
  await expect(page.getByText(/wins the trick!/)).toBeVisible({ timeout: 60_000 });
  await shot(page, '19-trick-won');
  await playHandUntilSummary(page);

  // Hand summary with countdown, then Verify deal.
  await expect(summary).toContainText('Next hand in');
  await summary.getByRole('button', { name: 'Verify deal' }).click();
  await expect(summary.getByText(/Deal verified: the revealed seed matches the commitment/)).toBeVisible();
  await expect(summary.getByText('Your 13 cards are exactly the ones this seed deals to your seat.')).toBeVisible();
  await shotBoth(page, '20-summary-verified');

  await page.setViewportSize({ width: 844, height: 390 });
  await page.waitForTimeout(400);
  await shot(page, '21-table-phone-landscape');
  await page.setViewportSize({ width: 1440, height: 900 });
});
