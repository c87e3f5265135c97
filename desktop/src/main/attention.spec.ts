import { describe, expect, it, vi } from 'vitest';
import { createAttention } from './attention';

describe('attention while minimized', () => {
  it('counts distinct tables waiting for the player, flashes, and clears on focus', () => {
    let focused = false;
    const deps = { isWindowFocused: () => focused, flashFrame: vi.fn(), setBadgeCount: vi.fn() };
    const a = createAttention(deps);
    expect(a.yourTurn('t1')).toBe(1);
    expect(a.yourTurn('t2')).toBe(2);
    expect(a.yourTurn('t1')).toBe(2);
    expect(deps.setBadgeCount.mock.calls).toEqual([[1], [2]]);
    expect(deps.flashFrame).toHaveBeenLastCalledWith(true);
    focused = true;
    expect(a.yourTurn('t3')).toBe(0); // the player is looking: nothing to raise
    a.focused();
    expect(a.waiting()).toBe(0);
    expect(deps.setBadgeCount).toHaveBeenLastCalledWith(0);
    expect(deps.flashFrame).toHaveBeenLastCalledWith(false);
    const calls = deps.setBadgeCount.mock.calls.length;
    a.focused();
    expect(deps.setBadgeCount.mock.calls.length).toBe(calls);
  });
});
