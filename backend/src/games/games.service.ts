/**
 * Tables at runtime — the façade the gateway and the controller call. Each open table is an actor
 * (table.actor.ts) whose commands run one at a time: the command body changes a draft of the table record
 * through the TableMachine (rules from @spades/common), the table store appends the event (and a snapshot at
 * boundaries) in a group commit (table.store.ts), then the fan-out sends every recipient its own view
 * (table.fanout.ts) and the timers re-arm from the stored deadlines (table.timers.ts). Settlement of a finished
 * rated game runs right after, exactly once (games.settlement.ts).
 */
import {
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  OnApplicationBootstrap,
  OnApplicationShutdown,
  OnModuleDestroy,
  Optional,
} from '@nestjs/common';
import { GameInvitation, validateSettings } from '@spades/common';
import { randomUUID } from 'node:crypto';
import { BotPool } from '../bots/bot-pool';
import { ClusterBus, NodeUnreachable, RemoteError } from '../cluster/cluster.bus';
import { ClusterNodes } from '../cluster/cluster.nodes';
import { MetricsService } from '../metrics/metrics.service';
import { ChatBlocks } from './chat-visibility';
import { GAMES_CONFIG } from './games.config';
import type { GamesConfig } from './games.config';
import { GamesSettlement } from './games.settlement';
import { GamesLedger } from './ports';
import type { GameListItem, TableView } from './protocol';
import {
  ActorKind,
  draftOf,
  Effects,
  hostId,
  invitationPayload,
  isHuman,
  newEffects,
  newInviteToken,
  newTable,
  Participant,
  seatOf,
  TableError,
  TableMachine,
  TableRecord,
} from './table';
import { canonicalJson, rememberResult, TableActor, TableRegistry } from './table.actor';
import { needsSnapshot, tableDelta } from './table.delta';
import { TableFanout } from './table.fanout';
import { FencedError, TableOwnership } from './table.ownership';
import { RestoredTable, RESULTS_KEPT, TableStore, TableWrite } from './table.store';
import { TableTimers } from './table.timers';
import { listItem, tableView } from './wire';
import { canSeeInLobby } from './table.access';
import { isMember } from './visibility';
import { ACCESS_ERRORS, assertOpenAccess, TableAccess } from './table.access';

export const PRIVATE_TABLE = ACCESS_ERRORS.PRIVATE_TABLE;

/** Nothing was due (a timer that fired early or twice): thrown often, so not an Error (no stack to capture). */
class NoChange {}

/** Thrown by a command body when nothing is to change: nothing is stored or emitted, the command answers undefined. */
class Unchanged extends Error {}

export const DUPLICATE_ACTION_ID = 'Duplicate action id';

/** The table left this node (handed over or taken over) while a command waited in its queue: route it again. */
class Moved extends Error {}

/** Table commands another node may forward to the owner (issue #13): the façade's methods, by name. */
const ROUTED = [
  'view',
  'join',
  'joinOrWatch',
  'spectate',
  'inviteToken',
  'revokeInviteToken',
  'invitePlayer',
  'declineInvitation',
  'removePlayer',
  'leave',
  'inviteBot',
  'removeBot',
  'start',
  'act',
  'startNewHand',
  'playAgain',
  'chat',
] as const;
type RoutedMethod = (typeof ROUTED)[number];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Tables one failover round takes over (the other survivors take the rest in the same round). */
const CLAIM_PER_ROUND = 50;
/** Error code of a forwarded command that reached a node which does not own the table (the caller looks again). */
const NOT_OWNER = 'NOT_OWNER';

export interface CommandOptions {
  type: string;
  actor?: string;
  actionId?: string;
  payload?: unknown;
}

@Injectable()
export class GamesService implements OnApplicationBootstrap, OnModuleDestroy, OnApplicationShutdown {
  private readonly log = new Logger('Games');
  private readonly tables = new TableRegistry();
  readonly machine: TableMachine;
  private readonly timers: TableTimers;
  private stopping = false;
  /** Several nodes (issue #13): DATABASE_URL + REDIS_URL. */
  private readonly cluster: boolean;
  /** Where tables of other nodes were last seen (gameId → node), until a forward says otherwise. */
  private readonly owners = new Map<string, string>();
  /** Tables being loaded here after a take-over (one load per table). */
  private readonly adopting = new Map<string, Promise<void>>();
  private failoverRunning = false;
  private drained: Promise<void> | null = null;

  constructor(
    @Inject(GAMES_CONFIG) readonly cfg: GamesConfig,
    private readonly ledger: GamesLedger,
    private readonly store: TableStore,
    private readonly fanout: TableFanout,
    private readonly settlement: GamesSettlement,
    private readonly access: TableAccess,
    @Optional() private readonly bots?: BotPool,
    @Optional() private readonly metrics?: MetricsService,
    @Optional() private readonly chatBlocks?: ChatBlocks,
    @Optional() private readonly ownership?: TableOwnership,
    @Optional() private readonly bus?: ClusterBus,
    @Optional() private readonly nodes?: ClusterNodes,
  ) {
    this.cluster = !!(ownership && bus?.enabled && nodes?.enabled);
    this.machine = new TableMachine(cfg);
    this.timers = new TableTimers(this.machine, cfg, (actor) => this.due(actor), bots);
    fanout.setListProvider(() => this.list(), this.cluster);
    if (metrics) {
      metrics.gauge('spades_live_tables', 'Open tables driven by this server', () => this.tables.size);
      metrics.gauge('spades_playing_tables', 'Tables with a game in progress', () => {
        let n = 0;
        for (const a of this.tables.all()) if (a.rec.status !== 'WAITING' && a.rec.status !== 'CLOSED') n++;
        return n;
      });
    }
  }

  // ------------------------------------------------------------------ boot / shutdown

  async onApplicationBootstrap(): Promise<void> {
    if (this.cluster) return this.joinCluster();
    const restored = await this.store.loadOpen(this.cfg.chatHistory);
    for (const t of restored) await this.install(t);
    if (restored.length) this.log.log(`Restored ${restored.length} table(s)`);
  }

  /** Drives a stored table on this node: restored record, idempotent results, pending settlement, turn, timers. */
  private async install(t: RestoredTable): Promise<void> {
    if (this.tables.get(t.rec.id)) return;
    const actor = this.tables.add(t.rec, t.seq, t.eventsSinceSnapshot, this.cluster ? t.epoch : null);
    this.owners.delete(t.rec.id);
    for (const d of t.results) actor.results.set(`${d.actor}:${d.actionId}`, { type: d.type, payload: canonicalJson(d.payload), result: d.result });
    if (actor.rec.settlement === 'pending') {
      actor.queue = actor.queue.then(() => this.settle(actor)).catch((e) => this.settlementFailed(actor, e));
    }
    const turn = this.restoreTurn(actor);
    this.timers.arm(actor);
    await turn;
    if (actor.rec.status !== 'CLOSED') this.fanout.lobby(actor.rec);
  }

  // ------------------------------------------------------------------ several nodes (issue #13)

  /**
   * Joins the cluster: answers forwarded commands, registers (heartbeat with its load), takes over the tables
   * a previous run of this node owned and those of dead nodes, then keeps looking for dead nodes' tables after
   * every heartbeat round.
   */
  private async joinCluster(): Promise<void> {
    const bus = this.bus!;
    const nodes = this.nodes!;
    bus.handle('games', (args) => this.remote(args));
    bus.handle('create', (args) => {
      const [settings, creator, opts] = args as [unknown, Participant, { private?: boolean }];
      return this.createHere(settings, creator, opts ?? {});
    });
    bus.handle('list', (args) => this.localList((args[0] as string | null) ?? null));
    bus.handle('invitations', (args) => this.localInvitations(args[0] as string));
    bus.handle('seated', (args) => this.tables.tableOfSeatedUser(args[0] as string)?.id ?? null);
    bus.handle('adopt', async (args) => {
      // a node that is itself going away does not load tables (its own drain or the others' failover moves them)
      if (this.stopping || nodes.isDraining) throw new RemoteError('This node is draining', 503);
      await this.adopt(args[0] as string[], 'handover');
      return true;
    });
    await bus.start();
    nodes.setLoadProvider(() => ({ liveTables: this.tables.size, botQueue: this.bots?.stats().queueDepth ?? 0 }));
    await nodes.start();
    const claimed = await this.ownership!.claimOrphans(nodes.nodeId, nodes.live(), 1_000_000, true);
    await this.adopt(
      claimed.map((c) => c.id),
      'restart',
    );
    if (claimed.length) this.log.log(`Took over ${claimed.length} table(s)`);
    nodes.onRound(() => void this.failoverRound());
  }

  /** After a heartbeat round: the tables of nodes that stopped beating (or of none) are taken over here. */
  private async failoverRound(): Promise<void> {
    if (this.failoverRunning || this.stopping || this.nodes!.isDraining) return;
    this.failoverRunning = true;
    try {
      const claimed = await this.ownership!.claimOrphans(this.nodes!.nodeId, this.nodes!.live(), CLAIM_PER_ROUND);
      if (!claimed.length) return;
      this.log.log(`Taking over ${claimed.length} table(s) of a node that stopped`);
      await this.adopt(
        claimed.map((c) => c.id),
        'failover',
      );
    } catch (e) {
      this.log.warn(`failover round: ${(e as Error).message}`);
    } finally {
      this.failoverRunning = false;
    }
  }

  /** Loads tables this node now owns (take-over, hand-over) and drives them; one load per table at a time. */
  private async adopt(ids: string[], reason: 'restart' | 'failover' | 'handover' | 'owner' = 'owner'): Promise<void> {
    const todo = ids.filter((id) => !this.tables.get(id));
    const waits = todo.map((id) => this.adopting.get(id)).filter((p): p is Promise<void> => !!p);
    const fresh = todo.filter((id) => !this.adopting.has(id));
    if (fresh.length) {
      const load = (async () => {
        for (const t of await this.store.loadOpen(this.cfg.chatHistory, fresh)) {
          await this.install(t);
          this.metrics?.takeovers.inc({ reason });
        }
      })();
      for (const id of fresh) this.adopting.set(id, load);
      load.finally(() => fresh.forEach((id) => this.adopting.delete(id))).catch(() => undefined);
      waits.push(load);
    }
    await Promise.all(waits);
  }

  /**
   * Runs a table command where the table lives: here when this node drives it (or owns it in the database and
   * loads it now, or takes it over from a dead owner), else on the owner through the cluster bus; the caller
   * gets the owner's answer or error. A table that moves while the command waits is looked up again.
   */
  private async routed<T>(
    gameId: string,
    method: RoutedMethod,
    args: unknown[],
    local: () => Promise<T>,
    attempt = 0,
    since = Date.now(),
  ): Promise<T> {
    if (!this.cluster || this.tables.get(gameId) || typeof gameId !== 'string' || !UUID.test(gameId))
      return this.retryMoved(gameId, method, args, local, attempt, since);
    const node = await this.whereIs(gameId);
    if (node === null) return this.retryMoved(gameId, method, args, local, attempt, since);
    try {
      const answer = await this.bus!.call<T>(node, 'games', [method, args]);
      this.metrics?.forwarded.inc({ outcome: 'ok' });
      return answer;
    } catch (e) {
      const gone = e instanceof NodeUnreachable;
      const moved = gone || (e instanceof RemoteError && e.code === NOT_OWNER);
      this.metrics?.forwarded.inc({ outcome: gone ? 'unreachable' : moved ? 'moved' : 'refused' });
      if (!moved) throw e;
      this.owners.delete(gameId);
      // an owner that stopped answering is waited for until its lease has surely run out (then this node or
      // another takes the table over and the command runs there); a table that moved is looked up again
      if (gone) {
        if (Date.now() - since > this.nodes!.leaseMs + 3000) throw new TableError('The table is moving to another server: try again', 503);
        await delay(250);
        return this.routed(gameId, method, args, local, attempt, since);
      }
      if (attempt >= 4) throw new TableError('The table is moving to another server: try again', 503);
      return this.routed(gameId, method, args, local, attempt + 1, since);
    }
  }

  private async retryMoved<T>(gameId: string, method: RoutedMethod, args: unknown[], local: () => Promise<T>, attempt: number, since: number): Promise<T> {
    try {
      return await local();
    } catch (e) {
      if (!(e instanceof Moved || e instanceof FencedError) || attempt >= 4) throw e;
      return this.routed(gameId, method, args, local, attempt + 1, since);
    }
  }

  /**
   * The node that drives a table of another node; null when this node should run the command itself (it drives
   * or now owns the table, the table is unknown or closed: the local path answers 404 / closed).
   */
  private async whereIs(gameId: string): Promise<string | null> {
    const cached = this.owners.get(gameId);
    if (cached && this.nodes!.isLive(cached)) return cached;
    for (let i = 0; i < 3; i++) {
      const owner = await this.ownership!.ownerOf(gameId);
      if (!owner) return null;
      const me = this.nodes!.nodeId;
      if (owner.node === me) {
        await this.adopt([gameId]);
        return null;
      }
      if (owner.node && this.nodes!.isLive(owner.node)) {
        this.owners.set(gameId, owner.node);
        return owner.node;
      }
      // the owner stopped (or there is none): take the table over now, unless it is closed
      if (this.nodes!.isDraining) return null;
      const epoch = await this.ownership!.claim(gameId, me, owner);
      if (epoch !== null) {
        await this.adopt([gameId]);
        return null;
      }
      const again = await this.ownership!.ownerOf(gameId);
      if (!again || again.epoch === owner.epoch) return null; // not open: closed or settled
    }
    return null;
  }

  /** A command forwarded by another node: run it if this node owns the table (loading it if needed). */
  private async remote(args: unknown[]): Promise<unknown> {
    const [method, raw] = args as [string, unknown[]];
    if (!(ROUTED as readonly string[]).includes(method) || !Array.isArray(raw)) throw new TableError('Unknown command', 400);
    // JSON turns undefined arguments into null: none of these methods takes null where undefined means "not given"
    const a = raw.map((v) => (v === null ? undefined : v));
    const gameId = a[0] as string;
    if (!this.tables.get(gameId)) {
      const owner = await this.ownership!.ownerOf(gameId);
      if (owner?.node !== this.nodes!.nodeId) throw new RemoteError('Not the owner of this table', 409, NOT_OWNER);
      await this.adopt([gameId]);
    }
    const fn = (this as unknown as Record<string, (...x: unknown[]) => Promise<unknown>>)[method];
    return fn.apply(this, a);
  }

  /** Asks every other live node (for their part of the lobby, seats, invitations); nodes that do not answer are skipped. */
  private async others<T>(method: string, args: unknown[]): Promise<T[]> {
    if (!this.cluster) return [];
    const me = this.nodes!.nodeId;
    const answers = await Promise.allSettled(
      this.nodes!.live()
        .filter((n) => n !== me)
        .map((n) => this.bus!.call<T>(n, method, args, 3000)),
    );
    return answers.filter((r): r is PromiseFulfilledResult<Awaited<T>> => r.status === 'fulfilled').map((r) => r.value as T);
  }

  /** Whether the user holds a seat at an open table on any node. */
  private async seatedAnywhere(userId: string): Promise<string | null> {
    const here = this.tables.tableOfSeatedUser(userId);
    if (here) return here.id;
    for (const id of await this.others<string | null>('seated', [userId])) if (id) return id;
    return null;
  }

  /**
   * Drain (SIGTERM on a node of several): stop taking new tables, hand every table over to the least-loaded
   * other node (in its queue: the commands already queued run first, later ones are forwarded), then leave the
   * registry. A table that cannot be handed over (no other node) stays owned by this node id: a restart of this
   * replica, or the others after the lease, take it over.
   */
  drain(): Promise<void> {
    if (!this.cluster) return Promise.resolve();
    this.drained ??= this.doDrain();
    return this.drained;
  }

  private async doDrain(): Promise<void> {
    const nodes = this.nodes!;
    await nodes.drain();
    await nodes.beat();
    const actors = [...this.tables.all()];
    let moved = 0;
    const counts = new Map(nodes.accepting().map((n) => [n.id, n.liveTables]));
    counts.delete(nodes.nodeId);
    for (const actor of actors) {
      if (!counts.size) break;
      const [to] = [...counts.entries()].sort((x, y) => x[1] - y[1])[0];
      const handed = (actor.queue = actor.queue.then(async () => {
        if (actor.gone) return false;
        this.timers.cancel(actor);
        this.timers.dropPlan(actor);
        const ok = actor.epoch !== null && (await this.ownership!.handOver(actor.rec.id, actor.epoch, to));
        actor.gone = true;
        this.tables.remove(actor);
        if (!ok) return false;
        this.owners.set(actor.rec.id, to);
        return true;
      }));
      if (await handed.catch(() => false)) {
        moved++;
        counts.set(to, (counts.get(to) ?? 0) + 1);
        // the new owner loads it now (else at the first command for it, or its failover round once this node is gone)
        await this.bus!.call(to, 'adopt', [[actor.rec.id]], 3000).catch((e) => this.log.warn(`${to} did not load ${actor.rec.id}: ${(e as Error).message}`));
      }
    }
    this.log.log(`Drained: handed ${moved} of ${actors.length} table(s) over`);
    await nodes.leave();
  }

    /**
   * After downtime a human whose turn it is gets a fresh full turn (persisted): a deadline that passed while the
   * server was down must not charge them a timeout. Every other deadline (bot, trick, summary, result, seat
   * replacement) keeps its stored value and fires at once when due.
   */
  private async restoreTurn(actor: TableActor): Promise<void> {
    const rec = actor.rec;
    const e = rec.engine;
    if (rec.flow?.kind !== 'turn' || (e.phase !== 'BIDDING' && e.phase !== 'PLAYING') || !isHuman(rec.seats[e.turn as number])) return;
    // queued before the timer can fire (the stale deadline then finds nothing due); awaited by the boot restore so
    // a client re-joining right after the restart already sees the fresh deadline
    await this.command(rec.id, { type: 'restore_turn', payload: { seat: e.turn } }, (draft) => {
      if (draft.flow?.kind !== 'turn') throw new Unchanged();
      draft.flow = { ...draft.flow, at: Math.max(Date.now() + this.cfg.turnTimeoutMs, draft.flow.at) };
    }).catch((err) => this.log.error(`restoring the turn of ${rec.id}: ${(err as Error).message}`));
  }

  /**
   * First shutdown hook, while sockets, Redis and the database are still open: on a node of several, the tables
   * are handed over (drain); then the timers stop, before the socket.io adapter (and its Redis clients) closes.
   */
  async onModuleDestroy(): Promise<void> {
    await this.drain().catch((e) => this.log.error(`drain: ${(e as Error).message}`));
    this.onApplicationShutdown();
  }

  onApplicationShutdown(): void {
    this.stopping = true;
    this.timers.stopping = true;
    for (const a of this.tables.all()) this.timers.cancel(a);
  }

  /** Waits until every queued command has finished (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.all([...this.tables.all()].map((a) => a.queue.catch(() => undefined)));
    await this.store.drain();
  }

  // ------------------------------------------------------------------ queries

  /** Open WAITING tables and their host (cheap: no list items built). */
  waitingHosts(): { id: string; hostId: string | null }[] {
    const out: { id: string; hostId: string | null }[] = [];
    for (const a of this.tables.all()) if (a.rec.status === 'WAITING') out.push({ id: a.rec.id, hostId: hostId(a.rec) });
    return out;
  }

  /** The lobby list as `userId` may see it (private tables only for their members and invitees; null: public only). */
  async list(userId: string | null = null): Promise<GameListItem[]> {
    if (!this.cluster) return this.localList(userId);
    const parts = [this.localList(userId), ...(await this.others<GameListItem[]>('list', [userId]))];
    const seen = new Set<string>();
    return parts
      .flat()
      .filter((g) => !seen.has(g.id) && !!seen.add(g.id))
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0));
  }

  /** This node's tables in the lobby list. */
  localList(userId: string | null = null): GameListItem[] {
    return [...this.tables.all()]
      .map((a) => a.rec)
      .filter((r) => r.status !== 'CLOSED' && canSeeInLobby(r, userId))
      .sort((a, b) => b.createdAt - a.createdAt)
      .map(listItem);
  }

  /** The caller's own view: their seat's view when seated, else the spectator view. 404 when unknown. */
  async view(gameId: string, userId: string, invite?: unknown): Promise<TableView> {
    return this.routed(gameId, 'view', [gameId, userId, invite], async () => {
      const rec = await this.record(gameId);
      await this.access.assertTable(rec, { userId, invite }); // every status: a closed private table only for its players
      const seat = seatOf(rec, userId);
      const view = tableView(rec, seat ?? 'spectator', Date.now());
      // blocks (issue 15): the caller never sees the chat of players they block
      if (this.chatBlocks && view.chat) view.chat = await this.chatBlocks.visibleTo(view.chat, userId);
      return view;
    });
  }

  async record(gameId: string): Promise<TableRecord> {
    const a = this.tables.get(gameId);
    if (a) return a.rec;
    if (!/^[0-9a-f-]{36}$/i.test(gameId)) throw new NotFoundException('Game not found');
    const rec = await this.store.load(gameId, this.cfg.chatHistory);
    if (!rec) throw new NotFoundException('Game not found');
    return rec;
  }

  // ------------------------------------------------------------------ commands

  /** A new table, on the least-loaded node (issue #13; this one when alone or when the chosen node is gone). */
  async create(settingsInput: unknown, creator: Participant, opts: { private?: boolean } = {}): Promise<TableView> {
    if (this.cluster) {
      const target = this.nodes!.leastLoaded();
      if (target !== this.nodes!.nodeId) {
        try {
          const view = await this.bus!.call<TableView>(target, 'create', [settingsInput, creator, opts]);
          this.nodes!.notePlaced(target);
          return view;
        } catch (e) {
          if (!(e instanceof NodeUnreachable)) throw e;
          if (this.nodes!.isDraining) throw new TableError('This server is restarting: try again', 503);
        }
      }
    }
    return this.createHere(settingsInput, creator, opts);
  }

  private async createHere(settingsInput: unknown, creator: Participant, opts: { private?: boolean }): Promise<TableView> {
    const v = validateSettings(settingsInput);
    if (!v.ok) throw new TableError(v.message);
    await this.ledger.assertCanAfford(creator.userId, v.settings.buyIn);
    if (await this.seatedAnywhere(creator.userId)) throw new TableError('You are already seated at another table');
    const id = randomUUID();
    const rec = newTable(id, v.settings, creator, Date.now(), opts);
    const fx = newEffects('create');
    this.machine.announce(rec, fx, creator);
    fx.lobby = true;
    await this.store.insertNew(rec, creator.userId, { settings: v.settings }, this.cluster ? this.nodes!.nodeId : null);
    // a concurrent create by the same user may have won the race meanwhile: the table exists, it is theirs
    this.tables.add(rec, 1, 0, this.cluster ? 1 : null);
    this.metrics?.actions.inc({ type: 'create', outcome: 'ok' });
    await this.publish(null, rec, fx);
    return tableView(rec, 0, Date.now());
  }

  /**
   * Explicit join. A private table needs an invitation (pending in-app invitation, earlier admission or the
   * current invite token). Coming with an invitation and no seat asked: watch when no seat is free.
   */
  join(gameId: string, user: Participant, seat?: number, invite?: unknown): Promise<TableView> {
    return this.routed(gameId, 'join', [gameId, user, seat, invite], async () => {
      const viewer = await this.access.viewerFor(await this.record(gameId), user.userId, invite);
      return this.command(gameId, { type: 'join', actor: user.userId, payload: { seat } }, async (rec, fx) => {
        assertOpenAccess(rec, viewer);
        const invited = invite !== undefined || (rec.invitations ?? []).some((i) => i.userId === user.userId);
        try {
          await this.sit(rec, fx, user, seat);
        } catch (e) {
          if (!invited || seat !== undefined || !(e instanceof TableError) || isMember(rec, user.userId) || rec.status === 'CLOSED') throw e;
          fx.logType = 'spectate';
          this.machine.spectate(rec, fx, user);
        }
      }).then(() => this.view(gameId, user.userId));
    });
  }

  /**
   * Seats a user on the draft. Coins are checked only where they can move: at a WAITING table (it becomes
   * rated when four humans start it). A vacated seat taken mid-game plays for no coins: no check.
   */
  private async sit(rec: TableRecord, fx: Effects, user: Participant, seat: number | undefined): Promise<void> {
    if (seatOf(rec, user.userId) === null) {
      const other = this.tables.tableOfSeatedUser(user.userId)?.id ?? (this.cluster ? await this.seatedAnywhere(user.userId) : null);
      if (other && other !== rec.id) throw new TableError('You are already seated at another table');
      if (rec.status === 'WAITING') await this.ledger.assertCanAfford(user.userId, rec.settings.buyIn);
      await this.ledger.assertRatedAllowed(rec, user.userId, user); // issue #11: banned from rated tables
    }
    this.machine.join(rec, fx, user, seat);
  }

  /**
   * Socket `join_game` at the table. Seated or watching: re-subscribe and get the exact view, seating never
   * changes (a reconnecting client re-sends join_game). Left this table (or lost the seat): watch. Anybody
   * else: sit like an explicit join (the given seat, or a free/open seat), or watch when no seat is free.
   */
  async joinOrWatch(gameId: string, user: Participant, seat?: number, invite?: unknown): Promise<TableView> {
    return this.routed(gameId, 'joinOrWatch', [gameId, user, seat, invite], async () => {
      const rec = await this.record(gameId);
      if (this.machine.socketJoinMode(rec, user.userId) === 'member') return this.view(gameId, user.userId);
      const viewer = await this.access.viewerFor(rec, user.userId, invite);
      await this.command(gameId, { type: 'join_game', actor: user.userId, payload: { seat } }, async (draft, fx) => {
        const mode = this.machine.socketJoinMode(draft, user.userId);
        if (mode === 'member') throw new Unchanged();
        assertOpenAccess(draft, viewer);
        if (mode === 'sit') {
          try {
            fx.logType = 'join';
            await this.sit(draft, fx, user, seat);
            return;
          } catch (e) {
            if (seat !== undefined || !(e instanceof TableError)) throw e;
          }
        }
        fx.logType = 'spectate';
        this.machine.spectate(draft, fx, user);
      });
      return this.view(gameId, user.userId);
    });
  }

  spectate(gameId: string, user: Participant, invite?: unknown): Promise<TableView> {
    return this.routed(gameId, 'spectate', [gameId, user, invite], async () => {
      const viewer = await this.access.viewerFor(await this.record(gameId), user.userId, invite);
      return this.command(gameId, { type: 'spectate', actor: user.userId }, (rec, fx) => {
        assertOpenAccess(rec, viewer);
        // already watching (a reconnect): no event row, no broadcast to the table; the caller still gets the view
        if (!this.machine.spectate(rec, fx, user)) throw new Unchanged();
      }).then(() => this.view(gameId, user.userId));
    });
  }

  // ------------------------------------------------------------------ invitations (issue #12)

  /** The invite token (host only), created on first use; `renew`: a new one (the old link stops working). */
  async inviteToken(gameId: string, userId: string, renew = false): Promise<string> {
    return this.routed(gameId, 'inviteToken', [gameId, userId, renew], async () => {
      const rec = await this.record(gameId);
      if (!renew && rec.inviteToken && hostId(rec) === userId) return rec.inviteToken;
      const token = newInviteToken();
      await this.command(gameId, { type: renew ? 'renew_invite_link' : 'create_invite_link', actor: userId }, (draft) => {
        this.machine.setInviteToken(draft, userId, token);
      });
      return token;
    });
  }

  /** Host only: the invite link stops working (a new one can be made later). */
  revokeInviteToken(gameId: string, userId: string): Promise<{ success: true }> {
    return this.routed(gameId, 'revokeInviteToken', [gameId, userId], async () => {
      return this.command(gameId, { type: 'revoke_invite_link', actor: userId }, (draft) => {
        this.machine.setInviteToken(draft, userId, null);
        return { success: true as const };
      });
    });
  }

  /** In-app invitation of another user (the caller checked the friendship: ParticipantsService.assertCanInvite). */
  invitePlayer(gameId: string, from: Participant, to: Participant, reserveSeat: boolean): Promise<{ ok: true; reservedSeat: number | null }> {
    return this.routed(gameId, 'invitePlayer', [gameId, from, to, reserveSeat], async () => {
      return this.command(gameId, { type: 'invite_player', actor: from.userId, payload: { userId: to.userId, reserveSeat } }, (draft, fx) => {
        const inv = this.machine.invite(draft, fx, from, to, reserveSeat);
        return { ok: true as const, reservedSeat: inv.seat };
      });
    });
  }

  declineInvitation(gameId: string, userId: string): Promise<{ ok: true }> {
    return this.routed(gameId, 'declineInvitation', [gameId, userId], async () => {
      return this.command(gameId, { type: 'decline_invitation', actor: userId }, (draft, fx) => {
        this.machine.decline(draft, fx, userId);
        return { ok: true as const };
      });
    });
  }

  /** Pending invitations of a user at open tables (every node's). */
  async invitationsFor(userId: string): Promise<GameInvitation[]> {
    const mine = this.localInvitations(userId);
    if (!this.cluster) return mine;
    return [mine, ...(await this.others<GameInvitation[]>('invitations', [userId]))].flat().sort((x, y) => y.createdAt - x.createdAt);
  }

  private localInvitations(userId: string): GameInvitation[] {
    const out: GameInvitation[] = [];
    for (const a of this.tables.all()) {
      const r = a.rec;
      if (r.status === 'CLOSED') continue;
      const inv = (r.invitations ?? []).find((i) => i.userId === userId);
      if (inv) out.push(invitationPayload(r, inv));
    }
    return out.sort((x, y) => y.createdAt - x.createdAt);
  }

  /** Host only, WAITING (issue #24): removes a seated, watching, invited or admitted user from a private or public table. */
  removePlayer(gameId: string, hostUserId: string, userId: string): Promise<{ success: true }> {
    return this.routed(gameId, 'removePlayer', [gameId, hostUserId, userId], async () => {
      return this.command(gameId, { type: 'remove_player', actor: hostUserId, payload: { userId } }, (rec, fx) => {
        this.machine.removePlayer(rec, fx, hostUserId, userId);
        return { success: true as const };
      });
    });
  }

  leave(gameId: string, userId: string): Promise<{ success: true }> {
    return this.routed(gameId, 'leave', [gameId, userId], async () => {
      return this.command(gameId, { type: 'leave', actor: userId }, (rec, fx) => this.machine.leave(rec, fx, userId)).then(() => ({
        success: true as const,
      }));
    });
  }

  inviteBot(gameId: string, userId: string, seat: number, midgame: boolean): Promise<TableView> {
    return this.routed(gameId, 'inviteBot', [gameId, userId, seat, midgame], async () => {
      return this.command(gameId, { type: midgame ? 'invite_bot_midgame' : 'invite_bot', actor: userId, payload: { seat } }, (rec, fx) =>
        this.machine.inviteBot(rec, fx, userId, seat, midgame),
      ).then(() => this.view(gameId, userId));
    });
  }

  removeBot(gameId: string, userId: string, seat: number, midgame: boolean): Promise<TableView> {
    return this.routed(gameId, 'removeBot', [gameId, userId, seat, midgame], async () => {
      return this.command(gameId, { type: midgame ? 'remove_bot_midgame' : 'remove_bot', actor: userId, payload: { seat } }, (rec, fx) =>
        this.machine.removeBot(rec, fx, userId, seat, midgame),
      ).then(() => this.view(gameId, userId));
    });
  }

  start(gameId: string, userId: string): Promise<TableView> {
    return this.routed(gameId, 'start', [gameId, userId], async () => {
      return this.command(gameId, { type: 'start', actor: userId }, async (rec, fx) => {
        this.machine.start(rec, fx, userId);
        await this.ledger.assertRatedAllowed(rec, userId); // issue #11: a rated start with a banned player is refused
      }).then(() => this.view(gameId, userId));
    });
  }

  /** make_bid / play_card / reveal_cards; `actionId` makes a retry return the original result. */
  act(
    gameId: string,
    userId: string,
    kind: 'bid' | 'play' | 'reveal',
    payload: { bid?: unknown; blind?: unknown; card?: unknown },
    actionId?: string,
  ): Promise<{ ok: true; seq: number }> {
    return this.routed(gameId, 'act', [gameId, userId, kind, payload, actionId], async () => {
      return this.command(gameId, { type: kind, actor: userId, actionId, payload }, (rec, fx) => {
        this.machine.humanAction(rec, fx, userId, kind, payload);
        return { ok: true as const, seq: 0 };
      });
    });
  }

  startNewHand(gameId: string, userId: string): Promise<{ ok: true }> {
    return this.routed(gameId, 'startNewHand', [gameId, userId], async () => {
      return this.command(gameId, { type: 'start_new_hand', actor: userId }, (rec, fx) => {
        this.machine.startNewHand(rec, fx, userId);
        return { ok: true as const };
      });
    });
  }

  playAgain(gameId: string, userId: string): Promise<{ ok: true }> {
    return this.routed(gameId, 'playAgain', [gameId, userId], async () => {
      return this.command(gameId, { type: 'play_again', actor: userId }, (rec, fx) => {
        this.machine.playAgain(rec, fx, userId);
        return { ok: true as const };
      });
    });
  }

  /** Game chat; `actionId` makes a retry return the original result (no second message). */
  chat(gameId: string, from: Participant, text: string, actionId?: string): Promise<{ ok: true }> {
    return this.routed(gameId, 'chat', [gameId, from, text, actionId], async () => {
      return this.command(gameId, { type: 'chat', actor: from.userId, actionId, payload: { message: text } }, (rec, fx) => {
        const member = seatOf(rec, from.userId) !== null || rec.spectators.some((s) => s.userId === from.userId);
        if (!member) throw new TableError('Join or watch the game to chat', 403);
        this.machine.postChat(rec, fx, { userId: from.userId, userName: from.username }, text);
        return { ok: true as const };
      });
    });
  }

  // ------------------------------------------------------------------ the actor

  /**
   * Runs `fn` on a draft of the table inside the table's queue. A TableError (or any error) leaves the table
   * unchanged. A client action id already seen returns the original result without doing anything.
   */
  async command<T>(gameId: string, opts: CommandOptions, fn: (rec: TableRecord, fx: Effects) => T | Promise<T>): Promise<T> {
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
      await this.publish(prev, draft, fx);
      this.timers.arm(actor);
      if (draft.settlement === 'pending') await this.settle(actor).catch((e) => this.settlementFailed(actor, e));
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
        (e) => this.metrics!.actions.inc({ type: opts.type, outcome: e instanceof NoChange ? 'nothing_due' : 'refused' }),
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
  private async persist(actor: TableActor, prev: TableRecord, rec: TableRecord, fx: Effects, opts: CommandOptions, result: unknown): Promise<void> {
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
    if (fx.escrow) {
      await this.store.transaction(async (m) => {
        await this.settlement.collectBuyIns(m, rec);
        await this.store.writeIn(m, write);
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

  private async settle(actor: TableActor): Promise<void> {
    const rec = await this.settlement.settle(actor);
    if (!rec) return;
    actor.seq += 1;
    actor.eventsSinceSnapshot = 0;
    const prev = actor.rec;
    this.tables.update(actor, rec);
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

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}
