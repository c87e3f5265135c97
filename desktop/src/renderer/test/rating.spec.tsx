import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { RatingBadge, RatingChangeLine } from '../components/rating';

afterEach(() => vi.restoreAllMocks());

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
const card = (userId: string, rating: number, provisional: boolean, started = 4, finished = 3) => ({
  userId,
  rating,
  provisional,
  ratedGames: started,
  gamesStarted: started,
  gamesFinished: finished,
  completionRate: Math.round((finished / started) * 1000) / 10,
  bannedUntil: null,
});

describe('RatingBadge (issue #11)', () => {
  it('badges rendered together share one GET /api/ratings; provisional shows ?, the tooltip the completion rate', async () => {
    const fetch = vi
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => json({ ratings: [card('x1', 1523, true), card('x2', 1710, false)] }));
    render(
      <>
        <RatingBadge userId="x1" />
        <RatingBadge userId="x2" />
      </>,
    );
    const badges = await screen.findAllByTestId('rating-badge');
    expect(badges.map((b) => b.textContent)).toEqual(['1523?', '1710']);
    expect(badges[1]).toHaveAttribute('title', 'Rating 1710 · completion 75% (3 of 4 rated games finished)');
    const calls = fetch.mock.calls.map(([u]) => String(u)).filter((u) => u.includes('/api/ratings'));
    expect(calls).toEqual(['/api/ratings?ids=x1,x2']);
  });

  it('the result dialog line polls until the settlement wrote the changes, then shows +N / −N', async () => {
    let n = 0;
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () =>
      json({
        changes:
          n++ < 1
            ? []
            : [
                {
                  userId: 'a',
                  seat: 0,
                  ratingBefore: 1500,
                  ratingAfter: 1514,
                  provisionalBefore: true,
                  provisionalAfter: true,
                  delta: 14,
                  left: false,
                },
                { userId: 'b', seat: 1, ratingBefore: 1500, ratingAfter: 1491, delta: -9, left: true },
              ],
      }),
    );
    render(<RatingChangeLine gameId="g" gameNumber={1} names={(s) => `P${s}`} />);
    const line = await screen.findByTestId('rating-changes', {}, { timeout: 3000 });
    expect(line).toHaveTextContent('P0 Rating 1500? → 1514? (+14)');
    expect(line).toHaveTextContent('P1 Rating 1500 → 1491 (\u22129) (left)');
    expect(screen.getByTestId('provisional-note')).toHaveTextContent('? = provisional');
  });
});
