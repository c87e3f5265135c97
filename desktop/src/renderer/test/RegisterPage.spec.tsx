import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { RegisterPage } from '../pages/RegisterPage';
import { LoginPage } from '../pages/LoginPage';
import { SessionContextForTests, type SessionValue } from '../session/session';

function session(over: Partial<SessionValue> = {}): SessionValue {
  return {
    status: 'anonymous',
    user: null,
    token: null,
    login: vi.fn(),
    register: vi.fn(),
    completeExternalLogin: vi.fn(),
    logout: vi.fn(),
    refreshProfile: vi.fn(),
    updateProfile: vi.fn(),
    setUser: vi.fn(),
    ...over,
  } as SessionValue;
}

function renderWith(el: React.ReactNode, s: SessionValue) {
  return render(
    <MemoryRouter>
      <SessionContextForTests.Provider value={s}>{el}</SessionContextForTests.Provider>
    </MemoryRouter>,
  );
}

async function fill(confirm: string) {
  const u = userEvent.setup();
  await u.type(screen.getByLabelText('Username'), 'alice');
  await u.type(screen.getByLabelText('Email'), 'alice@example.com');
  await u.type(screen.getByLabelText('Password'), 'secret-pass-1');
  await u.type(screen.getByLabelText('Confirm Password'), confirm);
  await u.click(screen.getByRole('button', { name: 'Register' }));
}

describe('registration form (spec §2, §5)', () => {
  it("shows 'Passwords do not match' and does not submit", async () => {
    const s = session();
    renderWith(<RegisterPage />, s);
    expect(screen.getByRole('heading', { name: 'Create your account' })).toBeInTheDocument();
    await fill('something-else');
    expect(screen.getByRole('alert')).toHaveTextContent('Passwords do not match');
    expect(s.register).not.toHaveBeenCalled();
  });

  it('submits when the passwords match', async () => {
    const s = session({ register: vi.fn().mockResolvedValue(undefined) });
    renderWith(<RegisterPage />, s);
    await fill('secret-pass-1');
    expect(s.register).toHaveBeenCalledWith('alice', 'alice@example.com', 'secret-pass-1');
    expect(screen.queryByText('Passwords do not match')).toBeNull();
  });

  it("falls back to the server's message on failure", async () => {
    const s = session({ register: vi.fn().mockRejectedValue(new Error('Username already taken')) });
    renderWith(<RegisterPage />, s);
    await fill('secret-pass-1');
    expect(await screen.findByRole('alert')).toHaveTextContent('Username already taken');
  });
});

describe('sign-in / create-account form (spec §2)', () => {
  it('toggles modes with the exact texts and clears the error', async () => {
    const s = session({ login: vi.fn().mockRejectedValue(new Error('Invalid email or password')) });
    renderWith(<LoginPage />, s);
    const u = userEvent.setup();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Username')).toBeNull();
    await u.type(screen.getByLabelText('Email address'), 'a@b.co');
    await u.type(screen.getByLabelText('Password'), 'x');
    await u.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    await u.click(screen.getByRole('button', { name: "Don't have an account? Create account" }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByLabelText('Username')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Already have an account? Sign in' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign in with Discord' })).toBeInTheDocument();
    expect(screen.getByText('Or continue with')).toBeInTheDocument();
  });
});
