import { describe, expect, it, vi } from 'vitest';
import { IPC } from '../shared/bridge';
import {
  IpcValidationError,
  registerIpcHandlers,
  validateExternalUrl,
  validateNotification,
  type DesktopActions,
  type IpcSenderEvent,
} from './ipc';
import { memoryLogger } from './logger';

const APP = 'app://spades';
const MAIN_ID = 7;
const trusted: IpcSenderEvent = { sender: { id: MAIN_ID }, senderFrame: { url: 'app://spades/table/1' } };

function setup() {
  const handlers = new Map<string, (event: IpcSenderEvent, ...args: unknown[]) => unknown>();
  const listeners = new Map<string, (event: IpcSenderEvent, ...args: unknown[]) => void>();
  const actions: DesktopActions = {
    notify: vi.fn(() => true),
    toggleFullScreen: vi.fn(() => true),
    isFullScreen: vi.fn(() => false),
    openExternal: vi.fn(async () => {}),
    appInfo: vi.fn(() => ({
      name: 'Spades',
      version: '0.1.0',
      platform: 'linux',
      electron: '45',
      chrome: '140',
      apiBase: 'https://x',
      packaged: false,
    })),
    deepLinkReady: vi.fn(),
  };
  const log = memoryLogger();
  registerIpcHandlers({
    ipcMain: { handle: (c, l) => void handlers.set(c, l), on: (c, l) => listeners.set(c, l) },
    actions,
    appOrigin: APP,
    mainContentsId: () => MAIN_ID,
    log,
  });
  const invoke = async (channel: string, ...args: unknown[]) => handlers.get(channel)!(trusted, ...args);
  return { handlers, listeners, actions, log, invoke };
}

describe('registerIpcHandlers', () => {
  it('registers a handler for every invoke channel and a listener for deep-link readiness', () => {
    const { handlers, listeners } = setup();
    expect([...handlers.keys()].sort()).toEqual(
      [IPC.notify, IPC.toggleFullScreen, IPC.isFullScreen, IPC.openExternal, IPC.appInfo].sort(),
    );
    expect([...listeners.keys()]).toEqual([IPC.deepLinkReady]);
  });

  it('passes valid arguments through', async () => {
    const { invoke, actions } = setup();
    await expect(
      invoke(IPC.notify, { kind: 'your-turn', title: 'Your turn', body: 'Table 1', gameId: 'g1' }),
    ).resolves.toBe(true);
    expect(actions.notify).toHaveBeenCalledWith({
      kind: 'your-turn',
      title: 'Your turn',
      body: 'Table 1',
      gameId: 'g1',
    });
    await expect(invoke(IPC.toggleFullScreen)).resolves.toBe(true);
    await expect(invoke(IPC.isFullScreen)).resolves.toBe(false);
    await expect(invoke(IPC.openExternal, 'https://discord.com/x')).resolves.toBe(true);
    expect(actions.openExternal).toHaveBeenCalledWith('https://discord.com/x');
    await expect(invoke(IPC.appInfo)).resolves.toMatchObject({ name: 'Spades' });
  });

  it.each([
    [IPC.notify, []],
    [IPC.notify, [null]],
    [IPC.notify, ['Your turn']],
    [IPC.notify, [{ kind: 'your-turn', title: 'x', body: 'y' }, 'extra']],
    [IPC.notify, [{ kind: 'hack', title: 'x', body: 'y' }]],
    [IPC.notify, [{ kind: 'mention', title: '', body: 'y' }]],
    [IPC.notify, [{ kind: 'mention', title: 'x'.repeat(121), body: 'y' }]],
    [IPC.notify, [{ kind: 'mention', title: 'x', body: 'y'.repeat(501) }]],
    [IPC.notify, [{ kind: 'mention', title: 'x', body: 5 }]],
    [IPC.notify, [{ kind: 'mention', title: 'a\u0000b', body: '' }]],
    [IPC.notify, [{ kind: 'mention', title: 'x', body: '', gameId: '../etc' }]],
    [IPC.notify, [{ kind: 'mention', title: 'x', body: '', icon: 'file:///etc/passwd' }]],
    [IPC.notify, [{ kind: 'tournament-match', title: 'x', body: '', tournamentId: '../etc' }]],
    [IPC.notify, [{ kind: 'tournament-match', title: 'x', body: '', tournamentId: 7 }]],
    [IPC.notify, [{ kind: 'mention', title: 'x', body: '', tournamentId: 't1' }]],
    [IPC.openExternal, []],
    [IPC.openExternal, ['file:///etc/passwd']],
    [IPC.openExternal, ['javascript:alert(1)']],
    [IPC.openExternal, ['smb://host/share']],
    [IPC.openExternal, ['/relative']],
    [IPC.openExternal, [{ toString: () => 'https://x.example' }]],
    [IPC.openExternal, ['https://x.example', 'extra']],
    [IPC.toggleFullScreen, [true]],
    [IPC.isFullScreen, ['x']],
    [IPC.appInfo, [1]],
  ])('rejects bad arguments on %s %j', async (channel, args) => {
    const { invoke, actions, log } = setup();
    await expect(invoke(channel, ...args)).rejects.toBeInstanceOf(IpcValidationError);
    for (const fn of Object.values(actions)) expect(fn).not.toHaveBeenCalled();
    expect(log.lines[0]).toMatch(/^warn rejected/);
  });

  it('refuses calls from another webContents or from a frame on a foreign origin', async () => {
    const { handlers, actions, listeners } = setup();
    const h = handlers.get(IPC.openExternal)!;
    await expect(
      (async () => h({ sender: { id: 99 }, senderFrame: { url: 'app://spades/' } }, 'https://x.example'))(),
    ).rejects.toThrow('untrusted sender');
    await expect(
      (async () =>
        h({ sender: { id: MAIN_ID }, senderFrame: { url: 'https://evil.example/' } }, 'https://x.example'))(),
    ).rejects.toThrow('untrusted sender');
    await expect(
      (async () => h({ sender: { id: MAIN_ID }, senderFrame: null }, 'https://x.example'))(),
    ).rejects.toThrow('untrusted sender');
    listeners.get(IPC.deepLinkReady)!({ sender: { id: 99 }, senderFrame: { url: 'app://spades/' } });
    expect(actions.openExternal).not.toHaveBeenCalled();
    expect(actions.deepLinkReady).not.toHaveBeenCalled();
    listeners.get(IPC.deepLinkReady)!(trusted);
    expect(actions.deepLinkReady).toHaveBeenCalledTimes(1);
  });
});

describe('validators', () => {
  it('validateNotification drops nothing it should keep and omits absent gameId', () => {
    expect(
      validateNotification({ kind: 'friend-request', title: 'Friend request', body: 'Ann wants to be friends' }),
    ).toEqual({
      kind: 'friend-request',
      title: 'Friend request',
      body: 'Ann wants to be friends',
    });
  });
  it('validateNotification keeps a tournament match with its table and tournament', () => {
    const n = {
      kind: 'tournament-match',
      title: 'Cup: your match is ready',
      body: 'Round 1',
      gameId: 'g1',
      tournamentId: 't1',
    };
    expect(validateNotification(n)).toEqual(n);
    expect(validateNotification({ ...n, gameId: undefined })).toEqual({
      kind: 'tournament-match',
      title: 'Cup: your match is ready',
      body: 'Round 1',
      tournamentId: 't1',
    });
  });
  it('validateExternalUrl returns the URL', () => {
    expect(validateExternalUrl('http://localhost:3000/api/auth/discord?client=desktop')).toBe(
      'http://localhost:3000/api/auth/discord?client=desktop',
    );
  });
});
