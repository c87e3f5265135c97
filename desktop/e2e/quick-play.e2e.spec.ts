/**
 * Issue #28: quick play from the lobby. "Play bots now" at the Strong level starts a table with three bots labelled
 * with their level in one click; two players queue as partners (invitation + accept in the panel) and two more
 * queue alone: all four land at the same started table, the partners two seats apart.
 */
import { expect, test, type Page } from '@playwright/test';
import { join } from 'node:path';
import { base, newPlayer, SHOTS } from './helpers';

test.setTimeout(240_000);

const tokenOf = (p: Page) => p.evaluate(() => localStorage.getItem('sessionToken') ?? '');
async function befriend(from: Page, toId: string): Promise<void> {
  const r = await fetch(`${base()}/api/social/friends/add`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${await tokenOf(from)}` },
    body: JSON.stringify({ friendId: toId }),
  });
  expect(r.status).toBe(200);
}

test('"Play bots now" starts a table with three labelled Strong bots in one click', async ({ browser }) => {
  const p = await newPlayer(browser, 'qpbots', { width: 1366, height: 768 });
  const panel = p.page.getByRole('region', { name: 'Quick play' });
  await expect(panel).toBeVisible();
  await panel.getByRole('radiogroup', { name: 'Bot level' }).getByRole('radio', { name: 'Strong' }).click();
  await p.page.screenshot({ path: join(SHOTS, 'quick-play-panel-1366x768.png') });
  await p.page.screenshot({ path: '/tmp/shots/quickplay/quick-play-panel-1366x768.png' });
  await panel.getByRole('button', { name: 'Play bots now' }).click();
  await expect(p.page).toHaveURL(/\/table\//);
  for (const [seat, name] of [
    [2, 'Ada'],
    [3, 'Max'],
    [4, 'Ivy'],
  ] as const)
    await expect(p.page.getByLabel(new RegExp(`^Seat ${seat}: ${name} \\(Strong\\) \\(bot\\)`))).toBeVisible();
  await expect(p.page.getByRole('toolbar', { name: /Your (hand|cards)/ })).toBeVisible({ timeout: 30_000 });
  await p.page.screenshot({ path: '/tmp/shots/quickplay/play-bots-now-table-1366x768.png' });
});

test('two partners and two single players queue from the lobby and get one started table', async ({ browser }) => {
  const a = await newPlayer(browser, 'qpa');
  const b = await newPlayer(browser, 'qpb');
  // partners are friends both ways (the invitee must have added the inviter; the inviter picks from their friends)
  await befriend(a.page, b.id);
  await befriend(b.page, a.id);
  await a.page.reload();
  const panelA = a.page.getByRole('region', { name: 'Quick play' });
  await panelA.getByLabel('Partner').selectOption(b.id);
  await panelA.getByRole('button', { name: 'Queue together' }).click();
  const panelB = b.page.getByRole('region', { name: 'Quick play' });
  const invitation = panelB.getByRole('alertdialog', { name: `Partner invitation from ${a.username}` });
  await expect(invitation).toBeVisible();
  await invitation.getByRole('button', { name: 'Accept' }).click();
  await expect(panelB.getByText('Finding a table…')).toBeVisible();
  await expect(panelA.getByText(`with ${b.username}`)).toBeVisible();
  await a.page.screenshot({ path: '/tmp/shots/quickplay/queued-1440x900.png' });

  const singles = [await newPlayer(browser, 'qpc'), await newPlayer(browser, 'qpd')];
  for (const s of singles)
    await s.page.getByRole('region', { name: 'Quick play' }).getByRole('button', { name: 'Find a game' }).click();

  const all = [a, b, ...singles];
  for (const p of all) await expect(p.page).toHaveURL(/\/table\//, { timeout: 30_000 });
  const ids = new Set(all.map((p) => p.page.url().split('/table/')[1]));
  expect(ids.size).toBe(1);
  for (const p of all)
    await expect(p.page.getByRole('toolbar', { name: /Your (hand|cards)/ })).toBeVisible({ timeout: 30_000 });
  // the partners sit two seats apart
  const seatOf = async (p: Page, name: string) => {
    const label = await p
      .getByLabel(new RegExp(`^Seat \\d: ${name}`))
      .first()
      .getAttribute('aria-label');
    return Number(/^Seat (\d)/.exec(label ?? '')?.[1]);
  };
  const sa = await seatOf(a.page, a.username);
  const sb = await seatOf(a.page, b.username);
  expect(Math.abs(sa - sb)).toBe(2);
  await a.page.screenshot({ path: '/tmp/shots/quickplay/matched-table-1440x900.png' });
});
