/**
 * Issue #31 table extras on the real TablePage (fake socket): "Claim the rest" only when the server says the seat
 * can claim and it is the player's turn, the last trick (who played what), the bid hint (unrated only) and the
 * options applied to the document.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { DEFAULT_PLAYER_OPTIONS } from '@spades/common';
import { biddingView, c, renderTable, settle, tableView } from './table-harness';
import { applyOptions, resetOptionsForTests } from '../lib/options';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  resetOptionsForTests();
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const lastTrick = {
  winnerIndex: 2,
  leaderIndex: 1,
  cards: [
    { playerIndex: 1, suit: 'H', rank: 5 },
    { playerIndex: 2, suit: 'H', rank: 14 },
    { playerIndex: 3, suit: 'H', rank: 9 },
    { playerIndex: 0, suit: 'H', rank: 2 },
  ],
};

const playing = (over: Record<string, unknown> = {}, play: Record<string, unknown> = {}) =>
  tableView({
    status: 'PLAYING',
    handNumber: 1,
    hands: [[c('S', 14), c('S', 13)], [], [], []],
    handCounts: [2, 2, 2, 2],
    bidding: {
      bids: [3, 3, 3, 3],
      blind: [false, false, false, false],
      autoBid: [false, false, false, false],
      currentBidderIndex: null,
    },
    play: {
      currentTrick: [],
      trickLeaderIndex: 0,
      trickNumber: 11,
      currentPlayerIndex: 0,
      spadesBroken: true,
      tricks: [3, 2, 3, 3],
      lastTrick,
      trickPending: false,
      ...play,
    },
    ...over,
  });

describe('claim the rest', () => {
  it('is offered when the server says so on my turn, and sends claim', async () => {
    const h = renderTable(playing({ canClaim: true }));
    await settle();
    const btn = screen.getByRole('button', { name: /Claim the rest \(2\)/ });
    fireEvent.click(btn);
    expect(h.emits.filter((e) => e.event === 'claim').map((e) => (e.args[0] as { gameId: string }).gameId)).toEqual([
      'g1',
    ]);
    expect(screen.queryByRole('button', { name: /Claim the rest/ })).toBeNull(); // sent once
  });

  it('is not offered without canClaim, nor out of turn', async () => {
    renderTable(playing({ canClaim: false }));
    await settle();
    expect(screen.queryByRole('button', { name: /Claim the rest/ })).toBeNull();
  });

  it('is not offered when it is another seat’s turn even if the flag came', async () => {
    renderTable(playing({ canClaim: true }, { currentPlayerIndex: 1 }));
    await settle();
    expect(screen.queryByRole('button', { name: /Claim the rest/ })).toBeNull();
  });
});

describe('last trick', () => {
  it('shows who played what and who won', async () => {
    renderTable(playing());
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Last trick' }));
    await settle();
    expect(screen.getByText('Last trick · P2 won')).toBeTruthy();
    for (const line of [
      'P1 played 5♥, 5 of hearts',
      'P2 played A♥, ace of hearts and won the trick',
      'P3 played 9♥, 9 of hearts',
      'P0 played 2♥, 2 of hearts',
    ]) {
      expect(screen.getByText(line)).toBeTruthy();
    }
  });
});

describe('bid hint', () => {
  it('offers a hint in unrated games and shows a suggested bid', async () => {
    renderTable(biddingView(1));
    await settle();
    fireEvent.click(screen.getByRole('button', { name: 'Show a bid hint' }));
    await settle();
    expect(screen.getByText(/Suggested bid/).closest('.bid-hint')?.textContent ?? '').toMatch(
      /Suggested bid: (Nil|\d+)/,
    );
  });

  it('is never offered in rated games', async () => {
    renderTable(biddingView(1, { rated: true }));
    await settle();
    expect(screen.queryByRole('button', { name: 'Show a bid hint' })).toBeNull();
    expect(screen.queryByText(/Suggested bid/)).toBeNull();
  });
});

describe('options on the document', () => {
  it('sets the four-colour, large-card and reduced-motion classes', () => {
    applyOptions({ ...DEFAULT_PLAYER_OPTIONS, fourColourDeck: true, cardSize: 'large', reducedMotion: true });
    const cl = document.documentElement.classList;
    expect([cl.contains('four-colour'), cl.contains('cards-large'), cl.contains('reduce-motion')]).toEqual([
      true,
      true,
      true,
    ]);
    applyOptions(DEFAULT_PLAYER_OPTIONS);
    expect([cl.contains('four-colour'), cl.contains('cards-large'), cl.contains('reduce-motion')]).toEqual([
      false,
      false,
      false,
    ]);
  });
});
