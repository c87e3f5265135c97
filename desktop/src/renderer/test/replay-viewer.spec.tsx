import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { ToastProvider } from '../components/ui';
import { ReplayViewer } from '../replay/ReplayPage';
import { buildTimeline } from '../replay/replay-model';
import { replayFixture } from '../replay/replay-fixture';

function setup(tamper?: (d: ReturnType<typeof replayFixture>) => void) {
  const doc = replayFixture(5);
  tamper?.(doc);
  render(
    <MemoryRouter>
      <ToastProvider>
        <ReplayViewer timeline={buildTimeline(doc)} />
      </ToastProvider>
    </MemoryRouter>,
  );
  return { doc, user: userEvent.setup() };
}

const onTable = () => within(screen.getByLabelText('Cards on the table')).queryAllByRole('img');
const caption = () => screen.getByRole('status', { name: 'Replay position' });

describe('ReplayViewer', () => {
  it('shows the four dealt hands, steps by card and by trick with buttons and arrows, plays and pauses with Space', async () => {
    const { doc, user } = setup();
    expect(caption()).toHaveTextContent('Hand 1');
    expect(onTable()).toHaveLength(0);
    expect(document.querySelectorAll('.replay-seat .chip-card:not(.played)')).toHaveLength(52);
    await user.click(screen.getByRole('button', { name: 'Next trick' }));
    expect(onTable()).toHaveLength(4);
    const first = doc.hands[0].tricks[0];
    expect(caption()).toHaveTextContent(`${doc.players[first.winner].username} wins the trick`);
    expect(document.querySelectorAll('.replay-seat .chip-card:not(.played)')).toHaveLength(48);
    await user.keyboard('{ArrowLeft}');
    expect(onTable()).toHaveLength(3);
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(onTable()).toHaveLength(1);
    expect(caption()).toHaveTextContent('Trick 2');
    await user.keyboard('{Shift>}{ArrowLeft}{/Shift}');
    expect(caption()).toHaveTextContent('Trick 1');
    expect(onTable()).toHaveLength(4);
    await user.keyboard(' ');
    expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();
    await user.keyboard(' ');
    expect(screen.getByRole('button', { name: 'Play' })).toBeInTheDocument();
    // jump to the last hand, then the end: the result
    const last = doc.hands.length;
    await user.selectOptions(screen.getByLabelText('Jump to hand'), String(last));
    expect(caption()).toHaveTextContent(`Hand ${last}`);
    expect(screen.getByRole('region', { name: 'Score sheet' })).toHaveTextContent(String(doc.result.finalScores[0]));
  }, 60_000);

  it('verifies a deal in the browser', async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Verify deal' }));
    const v = screen.getByLabelText('Deal verification of hand 1');
    expect(v).toHaveTextContent('Deal verified: sha256(seed) equals the commitment');
    expect(v).toHaveTextContent('The seed deals exactly the four hands shown.');
    expect(v.querySelectorAll('.verify-line.bad')).toHaveLength(0);
  }, 30_000);

  it('a wrong commitment fails the verification', async () => {
    const { user } = setup((d) => {
      d.hands[0] = { ...d.hands[0], commitment: '0'.repeat(64) };
    });
    await user.click(screen.getByRole('button', { name: 'Verify deal' }));
    const v = screen.getByLabelText('Deal verification of hand 1');
    expect(v).toHaveTextContent('Mismatch: the seed does not match the commitment.');
    expect(v.querySelectorAll('.verify-line.bad')).toHaveLength(1);
  }, 30_000);
});
