import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { ChatPanel, chatLineContext } from '../components/ChatPanel';
import { ToastProvider } from '../components/ui';
import type { ChatMessage } from '../lib/types';
import { AnnouncementBanner } from './ModerationHost';
import { MuteButton } from './MuteButton';
import { resetModeration, setMyMute } from './moderation-store';

const LOBBY_ID = '0b8f6a52-5a7e-4d0c-9a39-2f1e7c1d4b11';
const RUDE = '1c9e3f20-7d41-4c55-8a0f-3b2d6e9a1f00';
const line = (id: string, userId: string, username: string, message: string): ChatMessage => ({
  id,
  userId,
  username,
  message,
  timestamp: 0,
  system: false,
});

function renderChat(messages: ChatMessage[], url = '/') {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <ToastProvider>
        <Routes>
          <Route path="*" element={<ChatPanel messages={messages} onSend={() => undefined} canSend selfId="me" />} />
          <Route
            path="/table/:gameId"
            element={<ChatPanel messages={messages} onSend={() => undefined} canSend selfId="me" />}
          />
        </Routes>
      </ToastProvider>
    </MemoryRouter>,
  );
}

function mockFetch(body: unknown, status = 200) {
  return vi
    .spyOn(globalThis, 'fetch')
    .mockResolvedValue(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
}

afterEach(() => {
  vi.restoreAllMocks();
  act(() => resetModeration());
});

describe('chat line actions (issue #25)', () => {
  it('knows a lobby line from a table line', () => {
    expect(chatLineContext(LOBBY_ID, undefined)).toEqual({ kind: 'lobby_chat', messageId: LOBBY_ID });
    expect(chatLineContext('a1b2c3d4e5f60718', 'g1')).toEqual({
      kind: 'table_chat',
      gameId: 'g1',
      messageId: 'a1b2c3d4e5f60718',
    });
    expect(chatLineContext('a1b2c3d4e5f60718', undefined)).toBeNull();
  });

  it("reports another player's lobby line by its id and shows the server's confirmation", async () => {
    const f = mockFetch({ id: 'r1', message: 'Thanks, a moderator will review your report.' }, 201);
    renderChat([
      line(LOBBY_ID, RUDE, 'rude', 'you are all idiots'),
      line('0b8f6a52-5a7e-4d0c-9a39-2f1e7c1d4b12', 'me', 'me', 'hi'),
    ]);
    // my own line has no menu
    expect(screen.getAllByRole('button', { name: /Actions for/ })).toHaveLength(1);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: "Actions for rude's message" }));
    await user.click(await screen.findByRole('menuitem', { name: 'Report rude' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report rude' });
    expect(within(dialog).getByLabelText('Reason')).toHaveValue('abusive_chat');
    await user.type(within(dialog).getByLabelText(/What happened/), 'insults');
    await user.click(within(dialog).getByRole('button', { name: 'Send report' }));
    expect(await within(dialog).findByTestId('report-receipt')).toHaveTextContent(
      'Thanks, a moderator will review your report.',
    );
    const [url, init] = f.mock.calls[0]!;
    expect(String(url)).toMatch(/\/api\/reports$/);
    expect(JSON.parse(String(init!.body))).toEqual({
      userId: RUDE,
      category: 'abusive_chat',
      text: 'insults',
      context: { kind: 'lobby_chat', messageId: LOBBY_ID },
    });
  });

  it('mutes a player: their lines disappear for me, the ones on screen too', async () => {
    const f = mockFetch({ userId: RUDE, muted: true });
    renderChat([line(LOBBY_ID, RUDE, 'rude', 'spam spam')]);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: "Actions for rude's message" }));
    await user.click(await screen.findByRole('menuitem', { name: 'Mute rude' }));
    await vi.waitFor(() => expect(screen.queryByText('spam spam')).toBeNull());
    const [url, init] = f.mock.calls[0]!;
    expect(String(url)).toMatch(new RegExp(`/api/mutes/${RUDE}$`));
    expect(init!.method).toBe('PUT');
  });

  it('shows a muted player why and until when', () => {
    act(() => setMyMute({ kind: 'mute', reason: 'spam', endsAt: '2099-12-01T18:00:00.000Z', scope: 'all' }));
    renderChat([]);
    expect(screen.getByTestId('chat-muted-notice')).toHaveTextContent('You are muted until 2099-12-01 18:00 UTC: spam');
  });

  it('forgets a mute that has ended', () => {
    act(() => setMyMute({ kind: 'mute', reason: 'spam', endsAt: '2000-01-01T00:00:00.000Z', scope: 'all' }));
    renderChat([]);
    expect(screen.queryByTestId('chat-muted-notice')).toBeNull();
  });
});

describe('the announcement banner', () => {
  it('shows the text and stays closed for that announcement', async () => {
    const a = { id: 'a1', text: 'Server restarts at 22:00 UTC', level: 'warning' as const, at: '' };
    const { unmount } = render(<AnnouncementBanner announcement={a} />);
    expect(screen.getByTestId('announcement')).toHaveTextContent('Server restarts at 22:00 UTC');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Close the announcement' }));
    expect(screen.queryByTestId('announcement')).toBeNull();
    unmount();
    render(<AnnouncementBanner announcement={a} />);
    expect(screen.queryByTestId('announcement')).toBeNull();
    render(<AnnouncementBanner announcement={{ ...a, id: 'a2', text: 'New one' }} />);
    expect(screen.getByTestId('announcement')).toHaveTextContent('New one');
  });
});

describe('Mute / Unmute from a profile', () => {
  it('mutes, then unmutes the player', async () => {
    const f = vi
      .spyOn(globalThis, 'fetch')
      .mockResolvedValueOnce(new Response(JSON.stringify({ userId: RUDE, muted: true }), { status: 200 }))
      .mockResolvedValueOnce(new Response(JSON.stringify({ userId: RUDE, muted: false }), { status: 200 }));
    render(
      <ToastProvider>
        <MuteButton userId={RUDE} username="rude" />
      </ToastProvider>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Mute' }));
    expect(await screen.findByRole('button', { name: 'Unmute' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'Unmute' }));
    expect(await screen.findByRole('button', { name: 'Mute' })).toHaveAttribute('aria-pressed', 'false');
    expect(f.mock.calls.map(([, init]) => init?.method)).toEqual(['PUT', 'DELETE']);
  });
});
