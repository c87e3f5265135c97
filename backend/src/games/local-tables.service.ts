/**
 * The tables THIS node drives, and their command loop. Each open table is an actor (table.actor.ts) whose commands
 * run one at a time: the command body changes a draft of the table record through the TableMachine (rules from
 * @spades/common), the table store appends the event (and a snapshot at boundaries) in a group commit
 * (table.store.ts), then the fan-out sends every recipient its own view (table.fanout.ts) and the timers re-arm from
 * the stored deadlines (table.timers.ts). Settlement of a finished rated game runs right after, exactly once
 * (games.settlement.ts). Where a command runs (here or on the table's owner) is table-router.ts's business.
 */
import { Inject, Injectable, Logger, NotFoundException, Optional } from '@nestjs/common';
import { BotPool } from '../bots/bot-pool';
import { MetricsService } from '../metrics/metrics.service';
import { ClusterPeers } from './cluster-peers';
import { GAMES_CONFIG } from './games.config';
import type { GamesConfig } from './games.config';
import { GamesSettlement } from './games.settlement';
import { gameFinished } from './history';
import { ActorKind, draftOf, Effects, isHuman, newEffects, TableError, TableMachine, TableRecord } from './table';
import { canonicalJson, rememberResult, TableActor, TableRegistry } from './table.actor';
import { needsSnapshot, tableDelta } from './table.delta';
import { TableFanout } from './table.fanout';
import { FencedError } from './table.ownership';
import { RestoredTable, RESULTS_KEPT, TableStore, TableWrite } from './table.store';
import { TableTimers } from './table.timers';
import { TOURNAMENT_RESULTS } from './tournament-tables';
import type { TournamentResultsSink } from './tournament-tables';

export const DUPLICATE_ACTION_ID = 'Duplicate action id';

/** Nothing was due (a timer that fired early or twice): thrown often, so not an Error (no stack to capture). */
class NoChange {}

/** Thrown by a command body when nothing is to change: nothing is stored or emitted, the command answers undefined. */
export class Unchanged extends Error {}

/** The table left this node (handed over or taken over) while a command waited in its queue: route it again. */
export class Moved extends Error {}

export interface CommandOptions {
  type: string;
  actor?: string;
  actionId?: string;
  payload?: unknown;
}

@Injectable()
export class LocalTables {
  private readonly log = new Logger('Games');
  readonly tables = new TableRegistry();
  readonly machine: TableMachine;
  private readonly timers: TableTimers;
  private stopping = false;

  constructor(
    @Inject(GAMES_CONFIG) readonly cfg: GamesConfig,
    private readonly store: TableStore,
    private readonly fanout: TableFanout,
    private readonly settlement: GamesSettlement,
    private readonly peers: ClusterPeers,
    @Optional() bots?: BotPool,
    @Optional() private readonly metrics?: MetricsService,
    /** Issue #27: told when a tournament table's game is stored as finished (also settable: setTournamentResults). */
    @Optional() @Inject(TOURNAMENT_RESULTS) private tournamentResults?: TournamentResultsSink,
  ) {
    this.machine = new TableMachine(cfg);
    this.timers = new TableTimers(this.machine, cfg, (actor) => this.due(actor), bots);
    if (metrics) {
      metrics.gauge('spades_live_tables', 'Open tables driven by this server', () => this.tables.size);
      metrics.gauge('spades_playing_tables', 'Tables with a game in progress', () => {
        let n = 0;
        for (const a of this.tables.all()) if (a.rec.status !== 'WAITING' && a.rec.status !== 'CLOSED') n++;
        return n;
      });
    }
  }

  get isStopping(): boolean {
    return this.stopping;
  }

  // ------------------------------------------------------------------ restore / shutdown

  /** Boot of a single node: every open table of the database is driven here again. */
  async restoreAll(): Promise<void> {
    const restored = await this.store.loadOpen(this.cfg.chatHistory);
    for (const t of restored) await this.install(t);
    if (restored.length) this.log.log(`Restored ${restored.length} table(s)`);
  }

  /** Drives a stored table on this node: restored record, idempotent results, pending settlement, turn, timers. */
  async install(t: RestoredTable): Promise<void> {
    if (this.tables.get(t.rec.id)) return;
    const actor = this.tables.add(t.rec, t.seq, t.eventsSinceSnapshot, this.peers.enabled ? t.epoch : null);
    for (const d of t.results)
      actor.results.set(`${d.actor}:${d.actionId}`, {
        type: d.type,
        payload: canonicalJson(d.payload),
        result: d.result,
      });
    if (actor.rec.settlement === 'pending') {
      actor.queue = actor.queue.then(() => this.settle(actor)).catch((e) => this.settlementFailed(actor, e));
    }
    const turn = this.restoreTurn(actor);
    this.timers.arm(actor);
    await turn;
    if (gameFinished(actor.rec)) this.tournamentGameFinished(actor.rec); // the hint may have been lost in a crash
    if (actor.rec.status !== 'CLOSED') this.fanout.lobby(actor.rec);
  }

  /** A table created here (stored by the caller at seq 1): driven from now on and shown. */
  async opened(rec: TableRecord, fx: Effects): Promise<void> {
    this.tables.add(rec, 1, 0, this.peers.firstEpoch);
    this.metrics?.actions.inc({ type: 'create', outcome: 'ok' });
    await this.publish(null, rec, fx);
  }

  /**
   * Drain: the table leaves this node inside its queue (the commands already queued run first, later ones find it
   * gone and are routed again). `give` hands it over; its answer is returned.
   */
  handOver(actor: TableActor, give: () => Promise<boolean>): Promise<boolean> {
    const handed = actor.queue.then(async () => {
      if (actor.gone) return false;
      this.timers.cancel(actor);
      this.timers.dropPlan(actor);
      const ok = await give();
      actor.gone = true;
      this.tables.remove(actor);
      return ok;
    });
    actor.queue = handed;
    return handed;
  }

  /**
   * After downtime a human whose turn it is gets a fresh full turn (persisted): a deadline that passed while the
   * server was down must not charge them a timeout. Every other deadline (bot, trick, summary, result, seat
   * replacement) keeps its stored value and fires at once when due.
   */
  private async restoreTurn(actor: TableActor): Promise<void> {
    const rec = actor.rec;
    const e = rec.engine;
    if (
      rec.flow?.kind !== 'turn' ||
      (e.phase !== 'BIDDING' && e.phase !== 'PLAYING') ||
      !isHuman(rec.seats[e.turn as number])
    )
      return;
    // queued before the timer can fire (the stale deadline then finds nothing due); awaited by the boot restore so
    // a client re-joining right after the restart already sees the fresh deadline
    await this.command(rec.id, { type: 'restore_turn', payload: { seat: e.turn } }, (draft) => {
      if (draft.flow?.kind !== 'turn') throw new Unchanged();
      draft.flow = {
        ...draft.flow,
        at: Math.max(Date.now() + (draft.turnMs ?? this.cfg.turnTimeoutMs), draft.flow.at),
      };
    }).catch((err) => this.log.error(`restoring the turn of ${rec.id}: ${(err as Error).message}`));
  }

  /** Shutdown: the timers stop (before the socket.io adapter and its Redis clients close). */
  stop(): void {
    this.stopping = true;
    this.timers.stopping = true;
    for (const a of this.tables.all()) this.timers.cancel(a);
  }

  /** Waits until every queued command has finished (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.all([...this.tables.all()].map((a) => a.queue.catch(() => undefined)));
    await this.store.drain();
  }

  /** The table's record: the driven one, else the stored one (a closed or another node's table). 404 when unknown. */
  async record(gameId: string): Promise<TableRecord> {
    const a = this.tables.get(gameId);
    if (a) return a.rec;
    if (!/^[0-9a-f-]{36}$/i.test(gameId)) throw new NotFoundException('Game not found');
    const rec = await this.store.load(gameId, this.cfg.chatHistory);
    if (!rec) throw new NotFoundException('Game not found');
    return rec;
  }

  // ------------------------------------------------------------------ tournament tables (issue #27)

  /** The tournaments module's sink, when it cannot be injected (module order). */
  setTournamentResults(sink: TournamentResultsSink | undefined): void {
    this.tournamentResults = sink;
  }

  private tournamentGameFinished(rec: TableRecord): void {
    const t = rec.tournament;
    if (!t || !this.tournamentResults) return;
    try {
      this.tournamentResults.gameFinished({ tournamentId: t.tournamentId, matchId: t.matchId, gameId: rec.id });
    } catch (e) {
      this.log.error(`tournament results sink for ${rec.id}: ${(e as Error).message}`);
    }
  }

  // ------------------------------------------------------------------ the actor

  /**
   * Runs `fn` on a draft of the table inside the table's queue. A TableError (or any error) leaves the table
   * unchanged. A client action id already seen returns the original result without doing anything.
   */
  async command<T>(
    gameId: string,
    opts: CommandOptions,
    fn: (rec: TableRecord, fx: Effects) => T | Promise<T>,
  ): Promise<T> {
    const actor = this.tables.get(gameId);
    if (!actor) {
      await this.record(gameId); // 404 when unknown
      throw new TableError('This game is closed');
    }
    const queued = performance.now();
    const run = async (): Promise<T> => {
      if (actor.gone) throw new Moved();
      const key = opts.actionId ? `${opts.actor}:${opts.actionId}` : null;
      const payload = key ? canonicalJson(opts.payload) : '';
      const done = key ? actor.results.get(key) : undefined;
      if (done) {
        // the same id for another action (type or payload): refused, nothing changes
        if (done.type !== opts.type || done.payload !== payload) throw new TableError(DUPLICATE_ACTION_ID, 409);
        return done.result as T;
      }
      const prev = actor.rec;
      const draft = draftOf(prev);
      const fx = newEffects(opts.type);
      let result: T;
      try {
        result = await fn(draft, fx);
      } catch (e) {
        if (e instanceof Unchanged) return undefined as T;
        throw e;
      }
      this.machine.scheduleFlow(draft);
      try {
        await this.persist(actor, prev, draft, fx, opts, result);
      } catch (e) {
        if (e instanceof FencedError) {
          this.metrics?.fenced.inc();
          this.lost(actor);
        }
        throw e;
      }
      this.tables.update(actor, draft);
      if (key) rememberResult(actor, key, { type: opts.type, payload, result }, RESULTS_KEPT);
      // a game's last command: settle first, so its ONE fan-out and timer arming show the settled table (a failed
      // settlement publishes the command now and the settlement when its retry succeeds)
      if (draft.settlement === 'pending') await this.settle(actor, false).catch((e) => this.settlementFailed(actor, e));
      await this.publish(prev, actor.rec, fx);
      if (!actor.gone) this.timers.arm(actor);
      if (gameFinished(draft) && !gameFinished(prev)) this.tournamentGameFinished(actor.rec);
      if (actor.rec.status === 'CLOSED' && actor.rec.settlement !== 'pending') this.drop(actor);
      return result;
    };
    const p = actor.queue.then(run, run);
    actor.queue = p.catch(() => undefined);
    if (this.metrics) {
      const kind = opts.actor ? 'human' : 'server';
      p.then(
        () => {
          this.metrics!.actions.inc({ type: opts.type, outcome: 'ok' });
          this.metrics!.ackLatency.observe({ kind }, performance.now() - queued);
        },
        (e) =>
          this.metrics!.actions.inc({ type: opts.type, outcome: e instanceof NoChange ? 'nothing_due' : 'refused' }),
      );
    }
    return p;
  }

  /** Another node took the table over (fenced write): stop driving it here; its commands go to the new owner. */
  private lost(actor: TableActor): void {
    if (actor.gone) return;
    this.log.warn(`Table ${actor.rec.id} is owned by another node now: no longer driven here`);
    actor.gone = true;
    this.drop(actor);
  }

  private drop(actor: TableActor): void {
    this.timers.cancel(actor);
    this.timers.dropPlan(actor);
    this.tables.remove(actor);
  }

  /** Stores the command: one event row (+ a snapshot at boundaries), with the escrow transfers at a rated start. */
  private async persist(
    actor: TableActor,
    prev: TableRecord,
    rec: TableRecord,
    fx: Effects,
    opts: CommandOptions,
    result: unknown,
  ): Promise<void> {
    // Who issued the row: a user's command, else the server's timer on behalf of a timed-out human / a bot seat.
    const kind: ActorKind = opts.actor
      ? 'human'
      : fx.actions.some((a) => a.by === 'timeout')
        ? 'timeout'
        : fx.actions.some((a) => a.by === 'bot')
          ? 'bot'
          : 'server';
    const snapshot = needsSnapshot(prev, rec, actor.eventsSinceSnapshot, fx.escrow);
    const h = rec.engine.history;
    const handEnded = h.length > prev.engine.history.length || (h.length > 0 && prev.gameNumber !== rec.gameNumber);
    const write: TableWrite = {
      gameId: rec.id,
      seq: actor.seq + 1,
      type: fx.logType,
      actor: opts.actor ?? null,
      actorKind: kind,
      actionId: opts.actionId ?? null,
      payload: opts.payload ?? null,
      result: result ?? null,
      actions: fx.actions,
      delta: tableDelta(prev, rec),
      snapshot: snapshot ? rec : null,
      hand: handEnded ? { gameNumber: rec.gameNumber, record: h[h.length - 1] } : null,
      epoch: actor.epoch,
    };
    if (fx.escrow || fx.alsoWrite) {
      await this.store.transaction(async (m) => {
        if (fx.escrow) await this.settlement.collectBuyIns(m, rec);
        await this.store.writeIn(m, write);
        if (fx.alsoWrite) await fx.alsoWrite(m); // issue #25: the console's audit entry, with the change
      });
    } else {
      await this.store.append(write);
    }
    actor.seq = write.seq;
    actor.eventsSinceSnapshot = snapshot ? 0 : actor.eventsSinceSnapshot + 1;
  }

  /**
   * Sends a stored change to its sockets and the lobby. The change is stored by now: a fan-out that fails (a bug in a
   * view, a socket adapter error) is logged and the command still succeeds and arms its timers — answering it as
   * failed would tell the client that an action which happened did not, and leave the table without its next
   * timer (a stall). The table's next update carries its current view to every seat again (a reconnect, all of it).
   */
  private async publish(prev: TableRecord | null, rec: TableRecord, fx: Effects): Promise<void> {
    try {
      await this.fanout.table(prev, rec, fx);
    } catch (e) {
      this.log.error(`Fan-out of table ${rec.id} failed after its change was stored: ${(e as Error).stack ?? e}`);
    }
  }

  // ------------------------------------------------------------------ settlement

  /** Settles a finished rated game (exactly once: SettlementService); `publish` false: the caller publishes. */
  private async settle(actor: TableActor, publish = true): Promise<void> {
    const rec = await this.settlement.settle(actor);
    if (!rec) return;
    actor.seq += 1;
    actor.eventsSinceSnapshot = 0;
    const prev = actor.rec;
    this.tables.update(actor, rec);
    if (!publish) return;
    await this.publish(prev, rec, newEffects('settlement'));
    this.timers.arm(actor);
  }

  private settlementFailed(actor: TableActor, e: unknown): void {
    if (e instanceof FencedError) return this.lost(actor); // the new owner settles it (pending in its snapshot)
    if (actor.gone) return;
    this.log.error(`Settlement of ${actor.rec.id} failed: ${(e as Error).message}; retrying`);
    if (this.stopping) return;
    setTimeout(() => {
      actor.queue = actor.queue.then(() => this.settle(actor)).catch((err) => this.settlementFailed(actor, err));
    }, 1000).unref();
  }

  // ------------------------------------------------------------------ timers

  /** The table's earliest deadline passed: a `tick` command runs what is due (bot moves, timeouts, timers). */
  private due(actor: TableActor): void {
    this.command(actor.rec.id, { type: 'tick' }, async (rec, fx) => {
      const seat = this.machine.dueActor(rec);
      const planned = seat === null ? [] : await this.timers.plan(actor, rec, seat);
      if (!this.machine.tick(rec, fx, planned)) throw new NoChange();
    }).catch((e) => {
      if (e instanceof NoChange) return this.timers.arm(actor);
      if (e instanceof Moved || e instanceof FencedError || actor.gone) return;
      this.log.error(`Timer of table ${actor.rec.id} failed: ${(e as Error).stack ?? e}`);
      this.timers.retryLater(actor, () => this.tables.get(actor.rec.id) === actor);
    });
  }
}
