// IPC behind `window.desktop.servers`, `.session` and `.updates` (issue #30). Same rules as ipc.ts: only the main
// window's frame on the app's origin, every argument validated here.
import { IPC, type BootState, type SavedServer, type ServerProbe, type UpdateState } from '../shared/bridge';
import { isTrustedSender, IpcValidationError, trustedHandler, type IpcMainLike } from './ipc';
import type { Logger } from './logger';

export interface ServerActions {
  bootState(): BootState;
  list(): SavedServer[];
  probe(address: string): Promise<ServerProbe>;
  add(address: string): Promise<ServerProbe>;
  /** Make it current and reload the window on it. */
  switchTo(id: string): boolean;
  forget(id: string): boolean;
  answerLink(requestId: string, accept: boolean): Promise<ServerProbe | null>;
  setSession(token: string | null): boolean;
  updateState(): UpdateState;
  setUpdatesEnabled(enabled: boolean): Promise<UpdateState>;
  restartToUpdate(): boolean;
}

export interface ServerIpcDeps {
  ipcMain: IpcMainLike;
  actions: ServerActions;
  appOrigin: string;
  mainContentsId(): number | undefined;
  log: Logger;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

function one(args: unknown[], name: string): unknown {
  if (args.length !== 1) throw new IpcValidationError(`${name} takes one argument`);
  return args[0];
}
function address(v: unknown): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > 512)
    throw new IpcValidationError('address must be 1..512 characters');
  return v;
}
function id(v: unknown): string {
  if (typeof v !== 'string' || !ID.test(v)) throw new IpcValidationError('malformed id');
  return v;
}

export function registerServerIpc(deps: ServerIpcDeps): void {
  const handle = trustedHandler(deps);
  const a = deps.actions;
  // Synchronous, once per page load from the preload: the page needs its server before its first request.
  deps.ipcMain.on(IPC.bootState, (event) => {
    // While the preload runs, the frame may not report its URL yet: the main window's own contents still qualify
    // (the navigation policy keeps that window on the app's origin).
    const loading = event.sender.id === deps.mainContentsId() && !event.senderFrame?.url;
    if (loading || isTrustedSender(event, deps)) event.returnValue = a.bootState();
    else {
      deps.log.warn(`refused ${IPC.bootState} from an untrusted sender`);
      event.returnValue = null;
    }
  });
  handle(IPC.serversList, (args) => {
    if (args.length) throw new IpcValidationError('no arguments expected');
    return a.list();
  });
  handle(IPC.serversProbe, (args) => a.probe(address(one(args, 'probe'))));
  handle(IPC.serversAdd, (args) => a.add(address(one(args, 'add'))));
  handle(IPC.serversSwitch, (args) => a.switchTo(id(one(args, 'switchTo'))));
  handle(IPC.serversForget, (args) => a.forget(id(one(args, 'forget'))));
  handle(IPC.serversAnswerLink, (args) => {
    if (args.length !== 2 || typeof args[1] !== 'boolean')
      throw new IpcValidationError('answerLink takes an id and a boolean');
    return a.answerLink(id(args[0]), args[1]);
  });
  handle(IPC.sessionSet, (args) => {
    const token = one(args, 'session.set');
    if (token !== null && (typeof token !== 'string' || token.length > 4096))
      throw new IpcValidationError('token must be a string or null');
    return a.setSession(token);
  });
  handle(IPC.updateState, (args) => {
    if (args.length) throw new IpcValidationError('no arguments expected');
    return a.updateState();
  });
  handle(IPC.updateSetEnabled, (args) => {
    const enabled = one(args, 'updates.setEnabled');
    if (typeof enabled !== 'boolean') throw new IpcValidationError('enabled must be a boolean');
    return a.setUpdatesEnabled(enabled);
  });
  handle(IPC.updateRestart, (args) => {
    if (args.length) throw new IpcValidationError('no arguments expected');
    return a.restartToUpdate();
  });
}
