// The application menu: Game Rules, full screen (F11), reload, quit — plus the standard Edit menu so copy/paste
// keyboard shortcuts work in chat on macOS.
export interface MenuActions {
  showRules(): void;
  /** The server chooser (issue #30): add, switch, forget servers. */
  showServers(): void;
  toggleFullScreen(): void;
  reload(): void;
  quit(): void;
}

/** A structural subset of Electron's MenuItemConstructorOptions. */
export interface MenuItemSpec {
  label?: string;
  role?: 'appMenu' | 'editMenu' | 'toggleDevTools' | 'about' | 'hide' | 'hideOthers' | 'unhide' | 'quit' | 'services';
  type?: 'separator' | 'submenu' | 'normal';
  accelerator?: string;
  click?: () => void;
  submenu?: MenuItemSpec[];
}

export function fullScreenAccelerator(platform: string): string {
  // F11 on Windows/Linux; macOS reserves F11 (show desktop) and uses ⌃⌘F for full screen.
  return platform === 'darwin' ? 'Ctrl+Command+F' : 'F11';
}

export function buildMenuTemplate(
  platform: string,
  productName: string,
  actions: MenuActions,
  dev: boolean,
): MenuItemSpec[] {
  const isMac = platform === 'darwin';
  const view: MenuItemSpec[] = [
    { label: 'Toggle Full Screen', accelerator: fullScreenAccelerator(platform), click: actions.toggleFullScreen },
    { label: 'Reload', accelerator: 'CmdOrCtrl+R', click: actions.reload },
  ];
  if (dev) view.push({ type: 'separator' }, { role: 'toggleDevTools' });
  const quit: MenuItemSpec = {
    label: `Quit ${productName}`,
    accelerator: isMac ? 'Command+Q' : 'Ctrl+Q',
    click: actions.quit,
  };
  const servers: MenuItemSpec = { label: 'Servers…', click: actions.showServers };
  const template: MenuItemSpec[] = [];
  if (isMac) {
    template.push({
      label: productName,
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        servers,
        { type: 'separator' },
        { role: 'services' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        quit,
      ],
    });
  } else {
    template.push({ label: '&File', submenu: [servers, { type: 'separator' }, quit] });
  }
  template.push({ role: 'editMenu' });
  template.push({ label: '&View', submenu: view });
  template.push({ label: '&Help', submenu: [{ label: 'Game Rules', accelerator: 'F1', click: actions.showRules }] });
  return template;
}
