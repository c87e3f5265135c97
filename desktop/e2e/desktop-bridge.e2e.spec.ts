// The renderer as the desktop app runs it, in Chromium against the real backend: a test double of the preload
// bridge (`window.desktop`, installed before the page's scripts) gives an API base on ANOTHER origin than the page,
// and a `spades://auth/callback?token=…` deep link delivered through it signs the player in.
import { expect, test } from '@playwright/test';
import type { DeepLink } from '../src/shared/bridge';
import { apiRegister, base, shot } from './helpers';

declare global {
  interface Window {
    __fireDeepLink?: (link: DeepLink) => void;
    __opened?: string[];
  }
}

test('with a desktop bridge: API base from the bridge, Discord opens the system browser, a deep-link token signs in', async ({
  page,
}) => {
  const pageBase = base(); // http://127.0.0.1:<port>
  const apiBase = pageBase.replace('127.0.0.1', 'localhost');
  expect(apiBase).not.toBe(pageBase);
  const player = await apiRegister('bridge');

  await page.addInitScript((api: string) => {
    const listeners = new Set<(l: DeepLink) => void>();
    window.__opened = [];
    window.__fireDeepLink = (l) => listeners.forEach((cb) => cb(l));
    window.desktop = {
      notify: async () => false,
      toggleFullScreen: async () => false,
      isFullScreen: async () => false,
      openExternal: async (url: string) => (window.__opened!.push(url), true),
      appInfo: async () => ({
        name: 'Spades',
        version: '0.0.0-test',
        platform: 'linux',
        electron: '0',
        chrome: '0',
        apiBase: api,
        packaged: false,
      }),
      getApiBase: () => api,
      onDeepLink: (cb: (l: DeepLink) => void) => {
        listeners.add(cb);
        return () => listeners.delete(cb);
      },
    };
  }, apiBase);

  const apiCalls: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) apiCalls.push(r.url());
  });

  // the e2e server has no Discord app configured (the button would be disabled): answer as a server that has one
  await page.route('**/api/auth/providers', (r) => r.fulfill({ json: { discord: true } }));
  await page.goto(`${pageBase}/login`);
  await page.getByRole('button', { name: 'Sign in with Discord' }).click();
  // in the app the login happens in the system browser, which the backend sends back to spades://auth/callback
  await expect.poll(() => page.evaluate(() => window.__opened)).toEqual([`${apiBase}/api/auth/discord?client=desktop`]);
  expect(page.url()).toBe(`${pageBase}/login`);

  await page.evaluate(
    (token: string) => window.__fireDeepLink!({ kind: 'auth-callback', token, path: `/auth/callback?token=${token}` }),
    player.token,
  );
  await expect(page).toHaveURL(`${pageBase}/`);
  await expect(page.getByText(player.username).first()).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('sessionToken'))).toBe(player.token);
  await shot(page, '40-desktop-bridge-signed-in');

  // every API call went to the bridge's base, none to the page's own origin
  expect(apiCalls.some((u) => u.startsWith(`${apiBase}/api/auth/profile`))).toBe(true);
  expect(apiCalls.filter((u) => !u.startsWith(`${apiBase}/`))).toEqual([]);
});
