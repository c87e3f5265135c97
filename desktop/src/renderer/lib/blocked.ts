/**
 * Issue #31 item 4: the players this user blocks, for hiding their chat lines that are already on screen (the
 * server stops sending new ones). Read from the user list (`['users']`, each with the viewer's social status),
 * which a block updates at once (social.tsx) and then re-fetches.
 */
import { useMemo } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import type { ChatMessage, LobbyPlayer, SocialStatus } from './types';
import { useUsers } from './queries';

export function blockedIds(players: readonly LobbyPlayer[]): ReadonlySet<string> {
  return new Set(players.filter((p) => p.status === 'blocked').map((p) => p.id));
}

export function useBlockedIds(): ReadonlySet<string> {
  const { players } = useUsers();
  const key = players
    .filter((p) => p.status === 'blocked')
    .map((p) => p.id)
    .join(',');
  // a new set only when the blocked ids change (the list itself is rebuilt on every render)
  return useMemo(() => blockedIds(players), [key]);
}

/** The lines to show: system lines and the own lines always, nobody's the viewer blocks. */
export function withoutBlocked(messages: ChatMessage[], blocked: ReadonlySet<string>): ChatMessage[] {
  if (blocked.size === 0) return messages;
  return messages.filter((m) => m.system || !blocked.has(m.userId));
}

/** Sets one player's social status in the cached user list right away (before the re-fetch confirms it). */
export function setStatusNow(qc: QueryClient, userId: string, status: SocialStatus): void {
  qc.setQueryData<LobbyPlayer[]>(['users'], (list) => list?.map((p) => (p.id === userId ? { ...p, status } : p)));
}
