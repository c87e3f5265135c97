import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import { LastHandSummary, MyCoinResult } from './ResultParts';
import type { HandScoreSummaryModel, SeatModel } from './model';

const seat = (username: string): SeatModel => ({
  id: username,
  username,
  avatar: null,
  type: 'human',
  tricks: 0,
  bid: null,
  blind: false,
  handCount: 0,
  isDealer: false,
});
const seats = [seat('Ann'), seat('Bob'), seat('Cid'), seat('Dee')];

// Red: Ann nil (failed, took 2) + Cid 4 (took 3): set −40, nil −100, 10th bag penalty... Blue: 6 bid, made 8.
const summary: HandScoreSummaryModel = {
  handNumber: 7,
  team1Score: -140,
  team2Score: -38,
  team1Bags: 0,
  team2Bags: 2,
  team1TotalScore: -100,
  team2TotalScore: 312,
  playerScores: [-140, -38, -140, -38],
  playerTotalScores: [-100, 312, -100, 312],
  playerBags: [0, 2, 0, 2],
  tricksPerPlayer: [2, 4, 3, 4],
  bids: [0, 3, 4, 3],
  seed: null,
  commitment: null,
  sides: [
    {
      side: 0,
      seats: [0, 2],
      bid: 4,
      tricks: 5,
      contractPoints: -40,
      bagsTaken: 0,
      nilPoints: -100,
      bagPenalty: 0,
      delta: -140,
      scoreBefore: 40,
      scoreAfter: -100,
      bagsBefore: 0,
      bagsAfter: 0,
    },
    {
      side: 1,
      seats: [1, 3],
      bid: 6,
      tricks: 8,
      contractPoints: 60,
      bagsTaken: 2,
      nilPoints: 0,
      bagPenalty: -100,
      delta: -38,
      scoreBefore: 350,
      scoreAfter: 312,
      bagsBefore: 9,
      bagsAfter: 1,
    },
  ],
};

describe('result dialog parts (issue #31 item 2)', () => {
  it('explains the last hand per side: bids, tricks, contract, nil, bags and the bag penalty', () => {
    render(<LastHandSummary summary={summary} gameMode="PARTNERS" seats={seats} />);
    const [red, blue] = screen.getAllByTestId('last-hand-side');
    expect(red).toHaveTextContent('Red team');
    expect(red).toHaveTextContent('Ann: bid nil, took 2');
    expect(red).toHaveTextContent('Cid: bid 4, took 3');
    expect(within(red).getByText('Contract').nextSibling).toHaveTextContent('\u221240');
    expect(within(red).getByText('Nil').nextSibling).toHaveTextContent('\u2212100');
    expect(red).toHaveTextContent('40 → \u2212100 (\u2212140)');
    expect(within(blue).getByText('Bags').nextSibling).toHaveTextContent('+2');
    expect(within(blue).getByText('Bag penalty (10 bags)').nextSibling).toHaveTextContent('\u2212100');
    expect(blue).toHaveTextContent('350 → 312 (\u221238)');
  });

  it('tells the player their own coins, won or lost; nothing for an unrated game', () => {
    const { rerender } = render(<MyCoinResult rated buyIn={100_000} payout={0} />);
    expect(screen.getByTestId('my-coins')).toHaveTextContent('You lost your buy-in: \u2212100,000 coins.');
    rerender(<MyCoinResult rated buyIn={100_000} payout={190_000} />);
    expect(screen.getByTestId('my-coins')).toHaveTextContent(
      'You won 190,000 coins (+90,000 after your 100,000 buy-in).',
    );
    rerender(<MyCoinResult rated={false} buyIn={100_000} payout={null} />);
    expect(screen.queryByTestId('my-coins')).toBeNull();
  });
});
