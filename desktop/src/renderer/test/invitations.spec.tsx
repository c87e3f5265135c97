/** In-app invitations (issue #12): Join / Decline, pending ones after a reload, cancelled with the table, desktop notification. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { DEFAULT_SETTINGS, type GameInvitation } from '@spades/common';
import { SessionContextForTests, type SessionValue } from '../session/session';
import { SocketContextForTests, type SocketValue } from '../socket/socket';
import { ToastProvider } from '../components/ui';
import { InvitationsHost } from '../components/Invitations';
import { FakeSocket, USER } from './table-harness';

const invitation = (gameId: string, over: Partial<GameInvitation> = {}): GameInvitation => ({
  gameId,
  from: { id: 'u1', username: 'Hosty', avatar: null },
  to: 'u0',
  createdAt: Date.now(),
  reservedSeat: 2,
  reservedUntil: Date.now() + 60_000,
  private: true,
  settings: DEFAULT_SETTINGS,
  ...over,
});

afterEach(() => {
  vi.restoreAllMocks();
  delete window.desktop;
});

function setup(pending: GameInvitation[] = []) {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    return new Response(JSON.stringify(url.includes('/api/invitations') ? pending : {}), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  const notify = vi.fn(async () => true);
  window.desktop = { notify } as unknown as typeof window.desktop;
  const socket = new FakeSocket();
  const acks: { event: string; payload: unknown }[] = [];
  (socket as unknown as { emit: unknown }).emit = (event: string, payload: unknown, ack?: (r: unknown) => void) => {
    acks.push({ event, payload });
    ack?.({ ok: true });
  };
  const session = { status: 'authenticated', user: USER(0), token: 't' } as unknown as SessionValue;
  const sock = {
    socket,
    connecting: false,
    connected: true,
    authenticated: true,
    ready: true,
    error: null,
    onlineIds: new Set(),
    lobbyMessages: [],
    emit: () => true,
    clearError: () => undefined,
  } as unknown as SocketValue;
  render(
    <MemoryRouter initialEntries={['/']}>
      <ToastProvider>
        <SessionContextForTests.Provider value={session}>
          <SocketContextForTests.Provider value={sock}>
            <InvitationsHost />
            <Routes>
              <Route path="/" element={<p>lobby</p>} />
              <Route path="/table/:id" element={<p>table page</p>} />
            </Routes>
          </SocketContextForTests.Provider>
        </SessionContextForTests.Provider>
      </ToastProvider>
    </MemoryRouter>,
  );
  return { socket, acks, notify, user: userEvent.setup() };
}

describe('InvitationsHost', () => {
  it('shows a live invitation with its held seat, raises the desktop notification; Join opens the table with ?join=1', async () => {
    const { socket, notify, user } = setup();
    socket.serve('game_invitation', invitation('g1'));
    const card = await screen.findByRole('alertdialog', { name: 'Invitation from Hosty' });
    expect(card).toHaveTextContent('Hosty invites you to a private PARTNERS REGULAR table.');
    expect(card).toHaveTextContent('Seat 3 is held for you.');
    expect(notify).toHaveBeenCalledWith(expect.objectContaining({ kind: 'invitation', gameId: 'g1' }));
    await user.click(screen.getByRole('button', { name: 'Join' }));
    expect(await screen.findByText('table page')).toBeInTheDocument();
    expect(screen.queryByRole('alertdialog', { name: 'Invitation from Hosty' })).toBeNull();
  });

  it('lists pending invitations after a reload; Decline tells the server; a closed table removes its invitation', async () => {
    const { socket, acks, user } = setup([
      invitation('g1'),
      invitation('g2', {
        from: { id: 'u3', username: 'Other', avatar: null },
        reservedSeat: null,
        reservedUntil: null,
      }),
    ]);
    const hosty = await screen.findByRole('alertdialog', { name: 'Invitation from Hosty' });
    expect(screen.getByRole('alertdialog', { name: 'Invitation from Other' })).not.toHaveTextContent('held');
    // the newest is listed first: decline on Hosty's card itself (both were created in the same or the next ms)
    await user.click(within(hosty).getByRole('button', { name: 'Decline' }));
    expect(acks).toEqual([{ event: 'decline_invitation', payload: { gameId: 'g1' } }]);
    expect(screen.queryByRole('alertdialog', { name: 'Invitation from Hosty' })).toBeNull();
    socket.serve('game_invitation_cancelled', { gameId: 'g2', reason: 'All players left the table' });
    await waitFor(() => expect(screen.queryByRole('alertdialog', { name: 'Invitation from Other' })).toBeNull());
  });
});
