import { expect, test } from '@playwright/test';
import { base, newPlayer, shot } from './helpers';

// A valid 2×1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAABCAYAAAD0In+KAAAAEUlEQVR4nGP4z8DwHwyBAgBZ4Af5Tz5n0QAAAABJRU5ErkJggg==',
  'base64',
);

test('change avatar: non-image refused with the §5 text; an image is compressed to JPEG and shown', async ({
  browser,
}) => {
  const { page } = await newPlayer(browser, 'pic');
  const input = page.getByTestId('avatar-input');
  await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByText('Please select an image file')).toBeVisible();
  await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  const avatar = page.getByRole('button', { name: 'Account menu' }).locator('img');
  await expect(avatar).toBeVisible();
  const src = await avatar.getAttribute('src');
  expect(src?.startsWith('data:image/jpeg')).toBe(true);
  // Stored on the server: the profile returns the same data URL.
  const token = await page.evaluate(() => localStorage.getItem('sessionToken'));
  const profile = (await (
    await fetch(`${base()}/api/auth/profile`, { headers: { Authorization: `Bearer ${token}` } })
  ).json()) as { avatar: string };
  expect(profile.avatar).toBe(src);
  await shot(page, '46-avatar-changed');
});

test('service worker is registered on load and never answers API requests', async ({ browser }) => {
  const { page } = await newPlayer(browser, 'sw');
  await expect
    .poll(() => page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())), { timeout: 20_000 })
    .toBe(true);
  await page.reload();
  await expect.poll(() => page.evaluate(() => !!navigator.serviceWorker.controller), { timeout: 20_000 }).toBe(true);
  // API and socket responses come from the network, not the service worker cache.
  const api = await page.waitForResponse((r) => r.url().includes('/api/'), { timeout: 20_000 }).catch(() => null);
  await page.reload();
  const fresh = await page.waitForResponse((r) => r.url().includes('/api/users'));
  expect(fresh.fromServiceWorker()).toBe(false);
  expect(api === null || !api.fromServiceWorker()).toBe(true);
  const sw = await (await fetch(`${base()}/sw.js`)).text();
  expect(sw).toContain('precache');
  expect(sw).not.toMatch(/registerRoute\([^)]*\/api/);
});
