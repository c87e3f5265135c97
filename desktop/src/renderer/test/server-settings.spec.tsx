import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { REGISTRATION_MESSAGES, TABLE_PRESETS, type PublicServerSettings } from '@spades/common';
import { CreateGameDialog, CreateGameForm } from '../components/CreateGameDialog';
import { resetPublicSettingsForTests } from '../lib/server-settings';
import { shouldShowWelcome, WelcomeDialog } from '../components/WelcomeDialog';
import { LoginPage } from '../pages/LoginPage';
import { RegisterPage } from '../pages/RegisterPage';
import { SessionContextForTests, type SessionValue } from '../session/session';

/** Issue #25: what the host's public settings change in the sign-up form and in Create Game. */
const base: PublicServerSettings = {
  serverName: 'Owls',
  serverDescription: '',
  serverIcon: null,
  registration: 'open',
  startingCoins: 5_000_000,
  signIns: { discord: false },
  tablePresets: [...TABLE_PRESETS],
  announcement: null,
};

function session(register = vi.fn().mockResolvedValue(undefined)): SessionValue {
  return {
    status: 'anonymous',
    user: null,
    token: null,
    login: vi.fn(),
    register,
    completeExternalLogin: vi.fn(),
    logout: vi.fn(),
    refreshProfile: vi.fn(),
    updateProfile: vi.fn(),
    setUser: vi.fn(),
  } as SessionValue;
}

function renderRegister(s: SessionValue) {
  return render(
    <MemoryRouter>
      <SessionContextForTests.Provider value={s}>
        <RegisterPage />
      </SessionContextForTests.Provider>
    </MemoryRouter>,
  );
}

afterEach(() => resetPublicSettingsForTests(null));

describe('registration form and the host registration mode', () => {
  it('asks for an invite code while registration is by invitation, and sends it', async () => {
    resetPublicSettingsForTests({ ...base, registration: 'invite' });
    const s = session();
    renderRegister(s);
    const u = userEvent.setup();
    await u.type(screen.getByLabelText('Username'), 'alice');
    await u.type(screen.getByLabelText('Email'), 'alice@example.com');
    await u.type(screen.getByLabelText('Password'), 'secret-pass-1');
    await u.type(screen.getByLabelText('Confirm Password'), 'secret-pass-1');
    await u.type(screen.getByLabelText('Invite code'), ' abcd-efgh-jkmn ');
    await u.click(screen.getByRole('button', { name: 'Register' }));
    expect(s.register).toHaveBeenCalledWith('alice', 'alice@example.com', 'secret-pass-1', 'abcd-efgh-jkmn');
  });

  it('says registration is closed and does not offer to submit', () => {
    resetPublicSettingsForTests({ ...base, registration: 'closed' });
    renderRegister(session());
    expect(screen.getByRole('status')).toHaveTextContent('Registration is closed on this server');
    expect(screen.getByRole('button', { name: 'Register' })).toBeDisabled();
    expect(screen.queryByLabelText('Invite code')).toBeNull();
  });

  it("shows the server's refusal as is", async () => {
    resetPublicSettingsForTests({ ...base, registration: 'invite' });
    const s = session(vi.fn().mockRejectedValue(new Error(REGISTRATION_MESSAGES.inviteInvalid)));
    renderRegister(s);
    const u = userEvent.setup();
    await u.type(screen.getByLabelText('Username'), 'bob');
    await u.type(screen.getByLabelText('Email'), 'bob@example.com');
    await u.type(screen.getByLabelText('Password'), 'secret-pass-1');
    await u.type(screen.getByLabelText('Confirm Password'), 'secret-pass-1');
    await u.type(screen.getByLabelText('Invite code'), 'WRONG');
    await u.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(REGISTRATION_MESSAGES.inviteInvalid);
  });
});

describe("the login page's create-account mode and the host registration mode", () => {
  function renderLogin(s: SessionValue) {
    return render(
      <MemoryRouter>
        <SessionContextForTests.Provider value={s}>
          <LoginPage />
        </SessionContextForTests.Provider>
      </MemoryRouter>,
    );
  }

  it('asks for an invite code by invitation, shows the starting coins, and sends the code', async () => {
    resetPublicSettingsForTests({ ...base, registration: 'invite', startingCoins: 1234 });
    const s = session();
    renderLogin(s);
    const u = userEvent.setup();
    expect(screen.queryByLabelText('Invite code')).toBeNull(); // signing in needs none
    await u.click(screen.getByRole('button', { name: /Create account/ }));
    expect(screen.getByText('Join the table: 1,234 coins to start.')).toBeInTheDocument();
    await u.type(screen.getByLabelText('Username'), 'carol');
    await u.type(screen.getByLabelText('Email address'), 'carol@example.com');
    await u.type(screen.getByLabelText('Password'), 'secret-pass-1');
    await u.type(screen.getByLabelText('Invite code'), 'ABCD-EFGH-JKMN');
    await u.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(s.register).toHaveBeenCalledWith('carol', 'carol@example.com', 'secret-pass-1', 'ABCD-EFGH-JKMN');
  });

  it('says registration is closed in create mode, and still lets players sign in', async () => {
    resetPublicSettingsForTests({ ...base, registration: 'closed' });
    renderLogin(session());
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled();
    await userEvent.setup().click(screen.getByRole('button', { name: /Create account/ }));
    expect(screen.getByRole('status')).toHaveTextContent('Registration is closed on this server');
    expect(screen.getByRole('button', { name: 'Create Account' })).toBeDisabled();
  });
});

describe('Create Game and the table presets the host offers', () => {
  const radio = (group: string, name: string) =>
    within(screen.getByRole('radiogroup', { name: group })).getByRole('radio', { name });

  it('disables what is not offered, moves to an offered kind, and refuses one that is not', async () => {
    const onSubmit = vi.fn();
    render(
      <CreateGameForm
        onSubmit={onSubmit}
        onCancel={() => undefined}
        offered={['PARTNERS:REG', 'PARTNERS:BID 3', 'PARTNERS:MIRROR', 'SOLO:WHIZ']}
      />,
    );
    expect(radio('Bidding', 'WHIZ')).toBeDisabled();
    expect(radio('Bidding', 'GIMMICK')).toBeEnabled();
    expect(radio('Game mode', 'SOLO')).toBeEnabled();
    const gimmicks = screen.getByLabelText('Gimmick') as HTMLSelectElement;
    const u = userEvent.setup();
    // GIMMICK: SUICIDE is preselected by the spec but not offered, so the first offered gimmick is chosen
    await u.click(radio('Bidding', 'GIMMICK'));
    expect(gimmicks.value).toBe('BID 3');
    expect(within(gimmicks).getByRole('option', { name: 'SUICIDE' })).toBeDisabled();
    expect(screen.queryByRole('alert')).toBeNull();
    await u.click(screen.getByRole('button', { name: 'Create Game' }));
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ biddingOption: 'GIMMICK', gimmick: 'BID 3' }), {
      private: false,
    });
    // SOLO offers WHIZ only: switching mode moves there
    await u.click(radio('Game mode', 'SOLO'));
    expect(radio('Bidding', 'WHIZ')).toHaveAttribute('aria-checked', 'true');
    expect(radio('Bidding', 'REG')).toBeDisabled();
  });

  it('says so when the settings in hand are not offered', () => {
    render(<CreateGameForm onSubmit={() => undefined} onCancel={() => undefined} offered={['SOLO:WHIZ']} />);
    expect(screen.getByRole('alert')).toHaveTextContent('This server does not offer Partners · REG tables');
    expect(screen.getByRole('button', { name: 'Create Game' })).toBeDisabled();
  });

  it('starts on the first offered kind of table when the defaults are not offered', () => {
    resetPublicSettingsForTests({ ...base, tablePresets: ['SOLO:WHIZ', 'SOLO:BID 3'] });
    render(<CreateGameDialog open onOpenChange={() => undefined} onSubmit={() => undefined} />);
    expect(radio('Game mode', 'SOLO')).toHaveAttribute('aria-checked', 'true');
    expect(radio('Game mode', 'PARTNERS')).toBeDisabled();
    expect(radio('Bidding', 'WHIZ')).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('button', { name: 'Create Game' })).toBeEnabled();
  });
});

describe('welcome dialog and the host starting coins', () => {
  it('welcomes a new player with the starting coins the host set', () => {
    expect(shouldShowWelcome({ coins: 1234 }, 0, false, 1234)).toBe(true);
    expect(shouldShowWelcome({ coins: 5_000_000 }, 0, false, 1234)).toBe(false);
    render(<WelcomeDialog open onDismiss={() => undefined} coins={1234} />);
    expect(screen.getByText('As a new player you received 1,234 coins. Quick tips:')).toBeInTheDocument();
  });
});
