/**
 * Delivery and first impressions (issue 15): the lobby's first load transfers at most 200 KB of JavaScript
 * (compressed), hashed assets are immutable, index.html is revalidated, there is a favicon and PNG app icons;
 * Sign in with Discord is disabled with a reason on a server without Discord and a failed Discord sign-in lands
 * on the login page with a readable message; the leaderboard states the Win % rule.
 */
import { expect, test } from '@playwright/test';
import { base, newPlayer, shot } from './helpers';

test('first load of the lobby: ≤ 200 KB of JavaScript over the wire, compressed and cacheable', async ({ browser }) => {
  const scripts: { url: string; bytes: number; encoding: string | null }[] = [];
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  page.on('requestfinished', async (req) => {
    if (req.resourceType() !== 'script') return;
    const res = await req.response();
    const sizes = await req.sizes();
    scripts.push({
      url: req.url(),
      bytes: sizes.responseBodySize,
      encoding: (await res?.allHeaders())?.['content-encoding'] ?? null,
    });
  });
  // a fresh context: nothing cached
  const reg = await fetch(`${base()}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      username: `wire${Date.now().toString(36).slice(-6)}`,
      email: `wire${Date.now()}@example.com`,
      password: 'correct-horse-battery',
    }),
  });
  const { token, user } = (await reg.json()) as { token: string; user: unknown };
  await page.addInitScript(
    ([t, u]) => {
      localStorage.setItem('sessionToken', t);
      localStorage.setItem('token', t);
      localStorage.setItem('userData', u);
      localStorage.setItem('welcomeModalDismissed', 'true');
    },
    [token, JSON.stringify(user)] as const,
  );
  await page.goto(`${base()}/`);
  await expect(page.getByRole('heading', { name: 'Available Games' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const total = scripts.reduce((a, s) => a + s.bytes, 0);
  console.log(
    JSON.stringify({
      lobbyJsBytesOverWire: total,
      scripts: scripts.map((s) => ({ url: s.url.replace(base(), ''), bytes: s.bytes, encoding: s.encoding })),
    }),
  );
  expect(scripts.length).toBeGreaterThan(0);
  // every script is compressed, except the few under the compression threshold (1 KB: compressing gains nothing)
  for (const s of scripts) if (s.bytes >= 1024) expect(s.encoding, s.url).toMatch(/^(br|gzip)$/);
  expect(
    scripts.filter((s) => s.encoding !== 'br' && s.encoding !== 'gzip').reduce((a, s) => a + s.bytes, 0),
  ).toBeLessThan(2048); // files under the 1 KB compression threshold only
  // issue 15's budget. The lobby's modules travel as one chunk (vite.config.mts: the `$initial` group; split in a
  // dozen chunks they compressed ~10 KB worse) and the pages away from the lobby load on first use.
  expect(total).toBeLessThanOrEqual(200_000);

  // caching: hashed assets immutable for a year, index.html revalidated
  const asset = scripts
    .filter((s) => /\/assets\/.+-[A-Za-z0-9_-]{8,}\.js$/.test(s.url))
    .sort((x, y) => y.bytes - x.bytes)[0];
  const a = await fetch(asset.url, { headers: { 'accept-encoding': 'br, gzip' } });
  expect(a.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  expect(a.headers.get('content-encoding')).toBe('br');
  for (const path of ['/', '/index.html', '/table/some-id']) {
    const r = await fetch(`${base()}${path}`);
    expect(r.headers.get('cache-control'), path).toBe('no-cache');
  }
  // favicon and PNG icons (no HTML page in their place)
  const fav = await fetch(`${base()}/favicon.ico`);
  expect(fav.status).toBe(200);
  expect(fav.headers.get('content-type')).toMatch(/icon/);
  const manifest = (await (await fetch(`${base()}/manifest.webmanifest`)).json()) as {
    icons: { src: string; sizes: string; type: string }[];
  };
  for (const size of ['192x192', '512x512']) {
    const icon = manifest.icons.find((i) => i.sizes === size && i.type === 'image/png');
    expect(icon, size).toBeTruthy();
    const r = await fetch(`${base()}${icon!.src}`);
    expect(r.headers.get('content-type')).toBe('image/png');
  }
  await ctx.close();
});

test('Discord unavailable: the button is disabled with a reason; a failed Discord sign-in shows a readable message', async ({
  page,
}) => {
  await page.goto(`${base()}/login`);
  const discord = page.getByRole('button', { name: 'Sign in with Discord' });
  await expect(discord).toBeDisabled();
  await expect(page.getByText('Discord sign-in is not available on this server.')).toBeVisible();
  await shot(page, '45-login-discord-unavailable');
  await page.goto(`${base()}/auth/callback?error=discord_denied`);
  await expect(page).toHaveURL(/\/login\?error=discord_denied$/);
  await expect(page.getByRole('alert')).toHaveText('Discord sign-in was cancelled.');
  await shot(page, '46-login-discord-error');
});

test('the leaderboard by Win % states its rule (a minimum number of rated games)', async ({ browser }) => {
  const { page } = await newPlayer(browser, 'rank');
  await page.goto(`${base()}/leaderboard`);
  await page.getByRole('radio', { name: 'Win %' }).click();
  await expect(
    page.getByText('Win % ranks players with at least 10 rated games (four humans at the table).').first(),
  ).toBeVisible();
  await expect(page.getByText('No ranked players yet.')).toHaveCount(0);
  await shot(page, '47-leaderboard-win-rate');
});
