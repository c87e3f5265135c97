import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PLAY_IN_PORTRAIT_KEY, RotateOverlay, usePlayInPortrait } from './portrait';

function Harness() {
  const [on, choose] = usePlayInPortrait();
  return on ? <p>portrait table</p> : <RotateOverlay onPlayInPortrait={choose} />;
}

describe("'Play in portrait' (ruling 14, issue #31 item 5)", () => {
  afterEach(() => localStorage.clear());

  it('the rotate overlay offers it; choosing it dismisses the overlay for good on this device', async () => {
    const first = render(<Harness />);
    expect(screen.getByRole('alertdialog', { name: 'Please Rotate Your Device' })).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Play in portrait' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(screen.getByText('portrait table')).toBeInTheDocument();
    expect(localStorage.getItem(PLAY_IN_PORTRAIT_KEY)).toBe('1');
    first.unmount();
    // a later visit: remembered
    render(<Harness />);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});
