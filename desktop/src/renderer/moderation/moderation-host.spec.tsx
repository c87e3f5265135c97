import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SanctionNotice } from '@spades/common';
import { ToastProvider } from '../components/ui';
import { resetPublicSettingsForTests } from '../lib/server-settings';
import { SessionContextForTests, type SessionValue } from '../session/session';
import { SocketContextForTests, type SocketValue } from '../socket/socket';
import type { User } from '../lib/types';
import { ModerationHost } from './ModerationHost';
import { resetModeration, useModeration } from './moderation-store';

/** A socket double: the handlers ModerationHost subscribes, called by the test as the server would. */
function fakeSocket() {
  const handlers = new Map<string, Set<(p: unknown) => void>>();
  const socket = {
    on: (ev: string, fn: (p: unknown) => void) =>
      void (handlers.get(ev) ?? handlers.set(ev, new Set()).get(ev)!).add(fn),
    off: (ev: string, fn: (p: unknown) => void) => void handlers.get(ev)?.delete(fn),
  };
  const fire = (ev: string, p: unknown) => act(() => handlers.get(ev)?.forEach((h) => h(p)));
  return { socket, fire };
}

function MuteProbe() {
  const { mute } = useModeration();
  return <p data-testid="probe">{mute ? `muted: ${mute.reason}` : 'not muted'}</p>;
}

function renderHost(user: Partial<User> = {}) {
  const { socket, fire } = fakeSocket();
  const session = {
    status: 'authenticated',
    user: { id: 'u1', username: 'alice', coins: 0, ...user },
    logout: vi.fn(),
    refreshProfile: vi.fn().mockResolvedValue(undefined),
  } as unknown as SessionValue;
  const sock = { socket } as unknown as SocketValue;
  render(
    <ToastProvider>
      <SessionContextForTests.Provider value={session}>
        <SocketContextForTests.Provider value={sock}>
          <ModerationHost />
          <MuteProbe />
        </SocketContextForTests.Provider>
      </SessionContextForTests.Provider>
    </ToastProvider>,
  );
  return { fire, session };
}

function mockFetch() {
  return vi.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const path = new URL(String(input), 'http://localhost').pathname;
    const body =
      path === '/api/moderation/standing' ? { mute: null, notices: [] } : path === '/api/mutes' ? { mutes: [] } : null;
    return new Response(JSON.stringify(body), { status: body ? 200 : 404 });
  });
}

afterEach(() => {
  vi.restoreAllMocks();
  act(() => resetModeration());
  resetPublicSettingsForTests();
});

describe('ModerationHost (issue #25)', () => {
  it('a ban: the reason and end on screen, and the player is signed out', async () => {
    mockFetch();
    const { fire, session } = renderHost();
    const ban: SanctionNotice = { kind: 'ban', reason: 'cheating', endsAt: '2026-12-01T18:00:00.000Z', scope: null };
    fire('sanction_notice', ban);
    const dialog = await screen.findByRole('dialog', { name: 'Your account is banned' });
    expect(dialog).toHaveTextContent('Banned until 2026-12-01 18:00 UTC: cheating');
    expect(session.logout).toHaveBeenCalledTimes(1);
    await userEvent.setup().click(screen.getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('a forced rename from the profile standing is shown once and the profile re-read on a live one', async () => {
    mockFetch();
    const rename: SanctionNotice = { kind: 'rename', reason: 'offensive name', endsAt: null, scope: null };
    const { fire, session } = renderHost({ standing: { mute: null, notices: [rename] } });
    expect(await screen.findByRole('dialog', { name: 'A moderator changed your name' })).toHaveTextContent(
      'A moderator changed your name: offensive name',
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'OK' }));
    // the same notice again (e.g. from the socket as well) is not shown twice
    fire('sanction_notice', rename);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(session.refreshProfile).toHaveBeenCalled();
  });

  it('a mute updates what the chat shows, with a notification', async () => {
    mockFetch();
    const { fire } = renderHost();
    fire('sanction_notice', {
      kind: 'mute',
      reason: 'spam',
      endsAt: '2099-01-01T00:00:00.000Z',
      scope: 'all',
    } satisfies SanctionNotice);
    expect(screen.getByTestId('probe')).toHaveTextContent('muted: spam');
    expect(await screen.findByRole('alert')).toHaveTextContent('You are muted until 2099-01-01 00:00 UTC: spam');
  });
});
