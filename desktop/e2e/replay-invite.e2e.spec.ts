/**
 * Issue #12 in Chromium against the real backend: a player finishes a short game with bots, opens the replay from
 * the result dialog, steps through a trick and verifies a deal (screenshots of the viewer at 1440×900 and
 * 390×844); the game is in "My games". A host creates a private table from the Create Game dialog; it is not in
 * another player's lobby; a second browser context opens the invite link and sits; a signed-out visitor opening
 * the link signs up first and is seated; a wrong token seats nobody.
 */
import { expect, test, type Page } from '@playwright/test';
import { base, newPlayer, playUntil, shot, shotBoth, uniqueName } from './helpers';

test.setTimeout(300_000);

async function tokenOf(page: Page): Promise<string> {
  return (await page.evaluate(() => localStorage.getItem('sessionToken'))) ?? '';
}

async function post(token: string, path: string, body: unknown = {}): Promise<unknown> {
  const r = await fetch(`${base()}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const json = await r.json().catch(() => null);
  if (!r.ok) throw new Error(`${path}: ${r.status} ${JSON.stringify(json)}`);
  return json;
}

test('a finished game with bots: the result dialog opens the replay; step through a trick; verify a deal', async ({
  browser,
}) => {
  const p = await newPlayer(browser, 'replay');
  const token = await tokenOf(p.page);
  // A short game: max 100, min −100; bidding 13 sets our side at once (−130 or worse): the game ends after one hand.
  const game = (await post(token, '/api/games', {
    gameMode: 'PARTNERS',
    biddingOption: 'REG',
    minPoints: -100,
    maxPoints: 100,
    buyIn: 100000,
    specialRules: { allowNil: true, allowBlindNil: false, screamer: false, assassin: false },
  })) as { id: string };
  for (const seatIndex of [1, 2, 3]) await post(token, `/api/games/${game.id}/invite-bot`, { seatIndex });
  await p.page.goto(`${base()}/table/${game.id}`);
  await p.page.getByRole('button', { name: 'Start Game' }).click();
  await p.page
    .getByRole('dialog', { name: 'Bot Players Detected' })
    .getByRole('button', { name: 'Start Game' })
    .click();
  const result = p.page.getByRole('dialog', { name: /wins!|Game over/ });
  await playUntil(p.page, result, { bid: 'Bid 13', maxMs: 200_000 });

  // The result dialog links to the replay.
  await result.getByRole('link', { name: 'Watch replay' }).click();
  await expect(p.page).toHaveURL(new RegExp(`/replay/${game.id}`));
  await expect(p.page.getByRole('heading', { name: 'Replay' })).toBeVisible();
  const caption = p.page.getByRole('status', { name: 'Replay position' });
  await expect(caption).toContainText('Hand 1');
  const onTable = p.page.getByLabel('Cards on the table').getByRole('img');
  await expect(onTable).toHaveCount(0);
  // All four hands are shown: 13 cards each at the start of the hand.
  for (const s of [0, 1, 2, 3])
    await expect(p.page.locator('.replay-seat').nth(s).locator('.chip-card:not(.played)')).toHaveCount(13);

  // Step through the first trick card by card (keyboard →), back one (←), then by trick (button).
  await p.page.getByRole('button', { name: 'Next trick' }).click();
  await expect(onTable).toHaveCount(4);
  await expect(caption).toContainText('Trick 1');
  await expect(caption).toContainText('wins the trick');
  await expect(p.page.locator('.trick-card.winner')).toHaveCount(1);
  await p.page.keyboard.press('ArrowLeft');
  await expect(onTable).toHaveCount(3);
  await p.page.keyboard.press('ArrowRight');
  await expect(onTable).toHaveCount(4);
  await p.page.keyboard.press('ArrowRight');
  await expect(onTable).toHaveCount(1);
  await expect(caption).toContainText('Trick 2');
  await p.page.getByRole('button', { name: 'Previous trick' }).click();
  await expect(onTable).toHaveCount(4);
  await expect(caption).toContainText('Trick 1');
  // 48 cards left in the four hands after one trick.
  await expect(p.page.locator('.replay-seat .chip-card:not(.played)')).toHaveCount(48);

  // Space plays, and pauses.
  await p.page.keyboard.press('Space');
  await expect(p.page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await p.page.keyboard.press('Space');
  await expect(p.page.getByRole('button', { name: 'Play' })).toBeVisible();

  // Verify the deal in the browser.
  await p.page.getByRole('button', { name: 'Previous trick' }).click();
  await p.page.getByRole('button', { name: 'Verify deal' }).first().click();
  const verification = p.page.getByLabel('Deal verification of hand 1');
  await expect(verification).toContainText('Deal verified: sha256(seed) equals the commitment');
  await expect(verification).toContainText('The seed deals exactly the four hands shown.');
  await expect(verification).toContainText("Every card played came from its player's dealt hand (13 tricks)");
  await expect(verification.locator('.verify-line.bad')).toHaveCount(0);
  // the first trick on the table, the verification open: the viewer at both sizes
  await p.page.getByRole('button', { name: 'Next trick' }).click();
  await expect(onTable).toHaveCount(4);
  await expect(verification).toBeVisible();
  await shotBoth(p.page, '60-replay-viewer');

  // The game is in "My games" on the profile, with its replay.
  await p.page.goto(`${base()}/profile`);
  const mine = p.page.getByRole('list', { name: 'My games' });
  await expect(mine.getByRole('listitem')).toHaveCount(1);
  await expect(mine).toContainText('PARTNERS');
  await shotBoth(p.page, '62-my-games');
  await mine.getByRole('link', { name: /Replay of the game/ }).click();
  await expect(p.page).toHaveURL(new RegExp(`/replay/${game.id}\\?game=1`));
  await expect(p.page.getByRole('heading', { name: 'Replay' })).toBeVisible();
});

test('a private table: not in the lobby of others; the invite link seats a second browser, also after signing up; a wrong token seats nobody', async ({
  browser,
}) => {
  const host = await newPlayer(browser, 'host');
  await host.page.getByRole('button', { name: 'Create Game' }).first().click();
  const dialog = host.page.getByRole('dialog', { name: 'Create Game' });
  await dialog.getByRole('switch', { name: 'Private' }).click();
  await expect(dialog.getByText('Invitation only: not listed in the lobby.')).toBeVisible();
  await shot(host.page, '63-create-private');
  await dialog.getByRole('button', { name: 'Create Game' }).click();
  await expect(host.page).toHaveURL(/\/table\//);
  const gameId = host.page.url().split('/table/')[1];
  await expect(host.page.getByText('PRIVATE')).toBeVisible();

  await host.page.getByRole('button', { name: 'Invite players' }).click();
  const panel = host.page.getByRole('dialog', { name: 'Invite players' });
  const linkBox = panel.getByRole('textbox', { name: 'Invite link' });
  await expect(linkBox).toHaveValue(new RegExp(`/table/${gameId}\\?invite=[A-Za-z0-9_-]{24}$`));
  const link = await linkBox.inputValue();
  await shotBoth(host.page, '64-invite-panel');
  await panel
    .getByRole('button', { name: 'Close' })
    .click()
    .catch(() => host.page.keyboard.press('Escape'));

  // Another player does not see it in the lobby, and a wrong token seats nobody.
  const guest = await newPlayer(browser, 'guest');
  await expect(guest.page.getByRole('heading', { name: 'Available Games' })).toBeVisible();
  await expect(guest.page.getByRole('article', { name: `Game ${gameId}` })).toHaveCount(0);
  await guest.page.goto(`${base()}/table/${gameId}?invite=${'x'.repeat(24)}`);
  await expect(guest.page.getByRole('alert')).toContainText('This table is private: you need an invitation');

  // The invite link seats the guest.
  await guest.page.goto(link);
  await expect(guest.page).toHaveURL(`${base()}/table/${gameId}`);
  await expect(guest.page.locator('.seat[role="group"]', { hasText: guest.username })).toBeVisible();
  await expect(host.page.locator('.seat[role="group"]', { hasText: guest.username })).toBeVisible();
  await shot(guest.page, '65-invited-seated');

  // Signed out: the link asks to sign in first (here: create an account), then seats the newcomer.
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const anon = await ctx.newPage();
  await anon.goto(link);
  await expect(anon).toHaveURL(/\/login/);
  const name = uniqueName('late');
  await anon.getByRole('button', { name: "Don't have an account? Create account" }).click();
  await anon.getByLabel('Username').fill(name);
  await anon.getByLabel('Email address').fill(`${name.toLowerCase()}@example.com`);
  await anon.getByLabel('Password').fill('correct-horse-battery');
  await anon.getByRole('button', { name: 'Create Account' }).click();
  await expect(anon).toHaveURL(`${base()}/table/${gameId}`);
  await anon
    .getByRole('button', { name: "Let's Play!" })
    .click({ timeout: 3000 })
    .catch(() => undefined);
  await expect(anon.locator('.seat[role="group"]', { hasText: name })).toBeVisible();
  await expect(host.page.getByText('3/4 seated')).toBeVisible();
});
