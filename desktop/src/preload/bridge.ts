// The preload's logic as a factory taking ipcRenderer, so it is testable without Electron. Exposes exactly
// the DesktopBridge methods; nothing of ipcRenderer itself leaks to the renderer.
import { API_BASE_ARG, IPC, type AppInfo, type DeepLink, type DesktopBridge, type DesktopNotification } from '../shared/bridge';

/** The structural subset of Electron's IpcRenderer the bridge uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  send(channel: string, ...args: unknown[]): void;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export function apiBaseFromArgv(argv: readonly string[]): string {
  const arg = argv.find((a) => a.startsWith(API_BASE_ARG));
  return arg ? arg.slice(API_BASE_ARG.length) : '';
}

export function createDesktopBridge(ipc: IpcRendererLike, argv: readonly string[]): DesktopBridge {
  const apiBase = apiBaseFromArgv(argv);
  let readySent = false;
  return {
    notify: (n: DesktopNotification) => ipc.invoke(IPC.notify, n) as Promise<boolean>,
    toggleFullScreen: () => ipc.invoke(IPC.toggleFullScreen) as Promise<boolean>,
    isFullScreen: () => ipc.invoke(IPC.isFullScreen) as Promise<boolean>,
    openExternal: (url: string) => ipc.invoke(IPC.openExternal, url) as Promise<boolean>,
    appInfo: () => ipc.invoke(IPC.appInfo) as Promise<AppInfo>,
    getApiBase: () => apiBase,
    onDeepLink(callback: (link: DeepLink) => void) {
      if (typeof callback !== 'function') throw new TypeError('onDeepLink needs a function');
      // Hand the renderer the link only (never the IpcRendererEvent, which exposes `sender`).
      const listener = (_event: unknown, link: unknown): void => callback(link as DeepLink);
      ipc.on(IPC.deepLink, listener);
      if (!readySent) {
        readySent = true;
        ipc.send(IPC.deepLinkReady);
      }
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        ipc.removeListener(IPC.deepLink, listener);
      };
    },
  };
}
