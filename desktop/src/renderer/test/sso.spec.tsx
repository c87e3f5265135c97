import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { AuthCallbackPage } from '../pages/AuthCallbackPage';
import { LinkRequiredPage } from '../pages/LinkRequiredPage';
import { LinkedSignIns } from '../pages/LinkedSignIns';
import { SsoButtons } from '../pages/SsoButtons';
import { api } from '../lib/api';
import { SessionContextForTests, type SessionValue } from '../session/session';

function session(over: Partial<SessionValue> = {}): SessionValue {
  return {
    status: 'anonymous',
    user: null,
    token: null,
    login: vi.fn(),
    register: vi.fn(),
    completeExternalLogin: vi.fn().mockResolvedValue(undefined),
    logout: vi.fn(),
    refreshProfile: vi.fn(),
    updateProfile: vi.fn(),
    setUser: vi.fn(),
    ...over,
  } as SessionValue;
}

function Where() {
  const l = useLocation();
  return <p data-testid="where">{`${l.pathname}${l.search}`}</p>;
}

function at(url: string, s = session()) {
  return render(
    <MemoryRouter initialEntries={[url]}>
      <SessionContextForTests.Provider value={s}>
        <Routes>
          <Route path="/auth/callback" element={<AuthCallbackPage />} />
          <Route path="/auth/link-required" element={<LinkRequiredPage />} />
          <Route path="*" element={<Where />} />
        </Routes>
      </SessionContextForTests.Provider>
    </MemoryRouter>,
  );
}

afterEach(() => vi.restoreAllMocks());

describe('OpenID Connect / GitHub sign-in in the client (issue #26)', () => {
  it('a link_required callback explains how to sign in and link, naming the provider', async () => {
    at('/auth/callback?error=link_required&message=Google');
    expect(await screen.findByTestId('link-required')).toHaveTextContent('Google vouched for an e-mail address');
    expect(screen.getByText(/choose “Link Google” under Sign-in methods/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in to my account' })).toHaveAttribute('href', '/login');
  });

  it('a Discord sign-in meeting an existing e-mail gets the same page, naming Discord', async () => {
    at('/auth/callback?error=link_required&message=Discord');
    expect(await screen.findByTestId('link-required')).toHaveTextContent('Discord vouched for an e-mail address');
    expect(screen.getByText(/choose “Link Discord” under Sign-in methods/)).toBeInTheDocument();
  });

  it('back from linking, the token is taken and the player returns to the profile', async () => {
    const s = session();
    at('/auth/callback?token=abc.def.ghi&linked=google', s);
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/profile'));
    expect(s.completeExternalLogin).toHaveBeenCalledWith('abc.def.ghi');
  });

  it('other SSO errors go to the login page with their code', async () => {
    at('/auth/callback?error=identity_in_use');
    await waitFor(() => expect(screen.getByTestId('where')).toHaveTextContent('/login?error=identity_in_use'));
  });

  it('shows a button per offered provider with the host label', async () => {
    vi.spyOn(api, 'get').mockResolvedValue({ discord: false, sso: [{ id: 'google', label: 'Google', kind: 'oidc' }] });
    render(<SsoButtons />);
    expect(await screen.findByRole('button', { name: 'Sign in with Google' })).toBeInTheDocument();
  });

  it('lists linked sign-ins, keeps the last one, links and unlinks', async () => {
    const view = {
      linked: [
        { provider: 'password', label: 'E-mail and password', email: 'a@x.test', linkedAt: null, canUnlink: false },
        { provider: 'google', label: 'Google', email: 'a@x.test', linkedAt: '2026-01-01T00:00:00Z', canUnlink: true },
      ],
      available: [{ id: 'github', label: 'GitHub', kind: 'github' }],
    };
    vi.spyOn(api, 'get').mockResolvedValue(view);
    const del = vi.spyOn(api, 'del').mockResolvedValue({ linked: [view.linked[0]], available: [] });
    const post = vi
      .spyOn(api, 'post')
      .mockRejectedValue(new Error('This sign-in method is not offered on this server'));
    render(<LinkedSignIns />);
    expect(await screen.findByText('Google')).toBeInTheDocument();
    const u = userEvent.setup();
    await u.click(screen.getByRole('button', { name: 'Link GitHub' }));
    expect(post).toHaveBeenCalledWith('/api/auth/identities/github/link');
    expect(await screen.findByRole('alert')).toHaveTextContent('not offered');
    await u.click(screen.getByRole('button', { name: 'Unlink' }));
    expect(del).toHaveBeenCalledWith('/api/auth/identities/google');
    await waitFor(() => expect(screen.queryByText('Google')).toBeNull());
  });
});
