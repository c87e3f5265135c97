import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { RegisterPage } from './RegisterPage';
import { SessionContextForTests, type SessionValue } from '../session/session';

describe('sign-up rules up front (issue #31 item 8)', () => {
  it('the username and password rules are shown before any attempt and describe their fields', () => {
    const s = {
      status: 'anonymous',
      user: null,
      token: null,
      register: vi.fn(),
      login: vi.fn(),
    } as unknown as SessionValue;
    render(
      <MemoryRouter>
        <SessionContextForTests.Provider value={s}>
          <RegisterPage />
        </SessionContextForTests.Provider>
      </MemoryRouter>,
    );
    expect(screen.getByLabelText('Username')).toHaveAccessibleDescription('3–20 characters: letters, digits, _ or -');
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('At least 8 characters');
    expect(screen.getByLabelText('Password')).toHaveAttribute('minLength', '8');
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
