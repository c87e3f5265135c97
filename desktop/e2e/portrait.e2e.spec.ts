/**
 * Phone portrait (issue #31 item 5, ruling 14): the rotate overlay offers 'Play in portrait' (remembered on the
 * device), and a game is played to its end at 390×844 in the portrait layout: hand at the bottom, partner on top,
 * opponents at the sides, chat in a drawer. Also: the table mid-trick at the six sizes of the issue, with no seat
 * overlapping a trick card and the hand inside the window (screenshots 31-size-*).
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiCreateGame, base, newPlayer, shot } from './helpers';
import { tableFixture } from './fixtures';

async function api(token: string, method: string, path: string, body: unknown = {}) {
  const r = await fetch(`${base()}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: method === 'GET' ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json().catch(() => null)) as Record<string, unknown> };
}

type Rect = { name: string; left: number; top: number; right: number; bottom: number };

async function rects(page: Page): Promise<Rect[]> {
  await page.waitForTimeout(600);
  return page.evaluate(() => {
    const out: { name: string; left: number; top: number; right: number; bottom: number }[] = [];
    const add = (sel: string, name: string) =>
      document.querySelectorAll(sel).forEach((el, i) => {
        const r = el.getBoundingClientRect();
        if (r.width > 0) out.push({ name: `${name} ${i}`, left: r.left, top: r.top, right: r.right, bottom: r.bottom });
      });
    add('.felt .seat', 'seat');
    add('.trick-card', 'trick card');
    add('.hand-card', 'hand card');
    return out;
  });
}

/**
 * Like helpers' playUntil, for a phone's overlapping hand: a card is tapped on its visible strip (its left edge),
 * as a thumb does, not in its middle (under the next card).
 */
async function playPortraitUntil(page: Page, stop: Locator, maxMs = 170_000): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline) {
    if (await stop.isVisible().catch(() => false)) return;
    const bidPanel = page.getByRole('dialog', { name: 'Make your bid' });
    if (await bidPanel.isVisible().catch(() => false)) {
      await bidPanel
        .getByRole('button', { name: 'Bid 13' })
        .click()
        .catch(() => undefined);
      continue;
    }
    const playable = page.getByRole('button', { name: /, playable$/ });
    if ((await playable.count()) > 0) {
      await playable
        .first()
        .click({ position: { x: 8, y: 40 }, timeout: 3000 })
        .catch(() => undefined);
      await page.waitForTimeout(150);
      continue;
    }
    await page.waitForTimeout(150);
  }
  throw new Error('the expected screen did not appear in time');
}

const overlap = (a: Rect, b: Rect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

test('the rotate overlay offers Play in portrait; a portrait game is played to the end at 390×844', async ({
  browser,
}) => {
  const { page, id } = await newPlayer(browser, 'portrait', { width: 390, height: 844 });
  const token = await page.evaluate(() => localStorage.getItem('sessionToken') as string);
  // -100..100 and a bid of 13: the game ends after one hand
  const gameId = await apiCreateGame(token, { maxPoints: 100, minPoints: -100 });
  for (const seatIndex of [1, 2, 3])
    expect(
      (await api(token, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex, requesterId: id })).status,
    ).toBeLessThan(300);
  expect((await api(token, 'POST', `/api/games/${gameId}/start`)).status).toBeLessThan(300);
  await page.goto(`${base()}/table/${gameId}`);

  const overlay = page.getByRole('alertdialog', { name: 'Please Rotate Your Device' });
  await expect(overlay).toBeVisible();
  await shot(page, '31-portrait-overlay');
  await overlay.getByRole('button', { name: 'Play in portrait' }).click();
  await expect(overlay).toBeHidden();
  await expect(page.locator('.table-page.portrait')).toBeVisible();

  // remembered on this device: a reload keeps the portrait table
  await page.reload();
  await expect(page.locator('.table-page.portrait')).toBeVisible();
  await expect(overlay).toHaveCount(0);

  // the layout: partner on top, opponents at the sides, own seat and hand at the bottom, all inside the window
  const seat = (where: string) => page.locator(`.felt .seat-${where}`);
  const [top, left, right, bottom] = await Promise.all(
    ['top', 'left', 'right', 'bottom'].map((w) => seat(w).boundingBox()),
  );
  expect(top!.y).toBeLessThan(left!.y);
  expect(left!.x).toBeLessThan(20);
  expect(right!.x + right!.width).toBeGreaterThan(370);
  expect(bottom!.y).toBeGreaterThan(left!.y + left!.height);
  // the chat is a drawer: closed, opened from the header, closed again
  await expect(page.getByRole('log', { name: 'Chat messages' })).toBeHidden();
  await page.getByRole('button', { name: 'Open chat' }).click();
  await expect(page.getByRole('log', { name: 'Chat messages' })).toBeVisible();
  await page.getByRole('button', { name: 'Close chat' }).click();
  await expect(page.getByRole('log', { name: 'Chat messages' })).toBeHidden();

  // bid and play through the hand; mid-trick the cards never hide under a seat and the hand stays in the window
  const bidPanel = page.getByRole('dialog', { name: 'Make your bid' });
  await expect(bidPanel).toBeVisible({ timeout: 60_000 });
  await expect(bidPanel.getByRole('button', { name: 'Bid 13' })).toBeInViewport();
  await shot(page, '31-portrait-bidding');
  await bidPanel.getByRole('button', { name: 'Bid 13' }).click();
  const playable = page.getByRole('button', { name: /, playable$/ });
  await expect(playable.first()).toBeVisible({ timeout: 60_000 });
  await expect(playable.first()).toBeInViewport();
  await playable.first().click({ position: { x: 8, y: 40 } });
  await expect(page.getByLabel('Current trick').getByRole('img').first()).toBeVisible();
  const r = await rects(page);
  for (const c of r.filter((x) => x.name.startsWith('trick card')))
    for (const s of r.filter((x) => x.name.startsWith('seat')))
      expect(overlap(c, s), `${c.name} overlaps ${s.name}`).toBe(false);
  for (const h of r.filter((x) => x.name.startsWith('hand card'))) expect(h.bottom).toBeLessThanOrEqual(844);
  await shot(page, '31-portrait-mid-trick');

  const result = page.getByRole('dialog', { name: /wins!|Game over/ });
  await playPortraitUntil(page, result);
  await expect(result.getByRole('button', { name: 'Play Again' })).toBeInViewport();
  await shot(page, '31-portrait-result');
  await result.getByRole('button', { name: 'Leave' }).click();
  await expect(page.getByRole('heading', { name: 'Available Games' })).toBeVisible();
});

test('the table mid-trick at 1920×1080, 1366×768, 1280×720, 812×375, 390×844 and 375×812: no seat over a card, the hand in the window', async ({
  browser,
}) => {
  const { page, id, username } = await newPlayer(browser, 'sizes');
  await page.evaluate(() => localStorage.setItem('spades.playInPortrait', '1'));
  const fixture = tableFixture({ selfId: id, selfName: username, status: 'PLAYING', trickCards: 3 });
  await page.route('**/api/games/fixture-table', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(fixture) }),
  );
  await page.route('**/api/games/fixture-table/*', (route) =>
    route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(fixture) }),
  );
  for (const [width, height] of [
    [1920, 1080],
    [1366, 768],
    [1280, 720],
    [812, 375],
    [390, 844],
    [375, 812],
  ]) {
    await page.setViewportSize({ width, height });
    await page.goto(`${base()}/table/fixture-table`);
    await page.addStyleTag({ content: '.toasts { display: none !important; }' });
    await expect(page.getByLabel('Current trick').getByRole('img')).toHaveCount(3);
    const r = await rects(page);
    const cards = r.filter((x) => x.name.startsWith('trick card'));
    const seats = r.filter((x) => x.name.startsWith('seat'));
    for (const c of cards)
      for (const s of seats) expect(overlap(c, s), `${width}×${height}: ${c.name} overlaps ${s.name}`).toBe(false);
    // cards keep a gap to the seats (the top card no longer touches the top seat)
    for (const c of cards)
      for (const s of seats)
        expect(
          overlap({ ...c, top: c.top - 4, bottom: c.bottom + 4, left: c.left - 4, right: c.right + 4 }, s),
          `${width}×${height}: ${c.name} touches ${s.name}`,
        ).toBe(false);
    for (const h of r.filter((x) => x.name.startsWith('hand card')))
      expect(h.bottom, `${width}×${height}: hand cut at the bottom`).toBeLessThanOrEqual(height - 4);
    await shot(page, '31-size-mid-trick');
  }
});
