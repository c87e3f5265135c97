/**
 * Issue #27: the owner of a running tournament. One node drives each tournament (`tournaments.owner_node`, raised
 * `owner_epoch` = fencing token, like tables): it opens the tables of the round's matches through GamesService,
 * tells the players (`tournament_match_ready`), starts a table with bots or gives a walkover at the seat deadline
 * (`seatingOutcome`), records each result from `tournamentOutcome` (the durable `game_records` row) and so advances
 * the rounds — a table closed without a finished game (staff closed it) is recorded as `match_closed`, decided by
 * the score at that moment; the service pays at FINISHED in the same transaction. Every step is an event written
 * under the epoch, built from the locked current state (a retried step finds it done and writes nothing).
 *
 * Resuming: nothing lives only in memory. At boot the node claims the open tournaments it (or nobody alive) owned,
 * and `drive` derives the next steps from the stored state: tables are re-opened idempotently (same game id),
 * seat timers re-armed from the stored `seatDeadline`, finished games read again. The scheduler's tick and the
 * games' `gameFinished` hint call `drive` too.
 */
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import {
  matchesToOpen,
  matchSeats,
  placesFromGame,
  presentEntrants,
  seatingOutcome,
  tournamentView,
  type GameSettings,
  type Match,
  type TournamentEvent,
  type TournamentMatchReady,
  type TournamentState,
} from '@spades/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { ClusterBus } from '../cluster/cluster.bus';
import { ClusterNodes } from '../cluster/cluster.nodes';
import { GamesService } from '../games/games.service';
import type { Participant } from '../games/table.record';
import { RealtimeService } from '../realtime/realtime.service';
import { TournamentsService } from './tournaments.service';
import { StoredTournament, TournamentFencedError, TournamentsStore } from './tournaments.store';
import { TournamentResultsHub } from './tournaments.results';

export const tournamentRoom = (id: string) => `tournament:${id}`;
/** Steps of one `drive` pass at most (a round resolved by walkovers opens the next one in the same pass). */
const MAX_STEPS = 64;

interface Owned {
  epoch: number;
  timer: NodeJS.Timeout | null;
  timerAt: number;
}

@Injectable()
export class TournamentsDriver implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('TournamentsDriver');
  private readonly owned = new Map<string, Owned>();
  /** One drive at a time per tournament (+ one queued). */
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  /** Tables this process opened or re-opened (the players were told). */
  private readonly opened = new Set<string>();
  private stopped = false;
  readonly cluster: boolean;

  constructor(
    private readonly ds: DataSource,
    private readonly service: TournamentsService,
    private readonly store: TournamentsStore,
    private readonly games: GamesService,
    private readonly realtime: RealtimeService,
    results: TournamentResultsHub,
    @Optional() private readonly nodes?: ClusterNodes,
    @Optional() private readonly bus?: ClusterBus,
  ) {
    this.cluster = !!(nodes?.enabled && bus?.enabled);
    service.onCommitted((t) => this.committed(t));
    results.listen((e) => this.poke(e.tournamentId));
  }

  get nodeId(): string {
    return this.service.nodeId;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.cluster) {
      this.bus!.handle('tournaments.poke', (args) => {
        this.poke(String(args[0]));
        return Promise.resolve(true);
      });
      // a draining node handed these over (handOver): drive them now, not at the next failover round
      this.bus!.handle('tournaments.adopt', (args) => {
        if (this.stopped) return Promise.resolve(false);
        for (const o of args[0] as { id: string; epoch: number }[]) this.adopt(String(o.id), Number(o.epoch));
        return Promise.resolve(true);
      });
      await this.nodes!.start();
    }
    // restart: the tournaments this node owned (and, single server, every open one) are driven here again
    await this.claimOrphans(true);
  }

  onApplicationShutdown(): void {
    this.stopped = true;
    for (const o of this.owned.values()) if (o.timer) clearTimeout(o.timer);
    this.owned.clear();
  }

  /**
   * Drain (SIGTERM on a node of several): this node stops driving, waits for the passes under way, then gives every
   * open tournament it owns to the least-loaded other live node that takes work (epoch + 1: a late write of this
   * node is fenced) and tells that node to drive them at once (`tournaments.adopt`), instead of the others waiting
   * for this node's heartbeat to expire. Without another node nothing moves: a restart of this node claims its
   * own back. Returns the number handed over.
   */
  async handOver(): Promise<number> {
    if (!this.cluster || this.stopped) return 0;
    this.stopped = true;
    for (const o of this.owned.values()) if (o.timer) clearTimeout(o.timer);
    this.owned.clear();
    await Promise.all([...this.running.values()].map((p) => p.catch(() => undefined)));
    const me = this.nodeId;
    const load = new Map(
      this.nodes!.accepting()
        .filter((n) => n.id !== me)
        .map((n) => [n.id, 0]),
    );
    if (!load.size) return 0;
    const moved = new Map<string, { id: string; epoch: number }[]>();
    for (const { id, epoch } of await this.store.owned(me)) {
      const [to] = [...load.entries()].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))[0];
      const next = await this.store.handOver(id, me, epoch, to).catch((e: Error) => {
        this.log.warn(`hand-over of ${id}: ${e.message}`);
        return null;
      });
      if (next === null) continue;
      load.set(to, (load.get(to) ?? 0) + 1);
      moved.set(to, [...(moved.get(to) ?? []), { id, epoch: next }]);
    }
    let count = 0;
    for (const [to, list] of moved) {
      count += list.length;
      // not answered (it died meanwhile): the failover of the live nodes claims them from the dead owner
      await this.bus!.call(to, 'tournaments.adopt', [list], 3000).catch((e: Error) =>
        this.log.warn(`${to} did not adopt ${list.length} tournament(s): ${e.message}`),
      );
    }
    if (count) this.log.log(`Drained: handed ${count} tournament(s) over`);
    return count;
  }

  /** Takes over open tournaments of dead nodes (and, `mine`, of a previous run of this node) and drives them. */
  async claimOrphans(mine = false): Promise<number> {
    if (this.stopped) return 0;
    const live = this.cluster ? this.nodes!.live() : [];
    if (this.cluster && !live.includes(this.nodeId)) return 0; // no heartbeat yet: do not judge the others
    const claimed = await this.store.claimOrphans(this.nodeId, live, mine);
    for (const c of claimed) this.adopt(c.id, c.epoch);
    if (claimed.length) this.log.log(`Driving ${claimed.length} tournament(s) taken over`);
    return claimed.length;
  }

  /** Drives a tournament this node owns at `epoch`. */
  adopt(id: string, epoch: number): void {
    const cur = this.owned.get(id);
    if (cur && cur.epoch >= epoch) return this.poke(id);
    if (cur?.timer) clearTimeout(cur.timer);
    this.owned.set(id, { epoch, timer: null, timerAt: 0 });
    this.poke(id);
  }

  /** Every tournament this node drives gets a pass (scheduler tick: reconcile results, deadlines). */
  reconcile(): void {
    for (const id of this.owned.keys()) this.poke(id);
  }

  ownedIds(): string[] {
    return [...this.owned.keys()];
  }

  /** Something changed: drive now (here when owned, else the owner is told). */
  poke(id: string): void {
    if (this.stopped) return;
    if (!this.owned.has(id)) return;
    if (this.running.has(id)) {
      this.again.add(id);
      return;
    }
    const p = this.drive(id)
      .catch((e) => this.log.warn(`tournament ${id}: ${(e as Error).message}`))
      .finally(() => {
        this.running.delete(id);
        if (this.again.delete(id)) this.poke(id);
      });
    this.running.set(id, p);
  }

  /** Waits until no pass of `id` is running (tests). */
  async settled(id: string): Promise<void> {
    while (this.running.has(id)) await this.running.get(id);
  }

  /** After every committed change: the watchers get the new state; the owner drives. */
  private committed(t: StoredTournament): void {
    this.realtime.emitToRoom(
      tournamentRoom(t.state.id),
      'tournament_updated',
      tournamentView(t.state, t.createdByName, null),
    );
    if (t.state.status === 'CANCELLED') this.closeTables(t.state);
    const open = t.state.status === 'REGISTERING' || t.state.status === 'RUNNING';
    if (!open) return;
    if (t.ownerNode === this.nodeId) {
      if (!this.owned.has(t.state.id)) this.adopt(t.state.id, t.ownerEpoch);
      else this.poke(t.state.id);
    } else if (this.cluster && t.ownerNode) {
      this.bus!.call(t.ownerNode, 'tournaments.poke', [t.state.id], 3000).catch(() => undefined);
    }
  }

  /** Cancelled while running: the tables still waiting for their players close (a game already playing ends). */
  private closeTables(s: TournamentState): void {
    for (const r of s.rounds)
      for (const m of r.matches)
        if (m.status === 'SEATING' && m.gameId)
          this.games
            .closeTournamentTable(m.gameId)
            .catch((e: Error) => this.log.warn(`close ${m.gameId}: ${e.message}`));
  }

  private drop(id: string): void {
    const o = this.owned.get(id);
    if (o?.timer) clearTimeout(o.timer);
    this.owned.delete(id);
  }

  /** One pass: as many steps as the stored state allows now; re-arms the seat timer. */
  private async drive(id: string): Promise<void> {
    let t = await this.store.get(id);
    for (let step = 0; step < MAX_STEPS && !this.stopped; step++) {
      const own = this.owned.get(id);
      if (!own) return;
      if (!t || t.ownerNode !== this.nodeId || t.ownerEpoch !== own.epoch) return this.drop(id);
      if (t.state.status === 'REGISTERING') return; // the scheduler starts it (scheduled) or a registration (sit-and-go)
      if (t.state.status !== 'RUNNING') return this.drop(id);
      let next: StoredTournament | null;
      try {
        next = await this.step(t, own.epoch);
      } catch (e) {
        if (e instanceof TournamentFencedError) {
          this.log.log(`tournament ${id} is driven by another node now`);
          return this.drop(id);
        }
        throw e;
      }
      if (!next) break;
      t = next;
    }
    if (t) this.arm(t);
  }

  /** The next step of a running tournament, or null when it waits (players, a game). */
  private async step(t: StoredTournament, epoch: number): Promise<StoredTournament | null> {
    const s = t.state;
    // 1. every match of the round that needs a table gets one (the event first: its game id is then fixed)
    const toOpen = matchesToOpen(s);
    if (toOpen.length) {
      const now = Date.now();
      const opened = toOpen.map((m) => ({ id: m.id, gameId: randomUUID() }));
      return this.service.drive(s.id, epoch, () =>
        opened.map(
          (o) => (cur: TournamentState) =>
            matchesToOpen(cur).some((m) => m.id === o.id)
              ? ({
                  type: 'match_opened',
                  at: now,
                  matchId: o.id,
                  gameId: o.gameId,
                  seatDeadline: now + cur.config.noShowMs,
                } satisfies TournamentEvent)
              : null,
        ),
      );
    }
    const round = s.rounds[s.rounds.length - 1];
    if (!round) return null;
    for (const m of round.matches) {
      if (m.status === 'SEATING' && m.gameId) {
        await this.ensureTable(s, m);
        const table = await this.games.tournamentTableState(m.gameId);
        const seated = table?.seatedUserIds ?? [];
        if (table?.status === 'CLOSED' && !table.started && (m.seatDeadline === null || Date.now() < m.seatDeadline)) {
          // closed before the deadline, and not by this driver (it closes a table only at the deadline, for a
          // walkover): staff closed it. Nobody has a score yet: the better seed(s) go on (closedMatchResult)
          return this.record(s.id, epoch, m, { type: 'match_closed', at: Date.now(), matchId: m.id, scores: {} });
        }
        if (table?.started) {
          const present = presentEntrants(s, m.id, seated);
          return this.record(s.id, epoch, m, {
            type: 'match_started',
            at: Date.now(),
            matchId: m.id,
            ...(present.length < m.entrantIds.length ? { present } : {}),
          });
        }
        if (m.seatDeadline !== null && Date.now() >= m.seatDeadline) {
          const outcome = seatingOutcome(s, m.id, seated);
          if (outcome === 'walkover') {
            await this.games.closeTournamentTable(m.gameId).catch((e: Error) => {
              // it started at the last moment: the next pass records the start instead
              this.log.warn(`close ${m.gameId}: ${e.message}`);
              throw e;
            });
            return this.record(s.id, epoch, m, {
              type: 'match_walkover',
              at: Date.now(),
              matchId: m.id,
              present: presentEntrants(s, m.id, seated),
            });
          }
          const started = await this.games.startTournamentTableWithBots(m.gameId);
          const present = presentEntrants(s, m.id, started.seatedUserIds);
          return this.record(s.id, epoch, m, {
            type: 'match_started',
            at: Date.now(),
            matchId: m.id,
            ...(present.length < m.entrantIds.length ? { present } : {}),
          });
        }
      }
      if (m.status === 'PLAYING' && m.gameId) {
        const out = await this.games.tournamentOutcome(m.gameId);
        if (out?.closed) {
          // the table closed without a finished game (staff closed a stuck table): the score then decides
          const { scores } = placesFromGame(s, m.id, [], out.scoresBySeat);
          return this.record(s.id, epoch, m, { type: 'match_closed', at: Date.now(), matchId: m.id, scores });
        }
        if (out) {
          const { places, scores } = placesFromGame(s, m.id, out.placesBySeat, out.scoresBySeat);
          return this.record(s.id, epoch, m, { type: 'match_played', at: Date.now(), matchId: m.id, places, scores });
        }
      }
    }
    return null;
  }

  /** Writes one event for match `m` unless the locked state shows the match moved on meanwhile. */
  private async record(id: string, epoch: number, m: Match, event: TournamentEvent): Promise<StoredTournament> {
    return this.service.drive(id, epoch, () => [
      (cur: TournamentState) => {
        const now = cur.rounds.flatMap((r) => r.matches).find((x) => x.id === m.id);
        return now && now.status === m.status ? event : null;
      },
    ]);
  }

  /** Opens (or, after a restart, re-opens: idempotent on the game id) the match's table and tells its players. */
  private async ensureTable(s: TournamentState, m: Match): Promise<void> {
    if (!m.gameId || this.opened.has(m.gameId)) return;
    const seats = matchSeats(s, m.id);
    const ids = seats.filter((p): p is { userId: string; username: string } => p !== null).map((p) => p.userId);
    const rows: { id: string; avatar: string | null }[] = await this.ds.query(
      `SELECT id, avatar FROM users WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    const avatar = new Map(rows.map((r) => [r.id, r.avatar]));
    const settings = { ...s.config.rules, gameMode: s.config.mode, buyIn: 0 } as GameSettings;
    await this.games.openTournamentTable({
      gameId: m.gameId,
      link: { tournamentId: s.id, matchId: m.id },
      settings,
      seats: seats.map(
        (p): Participant | null =>
          p && { userId: p.userId, username: p.username, avatar: avatar.get(p.userId) ?? null },
      ),
      name: s.config.name,
    });
    this.opened.add(m.gameId);
    const ready: TournamentMatchReady = {
      tournamentId: s.id,
      name: s.config.name,
      matchId: m.id,
      gameId: m.gameId,
      round: m.round,
      seatDeadline: m.seatDeadline ?? Date.now(),
    };
    for (const uid of ids) this.realtime.emitToUser(uid, 'tournament_match_ready', ready);
  }

  /** The seat timer: the earliest deadline of a match still seating (re-armed from the stored deadlines). */
  private arm(t: StoredTournament): void {
    const own = this.owned.get(t.state.id);
    if (!own || t.state.status !== 'RUNNING') return;
    const round = t.state.rounds[t.state.rounds.length - 1];
    const deadlines = (round?.matches ?? [])
      .filter((m) => m.status === 'SEATING' && m.seatDeadline !== null)
      .map((m) => m.seatDeadline as number);
    if (!deadlines.length) return;
    const at = Math.min(...deadlines);
    if (own.timer && own.timerAt === at) return;
    if (own.timer) clearTimeout(own.timer);
    own.timerAt = at;
    own.timer = setTimeout(
      () => {
        own.timer = null;
        this.poke(t.state.id);
      },
      Math.max(0, at - Date.now()) + 20,
    );
    own.timer.unref();
  }
}
