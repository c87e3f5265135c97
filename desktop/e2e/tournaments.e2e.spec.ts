/**
 * Issue #27: a PARTNERS 8 sit-and-go through the real backend. Seven scripted players (accounts over HTTP, socket.io
 * clients from node) register over HTTP; the e2e player registers in the lobby's Tournaments tab, which fills it and
 * starts it; the match-ready card and the page's "Take your seat" lead to the reserved seat; the player plays the
 * first match in the UI; the bracket advances to the final. Screenshots of the tab and the page at 1920×1080,
 * 1366×768 and phone landscape (812×375).
 */
import { expect, test, type Page } from '@playwright/test';
import { join } from 'node:path';
import { SHOTS, newPlayer, playUntil } from './helpers';
import { TournamentBot } from './tournament-bots';

test.setTimeout(480_000);

const SIZES = [
  { width: 1920, height: 1080 },
  { width: 1366, height: 768 },
  { width: 812, height: 375 },
];

async function shots(page: Page, name: string): Promise<void> {
  const vp = page.viewportSize();
  // no focus ring from the last click in the pictures
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (const s of SIZES) {
    await page.setViewportSize(s);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(SHOTS, `tournaments-${name}-${s.width}x${s.height}.png`) });
  }
  if (vp) await page.setViewportSize(vp);
}

test('register for a sit-and-go that fills with scripted players, play the first match, see the bracket advance', async ({
  browser,
}) => {
  const bots: TournamentBot[] = [];
  try {
    for (let i = 0; i < 7; i++) bots.push(await TournamentBot.create('trnbot'));
    const name = `Friday Cup ${Date.now().toString(36).slice(-4)}`;
    const cup = await bots[0].http<{ id: string }>('POST', '/api/tournaments', {
      name,
      mode: 'PARTNERS',
      size: 8,
      buyIn: 100_000,
    });
    // a second open tournament, so the list shows more than one card
    await bots[1].http('POST', '/api/tournaments', { name: 'Solo Night', mode: 'SOLO', size: 16, buyIn: 250_000 });
    for (const b of bots) await b.http('POST', `/api/tournaments/${cup.id}/register`, {});

    const me = await newPlayer(browser, 'trnme', { width: 1920, height: 1080 });
    const page = me.page;
    await page.getByRole('tab', { name: 'Tournaments' }).click();
    await expect(page).toHaveURL(/\?tab=tournaments/);
    const card = page.getByTestId('tournament-card').filter({ hasText: name });
    await expect(card).toContainText('7/8');
    await expect(card).toContainText('1st 65% · 2nd 35%');
    await expect(page.getByTestId('tournament-card').filter({ hasText: 'Solo Night' }).first()).toBeVisible();
    await shots(page, 'tab');

    // Register (no partner: paired by rating at the start) → the eighth player: it starts
    await card.getByRole('button', { name: 'Register' }).click();
    const dialog = page.getByRole('dialog', { name: `Register for ${name}` });
    await expect(dialog.getByLabel('Partner')).toBeVisible();
    await dialog.getByRole('button', { name: /^Register/ }).click();
    await expect(dialog).toBeHidden();

    // the app-wide match-ready card
    const ready = page.getByRole('alertdialog', { name });
    await expect(ready).toBeVisible({ timeout: 30_000 });
    await expect(ready.getByRole('button', { name: 'Take your seat' })).toBeVisible();
    await ready.getByRole('button', { name: 'Bracket' }).click();
    await expect(page).toHaveURL(new RegExp(`/tournaments/${cup.id}$`));
    await expect(page.getByTestId('tournament-status')).toHaveText('RUNNING');
    const next = page.getByTestId('next-match');
    await expect(next).toContainText('Your match · Semi-finals');
    await expect(next.getByLabel('Seat deadline')).toHaveText(/\d:\d\d$/);
    const cols = page.getByTestId('bracket-col');
    await expect(cols).toHaveCount(2);
    await expect(cols.nth(0).getByTestId('bracket-match')).toHaveCount(2);
    await expect(cols.nth(1).getByTestId('bracket-match')).toHaveAttribute('data-status', 'UPCOMING');
    await expect(
      cols
        .nth(0)
        .getByRole('link', { name: /^Watch Table/ })
        .first(),
    ).toBeVisible();
    await shots(page, 'page-running');

    // take the seat and play the first match through the table UI (one hand ends it: the bots overbid)
    await next.getByRole('link', { name: 'Take your seat' }).click();
    await expect(page).toHaveURL(/\/table\/[^?]+$/, { timeout: 30_000 });
    const gameUrl = page.url();
    await playUntil(page, page.getByRole('dialog', { name: /wins!|Game over/ }), { bid: 'Bid 3', maxMs: 240_000 });

    // back to the tournament: round 1 done, the final has its two teams
    await page.goto(`${gameUrl.split('/table/')[0]}/tournaments/${cup.id}`);
    const semis = page.getByTestId('bracket-col').nth(0).getByTestId('bracket-match');
    await expect(semis.nth(0)).toHaveAttribute('data-status', 'DONE', { timeout: 120_000 });
    await expect(semis.nth(1)).toHaveAttribute('data-status', 'DONE', { timeout: 120_000 });
    const final = page.getByTestId('bracket-col').nth(1).getByTestId('bracket-match');
    await expect(final).not.toHaveAttribute('data-status', 'UPCOMING', { timeout: 60_000 });
    await expect(final.getByTestId('bracket-row')).toHaveCount(2);
    await expect(page.getByTestId('bracket-col').nth(0).locator('.bracket-row.advanced')).toHaveCount(2);
    await shots(page, 'page-advanced');

    // the profile's Tournaments history: place and the replay of the game played
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(`${gameUrl.split('/table/')[0]}/profile`);
    const row = page.getByTestId('tournament-history-row').filter({ hasText: name });
    await expect(row).toBeVisible();
    await expect(row.getByRole('link', { name: 'Semi-finals' })).toHaveAttribute('href', /^\/replay\//);
    await row.scrollIntoViewIfNeeded();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.screenshot({ path: join(SHOTS, 'tournaments-profile-1366x768.png') });

    // the lobby's Finished list
    await page.goto(`${gameUrl.split('/table/')[0]}/?tab=tournaments`);
    await page.getByRole('radio', { name: 'Finished' }).click();
    const done = page.getByTestId('tournament-card').filter({ hasText: name });
    await expect(done).toContainText('FINISHED', { timeout: 60_000 });
    await shots(page, 'tab-finished');
    expect(bots.flatMap((b) => b.errors)).toEqual([]);
  } finally {
    for (const b of bots) b.close();
  }
});
