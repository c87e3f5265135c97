import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { ToastProvider } from '../components/ui';
import { ReplayViewer } from '../replay/ReplayPage';
import { buildTimeline } from '../replay/replay-model';
import { replayFixture } from '../replay/replay-fixture';

function setup(
  tamper?: (d: ReturnType<typeof replayFixture>) => void,
  viewer: { me?: string | null; shared?: boolean } = {},
) {
  const doc = replayFixture(5);
  tamper?.(doc);
  render(
    <MemoryRouter>
      <ToastProvider>
        <ReplayViewer timeline={buildTimeline(doc)} me={viewer.me} shared={viewer.shared} />
      </ToastProvider>
    </MemoryRouter>,
  );
  return { doc, user: userEvent.setup() };
}

const onTable = () => within(screen.getByLabelText('Cards on the table')).queryAllByRole('img');
const caption = () => screen.getByRole('status', { name: 'Replay position' });

describe('ReplayViewer', () => {
  it('shows the four dealt hands, steps by card and by trick with buttons and arrows, plays and pauses with Space', async () => {
    const { doc, user } = setup();
    expect(caption()).toHaveTextContent('Hand 1');
    expect(onTable()).toHaveLength(0);
    expect(document.querySelectorAll('.replay-seat .chip-card:not(.played)')).toHaveLength(52);
    await user.click(screen.getByRole('button', { name: 'Next trick' }));
    expect(onTable()).toHaveLength(4);
    const first = doc.hands[0].tricks[0];
    expect(caption()).toHaveTextContent(`${doc.players[first.winner].username} wins the trick`);
    expect(document.querySelectorAll('.replay-seat .chip-card:not(.played)')).toHaveLength(48);
    await user.keyboard('{ArrowLeft}');
    expect(onTable()).toHaveLength(3);
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(onTable()).toHaveLength(1);
    expect(caption()).toHaveTextContent('Trick 2');
    await user.keyboard('{Shift>}{ArrowLeft}{/Shift}');
    expect(caption()).toHaveTextContent('Trick 1');
    expect(onTable()).toHaveLength(4);
    await user.keyboard(' ');
    expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();
    await user.keyboard(' ');
    expect(screen.getByRole('button', { name: 'Play' })).toBeInTheDocument();
    // jump to the last hand, then the end: the result
    const last = doc.hands.length;
    await user.selectOptions(screen.getByLabelText('Jump to hand'), String(last));
    expect(caption()).toHaveTextContent(`Hand ${last}`);
    expect(screen.getByRole('region', { name: 'Score sheet' })).toHaveTextContent(String(doc.result.finalScores[0]));
  }, 60_000);

  it('verifies a deal in the browser', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Verify deal' }));
    const v = screen.getByLabelText('Deal verification of hand 1');
    expect(v).toHaveTextContent('Deal verified: sha256(seed) equals the commitment');
    expect(v).toHaveTextContent('The seed deals exactly the four hands shown.');
    expect(v.querySelectorAll('.verify-line.bad')).toHaveLength(0);
  }, 30_000);

  it('a wrong commitment fails the verification', async () => {
    const { user } = setup((d) => {
      d.hands[0] = { ...d.hands[0], commitment: '0'.repeat(64) };
    });
    await user.click(screen.getByRole('button', { name: 'Verify deal' }));
    const v = screen.getByLabelText('Deal verification of hand 1');
    expect(v).toHaveTextContent('Mismatch: the seed does not match the commitment.');
    expect(v.querySelectorAll('.verify-line.bad')).toHaveLength(1);
  }, 30_000);

  describe('share links (issue #24)', () => {
    afterEach(() => vi.restoreAllMocks());
    const priv = (d: ReturnType<typeof replayFixture>) => {
      d.private = true;
    };

    it('a player of a private game makes a link (copied), sees it and revokes it', async () => {
      const link = {
        id: '11111111-1111-4111-8111-111111111111',
        gameId: 'g',
        gameNumber: 1,
        createdAt: '2026-11-26T21:00:00.000Z',
        token: 't.s',
        path: '/replay/g?game=1&share=t.s',
        url: 'http://spades.default.invalid/replay/g?game=1&share=t.s',
        configured: false,
      };
      // issue #31: CLIENT_URL was not set, so the copied link starts with the address in use (the page's origin)
      const copied = `${window.location.origin}/replay/g?game=1&share=t.s`;
      const calls: string[] = [];
      vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
        const method = init?.method ?? 'GET';
        calls.push(`${method} ${new URL(String(input), 'http://x').pathname}`);
        const body = method === 'GET' ? [] : method === 'POST' ? link : { success: true };
        return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
      });
      const { doc, user } = setup(priv, { me: 'u0' });
      // (user-event installs its own clipboard at setup)
      const writeText = vi.spyOn(navigator.clipboard, 'writeText');
      const path = `/api/games/${doc.gameId}/replay/shares`;
      await user.click(screen.getByRole('button', { name: 'Share link' }));
      await waitFor(() => expect(writeText).toHaveBeenCalledWith(copied));
      expect(calls).toEqual([`GET ${path}`, `POST ${path}`]);
      await user.click(
        within(screen.getByRole('list', { name: 'Your share links' })).getByRole('button', {
          name: 'Revoke this share link',
        }),
      );
      await waitFor(() => expect(screen.queryByRole('list', { name: 'Your share links' })).toBeNull());
      expect(calls.at(-1)).toBe(`DELETE ${path}/${link.id}`);
    });

    it('not for a public game', () => {
      setup(undefined, { me: 'u0' });
      expect(screen.queryByRole('region', { name: 'Share links' })).toBeNull();
    });
    it('not for a non-player', () => {
      setup(priv, { me: 'someone-else' });
      expect(screen.queryByRole('region', { name: 'Share links' })).toBeNull();
    });
    it('not through a share link', () => {
      setup(priv, { me: 'u0', shared: true });
      expect(screen.queryByRole('region', { name: 'Share links' })).toBeNull();
    });
  });
});
