import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { CreateGameForm } from '../components/CreateGameDialog';

function setup() {
  const onSubmit = vi.fn();
  render(<CreateGameForm onSubmit={onSubmit} onCancel={() => undefined} />);
  const user = userEvent.setup();
  const sw = (name: string) => screen.getByRole('switch', { name });
  const radio = (group: string, name: string) =>
    within(screen.getByRole('radiogroup', { name: group })).getByRole('radio', { name });
  return { user, onSubmit, sw, radio, gimmick: () => screen.getByLabelText('Gimmick') as HTMLSelectElement };
}

describe('Create Game dialog coupling rules (spec §4, via common)', () => {
  it('starts with the spec defaults', () => {
    const { sw, radio, gimmick } = setup();
    expect(radio('Game mode', 'PARTNERS')).toHaveAttribute('aria-checked', 'true');
    expect(radio('Bidding', 'REG')).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByTestId('value-Min points')).toHaveTextContent('-100');
    expect(screen.getByTestId('value-Max points')).toHaveTextContent('500');
    expect(screen.getByTestId('value-Buy-in')).toHaveTextContent('100k');
    expect(sw('Nil')).toHaveAttribute('aria-checked', 'true');
    expect(sw('Blind Nil')).toHaveAttribute('aria-checked', 'false');
    expect(sw('Screamer')).toHaveAttribute('aria-checked', 'false');
    expect(sw('Assassin')).toHaveAttribute('aria-checked', 'false');
    expect(gimmick().value).toBe('SUICIDE');
    expect(gimmick()).toBeDisabled();
  });

  it('enables the gimmick selector only for GIMMICK, and SOLO turns SUICIDE into 4 OR NIL', async () => {
    const { user, radio, gimmick } = setup();
    await user.click(radio('Bidding', 'GIMMICK'));
    expect(gimmick()).toBeEnabled();
    expect(gimmick().value).toBe('SUICIDE');
    await user.click(radio('Game mode', 'SOLO'));
    expect(gimmick().value).toBe('4 OR NIL');
    await user.click(radio('Bidding', 'WHIZ'));
    expect(gimmick()).toBeDisabled();
  });

  it('MIRROR forces Nil on and Blind Nil off and disables both', async () => {
    const { user, radio, sw } = setup();
    await user.click(sw('Nil'));
    expect(sw('Nil')).toHaveAttribute('aria-checked', 'false');
    await user.click(radio('Bidding', 'MIRROR'));
    expect(sw('Nil')).toHaveAttribute('aria-checked', 'true');
    expect(sw('Blind Nil')).toHaveAttribute('aria-checked', 'false');
    expect(sw('Nil')).toBeDisabled();
    expect(sw('Blind Nil')).toBeDisabled();
    await user.click(radio('Bidding', 'REG'));
    expect(sw('Nil')).toBeEnabled();
  });

  it('Nil off turns Blind Nil off and disables it; Blind Nil on turns Nil on', async () => {
    const { user, sw } = setup();
    await user.click(sw('Blind Nil'));
    expect(sw('Blind Nil')).toHaveAttribute('aria-checked', 'true');
    expect(sw('Nil')).toHaveAttribute('aria-checked', 'true');
    await user.click(sw('Nil'));
    expect(sw('Nil')).toHaveAttribute('aria-checked', 'false');
    expect(sw('Blind Nil')).toHaveAttribute('aria-checked', 'false');
    expect(sw('Blind Nil')).toBeDisabled();
  });

  it('Screamer and Assassin are mutually exclusive', async () => {
    const { user, sw } = setup();
    await user.click(sw('Screamer'));
    expect(sw('Screamer')).toHaveAttribute('aria-checked', 'true');
    await user.click(sw('Assassin'));
    expect(sw('Assassin')).toHaveAttribute('aria-checked', 'true');
    expect(sw('Screamer')).toHaveAttribute('aria-checked', 'false');
  });

  it('steps buy-in and points within the §9 bounds and shows the prize preview', async () => {
    const { user } = setup();
    const inc = screen.getByRole('button', { name: 'Increase Buy-in' });
    expect(screen.getByRole('button', { name: 'Decrease Buy-in' })).toBeDisabled();
    await user.click(inc);
    expect(screen.getByTestId('value-Buy-in')).toHaveTextContent('150k');
    const preview = screen.getByLabelText('Prize preview');
    // pot = 150k × 4 × 0.9 = 540k; each winning partner 270k (prizes in full, issue 15).
    expect(preview).toHaveTextContent('540,000');
    expect(preview).toHaveTextContent('270,000');
    for (let i = 0; i < 10; i++) await user.click(screen.getByRole('button', { name: 'Decrease Min points' }));
    expect(screen.getByTestId('value-Min points')).toHaveTextContent('-250');
    expect(screen.getByRole('button', { name: 'Decrease Min points' })).toBeDisabled();
    for (let i = 0; i < 4; i++) await user.click(screen.getByRole('button', { name: 'Increase Max points' }));
    expect(screen.getByTestId('value-Max points')).toHaveTextContent('650');
    expect(screen.getByRole('button', { name: 'Increase Max points' })).toBeDisabled();
  });

  it('shows the SOLO prize split and submits validated settings', async () => {
    const { user, radio, onSubmit } = setup();
    await user.click(radio('Game mode', 'SOLO'));
    const preview = screen.getByLabelText('Prize preview');
    // pot 360k: 1st = 360k − 100k = 260k, 2nd = buy-in back 100k.
    expect(preview).toHaveTextContent('260,000');
    expect(preview).toHaveTextContent('100,000');
    await user.click(screen.getByRole('button', { name: 'Create Game' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    expect(onSubmit.mock.calls[0][0]).toMatchObject({ gameMode: 'SOLO', biddingOption: 'REG', buyIn: 100000 });
  });
});

describe('buy-in maximum (common BUY_IN_MAX)', () => {
  it('disables Increase buy-in at the maximum', async () => {
    const { BUY_IN_MAX, DEFAULT_SETTINGS, formatBuyIn } = await import('@spades/common');
    const user = userEvent.setup();
    render(
      <CreateGameForm
        onSubmit={() => undefined}
        onCancel={() => undefined}
        initial={{ ...DEFAULT_SETTINGS, buyIn: BUY_IN_MAX - 100_000 }}
      />,
    );
    const inc = screen.getByRole('button', { name: 'Increase Buy-in' });
    expect(inc).toBeEnabled();
    await user.click(inc);
    expect(screen.getByTestId('value-Buy-in')).toHaveTextContent(formatBuyIn(BUY_IN_MAX));
    expect(inc).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Decrease Buy-in' })).toBeEnabled();
  });
});
