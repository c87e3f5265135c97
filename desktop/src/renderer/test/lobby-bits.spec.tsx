import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { shouldShowWelcome, WelcomeDialog } from '../components/WelcomeDialog';
import { StatsView } from '../components/StatsDialog';
import { CoinBalance } from '../components/Header';
import { PlayersList } from '../components/PlayersList';
import { filterAndSortPlayers } from '../lib/players';
import { normalizeStats, type LobbyPlayer } from '../lib/types';

describe('welcome dialog rule (spec §4)', () => {
  it('shows only for exactly 5,000,000 coins and 0 games, unless dismissed', () => {
    expect(shouldShowWelcome({ coins: 5_000_000 }, 0, false)).toBe(true);
    expect(shouldShowWelcome({ coins: 5_000_000 }, 0, true)).toBe(false);
    expect(shouldShowWelcome({ coins: 5_000_001 }, 0, false)).toBe(false);
    expect(shouldShowWelcome({ coins: 4_900_000 }, 0, false)).toBe(false);
    expect(shouldShowWelcome({ coins: 5_000_000 }, 1, false)).toBe(false);
    expect(shouldShowWelcome({ coins: 5_000_000 }, null, false)).toBe(false);
    expect(shouldShowWelcome(null, 0, false)).toBe(false);
  });

  it("names the product, tells about the coins and dismisses with Let's Play!", async () => {
    const onDismiss = vi.fn();
    render(<WelcomeDialog open onDismiss={onDismiss} />);
    expect(screen.getByRole('dialog', { name: 'Welcome to Spades!' })).toBeInTheDocument();
    expect(screen.getByText(/received 5,000,000 coins/)).toBeInTheDocument();
    expect(screen.getByText(/leaderboard/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: "Let's Play!" }));
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });
});

describe('stats percentages (spec §3)', () => {
  it('rounds win %, nil % and blind nil %, and zero when nothing was played', () => {
    const { rerender } = render(
      <StatsView
        stats={normalizeStats({
          gamesPlayed: 3,
          gamesWon: 1,
          nilsBid: 3,
          nilsMade: 2,
          blindNilsBid: 8,
          blindNilsMade: 1,
        })}
      />,
    );
    expect(screen.getByTestId('win-pct')).toHaveTextContent('33%');
    expect(screen.getByText('Nil % made').nextSibling).toHaveTextContent('67%');
    expect(screen.getByText('Blind nil % made').nextSibling).toHaveTextContent('13%');
    rerender(<StatsView stats={normalizeStats({})} />);
    expect(screen.getByTestId('win-pct')).toHaveTextContent('0%');
    expect(screen.getByText('Nil % made').nextSibling).toHaveTextContent('0%');
  });

  it('fills missing values with 0 and falls back regPlayed/regWon to games played/won', () => {
    const s = normalizeStats({ gamesPlayed: 7, gamesWon: 4 });
    expect(s.regPlayed).toBe(7);
    expect(s.regWon).toBe(4);
    expect(s.whizPlayed).toBe(0);
    expect(normalizeStats({ gamesPlayed: 7, regPlayed: 2 }).regPlayed).toBe(2);
  });
});

describe('coin formatting (spec §9: k or M)', () => {
  it.each([
    [5_000_000, '5M'],
    [1_250_000, '1.25M'],
    // issue 15: a change is not rounded away
    [5_080_000, '5.08M'],
    [2_160_000, '2.16M'],
    [150_000, '150k'],
    [1_500, '1.5k'],
    [950, '950'],
  ])('%d coins → %s', (coins, text) => {
    render(<CoinBalance coins={coins} />);
    expect(screen.getByTestId('coin-balance')).toHaveTextContent(new RegExp(`^${text.replace('.', '\\.')}$`));
  });
});

const P = (id: string, username: string, status: LobbyPlayer['status'], online: boolean): LobbyPlayer => ({
  id,
  username,
  status,
  online,
  coins: 1000,
  avatar: null,
});

describe('player list sorting and filters (spec §2)', () => {
  const players = [
    P('1', 'blockedOnline', 'blocked', true),
    P('2', 'offlineNone', 'none', false),
    P('3', 'friendOffline', 'friend', false),
    P('4', 'onlineNone', 'none', true),
    P('5', 'friendOnline', 'friend', true),
  ];
  it('All: friends first, then online first, blocked last', () => {
    expect(filterAndSortPlayers(players, 'all').map((p) => p.username)).toEqual([
      'friendOnline',
      'friendOffline',
      'onlineNone',
      'offlineNone',
      'blockedOnline',
    ]);
  });
  it('Friends shows only friends; Hide Blocked drops blocked', () => {
    expect(filterAndSortPlayers(players, 'friends').map((p) => p.username)).toEqual(['friendOnline', 'friendOffline']);
    expect(filterAndSortPlayers(players, 'hideBlocked').map((p) => p.username)).not.toContain('blockedOnline');
  });
  it('renders in that order and offers no actions on yourself', async () => {
    render(<PlayersList players={players} selfId="4" onAction={() => undefined} onShowStats={() => undefined} />);
    const rows = screen.getAllByTestId('player-row');
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('friendOnline'),
      expect.stringContaining('friendOffline'),
      expect.stringContaining('onlineNone'),
      expect.stringContaining('offlineNone'),
      expect.stringContaining('blockedOnline'),
    ]);
    expect(screen.queryByRole('button', { name: 'Actions for onlineNone' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Actions for offlineNone' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: 'Friends' }));
    expect(screen.getAllByTestId('player-row')).toHaveLength(2);
  });
});

describe('lobby game cards from the server list item', () => {
  it("shows a SOLO table's WHIZ / MIRROR bidding (rules.gameType is SOLO)", async () => {
    const { normalizeGame, modeBadge } = await import('../lib/types');
    const { DEFAULT_SETTINGS, toListItemRules, validateSettings } = await import('@spades/common');
    for (const biddingOption of ['WHIZ', 'MIRROR', 'REG'] as const) {
      const v = validateSettings({ ...DEFAULT_SETTINGS, gameMode: 'SOLO', biddingOption, gimmick: null });
      if (!v.ok) throw new Error(v.message);
      const item = normalizeGame({
        id: 'g1',
        status: 'WAITING',
        players: [],
        ...toListItemRules(v.settings),
        settings: v.settings,
      });
      expect(item?.gameMode).toBe('SOLO');
      expect(modeBadge(item!).label).toBe(
        biddingOption === 'WHIZ' ? 'WHIZ' : biddingOption === 'MIRROR' ? 'MIRRORS' : 'REGULAR',
      );
    }
  });
});
