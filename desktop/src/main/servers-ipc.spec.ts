import { describe, expect, it, vi } from 'vitest';
import { IPC } from '../shared/bridge';
import { memoryLogger } from './logger';
import { registerServerIpc, type ServerActions } from './servers-ipc';

type Handler = (event: unknown, ...args: unknown[]) => unknown;

function setup() {
  const handlers = new Map<string, Handler>();
  const listeners = new Map<string, Handler>();
  const actions: ServerActions = {
    bootState: vi.fn(() => ({ server: null, token: 'tok.en.123', protocolVersion: 1 })),
    list: vi.fn(() => []),
    probe: vi.fn(async (a: string) => ({ ok: false as const, error: 'unreachable' as const, message: a })),
    add: vi.fn(async (a: string) => ({ ok: false as const, error: 'unreachable' as const, message: a })),
    switchTo: vi.fn(() => true),
    forget: vi.fn(() => true),
    answerLink: vi.fn(async () => null),
    setSession: vi.fn(() => true),
    updateState: vi.fn(() => ({ status: 'idle' as const, enabled: true })),
    setUpdatesEnabled: vi.fn(async (enabled: boolean) => ({ status: 'idle' as const, enabled })),
    restartToUpdate: vi.fn(() => false),
  };
  registerServerIpc({
    ipcMain: { handle: (c, fn) => void handlers.set(c, fn as Handler), on: (c, fn) => listeners.set(c, fn as Handler) },
    actions,
    appOrigin: 'app://spades',
    mainContentsId: () => 1,
    log: memoryLogger(),
  });
  const ok = { sender: { id: 1 }, senderFrame: { url: 'app://spades/servers' } };
  const foreign = { sender: { id: 1 }, senderFrame: { url: 'https://evil.example/' } };
  return { handlers, listeners, actions, ok, foreign };
}

describe('servers IPC', () => {
  it('answers the boot state synchronously to the app frame only (it carries the session token)', () => {
    const { listeners, ok, foreign } = setup();
    const e1: Record<string, unknown> = { ...ok };
    listeners.get(IPC.bootState)!(e1);
    expect(e1.returnValue).toMatchObject({ token: 'tok.en.123' });
    const e2: Record<string, unknown> = { ...foreign };
    listeners.get(IPC.bootState)!(e2);
    expect(e2.returnValue).toBeNull();
    // the main window while its preload runs (no URL reported yet) gets it; another window does not
    const e3: Record<string, unknown> = { sender: { id: 1 }, senderFrame: { url: '' } };
    listeners.get(IPC.bootState)!(e3);
    expect(e3.returnValue).toMatchObject({ token: 'tok.en.123' });
    const e4: Record<string, unknown> = { sender: { id: 2 }, senderFrame: { url: '' } };
    listeners.get(IPC.bootState)!(e4);
    expect(e4.returnValue).toBeNull();
  });

  it('validates every argument and refuses untrusted senders', async () => {
    const { handlers, actions, ok, foreign } = setup();
    const h = (c: string, ev: unknown, ...a: unknown[]) => handlers.get(c)!(ev, ...a);
    await expect(h(IPC.serversAdd, ok, 'spades.example.org')).resolves.toMatchObject({ message: 'spades.example.org' });
    await expect(h(IPC.serversAdd, ok, 42)).rejects.toThrow(/address/);
    await expect(h(IPC.serversAdd, ok, 'x'.repeat(513))).rejects.toThrow(/address/);
    await expect(h(IPC.serversSwitch, ok, '../x')).rejects.toThrow(/malformed id/);
    await expect(h(IPC.serversSwitch, ok, 'id-1')).resolves.toBe(true);
    await expect(h(IPC.serversForget, foreign, 'id-1')).rejects.toThrow(/untrusted/);
    expect(actions.forget).not.toHaveBeenCalled();
    await expect(h(IPC.serversAnswerLink, ok, 'r1', 'yes')).rejects.toThrow(/boolean/);
    await expect(h(IPC.serversAnswerLink, ok, 'r1', true)).resolves.toBeNull();
    await expect(h(IPC.sessionSet, ok, { token: 1 })).rejects.toThrow(/token/);
    await expect(h(IPC.sessionSet, ok, null)).resolves.toBe(true);
    await expect(h(IPC.updateSetEnabled, ok, 'off')).rejects.toThrow(/boolean/);
    await expect(h(IPC.updateSetEnabled, ok, false)).resolves.toEqual({ status: 'idle', enabled: false });
    await expect(h(IPC.updateRestart, ok, 1)).rejects.toThrow(/no arguments/);
    await expect(h(IPC.serversList, ok)).resolves.toEqual([]);
  });
});
