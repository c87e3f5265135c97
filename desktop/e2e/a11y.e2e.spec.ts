/**
 * Accessibility audit (issue #31 item 9): axe-core in Chromium, signed in, on the lobby, the table mid-bid and
 * mid-trick, the result dialog, the profile and the replay viewer: no violation of impact serious or critical.
 * The sign-in page serves a meta description and the backend a real robots.txt.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { apiCreateGame, base, newPlayer, playUntil } from './helpers';

async function api(token: string, method: string, path: string, body: unknown = {}) {
  const r = await fetch(`${base()}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: method === 'GET' ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json().catch(() => null)) as Record<string, unknown> };
}

/** The serious and critical violations on the page now, as "rule: target" lines (empty = none). */
async function audit(page: Page, where: string): Promise<string[]> {
  // toasts come and go (and are not what is audited); animations settle first
  await page.waitForTimeout(400);
  const r = await new AxeBuilder({ page }).exclude('.toasts').analyze();
  const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  return bad.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `${where} ${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary?.split('\n').slice(1, 2).join('')}`,
    ),
  );
}

test('robots.txt and the meta description', async ({ page }) => {
  const robots = await fetch(`${base()}/robots.txt`);
  expect(robots.status).toBe(200);
  expect(robots.headers.get('content-type')).toContain('text/plain');
  const text = await robots.text();
  expect(text).toContain('User-agent: *');
  expect(text).toContain('Disallow: /api/');
  await page.goto(`${base()}/login`);
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /Spades/);
  expect(await audit(page, 'sign-in')).toEqual([]);
});

test('lobby, table mid-bid and mid-trick, result dialog, profile, replay viewer: no serious or critical axe violation', async ({
  browser,
}) => {
  const { page, id } = await newPlayer(browser, 'axe');
  const token = await page.evaluate(() => localStorage.getItem('sessionToken') as string);
  const found: string[] = [];

  // the lobby with a table listed
  const gameId = await apiCreateGame(token, { maxPoints: 100, minPoints: -100 });
  await page.goto(`${base()}/`);
  await expect(page.getByRole('heading', { name: 'Available Games' })).toBeVisible();
  found.push(...(await audit(page, 'lobby')));

  // the table mid-bid: bots in the other seats, our bid panel open
  for (const seatIndex of [1, 2, 3])
    expect(
      (await api(token, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex, requesterId: id })).status,
    ).toBeLessThan(300);
  expect((await api(token, 'POST', `/api/games/${gameId}/start`)).status).toBeLessThan(300);
  await page.goto(`${base()}/table/${gameId}`);
  const bidPanel = page.getByRole('dialog', { name: 'Make your bid' });
  await expect(bidPanel).toBeVisible({ timeout: 60_000 });
  found.push(...(await audit(page, 'table mid-bid')));

  // mid-trick: our turn to play with cards on the table (or leading)
  await bidPanel.getByRole('button', { name: 'Bid 13' }).click();
  const playable = page.getByRole('button', { name: /, playable$/ });
  await expect(playable.first()).toBeVisible({ timeout: 60_000 });
  await playable.first().click();
  await expect(page.getByLabel('Current trick').getByRole('img').first()).toBeVisible();
  found.push(...(await audit(page, 'table mid-trick')));

  // the result dialog (one hand: a bid of 13 is set, the game ends at -100)
  const result = page.getByRole('dialog', { name: /wins!|Game over/ });
  await playUntil(page, result, { bid: 'Bid 13', maxMs: 170_000 });
  found.push(...(await audit(page, 'result dialog')));
  await result
    .getByRole('button', { name: /Leave|Back to lobby/ })
    .first()
    .click();
  await expect(page.getByRole('heading', { name: 'Available Games' })).toBeVisible();

  // profile (with the finished game in "My games") and the replay viewer
  await page.goto(`${base()}/profile`);
  await expect(page.getByRole('heading', { name: /My games/ })).toBeVisible();
  found.push(...(await audit(page, 'profile')));
  await page.goto(`${base()}/replay/${gameId}`);
  await expect(
    page
      .getByLabel('Current trick')
      .or(page.getByRole('heading', { name: /Replay/ }))
      .first(),
  ).toBeVisible({ timeout: 30_000 });
  found.push(...(await audit(page, 'replay')));

  expect(found).toEqual([]);
});
