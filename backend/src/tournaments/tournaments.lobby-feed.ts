/**
 * Issue #27: keeps the lobby's tournament lists live without polling. After every committed change whose lobby row
 * (`summaryOf`: status, registered count, pool, round…) differs from the one before, the tournament is queued; at
 * most once per TOURNAMENTS_CHANGED_MS the queue goes out as one `tournaments_changed { tournaments: [{id,
 * status}] }` to the lobby watchers (`watch_lobby` sockets). The room is broadcast through socket.io's adapter (Redis
 * in cluster mode), so the node that committed the change tells the lobby sockets of every node, like the table
 * list's deltas. Nothing per player is sent: the clients re-read the lists over HTTP, where rows carry their `me`.
 */
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { summaryOf, TOURNAMENTS_CHANGED_MS, type TournamentState, type TournamentStatus } from '@spades/common';
import { LOBBY_VIEW_ROOM, RealtimeService } from '../realtime/realtime.service';
import { TournamentsService } from './tournaments.service';
import type { StoredTournament } from './tournaments.store';

/** The public part of a lobby row: whether it changed (the creator's name never does). */
export function lobbyRowChanged(before: TournamentState | null, after: TournamentState): boolean {
  if (!before) return true;
  return JSON.stringify(summaryOf(before, '')) !== JSON.stringify(summaryOf(after, ''));
}

@Injectable()
export class TournamentsLobbyFeed implements OnModuleDestroy {
  /** Tournament id → status, waiting for the next flush. */
  private readonly pending = new Map<string, TournamentStatus>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Flushes so far (tests, metrics). */
  sent = 0;

  constructor(
    service: TournamentsService,
    private readonly realtime: RealtimeService,
  ) {
    service.onCommitted((t, _events, before) => this.committed(t, before));
  }

  private committed(t: StoredTournament, before: TournamentState | null): void {
    if (this.stopped || !lobbyRowChanged(before, t.state)) return;
    this.pending.set(t.state.id, t.state.status);
    if (this.timer) return;
    // the first change of a quiet period goes out after the window, with whatever else changed meanwhile
    this.timer = setTimeout(() => this.flush(), TOURNAMENTS_CHANGED_MS);
    this.timer.unref();
  }

  /** Sends what is queued now (the timer's job; tests call it to skip the wait). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.pending.size) return;
    const tournaments = [...this.pending].map(([id, status]) => ({ id, status }));
    this.pending.clear();
    this.realtime.emitToRoom(LOBBY_VIEW_ROOM, 'tournaments_changed', { tournaments });
    this.sent++;
  }

  onModuleDestroy(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending.clear();
  }
}
