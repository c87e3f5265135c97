/**
 * At the table, what a new player tripped over (issue #31 part A): the turn timer for the whole turn, the toast,
 * chat line and seat warning when the server plays for you, the result dialog's last hand, invite links built
 * from the address in use, blocking that hides old lines, the invitation page of a private table, and a leave
 * that answers 2xx once.
 *
 * The timeout and invite-link tests run against a second server started here: 2 s turns, and CLIENT_URL unset (its
 * default names localhost, not the 127.0.0.1 address the players use), so the link must come from the address in use.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { apiCreateGame, base, newPlayer, playUntil, shot, uniqueName } from './helpers';

async function api(token: string, method: string, path: string, body: unknown = {}, at = base()) {
  const r = await fetch(`${at}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: method === 'GET' ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json().catch(() => null)) as Record<string, unknown> };
}

function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => res(port));
    });
  });
}

let second: { proc: ChildProcess; url: string } | null = null;

/** The second server (same build, its own embedded database): short turns, CLIENT_URL unset. */
async function secondServer(): Promise<string> {
  if (second) return second.url;
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'spades-e2e-ux-'));
  const log = openSync(join(dataDir, 'server.log'), 'a');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
    REGISTER_MAX_PER_IP: '10000',
    BOT_DELAY_MIN_MS: '100',
    BOT_DELAY_MAX_MS: '150',
    TRICK_DISPLAY_MS: '500',
    TURN_TIMEOUT_MS: '2500',
    BOT_LEVEL: 'basic',
  };
  delete env.CLIENT_URL;
  const proc = spawn(process.execPath, [resolve(__dirname, '../../backend/dist/main.js')], {
    cwd: resolve(__dirname, '../..'),
    env,
    stdio: ['ignore', log, log],
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) {
      second = { proc, url };
      return url;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  proc.kill('SIGTERM');
  throw new Error(`the second server did not start (log: ${join(dataDir, 'server.log')})`);
}

test.afterAll(() => {
  second?.proc.kill('SIGTERM');
  second = null;
});

/** A signed-in page on `at` for a new account there. */
async function playerAt(
  browser: Browser,
  at: string,
  prefix: string,
): Promise<{ page: Page; token: string; id: string; username: string }> {
  const username = uniqueName(prefix);
  const res = await fetch(`${at}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      username,
      email: `${username.toLowerCase()}@example.com`,
      password: 'correct-horse-battery',
    }),
  });
  const body = (await res.json()) as { token: string; user: { id: string } };
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
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
  await page.goto(`${at}/`);
  await expect(page.getByRole('heading', { name: 'Available Games' })).toBeVisible();
  return { page, token: body.token, id: body.user.id, username };
}

/** Creates a table on `at` (the spec's creation request) with bots in the other seats; optionally starts it. */
async function botTable(
  at: string,
  token: string,
  id: string,
  settings: Record<string, unknown>,
  start: boolean,
): Promise<string> {
  const res = await api(
    token,
    'POST',
    '/api/games',
    {
      gameMode: 'PARTNERS',
      biddingOption: 'REG',
      gamePlayOption: 'REG',
      minPoints: -100,
      maxPoints: 500,
      buyIn: 100000,
      specialRules: { allowNil: true, allowBlindNil: false, screamer: false, assassin: false },
      ...settings,
    },
    at,
  );
  expect(res.status).toBeLessThan(300);
  const gameId = res.body.id as string;
  if (start) {
    for (const seatIndex of [1, 2, 3])
      expect(
        (await api(token, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex, requesterId: id }, at)).status,
      ).toBeLessThan(300);
    expect((await api(token, 'POST', `/api/games/${gameId}/start`, {}, at)).status).toBeLessThan(300);
  }
  return gameId;
}

test('a timed-out player is told what was played for them, and warned before the seat goes to a bot', async ({
  browser,
}) => {
  const at = await secondServer();
  const me = await playerAt(browser, at, 'slow');
  const gameId = await botTable(at, me.token, me.id, {}, true);
  await me.page.goto(`${at}/table/${gameId}`);
  const log = me.page.getByRole('log', { name: 'Chat messages' });
  // 1st timeout: the bid (bidding opens with our seat or after the bots'); 2nd: a card
  await expect(log).toContainText(/Time ran out: a bid of (nil|\d+) was made for you\./, { timeout: 30_000 });
  await expect(me.page.getByRole('alert').filter({ hasText: 'Time ran out' }).first()).toBeVisible();
  await expect(log).toContainText(/Time ran out: (10|[2-9JQKA])[♠♥♦♣] was played for you\./, { timeout: 30_000 });
  const warning = me.page.locator('.timeout-warning');
  await expect(warning).toHaveText(
    /You missed 2 turns in a row\. If the next turn runs out too, a bot takes your seat\./,
  );
  await expect(log).toContainText('If the next turn runs out too, a bot takes your seat.');
  await shot(me.page, '31-timeout-warning');
  // acting again takes the warning away
  const playable = me.page.getByRole('button', { name: /, playable$/ });
  await expect(playable.first()).toBeVisible({ timeout: 30_000 });
  await playable.first().click();
  await expect(warning).toBeHidden();
});

test('an invite link built from the address in use (not the default CLIENT_URL) seats a friend', async ({
  browser,
}) => {
  const at = await secondServer();
  const host = await playerAt(browser, at, 'lhost');
  const gameId = await botTable(at, host.token, host.id, { private: true }, false);
  await host.page.goto(`${at}/table/${gameId}`);
  await host.page.getByRole('button', { name: 'Invite players' }).click();
  const panel = host.page.getByRole('dialog', { name: 'Invite players' });
  const linkBox = panel.getByRole('textbox', { name: 'Invite link' });
  await expect(linkBox).toHaveValue(new RegExp(`^${at}/table/${gameId}\\?invite=[A-Za-z0-9_-]{24}$`));
  const link = await linkBox.inputValue();
  // the desktop-app form names this server too
  await expect(panel).toContainText(`spades://table/${gameId}?server=${encodeURIComponent(at)}&invite=`);
  await shot(host.page, '31-invite-link-address');

  // a friend opens the copied link: seated at the table
  const friend = await playerAt(browser, at, 'lfriend');
  await friend.page.goto(link);
  await expect(friend.page).toHaveURL(`${at}/table/${gameId}`);
  await expect(friend.page.locator('.seat[role="group"]', { hasText: friend.username })).toBeVisible();

  // without an invitation, the table's plain address says so clearly (not "Failed to load game")
  const stranger = await playerAt(browser, at, 'lstranger');
  await stranger.page.goto(`${at}/table/${gameId}`);
  await expect(
    stranger.page.getByRole('heading', { name: 'This table is private: you need an invitation' }),
  ).toBeVisible();
  await expect(stranger.page.getByText('Ask the host for an invitation or a new invitation link.')).toBeVisible();
  await expect(stranger.page.getByText(/Failed to load game/)).toHaveCount(0);
  await shot(stranger.page, '31-invitation-needed');
});

test('the turn timer shows for the whole turn; the result dialog explains the last hand; leaving answers 2xx, once', async ({
  browser,
}) => {
  const { page, id } = await newPlayer(browser, 'ux');
  const token = await page.evaluate(() => localStorage.getItem('sessionToken') as string);
  // -100..100 and a bid of 13: our side is set in the first hand, the game ends after one hand
  const gameId = await apiCreateGame(token, { maxPoints: 100, minPoints: -100 });
  for (const seatIndex of [1, 2, 3])
    expect(
      (await api(token, 'POST', `/api/games/${gameId}/invite-bot`, { seatIndex, requesterId: id })).status,
    ).toBeLessThan(300);
  expect((await api(token, 'POST', `/api/games/${gameId}/start`)).status).toBeLessThan(300);
  await page.goto(`${base()}/table/${gameId}`);
  const bidPanel = page.getByRole('dialog', { name: 'Make your bid' });
  await expect(bidPanel).toBeVisible({ timeout: 60_000 });
  // the 30 s turn: the timer is on our seat from the start of the turn, not only in its last 10 s
  const timer = page.locator('.seat-bottom').getByRole('timer');
  await expect(timer).toBeVisible();
  expect(Number((await timer.getAttribute('aria-label'))?.split(' ')[0])).toBeGreaterThan(15);
  // the bots' turns have no timer (only a human's turn has one)
  await expect(page.locator('.seat:not(.seat-bottom)').getByRole('timer')).toHaveCount(0);

  const result = page.getByRole('dialog', { name: /wins!|Game over/ });
  await playUntil(page, result, { bid: 'Bid 13', maxMs: 170_000 });
  const last = result.getByRole('region', { name: /Last hand/ });
  await expect(last).toBeVisible();
  const sides = last.getByTestId('last-hand-side');
  await expect(sides).toHaveCount(2);
  // our side bid 13 and was set: the contract's −130 (at least) and the score before → after are shown
  await expect(sides.first()).toContainText('Red team');
  await expect(sides.first()).toContainText(/bid 13, took \d+/);
  await expect(sides.first().getByText('Contract')).toBeVisible();
  await expect(sides.first()).toContainText(/−1[3-9]\d/);
  await expect(sides.first()).toContainText(/−?\d+ → −?\d+ \(/);
  // unrated (bots): no coin line; the rating line is for rated games
  await expect(result.getByTestId('my-coins')).toHaveCount(0);
  await expect(result).toContainText('Unrated game: no coins moved.');
  await shot(page, '31-result-last-hand');

  const leaves: number[] = [];
  page.on('response', (r) => {
    if (r.url().endsWith(`/api/games/${gameId}/leave`) && r.request().method() === 'POST') leaves.push(r.status());
  });
  await result.getByRole('button', { name: 'Leave' }).click();
  await expect(page.getByRole('heading', { name: 'Available Games' })).toBeVisible();
  await expect.poll(() => leaves.length).toBe(1);
  expect(leaves[0]).toBe(200);
});

test('blocking hides the blocked player’s lines already on screen, in the table chat and the lobby chat', async ({
  browser,
}) => {
  const alice = await newPlayer(browser, 'balice');
  const bob = await newPlayer(browser, 'bbob');
  const token = await alice.page.evaluate(() => localStorage.getItem('sessionToken') as string);
  const gameId = await apiCreateGame(token, { maxPoints: 500 });
  const bobToken = await bob.page.evaluate(() => localStorage.getItem('sessionToken') as string);
  expect((await api(bobToken, 'POST', `/api/games/${gameId}/join`, { seat: 1 })).status).toBeLessThan(300);
  await alice.page.goto(`${base()}/table/${gameId}`);
  await bob.page.goto(`${base()}/table/${gameId}`);

  // Bob writes in the table chat and in the lobby chat; Alice sees both
  const bobInput = bob.page.getByRole('textbox', { name: 'Chat message' });
  await bobInput.fill('table line from bob');
  await bobInput.press('Enter');
  const aliceLog = alice.page.getByRole('log', { name: 'Chat messages' });
  await expect(aliceLog).toContainText('table line from bob');
  await bob.page.getByRole('radio', { name: 'Lobby chat' }).click();
  await bobInput.fill('lobby line from bob');
  await bobInput.press('Enter');
  await alice.page.getByRole('radio', { name: 'Lobby chat' }).click();
  await expect(aliceLog).toContainText('lobby line from bob');
  await alice.page.getByRole('radio', { name: 'Game chat' }).click();

  // Alice blocks Bob from the table's player list: both lines go at once, without a reload
  await alice.page.getByRole('tab', { name: 'Players' }).click();
  await alice.page.getByRole('button', { name: `Block ${bob.username}` }).click();
  await alice.page.getByRole('dialog', { name: 'Block' }).getByRole('button', { name: 'Yes' }).click();
  await expect(alice.page.getByRole('button', { name: `Unblock ${bob.username}` })).toBeVisible();
  await alice.page.getByRole('tab', { name: 'Chat' }).click();
  await expect(aliceLog).not.toContainText('table line from bob');
  await alice.page.getByRole('radio', { name: 'Lobby chat' }).click();
  await expect(aliceLog).not.toContainText('lobby line from bob');
  // the system lines stay
  await alice.page.getByRole('radio', { name: 'Game chat' }).click();
  await expect(aliceLog).toContainText(`${bob.username} joined the game.`);
  await shot(alice.page, '31-blocked-lines-hidden');
});
