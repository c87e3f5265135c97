import { expect, test } from '@playwright/test';
import { apiCreateGame, apiRegister, newPlayer, shot, shotBoth } from './helpers';

test('lobby: live game cards with every badge, filters, watch a table as a spectator', async ({ browser }) => {
  const a = await apiRegister('cardA');
  const b = await apiRegister('cardB');
  await apiCreateGame(a.token, { biddingOption: 'BID 3', specialRules: { assassin: true } });
  const { page } = await newPlayer(browser, 'viewer');
  const cards = page.getByTestId('game-card');
  await expect(cards.first()).toBeVisible();
  // A game created while the lobby is open arrives through games_updated.
  const before = await cards.count();
  await apiCreateGame(b.token, {
    gameMode: 'SOLO',
    biddingOption: 'REG',
    minPoints: -200,
    maxPoints: 300,
    buyIn: 1_500_000,
    specialRules: { screamer: true, allowBlindNil: true },
  });
  await expect(cards).toHaveCount(before + 1);
  const solo = cards.filter({ hasText: 'SCREAMER' }).first();
  await expect(solo).toContainText('SOLO');
  await expect(solo).toContainText('-200/300');
  await expect(solo).toContainText('1.5M');
  await expect(solo.getByText('Blind nil allowed')).toBeVisible();
  const bid3 = cards.filter({ hasText: 'BID 3' }).first();
  await expect(bid3).toContainText('ASSASSIN');
  await expect(bid3).toContainText('WAITING');
  await expect(bid3.getByText('Blind nil not allowed')).toBeVisible();
  await shotBoth(page, '40-lobby-game-cards');
  await page.getByRole('radio', { name: 'In Progress' }).click();
  await expect(cards.filter({ hasText: 'WAITING' })).toHaveCount(0);
  await expect(cards.filter({ hasText: 'BID 3' })).toHaveCount(0);
  await page.getByRole('radio', { name: 'Waiting' }).click();
  await expect(cards.first()).toBeVisible();

  // Watch: spectator mode never shows a hand.
  await bid3.getByRole('button', { name: 'Watch' }).click();
  await expect(page).toHaveURL(/spectate=1/);
  await expect(page.getByText('SPECTATING')).toBeVisible();
  await expect(page.getByRole('toolbar', { name: /Your (hand|cards)/ })).toHaveCount(0);
  await shot(page, '41-spectating-waiting');
});

test('lobby chat between two users; add friend and block with Yes/No confirmation', async ({ browser }) => {
  const alice = await newPlayer(browser, 'alice');
  const bob = await newPlayer(browser, 'bob');

  // Chat: Alice writes, Bob reads (and whitespace is not sent).
  const aliceInput = alice.page.getByRole('textbox', { name: 'Chat message' });
  await expect(aliceInput).toBeEnabled();
  await aliceInput.fill('   ');
  await expect(alice.page.getByRole('button', { name: 'Send message' })).toBeDisabled();
  await aliceInput.fill('  Anyone up for a game?  ');
  await aliceInput.press('Enter');
  await expect(bob.page.getByRole('log', { name: 'Chat messages' })).toContainText('Anyone up for a game?');
  await bob.page.getByRole('textbox', { name: 'Chat message' }).fill('Deal me in!');
  await bob.page.getByRole('button', { name: 'Send message' }).click();
  await expect(alice.page.getByRole('log', { name: 'Chat messages' })).toContainText('Deal me in!');
  await shotBoth(alice.page, '42-lobby-chat');
  // Narrow screens: a Lobby/Chat toggle switches between the games and the side panel.
  await bob.page.setViewportSize({ width: 390, height: 844 });
  await expect(bob.page.getByRole('radiogroup', { name: 'Lobby or chat' })).toBeVisible();
  await expect(bob.page.getByRole('log', { name: 'Chat messages' })).toHaveCount(0);
  await bob.page.getByRole('radio', { name: 'Chat' }).click();
  await expect(bob.page.getByRole('log', { name: 'Chat messages' })).toContainText('Anyone up for a game?');
  await shot(bob.page, '42-lobby-chat-narrow');

  // Add friend with confirmation: Bob becomes a friend in Alice's list, sorted first.
  await alice.page.getByRole('tab', { name: 'Players' }).click();
  await alice.page.getByRole('button', { name: `Actions for ${bob.username}` }).click();
  await alice.page.getByRole('menuitem', { name: 'Add friend' }).click();
  const confirm = alice.page.getByRole('dialog', { name: 'Add friend' });
  await expect(confirm).toContainText(`Add ${bob.username} as a friend?`);
  await shot(alice.page, '43-confirm-add-friend');
  await confirm.getByRole('button', { name: 'Yes' }).click();
  await expect(alice.page.getByTestId('player-row').first()).toContainText(bob.username);
  await expect(alice.page.getByTestId('player-row').first().getByLabel('Friend', { exact: true })).toBeVisible();
  await alice.page.getByRole('radio', { name: 'Friends' }).click();
  await expect(alice.page.getByTestId('player-row')).toHaveCount(1);
  await alice.page.getByRole('radio', { name: 'All', exact: true }).click();

  // Block: No keeps things as they are; Yes blocks.
  await alice.page.getByRole('button', { name: `Actions for ${bob.username}` }).click();
  await alice.page.getByRole('menuitem', { name: 'Block' }).click();
  await alice.page.getByRole('dialog', { name: 'Block' }).getByRole('button', { name: 'No' }).click();
  await expect(alice.page.getByTestId('player-row').first().getByLabel('Friend', { exact: true })).toBeVisible();
  await alice.page.getByRole('button', { name: `Actions for ${bob.username}` }).click();
  await alice.page.getByRole('menuitem', { name: 'Block' }).click();
  await alice.page.getByRole('dialog', { name: 'Block' }).getByRole('button', { name: 'Yes' }).click();
  const bobRow = alice.page.getByTestId('player-row').filter({ hasText: bob.username });
  await expect(bobRow.getByLabel('Blocked', { exact: true })).toBeVisible();
  await expect(alice.page.getByTestId('player-row').last()).toContainText(bob.username);
  await shotBoth(alice.page, '44-players-blocked');
  await alice.page.getByRole('radio', { name: 'Hide Blocked' }).click();
  await expect(bobRow).toHaveCount(0);

  // Player stats dialog from the list, with the friend buttons of clarification 5.
  await alice.page.getByRole('radio', { name: 'All', exact: true }).click();
  await bobRow.getByRole('button', { name: new RegExp(`^${bob.username},`) }).click();
  const stats = alice.page.getByRole('dialog', { name: 'Player Stats' });
  await expect(stats.getByRole('button', { name: 'Unblock' })).toBeVisible();
  await shot(alice.page, '45-player-stats-blocked');
  await stats.getByRole('button', { name: 'Unblock' }).click();
  await alice.page.getByRole('dialog', { name: 'Unblock' }).getByRole('button', { name: 'Yes' }).click();
  await expect(stats.getByRole('button', { name: 'Add friend' })).toBeVisible();
});
