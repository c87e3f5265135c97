/**
 * The invite dialog (issue #24, ruling 13): an in-app invitation reaches only a friend who added you back; the
 * dialog says so, and a refusal (with the server's words, pointing to the invite link) stays readable on the row.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { SocketContextForTests, type SocketValue } from '../socket/socket';
import { ToastProvider } from '../components/ui';
import { InvitePanel } from '../table/InvitePanel';
import { FakeSocket } from './table-harness';

const REFUSAL = "Bea has not added you as a friend; send them the table's invite link instead";

afterEach(() => vi.restoreAllMocks());

function setup() {
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const url = String(input);
    const body = url.endsWith('/api/users')
      ? [
          { id: 'u1', username: 'Abe', status: 'friend', online: true },
          { id: 'u2', username: 'Bea', status: 'friend', online: true },
        ]
      : { url: 'https://x/table/g1?invite=t', appUrl: 'spades://table/g1?invite=t', token: 't' };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
  });
  const socket = new FakeSocket();
  (socket as unknown as { emit: unknown }).emit = (
    _event: string,
    payload: { userId: string },
    ack: (r: unknown) => void,
  ) => ack(payload.userId === 'u2' ? { ok: false, message: REFUSAL } : { ok: true });
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
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>
        <SocketContextForTests.Provider value={sock}>
          <InvitePanel
            open
            onOpenChange={() => undefined}
            gameId="g1"
            isHost
            isPrivate
            canHoldSeat
            members={['u0']}
            pending={[]}
          />
        </SocketContextForTests.Provider>
      </ToastProvider>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

describe('InvitePanel', () => {
  it('explains ruling 13 and keeps a refusal readable on the friend it concerns', async () => {
    const user = setup();
    expect(await screen.findByText(/reaches only players who have added you as a friend too/)).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Invite Bea' }));
    const bea = screen.getByRole('button', { name: 'Invite Bea' }).closest('li')!;
    expect(within(bea).getByRole('status')).toHaveTextContent(REFUSAL);
    await user.click(screen.getByRole('button', { name: 'Invite Abe' }));
    const abe = screen.getByRole('button', { name: 'Invite Abe' }).closest('li')!;
    expect(within(abe).queryByRole('status')).toBeNull();
  });
});
