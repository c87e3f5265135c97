/**
 * Issue #27: tournament data for the renderer. Lists and the page over HTTP (TanStack Query); the page also watches
 * the tournament over the socket (`watch_tournament`, again after every reconnect, then reads the page once more for
 * what it missed) and takes `tournament_updated` (the same view for every watcher, without `me`/`nextMatch`, which
 * are kept from the last HTTP answer, and without live scores, which are kept too) and `tournament_scores` (a table's
 * score after each hand): the bracket's scores are live without polling.
 */
import { useCallback, useEffect, useRef } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TournamentTableScores,
  CreateTournamentInput,
  RegisterTournamentInput,
  TournamentHistoryItem,
  TournamentMatchReady,
  TournamentSummary,
  TournamentView,
} from '@spades/common';
import { api } from '../lib/api';
import { useSocket } from '../socket/socket';
import type { TournamentListStatus } from './bracket-model';

export const tournamentApiPath = (id: string) => `/api/tournaments/${encodeURIComponent(id)}`;

export function useTournamentList(status: TournamentListStatus) {
  return useQuery({
    queryKey: ['tournaments', status],
    queryFn: () => api.get<TournamentSummary[]>(`/api/tournaments?status=${status}`),
    refetchInterval: status === 'finished' ? false : 15_000,
  });
}

/**
 * The tournament events are not (yet) in common's typed socket maps; this is the slice of a socket.io client they
 * need, so the hooks work with the typed socket either way.
 */
interface LooseSocket {
  on(event: string, fn: (payload: unknown) => void): unknown;
  off(event: string, fn: (payload: unknown) => void): unknown;
  emit(event: string, payload: unknown, ack?: (res: unknown) => void): unknown;
}

export function useLooseSocketEvent(event: string, handler: (payload: unknown) => void): void {
  const { socket } = useSocket();
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!socket) return;
    const s = socket as unknown as LooseSocket;
    const h = (p: unknown) => ref.current(p);
    s.on(event, h);
    return () => {
      s.off(event, h);
    };
  }, [socket, event]);
}

export function isTournamentView(p: unknown): p is TournamentView {
  if (!p || typeof p !== 'object') return false;
  const v = p as Partial<TournamentView>;
  return typeof v.id === 'string' && typeof v.status === 'string' && Array.isArray(v.rounds);
}

export function isMatchReady(p: unknown): p is TournamentMatchReady {
  if (!p || typeof p !== 'object') return false;
  const v = p as Partial<TournamentMatchReady>;
  return typeof v.tournamentId === 'string' && typeof v.gameId === 'string' && typeof v.seatDeadline === 'number';
}

export function isTableScores(p: unknown): p is TournamentTableScores {
  if (!p || typeof p !== 'object') return false;
  const v = p as Partial<TournamentTableScores>;
  return (
    typeof v.tournamentId === 'string' &&
    typeof v.matchId === 'string' &&
    typeof v.gameId === 'string' &&
    typeof v.handNumber === 'number' &&
    Array.isArray(v.scoresBySeat) &&
    v.scoresBySeat.every((n) => typeof n === 'number')
  );
}

/** The view with a table's live score on its match (entrant i sits at seat i); unchanged unless that match is playing. */
export function withTableScores(v: TournamentView, s: TournamentTableScores): TournamentView {
  if (v.id !== s.tournamentId) return v;
  let changed = false;
  const rounds = v.rounds.map((r) => ({
    ...r,
    matches: r.matches.map((m) => {
      if (m.id !== s.matchId || m.gameId !== s.gameId || m.status !== 'PLAYING') return m;
      changed = true;
      return { ...m, scores: Object.fromEntries(m.entrantIds.map((e, i) => [e, s.scoresBySeat[i] ?? 0])) };
    }),
  }));
  return changed ? { ...v, rounds } : v;
}

/**
 * A `tournament_updated` view (no live scores: a match being played has `scores: null`) over the one shown: the
 * caller's part and the live scores of the matches still being played are kept.
 */
export function mergeBroadcast(p: TournamentView, old: TournamentView | undefined): TournamentView {
  const live = new Map<string, Record<string, number>>();
  for (const r of old?.rounds ?? [])
    for (const m of r.matches) if (m.status === 'PLAYING' && m.scores) live.set(`${m.id}:${m.gameId}`, m.scores);
  return {
    ...p,
    rounds: p.rounds.map((r) => ({
      ...r,
      matches: r.matches.map((m) =>
        m.status === 'PLAYING' && !m.scores && live.has(`${m.id}:${m.gameId}`)
          ? { ...m, scores: live.get(`${m.id}:${m.gameId}`)! }
          : m,
      ),
    })),
    me: p.me ?? old?.me ?? null,
    nextMatch: p.nextMatch ?? old?.nextMatch ?? null,
  };
}

/** The tournament page's data: HTTP, then socket updates while watched (the tables' scores after every hand). */
export function useTournament(id: string) {
  const qc = useQueryClient();
  const { socket, ready } = useSocket();
  const q = useQuery({
    queryKey: ['tournament', id],
    queryFn: () => api.get<TournamentView>(tournamentApiPath(id)),
  });
  useEffect(() => {
    if (!socket || !ready) return;
    const s = socket as unknown as LooseSocket;
    s.emit('watch_tournament', { tournamentId: id }, () => undefined);
    // watching again after a reconnect: what changed meanwhile came to nobody, read it once
    if (qc.getQueryData(['tournament', id])) void qc.invalidateQueries({ queryKey: ['tournament', id] });
    return () => {
      s.emit('unwatch_tournament', { tournamentId: id }, () => undefined);
    };
  }, [socket, ready, id, qc]);
  useLooseSocketEvent('tournament_scores', (p) => {
    if (!isTableScores(p) || p.tournamentId !== id) return;
    qc.setQueryData<TournamentView>(['tournament', id], (old) => (old ? withTableScores(old, p) : old));
  });
  useLooseSocketEvent('tournament_updated', (p) => {
    if (!isTournamentView(p) || p.id !== id) return;
    qc.setQueryData<TournamentView>(['tournament', id], (old) => mergeBroadcast(p, old));
    // who is registered and the caller's next match may have changed: ask once for the caller's part
    void qc.invalidateQueries({ queryKey: ['tournament', id] });
    void qc.invalidateQueries({ queryKey: ['tournaments'] });
  });
  return q;
}

export function useTournamentActions() {
  const qc = useQueryClient();
  const settle = useCallback(
    (v: TournamentView) => {
      qc.setQueryData(['tournament', v.id], v);
      void qc.invalidateQueries({ queryKey: ['tournaments'] });
      return v;
    },
    [qc],
  );
  return {
    register: async (id: string, input: RegisterTournamentInput = {}) =>
      settle(await api.post<TournamentView>(`${tournamentApiPath(id)}/register`, input)),
    unregister: async (id: string) => settle(await api.post<TournamentView>(`${tournamentApiPath(id)}/unregister`, {})),
    create: async (input: CreateTournamentInput) => settle(await api.post<TournamentView>('/api/tournaments', input)),
  };
}

export function useTournamentHistory(userId: string | undefined) {
  return useQuery({
    queryKey: ['tournament-history', userId],
    queryFn: () => api.get<TournamentHistoryItem[]>(`/api/users/${encodeURIComponent(userId ?? '')}/tournaments`),
    enabled: !!userId,
  });
}

/** The table of a match: spectators watch with `?spectate=1` (the app's spectate route), players take their seat. */
export const watchPath = (gameId: string) => `/table/${encodeURIComponent(gameId)}?spectate=1`;
export const seatPath = (gameId: string) => `/table/${encodeURIComponent(gameId)}`;
export const tournamentPath = (id: string) => `/tournaments/${encodeURIComponent(id)}`;
