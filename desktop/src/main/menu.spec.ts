import { describe, expect, it, vi } from 'vitest';
import { buildMenuTemplate, fullScreenAccelerator, type MenuItemSpec } from './menu';

const flatten = (items: MenuItemSpec[]): MenuItemSpec[] => items.flatMap((i) => [i, ...flatten(i.submenu ?? [])]);
const actions = () => ({
  showRules: vi.fn(),
  showServers: vi.fn(),
  toggleFullScreen: vi.fn(),
  reload: vi.fn(),
  quit: vi.fn(),
});

describe('application menu', () => {
  it.each(['linux', 'win32', 'darwin'])(
    'has Game Rules, full screen, reload and quit wired to the actions on %s',
    (platform) => {
      const a = actions();
      const items = flatten(buildMenuTemplate(platform, 'Spades', a, false));
      const byLabel = (re: RegExp) => items.find((i) => i.label && re.test(i.label));
      byLabel(/^Game Rules$/)!.click!();
      byLabel(/Full Screen/)!.click!();
      byLabel(/^Reload$/)!.click!();
      byLabel(/^Quit Spades$/)!.click!();
      expect(a.showRules).toHaveBeenCalledTimes(1);
      expect(a.toggleFullScreen).toHaveBeenCalledTimes(1);
      expect(a.reload).toHaveBeenCalledTimes(1);
      expect(a.quit).toHaveBeenCalledTimes(1);
      expect(byLabel(/Full Screen/)!.accelerator).toBe(fullScreenAccelerator(platform));
    },
  );

  it('uses F11 for full screen on Windows and Linux, ⌃⌘F on macOS', () => {
    expect(fullScreenAccelerator('win32')).toBe('F11');
    expect(fullScreenAccelerator('linux')).toBe('F11');
    expect(fullScreenAccelerator('darwin')).toBe('Ctrl+Command+F');
  });

  it('offers developer tools only in development', () => {
    const roles = (dev: boolean) => flatten(buildMenuTemplate('linux', 'Spades', actions(), dev)).map((i) => i.role);
    expect(roles(true)).toContain('toggleDevTools');
    expect(roles(false)).not.toContain('toggleDevTools');
  });

  it('has the macOS app menu first on macOS only', () => {
    expect(buildMenuTemplate('darwin', 'Spades', actions(), false)[0].label).toBe('Spades');
    expect(buildMenuTemplate('linux', 'Spades', actions(), false)[0].label).toBe('&File');
  });
});
