/**
 * Ratings (issue #11) in the browser against the real backend: the rating (`1500?`, provisional) next to names in
 * the lobby's seat chips and at the table, the change (+118 / −118 for four new players) in the result dialog of a
 * rated game, the rating history on the profile; and the ban message with its end time when a player who abandoned
 * three rated games tries to sit at a table that would be rated; the stats dialog with rating and completion rate.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { apiCreateGame, apiRegister, base, newPlayer, playUntil, shot, shotBoth } from './helpers';

test.setTimeout(600_000);

async function http(
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const r = await fetch(`${base()}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: await r.json().catch(() => null) };
}

/** A browser page signed in as an account registered over HTTP. */
async function pageFor(browser: Browser, user: { token: string; id: string; username: string }): Promise<Page> {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await ctx.addInitScript(
    ([token, u]) => {
      if (!localStorage.getItem('sessionToken')) {
        localStorage.setItem('sessionToken', token);
        localStorage.setItem('token', token);
        localStorage.setItem('userData', u);
        localStorage.setItem('welcomeModalDismissed', 'true');
      }
    },
    [user.token, JSON.stringify({ id: user.id, username: user.username })] as const,
  );
  const page = await ctx.newPage();
  await page.goto(`${base()}/`);
  await expect(page.getByRole('heading', { name: 'Available Games' })).toBeVisible();
  return page;
}

test('ratings show in the lobby, at the table and in the result dialog of a rated game; the profile charts them', async ({
  browser,
}) => {
  const players: Awaited<ReturnType<typeof newPlayer>>[] = [];
  for (const n of ['rn', 're', 'rs', 'rw']) players.push(await newPlayer(browser, n));
  const [host, ...others] = players;

  await host.page.getByRole('button', { name: 'Create Game' }).first().click();
  const dialog = host.page.getByRole('dialog', { name: 'Create Game' });
  for (let i = 0; i < 8; i++) await dialog.getByRole('button', { name: 'Decrease Max points' }).click();
  await expect(dialog.getByTestId('value-Max points')).toHaveText('100');
  await dialog.getByRole('button', { name: 'Create Game' }).click();
  await expect(host.page).toHaveURL(/\/table\//);
  const gameId = host.page.url().split('/table/')[1];

  // Lobby: the host's seat chip carries the (provisional) rating, the tooltip the completion rate.
  const card = others[0].page.getByTestId('game-card').filter({ hasText: host.username });
  await expect(card).toBeVisible();
  const badge = card.getByTestId('rating-badge').first();
  await expect(badge).toHaveText('1500?');
  await expect(badge).toHaveAttribute('title', /Rating 1500 \(provisional\) · no rated games yet/);
  await shot(others[0].page, '80-lobby-rating');

  for (const p of others) {
    const c = p.page.getByTestId('game-card').filter({ hasText: host.username });
    await c.getByRole('button', { name: 'Join', exact: true }).click();
    await expect(p.page).toHaveURL(new RegExp(`/table/${gameId}`));
  }

  // At the table: every human seat shows its rating.
  await expect(host.page.getByText('4/4 seated')).toBeVisible();
  await expect(host.page.getByTestId('rating-badge')).toHaveCount(4);
  await expect(host.page.getByTestId('rating-badge').first()).toHaveText('1500?');
  await shot(host.page, '81-table-ratings');
  await host.page.getByRole('button', { name: 'Start Game' }).click();

  // Play to the end; the result dialog shows each player's change: +118 for the winners, −118 for the losers.
  const result = (p: Page) => p.getByRole('dialog', { name: /wins!|Game over/ });
  await Promise.all(players.map((p) => playUntil(p.page, result(p.page), { bid: 'Bid 3', maxMs: 520_000 })));
  const changes = result(host.page).getByTestId('rating-changes');
  await expect(changes).toBeVisible();
  await expect(changes.getByText('+118')).toHaveCount(2);
  await expect(changes.getByText('\u2212118')).toHaveCount(2);
  // issue #31: labelled "Rating 1500? → 1382? (−118)", the provisional mark explained; each player's own coins
  await expect(changes).toContainText('Rating 1500? → 1618? (+118)');
  await expect(changes).toContainText('Rating 1500? → 1382? (\u2212118)');
  await expect(changes.getByTestId('provisional-note')).toContainText('? = provisional');
  for (const p of players)
    await expect(result(p.page).getByTestId('my-coins')).toContainText(/^You (won|lost your buy-in)/);
  await shotBoth(host.page, '82-result-rating-changes');
  // the seats show the new ratings once the settlement is in
  await expect(host.page.getByTestId('rating-badge').filter({ hasText: /^(1618|1382)\?$/ })).toHaveCount(4);

  // Profile: rating, completion rate and the history chart.
  await host.page.goto(`${base()}/profile`);
  const rows = host.page.getByTestId('rating-rows');
  await expect(rows).toContainText(/1618\?|1382\?/);
  await expect(rows).toContainText('100%');
  await expect(host.page.getByTestId('rating-chart').getByRole('img')).toHaveAttribute(
    'aria-label',
    /1 rated games, now (1618|1382)/,
  );
  await shot(host.page, '83-profile-rating');
});

test('a player who abandoned three rated games is refused a seat that would make a rated table, with the end time', async ({
  browser,
}) => {
  const quitter = await apiRegister('quit');
  // Three rated games (four humans) that everybody abandons right after the start.
  for (let round = 0; round < 3; round++) {
    const others = [await apiRegister('qa'), await apiRegister('qb'), await apiRegister('qc')];
    const gameId = await apiCreateGame(quitter.token, { maxPoints: 500 });
    for (const [i, o] of others.entries())
      expect((await http('POST', `/api/games/${gameId}/join`, o.token, { seat: i + 1 })).status).toBe(200);
    expect((await http('POST', `/api/games/${gameId}/start`, quitter.token, {})).status).toBe(200);
    for (const u of [quitter, ...others])
      expect((await http('POST', `/api/games/${gameId}/leave`, u.token, {})).status).toBe(200);
  }
  await expect
    .poll(
      async () =>
        ((await http('GET', '/api/ratings/me', quitter.token)).body as { bannedUntil: string | null }).bannedUntil,
      { timeout: 15_000 },
    )
    .not.toBeNull();

  // A WAITING table with three humans: the fourth seat would start a rated game.
  const hosts = [await apiRegister('wa'), await apiRegister('wb'), await apiRegister('wc')];
  const waiting = await apiCreateGame(hosts[0].token, { maxPoints: 500 });
  for (const i of [1, 2])
    expect((await http('POST', `/api/games/${waiting}/join`, hosts[i].token, { seat: i })).status).toBe(200);

  const page = await pageFor(browser, quitter);
  const notice = page.getByTestId('ban-notice');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('you may not play at rated tables');
  const card = page.getByTestId('game-card').filter({ hasText: hosts[0].username });
  await card.getByRole('button', { name: 'Join', exact: true }).click();
  const toast = page.getByRole('alert').filter({ hasText: 'Failed to join game' });
  await expect(toast).toContainText(/You are banned from rated tables until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
  await expect(page).not.toHaveURL(/\/table\//);
  await shot(page, '84-rated-ban');
  // The stats dialog: the rating next to the name, and the completion rate (0 of 3 rated games finished).
  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'My Stats' }).click();
  const stats = page.getByRole('dialog', { name: 'My Stats' });
  await expect(stats.getByTestId('rating-badge')).toHaveText('1500?');
  await expect(stats.getByTestId('rating-rows')).toContainText('0%');
  await expect(stats.getByTestId('rating-rows')).toContainText('0 / 3 rated games');
  await shot(page, '85-stats-rating');
  await page.keyboard.press('Escape');
  for (const h of hosts) await http('POST', `/api/games/${waiting}/leave`, h.token, {});
});
