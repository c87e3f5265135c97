import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api';
import { normalizeGame, normalizeLobbyPlayer, type GameListItem, type LobbyPlayer } from './types';
import { useSocket, useSocketEvent } from '../socket/socket';

function listOf(body: unknown, key: string): unknown[] {
  if (Array.isArray(body)) return body;
  if (body && typeof body === 'object' && Array.isArray((body as Record<string, unknown>)[key]))
    return (body as Record<string, unknown[]>)[key];
  return [];
}

export function normalizeGames(body: unknown): GameListItem[] {
  return listOf(body, 'games')
    .map(normalizeGame)
    .filter((g): g is GameListItem => g !== null);
}

/** Applies one lobby delta (`game_added` / `game_changed` / `game_removed`) to a list (new tables first). */
export function applyGameDelta(
  list: GameListItem[],
  event: 'game_added' | 'game_changed' | 'game_removed',
  payload: unknown,
): GameListItem[] {
  if (event === 'game_removed') {
    const id =
      payload && typeof payload === 'object'
        ? String((payload as { id?: unknown; gameId?: unknown }).id ?? (payload as { gameId?: unknown }).gameId)
        : '';
    return list.filter((g) => g.id !== id);
  }
  const g = normalizeGame(payload);
  if (!g) return list;
  const i = list.findIndex((x) => x.id === g.id);
  if (i < 0) return [g, ...list];
  const next = list.slice();
  next[i] = g;
  return next;
}

/**
 * The lobby's table list: while mounted, the socket watches the lobby (`watch_lobby`, re-sent after every
 * reconnect): one full `games_updated`, then `game_added` / `game_changed` / `game_removed` deltas. GET
 * /api/games fills the list before the socket is ready.
 */
export function useGames() {
  const qc = useQueryClient();
  const { ready, emit } = useSocket();
  const q = useQuery({
    queryKey: ['games'],
    queryFn: async () => normalizeGames(await api.get<unknown>('/api/games')),
  });
  useSocketEvent('games_updated', (list: unknown) => {
    qc.setQueryData(['games'], normalizeGames(list));
  });
  const delta = (event: 'game_added' | 'game_changed' | 'game_removed') => (payload: unknown) =>
    qc.setQueryData<GameListItem[]>(['games'], (prev) => applyGameDelta(prev ?? [], event, payload));
  useSocketEvent('game_added', delta('game_added'));
  useSocketEvent('game_changed', delta('game_changed'));
  useSocketEvent('game_removed', delta('game_removed'));
  useEffect(() => {
    if (!ready) return;
    emit('watch_lobby', {});
    return () => void emit('unwatch_lobby', {});
  }, [ready, emit]);
  return q;
}

/** GET /api/users with `online` overlaid from the socket's `online_users`; friendAdded re-fetches. */
export function useUsers() {
  const qc = useQueryClient();
  const { onlineIds } = useSocket();
  const q = useQuery({
    queryKey: ['users'],
    queryFn: async () =>
      listOf(await api.get<unknown>('/api/users'), 'users')
        .map(normalizeLobbyPlayer)
        .filter((p): p is LobbyPlayer => p !== null),
  });
  useSocketEvent('friendAdded', () => void qc.invalidateQueries({ queryKey: ['users'] }));
  // Someone we do not know yet came online (a new account): refresh the list.
  useEffect(() => {
    if (!q.data) return;
    const known = new Set(q.data.map((p) => p.id));
    if ([...onlineIds].some((id) => !known.has(id))) void qc.invalidateQueries({ queryKey: ['users'] });
  }, [onlineIds, q.data, qc]);
  const players = (q.data ?? []).map((p) =>
    onlineIds.size > 0 ? { ...p, online: onlineIds.has(p.id) || p.online } : p,
  );
  return { ...q, players };
}
