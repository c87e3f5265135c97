import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  DEFAULT_SETTINGS,
  dealFromSeed,
  legalBids,
  legalCards,
  seedCommitment,
  cardCode,
  type Card,
} from '@spades/common';
import { normalizeTable, seatMark, toPlayerView } from '../table/model';
import { DealVerification } from '../table/overlays';
import { Hand } from '../table/Hand';

const SEED = '00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff';
const c = (suit: Card['suit'], rank: Card['rank']): Card => ({ suit, rank });

function tableView(over: Record<string, unknown> = {}) {
  const seat = (i: number) => ({
    id: `u${i}`,
    username: `P${i}`,
    name: `P${i}`,
    avatar: null,
    image: null,
    type: i === 0 ? 'human' : 'bot',
    position: i,
    team: i % 2 ? 2 : 1,
    tricks: 0,
    bid: null,
    blind: false,
    handCount: 3,
    isDealer: i === 3,
    hand: null,
    timeouts: 0,
  });
  return {
    id: 'g1',
    gameId: 'g1',
    status: 'PLAYING',
    mySeat: 0,
    hostId: 'u0',
    rated: false,
    players: [0, 1, 2, 3].map(seat),
    hands: [[c('S', 14), c('H', 5), c('C', 9)], [], [], []],
    handCounts: [3, 3, 3, 2],
    handHidden: false,
    bidding: {
      bids: [2, 1, 3, 4],
      blind: [false, false, false, false],
      autoBid: [false, false, false, false],
      currentBidderIndex: null,
    },
    play: {
      currentTrick: [{ playerIndex: 3, suit: 'H', rank: 10 }],
      trickLeaderIndex: 3,
      trickNumber: 10,
      currentPlayerIndex: 0,
      spadesBroken: false,
      tricks: [2, 1, 3, 4],
      lastTrick: null,
      trickPending: false,
    },
    dealerIndex: 3,
    handNumber: 1,
    handCommitment: 'abc',
    team1TotalScore: 120,
    team2TotalScore: -40,
    team1Bags: 3,
    team2Bags: 11,
    playerScores: [0, 0, 0, 0],
    playerBags: [0, 0, 0, 0],
    settings: DEFAULT_SETTINGS,
    spectators: [{ id: 's1', username: 'watcher', avatar: null }],
    seatReplacements: [],
    chat: [],
    serverTime: Date.now(),
    ...over,
  };
}

describe('table model from the server TableView', () => {
  it('rebuilds the engine view so common decides which cards are playable (follow suit)', () => {
    const t = normalizeTable(tableView(), 'u0')!;
    expect(t.mySeat).toBe(0);
    expect(t.turn).toBe(0);
    expect(t.scores).toEqual([120, -40]);
    const legal = legalCards(toPlayerView(t)).map(cardCode);
    expect(legal).toEqual(['5H']);
  });

  it('gives no legal cards when it is not your turn, and legal bids only in bidding', () => {
    const t = normalizeTable(tableView({ play: { ...tableView().play, currentPlayerIndex: 1 } }), 'u0')!;
    expect(legalCards(toPlayerView(t))).toEqual([]);
    const b = normalizeTable(
      tableView({
        status: 'BIDDING',
        bidding: {
          bids: [null, 3, 2, null],
          blind: [false, false, false, false],
          autoBid: [false, false, false, false],
          currentBidderIndex: 0,
        },
      }),
      'u0',
    )!;
    expect(legalBids(toPlayerView(b)).bids).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });

  it('marks seats per §4: team made (tick), impossible (cross), nil taken (cross)', () => {
    const base = { gameMode: 'PARTNERS' as const, status: 'PLAYING', trickNumber: 10 };
    // Seats 0+2 bid 5, took 5 → made; seats 1+3 bid 9, took 5 with 3 tricks left → set.
    expect(seatMark({ ...base, bids: [2, 4, 3, 5], tricks: [2, 2, 3, 3] }, 0)).toBe('made');
    expect(seatMark({ ...base, bids: [2, 4, 3, 5], tricks: [2, 2, 3, 3] }, 1)).toBe('set');
    expect(seatMark({ ...base, bids: [0, 4, 3, 5], tricks: [1, 2, 3, 3] }, 0)).toBe('set');
    expect(seatMark({ ...base, bids: [0, 4, 3, 5], tricks: [0, 2, 3, 3] }, 0)).toBeNull();
    expect(seatMark({ ...base, status: 'HAND_COMPLETED', bids: [0, 4, 3, 5], tricks: [0, 2, 3, 3] }, 0)).toBe('made');
  });
});

describe('Verify deal (provably fair)', () => {
  it('confirms a seed that matches the commitment and your dealt cards', () => {
    const hands = dealFromSeed(Uint8Array.from(SEED.match(/../g)!.map((h) => parseInt(h, 16))));
    render(
      <DealVerification
        seed={SEED}
        commitment={seedCommitment(SEED)}
        myDealt={hands[2]}
        mySeat={2}
        seats={[null, null, null, null]}
      />,
    );
    expect(screen.getByText(/Deal verified/)).toBeInTheDocument();
    expect(screen.getByText(/exactly the ones this seed deals/)).toBeInTheDocument();
  });

  it('reports a mismatch for a wrong commitment or other cards', () => {
    const hands = dealFromSeed(Uint8Array.from(SEED.match(/../g)!.map((h) => parseInt(h, 16))));
    render(
      <DealVerification
        seed={SEED}
        commitment={'0'.repeat(64)}
        myDealt={hands[1]}
        mySeat={2}
        seats={[null, null, null, null]}
      />,
    );
    expect(screen.getByText(/Mismatch/)).toBeInTheDocument();
    expect(screen.getByText(/differ from the recomputed deal/)).toBeInTheDocument();
  });
});

describe('own hand', () => {
  it('greys unplayable cards, and plays with the keyboard (arrows + Enter)', async () => {
    const played: string[] = [];
    const cards = [c('S', 14), c('H', 5), c('H', 9), c('C', 2)];
    render(
      <Hand
        cards={cards}
        hidden={false}
        hiddenCount={0}
        legal={[c('H', 5), c('H', 9)]}
        canPlay
        pendingCard={null}
        onPlay={(x) => played.push(cardCode(x))}
        dealKey="h1"
        width={1000}
      />,
    );
    const ace = screen.getByRole('button', { name: 'A♠, ace of spades, not playable' });
    expect(ace).toHaveAttribute('aria-disabled', 'true');
    expect(ace.className).toContain('unplayable');
    await userEvent.click(ace);
    expect(played).toEqual([]);
    ace.focus();
    await userEvent.keyboard('{ArrowRight}');
    expect(screen.getByRole('button', { name: '5♥, 5 of hearts, playable' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    expect(played).toEqual(['5H']);
  });
});
