// The preload's logic as a factory taking ipcRenderer, so it is testable without Electron. Exposes exactly
// the DesktopBridge methods; nothing of ipcRenderer itself leaks to the renderer.
import {
  API_BASE_ARG,
  IPC,
  type AppInfo,
  type BootState,
  type DeepLink,
  type DesktopBridge,
  type DesktopNotification,
  type SavedServer,
  type ServerProbe,
  type UpdateState,
} from '../shared/bridge';

/** The structural subset of Electron's IpcRenderer the bridge uses. */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  sendSync(channel: string, ...args: unknown[]): unknown;
  send(channel: string, ...args: unknown[]): void;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

export function apiBaseFromArgv(argv: readonly string[]): string {
  const arg = argv.find((a) => a.startsWith(API_BASE_ARG));
  return arg ? arg.slice(API_BASE_ARG.length) : '';
}

/** The page's server and session, asked once per page load (main answers synchronously); null when refused. */
export function readBootState(ipc: IpcRendererLike): BootState | null {
  try {
    const s = ipc.sendSync(IPC.bootState) as BootState | null;
    return s && typeof s === 'object' && 'server' in s ? s : null;
  } catch {
    return null;
  }
}

export function createDesktopBridge(ipc: IpcRendererLike, argv: readonly string[]): DesktopBridge {
  const boot = readBootState(ipc);
  // The current server; the window's start argument only if main did not answer.
  const apiBase = boot ? (boot.server?.address ?? '') : apiBaseFromArgv(argv);
  let token = boot?.token ?? null;
  let readySent = false;
  return {
    notify: (n: DesktopNotification) => ipc.invoke(IPC.notify, n) as Promise<boolean>,
    toggleFullScreen: () => ipc.invoke(IPC.toggleFullScreen) as Promise<boolean>,
    isFullScreen: () => ipc.invoke(IPC.isFullScreen) as Promise<boolean>,
    openExternal: (url: string) => ipc.invoke(IPC.openExternal, url) as Promise<boolean>,
    appInfo: () => ipc.invoke(IPC.appInfo) as Promise<AppInfo>,
    getApiBase: () => apiBase,
    servers: {
      current: () => boot?.server ?? null,
      list: () => ipc.invoke(IPC.serversList) as Promise<SavedServer[]>,
      probe: (address: string) => ipc.invoke(IPC.serversProbe, address) as Promise<ServerProbe>,
      add: (address: string) => ipc.invoke(IPC.serversAdd, address) as Promise<ServerProbe>,
      switchTo: (id: string) => ipc.invoke(IPC.serversSwitch, id) as Promise<boolean>,
      forget: (id: string) => ipc.invoke(IPC.serversForget, id) as Promise<boolean>,
      answerLink: (requestId: string, accept: boolean) =>
        ipc.invoke(IPC.serversAnswerLink, requestId, accept) as Promise<ServerProbe | null>,
    },
    session: {
      get: () => token,
      set(next: string | null) {
        token = next;
        void ipc.invoke(IPC.sessionSet, next).catch(() => false);
      },
    },
    updates: {
      state: () => ipc.invoke(IPC.updateState) as Promise<UpdateState>,
      setEnabled: (enabled: boolean) => ipc.invoke(IPC.updateSetEnabled, enabled) as Promise<UpdateState>,
      restart: () => ipc.invoke(IPC.updateRestart) as Promise<boolean>,
      onChange(callback: (state: UpdateState) => void) {
        if (typeof callback !== 'function') throw new TypeError('onChange needs a function');
        const listener = (_event: unknown, state: unknown): void => callback(state as UpdateState);
        ipc.on(IPC.updateChanged, listener);
        return () => void ipc.removeListener(IPC.updateChanged, listener);
      },
    },
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
