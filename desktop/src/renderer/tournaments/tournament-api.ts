/**
 * Issue #27: tournament data for the renderer, on common's typed socket (`useSocket` / `useSocketEvent`).
 *
 * Lobby lists (`GET /api/tournaments?status=…`, TanStack Query `['tournaments', status]`): kept live by the server's
 * push, not by polling. The lobby page watches the lobby (`watch_lobby`, see useGames), and the server sends lobby
 * watchers `tournaments_changed { tournaments: [{ id, status }] }` (coalesced, ~1 s) when a row changed: created,
 * registrations, started, next round, finished, cancelled. The list of each new status and any cached list holding
 * one of those ids are invalidated (the shown one re-reads at once, the others when shown). After a socket reconnect
 * the lists are read once (what changed meanwhile came to nobody). A slow safety read (60 s) stays for servers of
 * older versions, which never send the event (the desktop app talks to any server).
 *
 * The page reads `GET /api/tournaments/:id` and watches the tournament over the socket (`watch_tournament`, again
 * after every reconnect, then reads the page once more for what it missed): `tournament_updated` (the same view for
 * every watcher, without `me`/`nextMatch`, which are kept from the last HTTP answer, and without live scores, which
 * are kept too) and `tournament_scores` (a table's score after each hand): the bracket's scores are live without
 * polling.
 */
import { useCallback, useEffect, useRef } from 'react';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  tournamentListOf,
  type CreateTournamentInput,
  type RegisterTournamentInput,
  type TournamentHistoryItem,
  type TournamentMatchReady,
  type TournamentsChanged,
  type TournamentSummary,
  type TournamentTableScores,
  type TournamentView,
} from '@spades/common';
import { api } from '../lib/api';
import { useSocket, useSocketEvent } from '../socket/socket';
import type { TournamentListStatus } from './bracket-model';

export const tournamentApiPath = (id: string) => `/api/tournaments/${encodeURIComponent(id)}`;

/** The safety read of the open and running lists (the push keeps them live; see the header). */
export const TOURNAMENT_LIST_SAFETY_MS = 60_000;

/**
 * `tournaments_changed`: invalidates the list of each tournament's new status and every cached list that holds it
 * (a status change moves the row from one list to another). Returns the lists invalidated.
 */
export function invalidateTournamentLists(qc: QueryClient, p: TournamentsChanged): TournamentListStatus[] {
  const lists = new Set<TournamentListStatus>(p.tournaments.map((t) => tournamentListOf(t.status)));
  const ids = new Set(p.tournaments.map((t) => t.id));
  for (const [key, rows] of qc.getQueriesData<TournamentSummary[]>({ queryKey: ['tournaments'] }))
    if (rows?.some((r) => ids.has(r.id))) lists.add(key[1] as TournamentListStatus);
  for (const status of lists) void qc.invalidateQueries({ queryKey: ['tournaments', status] });
  return [...lists];
}

export function useTournamentList(status: TournamentListStatus) {
  const qc = useQueryClient();
  const { ready } = useSocket();
  const q = useQuery({
    queryKey: ['tournaments', status],
    queryFn: () => api.get<TournamentSummary[]>(`/api/tournaments?status=${status}`),
    refetchInterval: status === 'finished' ? false : TOURNAMENT_LIST_SAFETY_MS,
  });
  useSocketEvent('tournaments_changed', (p) => void invalidateTournamentLists(qc, p));
  // (re)connected: the pushes sent while the socket was away came to nobody, read the lists once
  const wasReady = useRef(ready);
  useEffect(() => {
    if (ready && !wasReady.current) void qc.invalidateQueries({ queryKey: ['tournaments'] });
    wasReady.current = ready;
  }, [ready, qc]);
  return q;
}

/**
 * `tournament_match_ready` drives a native notification and navigation: checked, since the desktop app also talks
 * to servers of other versions.
 */
export function isMatchReady(p: unknown): p is TournamentMatchReady {
  if (!p || typeof p !== 'object') return false;
  const v = p as Partial<TournamentMatchReady>;
  return typeof v.tournamentId === 'string' && typeof v.gameId === 'string' && typeof v.seatDeadline === 'number';
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
    socket.emit('watch_tournament', { tournamentId: id }, () => undefined);
    // watching again after a reconnect: what changed meanwhile came to nobody, read it once
    if (qc.getQueryData(['tournament', id])) void qc.invalidateQueries({ queryKey: ['tournament', id] });
    return () => {
      socket.emit('unwatch_tournament', { tournamentId: id }, () => undefined);
    };
  }, [socket, ready, id, qc]);
  useSocketEvent('tournament_scores', (p) => {
    if (p.tournamentId !== id) return;
    qc.setQueryData<TournamentView>(['tournament', id], (old) => (old ? withTableScores(old, p) : old));
  });
  useSocketEvent('tournament_updated', (p) => {
    if (p.id !== id) return;
    qc.setQueryData<TournamentView>(['tournament', id], (old) => mergeBroadcast(p, old));
    // who is registered and the caller's next match may have changed: ask once for the caller's part
    void qc.invalidateQueries({ queryKey: ['tournament', id] });
    // the lobby is not watched from this page: the lists are read again when shown
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
