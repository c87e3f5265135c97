import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ToastProvider } from '../components/ui';
import { StatsDialog, type StatsTarget } from '../components/StatsDialog';

afterEach(() => vi.restoreAllMocks());

describe('stats dialog filter (clarification 4)', () => {
  it('starts again at ALL when another player is opened', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockImplementation(
      async () =>
        new Response(JSON.stringify({ gamesPlayed: 2, gamesWon: 1 }), {
          status: 200,
          headers: { 'Content-Type': 'application/json' },
        }),
    );
    const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const ann: StatsTarget = { id: 'a', username: 'Ann', avatar: null, coins: 100 };
    const bob: StatsTarget = { id: 'b', username: 'Bob', avatar: null, coins: 200 };
    const ui = (target: StatsTarget) => (
      <QueryClientProvider client={qc}>
        <ToastProvider>
          <StatsDialog target={target} selfId="me" onOpenChange={() => undefined} />
        </ToastProvider>
      </QueryClientProvider>
    );
    const view = render(ui(ann));
    const filter = () => within(screen.getByRole('radiogroup', { name: 'Game mode filter' }));
    await userEvent.click(filter().getByRole('radio', { name: 'SOLO' }));
    expect(filter().getByRole('radio', { name: 'SOLO' })).toHaveAttribute('aria-checked', 'true');
    view.rerender(ui(bob));
    expect(await screen.findByText('Bob')).toBeInTheDocument();
    expect(filter().getByRole('radio', { name: 'ALL' })).toHaveAttribute('aria-checked', 'true');
    // Bob's stats are asked for ALL modes, never with Ann's SOLO filter.
    const urls = fetch.mock.calls.map(([u]) => String(u));
    expect(urls).toContain('/api/users/b/stats');
    expect(urls).not.toContain('/api/users/b/stats?mode=SOLO');
  });
});
