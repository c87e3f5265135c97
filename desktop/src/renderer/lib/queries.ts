import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api';
import { normalizeGame, normalizeLobbyPlayer, type GameListItem, type LobbyPlayer } from './types';
import { useSocket, useSocketEvent } from '../socket/socket';

function listOf(body: unknown, key: string): unknown[] {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object' && Array.isArray((body as Record<string, unknown>)[key])) return (body as Record<string, unknown[]>)[key];
  return [];
}

export function normalizeGames(body: unknown): GameListItem[] {
  return listOf(body, 'games').map(normalizeGame).filter((g): g is GameListItem => g !== null);
}

/** GET /api/games, kept live by `games_updated` (full list) and refetched when the socket becomes ready. */
export function useGames() {
  const qc = useQueryClient();
  const { ready } = useSocket();
  const q = useQuery({ queryKey: ['games'], queryFn: async () => normalizeGames(await api.get<unknown>('/api/games')) });
  useSocketEvent('games_updated', (list: unknown) => {
    qc.setQueryData(['games'], normalizeGames(list));
  });
  useEffect(() => {
    if (ready) void qc.invalidateQueries({ queryKey: ['games'] });
  }, [ready, qc]);
  return q;
}

/** GET /api/users with `online` overlaid from the socket's `online_users`; friendAdded re-fetches. */
export function useUsers() {
  const qc = useQueryClient();
  const { onlineIds } = useSocket();
  const q = useQuery({
    queryKey: ['users'],
    queryFn: async () => listOf(await api.get<unknown>('/api/users'), 'users').map(normalizeLobbyPlayer).filter((p): p is LobbyPlayer => p !== null),
  });
  useSocketEvent('friendAdded', () => void qc.invalidateQueries({ queryKey: ['users'] }));
  // Someone we do not know yet came online (a new account): refresh the list.
  useEffect(() => {
    if (!q.data) return;
    const known = new Set(q.data.map((p) => p.id));
    if ([...onlineIds].some((id) => !known.has(id))) void qc.invalidateQueries({ queryKey: ['users'] });
  }, [onlineIds, q.data, qc]);
  const players = (q.data ?? []).map((p) => (onlineIds.size > 0 ? { ...p, online: onlineIds.has(p.id) || p.online } : p));
  return { ...q, players };
}
