// IPC handlers behind the DesktopBridge. Every argument is validated here (the renderer is untrusted), and only
// the main window's own frame, on the app's origin, may call.
import { IPC, NOTIFICATION_KINDS, type AppInfo, type DesktopNotification } from '../shared/bridge';
import { isRecord } from './json-store';
import type { Logger } from './logger';
import { isSafeExternalUrl, originOf } from './navigation';

export class IpcValidationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IpcValidationError';
  }
}

const GAME_ID = /^[A-Za-z0-9_-]{1,64}$/;
// eslint-disable-next-line no-control-regex -- rejecting control characters is the point
const hasControlChars = (s: string): boolean => /[\u0000-\u0008\u000b-\u001f\u007f]/.test(s);

export function validateNotification(raw: unknown): DesktopNotification {
  if (!isRecord(raw)) throw new IpcValidationError('notification must be an object');
  const allowed = new Set(['kind', 'title', 'body', 'gameId', 'tournamentId']);
  const extra = Object.keys(raw).filter((k) => !allowed.has(k));
  if (extra.length) throw new IpcValidationError(`unexpected notification fields: ${extra.join(', ')}`);
  const { kind, title, body, gameId, tournamentId } = raw;
  if (typeof kind !== 'string' || !(NOTIFICATION_KINDS as readonly string[]).includes(kind)) {
    throw new IpcValidationError('unknown notification kind');
  }
  if (typeof title !== 'string' || title.trim().length === 0 || title.length > 120 || hasControlChars(title)) {
    throw new IpcValidationError('title must be 1..120 characters');
  }
  if (typeof body !== 'string' || body.length > 500 || hasControlChars(body)) {
    throw new IpcValidationError('body must be at most 500 characters');
  }
  if (gameId !== undefined && (typeof gameId !== 'string' || !GAME_ID.test(gameId))) {
    throw new IpcValidationError('malformed gameId');
  }
  if (tournamentId !== undefined && (typeof tournamentId !== 'string' || !GAME_ID.test(tournamentId))) {
    throw new IpcValidationError('malformed tournamentId');
  }
  if (tournamentId !== undefined && kind !== 'tournament-match') {
    throw new IpcValidationError('tournamentId belongs to a tournament-match notification');
  }
  return {
    kind: kind as DesktopNotification['kind'],
    title,
    body,
    ...(gameId !== undefined ? { gameId } : {}),
    ...(tournamentId !== undefined ? { tournamentId } : {}),
  };
}

export function validateExternalUrl(raw: unknown): string {
  if (!isSafeExternalUrl(raw)) throw new IpcValidationError('openExternal accepts absolute http(s) URLs only');
  return raw;
}

export function validateNoArgs(args: readonly unknown[]): void {
  if (args.length !== 0) throw new IpcValidationError('no arguments expected');
}

/** Structural subsets of Electron's ipcMain and IpcMainInvokeEvent. */
export interface IpcSenderEvent {
  senderFrame: { url: string } | null;
  sender: { id: number };
  /** The answer of a sendSync (ipcMain.on listeners only). */
  returnValue?: unknown;
}
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcSenderEvent, ...args: unknown[]) => unknown): void;
  on(channel: string, listener: (event: IpcSenderEvent, ...args: unknown[]) => void): unknown;
}

export interface DesktopActions {
  notify(n: DesktopNotification): boolean;
  toggleFullScreen(): boolean;
  isFullScreen(): boolean;
  openExternal(url: string): Promise<void>;
  appInfo(): AppInfo;
  deepLinkReady(): void;
}

export interface IpcDeps {
  ipcMain: IpcMainLike;
  actions: DesktopActions;
  /** The origin the renderer is served from (app://spades, or the dev server's). */
  appOrigin: string;
  /** webContents id of the main window: other senders are refused. */
  mainContentsId(): number | undefined;
  log: Logger;
}

/** Only the main window's own frame, on the app's origin. */
export function isTrustedSender(event: IpcSenderEvent, deps: Pick<IpcDeps, 'appOrigin' | 'mainContentsId'>): boolean {
  const url = event.senderFrame?.url ?? '';
  return event.sender.id === deps.mainContentsId() && originOf(url) === deps.appOrigin;
}

/** `ipcMain.handle` behind the trust check; validation errors are logged and thrown back to the renderer. */
export function trustedHandler(deps: Pick<IpcDeps, 'ipcMain' | 'appOrigin' | 'mainContentsId' | 'log'>) {
  return (channel: string, fn: (args: unknown[]) => unknown): void => {
    deps.ipcMain.handle(channel, async (event, ...args) => {
      if (!isTrustedSender(event, deps)) {
        deps.log.warn(`refused ${channel} from an untrusted sender`);
        throw new IpcValidationError('untrusted sender');
      }
      try {
        return await fn(args);
      } catch (e) {
        if (e instanceof IpcValidationError) deps.log.warn(`rejected ${channel}: ${e.message}`);
        throw e;
      }
    });
  };
}

export function registerIpcHandlers(deps: IpcDeps): void {
  const trusted = (event: IpcSenderEvent): boolean => isTrustedSender(event, deps);
  const handle = trustedHandler(deps);
  const a = deps.actions;
  handle(IPC.notify, (args) => {
    if (args.length !== 1) throw new IpcValidationError('notify takes one argument');
    return a.notify(validateNotification(args[0]));
  });
  handle(IPC.toggleFullScreen, (args) => {
    validateNoArgs(args);
    return a.toggleFullScreen();
  });
  handle(IPC.isFullScreen, (args) => {
    validateNoArgs(args);
    return a.isFullScreen();
  });
  handle(IPC.openExternal, async (args) => {
    if (args.length !== 1) throw new IpcValidationError('openExternal takes one argument');
    await a.openExternal(validateExternalUrl(args[0]));
    return true;
  });
  handle(IPC.appInfo, (args) => {
    validateNoArgs(args);
    return a.appInfo();
  });
  deps.ipcMain.on(IPC.deepLinkReady, (event) => {
    if (trusted(event)) a.deepLinkReady();
    else deps.log.warn(`refused ${IPC.deepLinkReady} from an untrusted sender`);
  });
}
