import { expect, test } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { apiCreateGame, base, newPlayer, shot } from './helpers';

/**
 * Issue #26: the profile's "Your data": the download is the player's export; deleting the account says what
 * happens, refuses while a table still includes the player, checks the password, then signs the player out for good.
 */
test('profile: download my data, then delete my account (refused at a table, wrong password, then signed out)', async ({
  browser,
}) => {
  const { page, username, id } = await newPlayer(browser, 'mydata');
  await page.goto(`${base()}/profile`);
  const panel = page.getByRole('region', { name: 'Your data' });
  await expect(panel).toBeVisible();

  // the download: the export of this account
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('button', { name: 'Download my data' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^spades-account-\d{4}-\d\d-\d\d\.json$/);
  const doc = JSON.parse(readFileSync((await download.path())!, 'utf8'));
  expect(doc).toMatchObject({
    format: 'spades-account-export',
    profile: { id, username, email: `${username.toLowerCase()}@example.com` },
  });
  expect(doc.ledger.entries.map((e: { reason: string }) => e.reason)).toContain('registration_grant');

  // seated at a table: the dialog says to leave it first, and the button stays disabled
  const token = (await page.evaluate(() => localStorage.getItem('sessionToken')))!;
  const gameId = await apiCreateGame(token, {});
  await panel.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await expect(dialog.getByTestId('deletion-effects')).toContainText('Your coins are returned to the house');
  await expect(dialog.getByTestId('deletion-effects')).toContainText('Your username stays reserved for 30 days');
  await expect(dialog.getByRole('alert')).toContainText('Leave your tables first');
  await expect(dialog.getByRole('link', { name: 'Open table 1' })).toHaveAttribute('href', `/table/${gameId}`);
  await expect(dialog.getByRole('button', { name: 'Delete my account' })).toBeDisabled();
  await shot(page, '90-account-delete-at-table');
  await dialog.getByRole('button', { name: 'Keep my account' }).click();
  const left = await fetch(`${base()}/api/games/${gameId}/leave`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: '{}',
  });
  expect(left.status).toBe(200);
  await expect
    .poll(
      async () =>
        (
          await (
            await fetch(`${base()}/api/users/me/deletion`, { headers: { Authorization: `Bearer ${token}` } })
          ).json()
        ).openTables,
    )
    .toEqual([]);

  // a wrong password changes nothing; the right one deletes and signs out
  await panel.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog.getByRole('alert')).toHaveCount(0);
  await dialog.getByLabel('Your password').fill('not my password');
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('That password is not right');
  await shot(page, '91-account-delete-dialog');
  await dialog.getByLabel('Your password').fill('correct-horse-battery');
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL(`${base()}/login`);
  await expect(page.getByText('Your account was deleted').first()).toBeVisible();
  await shot(page, '92-account-deleted-signed-out');

  // the old session and the old sign-in are gone; the player list does not show the account
  expect((await fetch(`${base()}/api/auth/profile`, { headers: { Authorization: `Bearer ${token}` } })).status).toBe(
    401,
  );
  const login = await fetch(`${base()}/api/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: `${username.toLowerCase()}@example.com`, password: 'correct-horse-battery' }),
  });
  expect(login.status).toBe(401);
});
