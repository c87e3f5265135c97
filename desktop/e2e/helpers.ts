import { expect, type Browser, type Locator, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const SHOTS = join(__dirname, 'screenshots');
mkdirSync(SHOTS, { recursive: true });

export function base(): string {
  const b = process.env.E2E_BASE_URL;
  if (!b) throw new Error('E2E_BASE_URL is not set (global setup did not start the server)');
  return b;
}

let seq = 0;
export function uniqueName(prefix: string): string {
  seq += 1;
  return `${prefix}${Date.now().toString(36).slice(-5)}${seq}`.slice(0, 20);
}

/** Desktop (1440×900) and phone (390×844) screenshots of what is on screen now. */
export async function shotBoth(page: Page, name: string): Promise<void> {
  const vp = page.viewportSize() ?? { width: 1440, height: 900 };
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.waitForTimeout(250);
  await page.screenshot({ path: join(SHOTS, `${name}-1440x900.png`) });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(350);
  await page.screenshot({ path: join(SHOTS, `${name}-390x844.png`) });
  await page.setViewportSize(vp);
  await page.waitForTimeout(250);
}

export async function shot(page: Page, name: string): Promise<void> {
  const vp = page.viewportSize();
  await page.screenshot({ path: join(SHOTS, `${name}-${vp?.width}x${vp?.height}.png`) });
}

/** Creates an account through the combined form and lands in the lobby. */
export async function registerViaForm(page: Page, username: string): Promise<void> {
  await page.goto(`${base()}/login`);
  await page.getByRole('button', { name: "Don't have an account? Create account" }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email address').fill(`${username.toLowerCase()}@example.com`);
  await page.getByLabel('Password').fill('correct-horse-battery');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(`${base()}/`);
}

/** A signed-in page for a fresh account (API registration, token stored under the spec's keys). */
export async function newPlayer(
  browser: Browser,
  prefix: string,
  viewport = { width: 1440, height: 900 },
): Promise<{ page: Page; username: string; id: string }> {
  const username = uniqueName(prefix);
  const res = await fetch(`${base()}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      username,
      email: `${username.toLowerCase()}@example.com`,
      password: 'correct-horse-battery',
    }),
  });
  const body = (await res.json()) as { token: string; user: { id: string } };
  if (!res.ok) throw new Error(`register failed: ${JSON.stringify(body)}`);
  const ctx = await browser.newContext({ viewport });
  await ctx.addInitScript(
    ([token, user]) => {
      if (!localStorage.getItem('sessionToken')) {
        localStorage.setItem('sessionToken', token);
        localStorage.setItem('token', token);
        localStorage.setItem('userData', user);
        localStorage.setItem('welcomeModalDismissed', 'true');
      }
    },
    [body.token, JSON.stringify(body.user)] as const,
  );
  const page = await ctx.newPage();
  await page.goto(`${base()}/`);
  await expect(page.getByRole('heading', { name: 'Available Games' })).toBeVisible();
  return { page, username, id: body.user.id };
}

/** Plays until the hand summary shows: clicks a playable card whenever it is our turn, bids when asked. */
export async function playHandUntilSummary(page: Page, opts: { bid?: string; maxMs?: number } = {}): Promise<void> {
  return playUntil(page, page.getByRole('dialog', { name: /Hand \d* ?complete/ }), opts);
}

/** Bids and plays (first legal card) until `stop` is visible. */
export async function playUntil(page: Page, stop: Locator, opts: { bid?: string; maxMs?: number } = {}): Promise<void> {
  const deadline = Date.now() + (opts.maxMs ?? 150_000);
  while (Date.now() < deadline) {
    if (await stop.isVisible().catch(() => false)) return;
    const blind = page.getByRole('alertdialog', { name: 'Bid blind nil?' });
    if (await blind.isVisible().catch(() => false)) {
      await blind.getByRole('button', { name: 'No' }).click();
      continue;
    }
    const bidPanel = page.getByRole('dialog', { name: 'Make your bid' });
    if (await bidPanel.isVisible().catch(() => false)) {
      const preferred = bidPanel.getByRole('button', { name: opts.bid ?? 'Bid 3' });
      if (await preferred.isEnabled().catch(() => false)) await preferred.click();
      else await bidPanel.getByRole('button').first().click();
      continue;
    }
    const playable = page.getByRole('button', { name: /, playable$/ });
    if ((await playable.count()) > 0) {
      await playable
        .first()
        .click()
        .catch(() => undefined);
      await page.waitForTimeout(150);
      continue;
    }
    await page.waitForTimeout(150);
  }
  throw new Error('the expected screen did not appear in time');
}

/** Registers an account over HTTP (no browser). */
export async function apiRegister(prefix: string): Promise<{ token: string; id: string; username: string }> {
  const username = uniqueName(prefix);
  const res = await fetch(`${base()}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      username,
      email: `${username.toLowerCase()}@example.com`,
      password: 'correct-horse-battery',
    }),
  });
  const body = (await res.json()) as { token: string; user: { id: string } };
  if (!res.ok) throw new Error(`register failed: ${JSON.stringify(body)}`);
  return { token: body.token, id: body.user.id, username };
}

/** Creates a game over HTTP with the spec's creation request. */
export async function apiCreateGame(token: string, settings: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${base()}/api/games`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({
      gameMode: 'PARTNERS',
      biddingOption: 'REG',
      gamePlayOption: 'REG',
      minPoints: -100,
      maxPoints: 500,
      buyIn: 100000,
      ...settings,
      specialRules: {
        allowNil: true,
        allowBlindNil: false,
        screamer: false,
        assassin: false,
        ...(settings.specialRules as object),
      },
    }),
  });
  const body = (await res.json()) as { id: string };
  if (!res.ok) throw new Error(`create failed: ${JSON.stringify(body)}`);
  return body.id;
}

/**
 * What a seated player sees of the table state: own cards, seat labels (names, bids, tricks, whose turn),
 * the cards in the current trick, the scores, and whether it is our turn to play.
 */
export async function tableSnapshot(
  page: Page,
): Promise<{ hand: string[]; seats: string[]; trick: string[]; scores: string; yourTurn: boolean }> {
  const hand = await page
    .getByRole('toolbar', { name: /Your (hand|cards)/ })
    .locator('.hand-card')
    .evaluateAll((els) =>
      els.map(
        (e) => (e.getAttribute('aria-label') ?? e.querySelector('svg')?.getAttribute('aria-label') ?? '').split(',')[0],
      ),
    );
  const seats = await page
    .locator('.seat[role="group"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
  const trick = await page
    .getByLabel('Current trick')
    .getByRole('img')
    .evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''));
  const scores = (await page.getByLabel('Scores').textContent()) ?? '';
  const yourTurn = await page
    .getByRole('status')
    .filter({ hasText: /^Your turn$/ })
    .isVisible();
  return { hand, seats, trick, scores, yourTurn };
}
