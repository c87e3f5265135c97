import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { api, ApiError, errorText, setUnauthorizedHandler } from '../lib/api';
import { parseAuthResponse, SessionProvider, useSession } from '../session/session';
import { KEYS } from '../lib/storage';

function mockFetch(status: number, body: unknown) {
  return vi
    .spyOn(globalThis, 'fetch')
    .mockResolvedValue(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
}

afterEach(() => {
  vi.restoreAllMocks();
  setUnauthorizedHandler(null);
});

describe('API client', () => {
  it('sends JSON with the Bearer token and reads { message } errors', async () => {
    localStorage.setItem(KEYS.sessionToken, 'tok-1');
    const f = mockFetch(400, { message: 'Username already taken' });
    const err = await api.post('/api/x', { a: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe('Username already taken');
    const [, init] = f.mock.calls[0];
    expect((init?.headers as Record<string, string>).Authorization).toBe('Bearer tok-1');
    expect(init?.body).toBe('{"a":1}');
    expect(errorText(err, 'fallback')).toBe('Username already taken');
    expect(errorText('weird', 'fallback')).toBe('fallback');
  });

  it('calls the 401 handler (clarification 6) except for login/register', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    mockFetch(401, { message: 'Unauthorized' });
    await api.get('/api/users').catch(() => undefined);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    await api.post('/api/auth/login', {}, { skipAuthRedirect: true }).catch(() => undefined);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });
});

describe('session', () => {
  it("rejects an auth response without token and user: 'Invalid response from server'", () => {
    expect(() => parseAuthResponse({ token: 'x' })).toThrow('Invalid response from server');
    expect(() => parseAuthResponse({ user: { id: '1', username: 'a' } })).toThrow('Invalid response from server');
    expect(parseAuthResponse({ token: 't', user: { id: '1', username: 'a', coins: 5 } }).user.coins).toBe(5);
  });

  function Probe() {
    const s = useSession();
    return <p>status:{s.status}</p>;
  }

  it('a failed profile fetch at start removes the stored token', async () => {
    localStorage.setItem(KEYS.sessionToken, 'stale');
    localStorage.setItem(KEYS.token, 'stale');
    mockFetch(401, { message: 'Unauthorized' });
    render(
      <MemoryRouter initialEntries={['/']}>
        <SessionProvider>
          <Routes>
            <Route path="/" element={<Probe />} />
            <Route path="/login" element={<p>login page</p>} />
          </Routes>
        </SessionProvider>
      </MemoryRouter>,
    );
    await waitFor(() => expect(localStorage.getItem(KEYS.sessionToken)).toBeNull());
    expect(localStorage.getItem(KEYS.token)).toBeNull();
    await screen.findByText('login page');
  });
});
