import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { ToastProvider } from '../components/ui';
import { ReplayViewer } from './ReplayPage';
import { buildTimeline } from './replay-model';
import { replayFixture } from './replay-fixture';

function show(rated: boolean, shared = false) {
  const doc = replayFixture(5);
  doc.rated = rated;
  render(
    <MemoryRouter>
      <ToastProvider>
        <ReplayViewer timeline={buildTimeline(doc)} me="u0" shared={shared} />
      </ToastProvider>
    </MemoryRouter>,
  );
  return doc;
}

describe('replay: the rating at the time (issue #31 item 8)', () => {
  afterEach(() => vi.restoreAllMocks());

  it("a rated game's replay shows the rating each player had before that game, not the current one", async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = String(input);
      const body = url.includes('/api/ratings/games/')
        ? {
            changes: [
              {
                userId: 'u0',
                seat: 0,
                ratingBefore: 1500,
                ratingAfter: 1382,
                provisionalBefore: true,
                provisionalAfter: true,
                delta: -118,
                left: false,
              },
            ],
          }
        : { ratings: [{ userId: 'u0', rating: 1382, provisional: true }] };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    });
    const doc = show(true);
    expect(await screen.findByTestId('rating-then')).toHaveTextContent('1500?');
    expect(screen.getByTestId('rating-then')).toHaveAttribute('title', 'Rating when this game was played');
    expect(fetch.mock.calls.map(([u]) => String(u))).toContain(`/api/ratings/games/${doc.gameId}/${doc.gameNumber}`);
    expect(screen.queryByTestId('rating-badge')).toBeNull();
  });

  it('an unrated game shows no rating (none was at stake) and asks for none', () => {
    const fetch = vi.spyOn(globalThis, 'fetch');
    show(false);
    expect(screen.queryByTestId('rating-then')).toBeNull();
    expect(screen.queryByTestId('rating-badge')).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });
});
