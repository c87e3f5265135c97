import { describe, expect, it, vi } from 'vitest';
import type { DeepLink, DesktopNotification } from '../shared/bridge';
import { createNotifier, linkOf, RATE_LIMIT, RATE_WINDOW_MS } from './notifications';

function setup(opts: { focused: boolean; supported?: boolean; now?: () => number }) {
  const state = { focused: opts.focused };
  const created: { options: { title: string; body: string }; click?: () => void; shown: boolean }[] = [];
  const focusWindow = vi.fn();
  const opened: DeepLink[] = [];
  const notify = createNotifier({
    isSupported: () => opts.supported ?? true,
    isWindowFocused: () => state.focused,
    createNotification: (options) => {
      const rec: (typeof created)[number] = { options, shown: false };
      created.push(rec);
      return {
        on: (_e: 'click', l: () => void) => {
          rec.click = l;
        },
        show: () => {
          rec.shown = true;
        },
      };
    },
    focusWindow,
    openLink: (l) => opened.push(l),
    now: opts.now,
  });
  return { notify, created, focusWindow, opened, state };
}

const turn: DesktopNotification = { kind: 'your-turn', title: 'Your turn', body: 'Bid now', gameId: 'g42' };

describe('notification policy', () => {
  it('shows nothing while the window is focused', () => {
    const { notify, created } = setup({ focused: true });
    expect(notify(turn)).toBe(false);
    expect(created).toHaveLength(0);
  });

  it('shows a native notification when unfocused', () => {
    const { notify, created } = setup({ focused: false });
    expect(notify(turn)).toBe(true);
    expect(created).toHaveLength(1);
    expect(created[0].shown).toBe(true);
    expect(created[0].options).toMatchObject({ title: 'Your turn', body: 'Bid now' });
  });

  it('follows focus changes', () => {
    const { notify, created, state } = setup({ focused: false });
    notify(turn);
    state.focused = true;
    notify(turn);
    expect(created).toHaveLength(1);
  });

  it('click focuses the window and opens the table', () => {
    const { notify, created, focusWindow, opened } = setup({ focused: false });
    notify(turn);
    expect(focusWindow).not.toHaveBeenCalled();
    created[0].click!();
    expect(focusWindow).toHaveBeenCalledTimes(1);
    expect(opened).toEqual([{ kind: 'table', gameId: 'g42', spectate: false, path: '/table/g42' }]);
  });

  it('a tournament match: the click takes the reserved seat (join), or opens the tournament without a table', () => {
    const { notify, created, opened } = setup({ focused: false });
    const match: DesktopNotification = {
      kind: 'tournament-match',
      title: 'Night cup: your match is ready',
      body: 'Round 2: take your seat',
      gameId: 'g7',
      tournamentId: 't1',
    };
    expect(notify(match)).toBe(true);
    expect(created[0].options).toMatchObject({ title: 'Night cup: your match is ready', silent: false });
    created[0].click!();
    notify({ ...match, gameId: undefined });
    created[1].click!();
    expect(opened).toEqual([
      { kind: 'table', gameId: 'g7', spectate: false, path: '/table/g7?join=1' },
      { kind: 'tournament', tournamentId: 't1', path: '/tournaments/t1' },
    ]);
    expect(linkOf({ kind: 'tournament-match', title: 'x', body: '' })).toBeNull();
  });

  it('click without a table only focuses', () => {
    const { notify, created, focusWindow, opened } = setup({ focused: false });
    notify({ kind: 'friend-request', title: 'Friend request', body: 'Ann' });
    created[0].click!();
    expect(focusWindow).toHaveBeenCalledTimes(1);
    expect(opened).toEqual([]);
  });

  it('does nothing where notifications are unsupported', () => {
    const { notify, created } = setup({ focused: false, supported: false });
    expect(notify(turn)).toBe(false);
    expect(created).toHaveLength(0);
  });

  it('rate-limits a flood of notifications', () => {
    let t = 1_000_000;
    const { notify, created } = setup({ focused: false, now: () => t });
    const results = Array.from({ length: RATE_LIMIT + 3 }, () => notify(turn));
    expect(results.filter(Boolean)).toHaveLength(RATE_LIMIT);
    expect(created).toHaveLength(RATE_LIMIT);
    t += RATE_WINDOW_MS;
    expect(notify(turn)).toBe(true);
  });
});
