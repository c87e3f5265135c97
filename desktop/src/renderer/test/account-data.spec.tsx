import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { deletionEffects, type DeletionInfo } from '@spades/common';
import { AccountData } from '../components/AccountData';
import { api } from '../lib/api';
import { SessionContextForTests, type SessionValue } from '../session/session';

const info = (over: Partial<DeletionInfo> = {}): DeletionInfo => ({
  username: 'Disco_only',
  hasPassword: false,
  nameHoldDays: 7,
  openTables: [],
  effects: deletionEffects(7),
  ...over,
});

function mount() {
  const logout = vi.fn();
  render(
    <MemoryRouter>
      <SessionContextForTests.Provider value={{ logout } as unknown as SessionValue}>
        <AccountData />
      </SessionContextForTests.Provider>
    </MemoryRouter>,
  );
  return { logout };
}

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('Your data (issue #26)', () => {
  it('an account without a password confirms with its username, then is signed out', async () => {
    localStorage.setItem('sessionToken', 'abc');
    vi.spyOn(api, 'get').mockResolvedValue(info());
    const post = vi.spyOn(api, 'post').mockResolvedValue({ ok: true });
    const { logout } = mount();
    await userEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' });
    expect(dialog).toHaveTextContent('Your username stays reserved for 7 days, then anyone may take it.');
    const submit = screen.getAllByRole('button', { name: 'Delete my account' }).at(-1)!;
    expect(submit).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Type your username (Disco_only) to confirm'), 'Disco_only');
    await userEvent.click(submit);
    await waitFor(() => expect(logout).toHaveBeenCalledTimes(1));
    expect(post).toHaveBeenCalledWith('/api/users/me/deletion', { confirm: 'Disco_only' });
  });

  it('while a table still includes the player: says to leave it first, nothing can be sent', async () => {
    vi.spyOn(api, 'get').mockResolvedValue(info({ hasPassword: true, openTables: ['t1'] }));
    const post = vi.spyOn(api, 'post');
    mount();
    await userEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Leave your tables first: you are still part of 1 open table',
    );
    expect(screen.getByRole('link', { name: 'Open table 1' })).toHaveAttribute('href', '/table/t1');
    expect(screen.getByLabelText('Your password')).toBeDisabled();
    expect(screen.getAllByRole('button', { name: 'Delete my account' }).at(-1)).toBeDisabled();
    expect(post).not.toHaveBeenCalled();
  });
});
