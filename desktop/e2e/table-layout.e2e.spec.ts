/**
 * Table layout at every supported size (issue 15 #4, issue 14): the four cards of a trick never hide one
 * another, the winner is highlighted, and no seat, turn badge or panel overlaps the trick or another seat.
 * Boxes are the browser's own bounding boxes (transforms included). Screenshots of each size go to
 * e2e/screenshots (40-layout-*).
 */
import { expect, test, type Page } from '@playwright/test';
import { base, newPlayer, shot } from './helpers';
import { tableFixture } from './fixtures';

const SIZES = [
  { width: 1920, height: 1080 },
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
  { width: 844, height: 390 },
  { width: 740, height: 360 },
  { width: 667, height: 375 },
];

interface Box {
  name: string;
  x: number;
  y: number;
  width: number;
  height: number;
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

/** Bounding boxes of the seats, the turn badge, panels on the felt and the trick cards (after animations). */
async function boxes(page: Page): Promise<Box[]> {
  await page.waitForTimeout(600);
  return page.evaluate(() => {
    const out: { name: string; x: number; y: number; width: number; height: number }[] = [];
    const add = (sel: string, name: (el: Element, i: number) => string) =>
      document.querySelectorAll(sel).forEach((el, i) => {
        const r = el.getBoundingClientRect();
        if (r.width > 0 && r.height > 0)
          out.push({ name: name(el, i), x: r.x, y: r.y, width: r.width, height: r.height });
      });
    add('.felt .seat', (el) => `seat "${el.getAttribute('aria-label') ?? ''}"`);
    add('.felt .turn-hint', (el) => `badge "${el.textContent}"`);
    add('.felt .table-panel', (el) => `panel "${el.getAttribute('aria-label') ?? ''}"`);
    add('.felt .trick-banner', () => 'trick banner');
    add('.felt .trick-card', (_el, i) => `trick card ${i + 1}`);
    add('.hand', () => 'own hand');
    return out;
  });
}

function overlap(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return w > 0.5 && h > 0.5 ? w * h : 0;
}

function intersections(all: Box[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < all.length; i++)
    for (let j = i + 1; j < all.length; j++) {
      const [a, b] = [all[i], all[j]];
      // the trick banner sits on the trick on purpose (it names the winner) but must not cover seats/badges
      if (
        (a.name === 'trick banner' && b.name.startsWith('trick card')) ||
        (b.name === 'trick banner' && a.name.startsWith('trick card'))
      )
        continue;
      if (overlap(a, b) > 0) found.push(`${a.name} × ${b.name}`);
    }
  return found;
}

/** Smallest rendered font size (px, transforms included) of the seat texts. */
async function seatTextPx(page: Page): Promise<number> {
  return page.evaluate(() => {
    let min = Infinity;
    document
      .querySelectorAll(
        '.felt .seat .seat-name, .felt .seat .seat-bid, .felt .seat .link-danger, .felt .seat .seat-replace',
      )
      .forEach((el) => {
        const h = el as HTMLElement;
        if (!h.offsetHeight) return;
        const scale = h.getBoundingClientRect().height / h.offsetHeight;
        min = Math.min(min, parseFloat(getComputedStyle(h).fontSize) * scale);
      });
    return min;
  });
}

test('table layout: trick cards, seats, turn badge and panels never overlap at any supported size', async ({
  browser,
}) => {
  const { page, username, id } = await newPlayer(browser, 'lay');
  const states = [
    {
      name: 'your-turn',
      fixture: tableFixture({ selfId: id, selfName: username, status: 'PLAYING', trickCards: 3, longNames: true }),
      trick: 3,
    },
    {
      name: 'trick-won',
      fixture: tableFixture({
        selfId: id,
        selfName: username,
        status: 'PLAYING',
        completedTrick: true,
        longNames: true,
      }),
      trick: 4,
    },
    {
      name: 'bidding',
      fixture: tableFixture({ selfId: id, selfName: username, status: 'BIDDING', longNames: true }),
      trick: 0,
    },
  ];
  const problems: string[] = [];
  for (const state of states) {
    for (const size of SIZES) {
      await page.setViewportSize(size);
      await openFixture(page, state.fixture);
      await expect(page.locator('.felt .trick-card')).toHaveCount(state.trick);
      if (state.name === 'your-turn')
        await expect(page.getByRole('status').filter({ hasText: /^Your turn$/ })).toBeVisible();
      if (state.name === 'bidding') await expect(page.getByRole('dialog', { name: 'Make your bid' })).toBeVisible();
      if (state.name === 'trick-won') await expect(page.locator('.felt .trick-card.winner')).toHaveCount(1);
      const all = await boxes(page);
      expect(all.filter((b) => b.name.startsWith('seat'))).toHaveLength(4);
      for (const hit of intersections(all)) problems.push(`${state.name} ${size.width}×${size.height}: ${hit}`);
      const px = await seatTextPx(page);
      if (px < 10.95) problems.push(`${state.name} ${size.width}×${size.height}: seat text ${px.toFixed(1)} px`);
      await shot(page, `40-layout-${state.name}`);
    }
  }
  expect(problems).toEqual([]);
});
