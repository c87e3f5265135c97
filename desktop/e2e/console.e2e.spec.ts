/**
 * Issue #25 in Chromium: the host console and what players see. A host (the first admin, by the setup token)
 * makes a moderator in the console; the moderator mutes a player (their next lobby message is refused with the
 * reason and the end), bans a seated player (their table goes on with a bot in the seat; signing in again is
 * refused with the reason) and resolves a report filed from a chat line; the audit log shows every step.
 * axe-core finds no serious or critical violation on the console pages; every console page is photographed at
 * 1920×1080 and 1366×768 (desktop/e2e/screenshots/console-*.png).
 *
 * This spec starts its own server (like servers.e2e.spec.ts): its log at info level carries the one-time admin
 * setup token that a fresh server prints, and its timers are short (a vacated seat gets its bot at once).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type Page } from '@playwright/test';
import type { ConsoleTablesPage } from '../../common/src/index';
import { SHOTS, uniqueName } from './helpers';

let server: ChildProcess | undefined;
let dataDir = '';
let BASE = '';

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

test.beforeAll(async () => {
  const port = await freePort();
  dataDir = mkdtempSync(join(tmpdir(), 'spades-e2e-console-'));
  const log = openSync(join(dataDir, 'server.log'), 'a');
  BASE = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, [resolve(__dirname, '../../backend/dist/main.js')], {
    cwd: resolve(__dirname, '../..'),
    stdio: ['ignore', log, log],
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      CLIENT_URL: BASE,
      LOG_LEVEL: 'info',
      REGISTER_MAX_PER_IP: '10000',
      ADMIN_USERS: '',
      BOT_DELAY_MIN_MS: '300',
      BOT_DELAY_MAX_MS: '400',
      BOT_LEVEL: 'basic',
      TRICK_DISPLAY_MS: '700',
      SEAT_REPLACEMENT_MS: '1000',
    },
  });
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`console backend exited (log: ${join(dataDir, 'server.log')})`);
    const ok = await fetch(`${BASE}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('console backend did not become healthy');
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

interface Account {
  token: string;
  id: string;
  username: string;
  email: string;
}

async function call<T>(
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const r = await fetch(`${BASE}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json().catch(() => null)) as T };
}

async function register(prefix: string): Promise<Account> {
  const username = uniqueName(prefix);
  const email = `${username.toLowerCase()}@example.com`;
  const res = await fetch(`${BASE}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, email, password: 'correct-horse-battery' }),
  });
  const body = (await res.json()) as { token: string; user: { id: string } };
  if (!res.ok) throw new Error(`register failed: ${JSON.stringify(body)}`);
  return { token: body.token, id: body.user.id, username, email };
}

/** A signed-in page of that account (token stored as the client stores it), on the lobby. */
async function open(browser: Browser, a: Account, viewport = { width: 1440, height: 900 }): Promise<Page> {
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
    [a.token, JSON.stringify({ id: a.id, username: a.username, coins: 5_000_000 })] as const,
  );
  const page = await ctx.newPage();
  await page.goto(`${BASE}/`);
  await expect(page.getByRole('heading', { name: 'Available Games' })).toBeVisible();
  return page;
}

/** Serious and critical axe violations on the page now ("where rule: target"). */
async function axe(page: Page, where: string): Promise<string[]> {
  await page.waitForTimeout(300);
  const r = await new AxeBuilder({ page }).exclude('.toasts').analyze();
  return r.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${where} ${v.id} (${v.impact}): ${n.target.join(' ')}`));
}

/** The page at 1920×1080 and 1366×768 (the issue) and 390×844 (a phone), as console-<name>-<w>x<h>.png. */
async function shots(page: Page, name: string): Promise<void> {
  const vp = page.viewportSize() ?? { width: 1440, height: 900 };
  for (const size of [
    { width: 1920, height: 1080 },
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(250);
    await page.screenshot({ path: join(SHOTS, `console-${name}-${size.width}x${size.height}.png`) });
  }
  await page.setViewportSize(vp);
}

/** A dialog's reason field, filled, then its confirm button. */
async function confirmWithReason(
  page: Page,
  dialogName: string | RegExp,
  reason: string,
  confirm: string | RegExp,
): Promise<void> {
  const dialog = page.getByRole('dialog', { name: dialogName });
  await dialog.getByLabel(/^Reason/).fill(reason);
  await dialog.getByRole('button', { name: confirm }).click();
  await expect(dialog).toBeHidden();
}

async function openPlayer(page: Page, who: Account): Promise<void> {
  await page.goto(`${BASE}/admin/players?q=${encodeURIComponent(who.username)}`);
  await page
    .getByRole('table', { name: 'Players found' })
    .getByRole('link', { name: who.username, exact: true })
    .click();
  await expect(page.getByRole('heading', { name: new RegExp(who.username) })).toBeVisible();
}

test('a host makes a moderator; the moderator mutes, bans a seated player and resolves a chat report; all audited', async ({
  browser,
}) => {
  test.setTimeout(300_000);
  const found: string[] = [];

  // ---- the first admin: the one-time setup token from the fresh server's log
  const host = await register('host');
  const token = /One-time admin setup token: ([^\s"\\]+)/.exec(readFileSync(join(dataDir, 'server.log'), 'utf8'))?.[1];
  expect(token, 'the fresh server prints a setup token').toBeTruthy();
  expect((await call(host.token, 'POST', '/api/admin/setup', { token })).status).toBeLessThan(300);

  const mod = await register('mod');
  const rude = await register('rude');
  const quitter = await register('quit');
  const reporter = await register('rep');
  const talker = await register('talk');

  // ---- the host makes a moderator in the console (Roles)
  const hostPage = await open(browser, host);
  await hostPage.getByRole('link', { name: 'Console' }).click();
  await expect(hostPage.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await hostPage.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Roles' }).click();
  await hostPage.getByLabel('Find a player (name, e-mail or id)').fill(mod.username);
  await hostPage.getByRole('button', { name: 'Find' }).click();
  await hostPage.getByRole('button', { name: `Change the role of ${mod.username}` }).click();
  const roleDialog = hostPage.getByRole('dialog', { name: `Role of ${mod.username}` });
  await roleDialog.getByRole('radio', { name: 'Moderator' }).click();
  await confirmWithReason(hostPage, `Role of ${mod.username}`, 'Runs the evening tables', 'Change role');
  await expect(hostPage.getByTestId('staff-row').filter({ hasText: mod.username })).toContainText('Moderator');

  // ---- the moderator's console: the header links to it; admin-only pages are not offered
  const modPage = await open(browser, mod);
  await modPage.getByRole('link', { name: 'Console' }).click();
  await expect(modPage.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  const modNav = modPage.getByRole('navigation', { name: 'Console' });
  await expect(modNav.getByRole('link')).toHaveText(['Dashboard', 'Players', 'Tables', 'Reports', 'Tournaments']);
  expect((await call(mod.token, 'GET', '/api/admin/audit')).status).toBe(403);
  expect((await call(rude.token, 'GET', '/api/admin/me')).status).toBe(403);

  // ---- mute: the player's next lobby message is refused with the reason and the end
  const rudePage = await open(browser, rude);
  await openPlayer(modPage, rude);
  await modPage.getByRole('button', { name: 'Mute', exact: true }).click();
  await modPage
    .getByRole('dialog', { name: `Mute ${rude.username}` })
    .getByLabel('Duration')
    .selectOption({ label: '1 hour' });
  await confirmWithReason(modPage, `Mute ${rude.username}`, 'Spamming the lobby', `Mute ${rude.username}`);
  await expect(modPage.getByTestId('sanction-row').first()).toContainText('Spamming the lobby');
  // the muted player sees it above the chat input at once (sanction_notice)
  await expect(rudePage.getByTestId('chat-muted-notice')).toContainText(
    /You are muted until \d{4}-\d\d-\d\d \d\d:\d\d UTC: Spamming the lobby/,
  );
  // close the notification of the mute itself, so that the next one can only be the refusal
  const toasts = rudePage.getByRole('region', { name: 'Notifications' });
  while ((await toasts.getByRole('button', { name: 'Dismiss' }).count()) > 0)
    await toasts.getByRole('button', { name: 'Dismiss' }).first().click();
  await rudePage.getByRole('textbox', { name: 'Chat message' }).fill('buy cheap coins here');
  await rudePage.getByRole('button', { name: 'Send message' }).click();
  await expect(toasts.getByRole('alert').filter({ hasText: 'You are muted until' })).toContainText(
    'Spamming the lobby',
  );
  await expect(rudePage.getByRole('log', { name: 'Chat messages' })).not.toContainText('buy cheap coins here');
  await shots(rudePage, 'player-muted');

  // ---- ban a seated player: their table continues with a bot in the seat, and signing in is refused
  const quitterPage = await open(browser, quitter);
  const create = await call<{ id: string }>(quitter.token, 'POST', '/api/games', {
    gameMode: 'PARTNERS',
    biddingOption: 'REG',
    gamePlayOption: 'REG',
    minPoints: -100,
    maxPoints: 500,
    buyIn: 100000,
    specialRules: { allowNil: true, allowBlindNil: false, screamer: false, assassin: false },
  });
  expect(create.status).toBeLessThan(300);
  const gameId = create.body.id;
  // a second human at the table: the game goes on for them after the ban
  const seated = await register('seat');
  const seatedPage = await open(browser, seated);
  await seatedPage.goto(`${BASE}/table/${gameId}`);
  await seatedPage.getByRole('button', { name: 'Join seat 2' }).click();
  await quitterPage.goto(`${BASE}/table/${gameId}`);
  await expect(quitterPage.getByRole('group', { name: new RegExp(`^Seat 2: ${seated.username}`) })).toBeVisible();
  await quitterPage.getByRole('button', { name: 'Start Game' }).click();
  await quitterPage
    .getByRole('dialog', { name: 'Empty seats' })
    .getByRole('button', { name: 'Play with Bots' })
    .click();
  await expect
    .poll(
      async () =>
        (await call<ConsoleTablesPage>(mod.token, 'GET', '/api/admin/tables?status=playing')).body.tables.some(
          (t) => t.id === gameId,
        ),
      { timeout: 20_000 },
    )
    .toBe(true);
  await modPage.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Tables' }).click();
  await expect(modPage.getByTestId('console-table-row').filter({ hasText: quitter.username })).toBeVisible();
  await shots(modPage, 'tables');
  found.push(...(await axe(modPage, 'tables')));

  await openPlayer(modPage, quitter);
  await modPage.getByRole('button', { name: 'Ban', exact: true }).click();
  await modPage
    .getByRole('dialog', { name: `Ban ${quitter.username}` })
    .getByLabel('Duration')
    .selectOption({ label: '24 hours' });
  await confirmWithReason(
    modPage,
    `Ban ${quitter.username}`,
    'Cheating with a second account',
    `Ban ${quitter.username}`,
  );
  // the banned player is told why and until when, and signed out
  const banDialog = quitterPage.getByRole('dialog', { name: 'Your account is banned' });
  await expect(banDialog).toContainText(/Banned until \d{4}-\d\d-\d\d \d\d:\d\d UTC: Cheating with a second account/);
  await expect(quitterPage).toHaveURL(/\/login/);
  await quitterPage.screenshot({ path: join(SHOTS, 'console-player-banned-1440x900.png') });
  await banDialog.getByRole('button', { name: 'OK' }).click();
  // the table goes on: a bot in the seat, the game still running
  await expect
    .poll(
      async () => {
        const t = (await call<ConsoleTablesPage>(mod.token, 'GET', '/api/admin/tables?status=all')).body.tables.find(
          (x) => x.id === gameId,
        );
        const who = (s: ConsoleTablesPage['tables'][number]['seats'][number]) =>
          s.userId === quitter.id ? 'quitter' : s.userId === seated.id ? 'seated' : s.kind;
        return t ? `${t.status === 'CLOSED' ? 'closed' : 'open'} ${t.seats.map(who).join(',')}` : 'missing';
      },
      { timeout: 20_000 },
    )
    .toBe('open bot,seated,bot,bot');
  // and the seated player still sees the game, a bot in the banned player's seat
  await expect(seatedPage.getByRole('group', { name: /^Seat 1: .*\(bot\)/ })).toBeVisible();
  // staff watch the table as spectators from the console's Tables page
  await modPage.goto(`${BASE}/admin/tables`);
  await modPage.getByRole('link', { name: `Watch table ${gameId.slice(0, 8)}` }).click();
  await expect(modPage).toHaveURL(new RegExp(`/table/${gameId}\\?spectate=1`));
  await expect(modPage.getByRole('group', { name: /^Seat 1: .*\(bot\)/ })).toBeVisible();
  await expect(modPage.getByRole('group', { name: new RegExp(`^Seat 2: ${seated.username}`) })).toBeVisible();

  // signing in again is refused with the reason and the end
  await quitterPage.getByLabel('Email address').fill(quitter.email);
  await quitterPage.getByLabel('Password').fill('correct-horse-battery');
  await quitterPage.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(quitterPage.getByText(/Banned until .*UTC: Cheating with a second account/)).toBeVisible();
  await expect(quitterPage).toHaveURL(/\/login/);

  // ---- a report from a chat line, resolved by the moderator
  const talkerPage = await open(browser, talker);
  const reporterPage = await open(browser, reporter);
  await talkerPage.getByRole('textbox', { name: 'Chat message' }).fill('you are all hopeless at this game');
  await talkerPage.getByRole('button', { name: 'Send message' }).click();
  const line = reporterPage
    .getByRole('log', { name: 'Chat messages' })
    .locator('.chat-msg', { hasText: 'you are all hopeless at this game' });
  await expect(line).toBeVisible();
  await line.hover();
  await line.getByRole('button', { name: `Actions for ${talker.username}'s message` }).click();
  await reporterPage.getByRole('menuitem', { name: `Report ${talker.username}` }).click();
  const reportDialog = reporterPage.getByRole('dialog', { name: `Report ${talker.username}` });
  await expect(reportDialog.getByLabel('Reason')).toHaveValue('abusive_chat');
  await reportDialog.getByLabel(/What happened/).fill('Insults everyone at the table');
  await reportDialog.getByRole('button', { name: 'Send report' }).click();
  await expect(reportDialog.getByTestId('report-receipt')).toBeVisible();
  await reporterPage.screenshot({ path: join(SHOTS, 'console-player-report-sent-1440x900.png') });
  await reportDialog.getByRole('button', { name: 'Close' }).first().click();

  await modPage.goto(`${BASE}/admin/reports`);
  await modPage
    .getByTestId('report-row')
    .filter({ hasText: talker.username })
    .getByRole('link', { name: talker.username })
    .click();
  const reported = modPage.locator('.chat-context [data-reported]');
  await expect(reported).toContainText('you are all hopeless at this game');
  await modPage.getByRole('button', { name: 'Assign to me' }).click();
  await confirmWithReason(modPage, 'Assign this report to me', 'Looking into it', 'Assign to me');
  await expect(modPage.getByRole('region', { name: 'Report' })).toContainText(`Assigned to${mod.username}`);
  await shots(modPage, 'reports');
  found.push(...(await axe(modPage, 'reports')));
  await modPage.getByRole('button', { name: 'Resolve with an action' }).click();
  const resolve = modPage.getByRole('dialog', { name: `Resolve: act on ${talker.username}` });
  await resolve.getByRole('radio', { name: 'Warn' }).click();
  await confirmWithReason(modPage, `Resolve: act on ${talker.username}`, 'Keep it civil', 'Resolve');
  await expect(talkerPage.getByRole('dialog', { name: 'A moderator warned you' })).toContainText('Keep it civil');
  await modPage.getByRole('radio', { name: /^Resolved/ }).click();
  await expect(modPage.getByTestId('report-row').filter({ hasText: talker.username })).toBeVisible();

  // ---- the audit log shows every step (admins only)
  await hostPage.goto(`${BASE}/admin/audit`);
  const rows = hostPage.getByTestId('audit-row');
  const expectRow = (action: string, text: string) =>
    expect(rows.filter({ hasText: action }).filter({ hasText: text }).first()).toBeVisible();
  await expectRow('role.grant', 'Runs the evening tables');
  await expectRow('player.mute', 'Spamming the lobby');
  await expectRow('player.ban', 'Cheating with a second account');
  await expectRow('report.assign', 'Looking into it');
  await expectRow('report.resolve', 'Keep it civil');
  await shots(hostPage, 'audit');
  found.push(...(await axe(hostPage, 'audit')));
  await hostPage.getByLabel('Action').selectOption('player.ban');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(quitter.username);

  // ---- every other console page: screenshots and axe
  await hostPage.goto(`${BASE}/admin`);
  await expect(hostPage.getByTestId('kpi-online')).toBeVisible();
  await shots(hostPage, 'dashboard');
  found.push(...(await axe(hostPage, 'dashboard')));
  await hostPage.goto(`${BASE}/admin/players?q=${encodeURIComponent(rude.username.slice(0, 4))}`);
  await expect(
    hostPage.getByRole('table', { name: 'Players found' }).getByRole('link', { name: rude.username }),
  ).toBeVisible();
  await shots(hostPage, 'players');
  found.push(...(await axe(hostPage, 'players')));
  await openPlayer(hostPage, rude);
  await expect(hostPage.getByTestId('sanction-row').first()).toContainText('Spamming the lobby');
  await shots(hostPage, 'player');
  found.push(...(await axe(hostPage, 'player')));
  await hostPage.getByRole('button', { name: 'Ban', exact: true }).click();
  await expect(hostPage.getByRole('dialog', { name: `Ban ${rude.username}` })).toBeVisible();
  await shots(hostPage, 'player-ban-dialog');
  found.push(...(await axe(hostPage, 'ban dialog')));
  await hostPage.keyboard.press('Escape');
  await hostPage.goto(`${BASE}/admin/roles`);
  await expect(hostPage.getByTestId('staff-row')).toHaveCount(2);
  await shots(hostPage, 'roles');
  found.push(...(await axe(hostPage, 'roles')));

  // ---- settings: an announcement reaches a connected player at once
  await hostPage.goto(`${BASE}/admin/settings`);
  await hostPage.getByLabel(/Announcement banner/).fill('Tournament tonight at 20:00 UTC');
  await hostPage.getByRole('button', { name: 'Save changes' }).click();
  await confirmWithReason(hostPage, 'Save the settings', 'Tournament night', 'Save');
  await expect(reporterPage.getByTestId('announcement')).toContainText('Tournament tonight at 20:00 UTC');
  await reporterPage.screenshot({ path: join(SHOTS, 'console-player-announcement-1440x900.png') });
  await shots(hostPage, 'settings');
  found.push(...(await axe(hostPage, 'settings')));

  // a player is refused the console
  await rudePage.goto(`${BASE}/admin`);
  await expect(rudePage.getByRole('heading', { name: 'Moderators and admins only' })).toBeVisible();
  await expect(rudePage.getByRole('link', { name: 'Console' })).toHaveCount(0);

  expect(found).toEqual([]);
});
