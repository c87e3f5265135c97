import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import type { User } from '@spades/common';
import { AdminSetupPage } from '../pages/AdminSetupPage';
import { SessionContextForTests, type SessionValue } from '../session/session';

function session(): SessionValue {
  return {
    status: 'authenticated',
    user: { id: 'u1', username: 'alice' } as User,
    token: 't',
    login: vi.fn(),
    register: vi.fn(),
    completeExternalLogin: vi.fn(),
    logout: vi.fn(),
    refreshProfile: vi.fn().mockResolvedValue(undefined),
    updateProfile: vi.fn(),
    setUser: vi.fn(),
  } as SessionValue;
}

function mockFetch(status: number, body: unknown) {
  return vi
    .spyOn(globalThis, 'fetch')
    .mockResolvedValue(new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
}

const renderAt = (url: string, s = session()) =>
  render(
    <MemoryRouter initialEntries={[url]}>
      <SessionContextForTests.Provider value={s}>
        <AdminSetupPage />
      </SessionContextForTests.Provider>
    </MemoryRouter>,
  );

afterEach(() => vi.restoreAllMocks());

describe('/admin/setup (issue #24: the one-time setup token)', () => {
  it('prefills the token from ?token=, posts it and says the account is now an admin', async () => {
    const f = mockFetch(200, { role: 'admin' });
    const s = session();
    renderAt('/admin/setup?token=abc123', s);
    expect(screen.getByLabelText('Setup token')).toHaveValue('abc123');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Become admin' }));
    expect(await screen.findByRole('status')).toHaveTextContent('alice is now an admin.');
    const [url, init] = f.mock.calls[0];
    expect(String(url)).toMatch(/\/api\/admin\/setup$/);
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"token":"abc123"}');
    expect(s.refreshProfile).toHaveBeenCalled();
  });

  it("shows the server's refusal", async () => {
    mockFetch(403, { message: 'That setup token is not valid (copy it from the server log, or ask the operator)' });
    renderAt('/admin/setup');
    const u = userEvent.setup();
    expect(screen.getByRole('button', { name: 'Become admin' })).toBeDisabled();
    await u.type(screen.getByLabelText('Setup token'), 'wrong');
    await u.click(screen.getByRole('button', { name: 'Become admin' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('That setup token is not valid');
    expect(screen.queryByRole('status')).toBeNull();
  });
});
