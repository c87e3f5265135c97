/**
 * Tables at runtime — the façade the gateway and the controller call. Each open table is an actor
 * (table.actor.ts) whose commands run one at a time: the command body changes a draft of the table record
 * through the TableMachine (rules from @spades/common), the table store appends the event (and a snapshot at
 * boundaries) in a group commit (table.store.ts), then the fan-out sends every recipient its own view
 * (table.fanout.ts) and the timers re-arm from the stored deadlines (table.timers.ts). Settlement of a finished
 * rated game runs right after, exactly once (games.settlement.ts).
 */
import { Inject, Injectable, Logger, NotFoundException, OnApplicationBootstrap, OnApplicationShutdown, OnModuleDestroy, Optional } from '@nestjs/common';
import { GameInvitation, validateSettings } from '@spades/common';
import { randomUUID } from 'node:crypto';
import { BotPool } from '../bots/bot-pool';
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
import { canonicalJson, TableActor, TableRegistry } from './table.actor';
import { needsSnapshot, tableDelta } from './table.delta';
import { TableFanout } from './table.fanout';
import { TableStore, TableWrite } from './table.store';
import { TableTimers } from './table.timers';
import { listItem, tableView } from './wire';
import { canSeeInLobby, isMember, mayEnter } from './visibility';

export const PRIVATE_TABLE = 'This table is private: you need an invitation';

class NoChange extends Error {}

/** Thrown by a command body when nothing is to change: nothing is stored or emitted, the command answers undefined. */
class Unchanged extends Error {}

export const DUPLICATE_ACTION_ID = 'Duplicate action id';

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

  constructor(
    @Inject(GAMES_CONFIG) readonly cfg: GamesConfig,
    private readonly ledger: GamesLedger,
    private readonly store: TableStore,
    private readonly fanout: TableFanout,
    private readonly settlement: GamesSettlement,
    @Optional() private readonly bots?: BotPool,
    @Optional() private readonly metrics?: MetricsService,
    @Optional() private readonly chatBlocks?: ChatBlocks,
  ) {
    this.machine = new TableMachine(cfg);
    this.timers = new TableTimers(this.machine, cfg, (actor) => this.due(actor), bots);
    fanout.setListProvider(() => this.list());
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
    const restored = await this.store.loadOpen(this.cfg.chatHistory);
    for (const t of restored) {
      const actor = this.tables.add(t.rec, t.seq, t.eventsSinceSnapshot);
      for (const d of t.results) actor.results.set(`${d.actor}:${d.actionId}`, { type: d.type, payload: canonicalJson(d.payload), result: d.result });
      if (actor.rec.settlement === 'pending') {
        actor.queue = actor.queue.then(() => this.settle(actor)).catch((e) => this.log.error(`settlement of ${actor.rec.id}: ${(e as Error).message}`));
      }
      const turn = this.restoreTurn(actor);
      this.timers.arm(actor);
      await turn;
      if (actor.rec.status !== 'CLOSED') this.fanout.lobby(actor.rec);
    }
    if (restored.length) this.log.log(`Restored ${restored.length} table(s)`);
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

  /** Timers stop first, before the socket.io adapter (and its Redis clients) closes. */
  onModuleDestroy(): void {
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
  list(userId: string | null = null): GameListItem[] {
    return [...this.tables.all()]
      .map((a) => a.rec)
      .filter((r) => r.status !== 'CLOSED' && canSeeInLobby(r, userId))
      .sort((a, b) => b.createdAt - a.createdAt)
      .map(listItem);
  }

  /** The caller's own view: their seat's view when seated, else the spectator view. 404 when unknown. */
  async view(gameId: string, userId: string, invite?: unknown): Promise<TableView> {
    const rec = await this.record(gameId);
    if (rec.status !== 'CLOSED' && !mayEnter(rec, userId, invite)) throw new TableError(PRIVATE_TABLE, 403);
    const seat = seatOf(rec, userId);
    const view = tableView(rec, seat ?? 'spectator', Date.now());
    // blocks (issue 15): the caller never sees the chat of players they block
    if (this.chatBlocks && view.chat) view.chat = await this.chatBlocks.visibleTo(view.chat, userId);
    return view;
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

  async create(settingsInput: unknown, creator: Participant, opts: { private?: boolean } = {}): Promise<TableView> {
    const v = validateSettings(settingsInput);
    if (!v.ok) throw new TableError(v.message);
    await this.ledger.assertCanAfford(creator.userId, v.settings.buyIn);
    if (this.tables.tableOfSeatedUser(creator.userId)) throw new TableError('You are already seated at another table');
    const id = randomUUID();
    const rec = newTable(id, v.settings, creator, Date.now(), opts);
    const fx = newEffects('create');
    this.machine.announce(rec, fx, creator);
    fx.lobby = true;
    await this.store.insertNew(rec, creator.userId, { settings: v.settings });
    // a concurrent create by the same user may have won the race meanwhile: the table exists, it is theirs
    this.tables.add(rec, 1);
    this.metrics?.actions.inc({ type: 'create', outcome: 'ok' });
    await this.fanout.table(null, rec, fx);
    return tableView(rec, 0, Date.now());
  }

  /**
   * Explicit join. A private table needs an invitation (pending in-app invitation, earlier admission or the
   * current invite token). Coming with an invitation and no seat asked: watch when no seat is free.
   */
  join(gameId: string, user: Participant, seat?: number, invite?: unknown): Promise<TableView> {
    return this.command(gameId, { type: 'join', actor: user.userId, payload: { seat } }, async (rec, fx) => {
      if (!mayEnter(rec, user.userId, invite)) throw new TableError(PRIVATE_TABLE, 403);
      const invited = invite !== undefined || (rec.invitations ?? []).some((i) => i.userId === user.userId);
      try {
        await this.sit(rec, fx, user, seat);
      } catch (e) {
        if (!invited || seat !== undefined || !(e instanceof TableError) || isMember(rec, user.userId) || rec.status === 'CLOSED') throw e;
        fx.logType = 'spectate';
        this.machine.spectate(rec, fx, user);
      }
    }).then(() => this.view(gameId, user.userId));
  }

  /**
   * Seats a user on the draft. Coins are checked only where they can move: at a WAITING table (it becomes
   * rated when four humans start it). A vacated seat taken mid-game plays for no coins: no check.
   */
  private async sit(rec: TableRecord, fx: Effects, user: Participant, seat: number | undefined): Promise<void> {
    if (seatOf(rec, user.userId) === null) {
      const other = this.tables.tableOfSeatedUser(user.userId);
      if (other && other.id !== rec.id) throw new TableError('You are already seated at another table');
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
    const rec = await this.record(gameId);
    if (this.machine.socketJoinMode(rec, user.userId) === 'member') return this.view(gameId, user.userId);
    await this.command(gameId, { type: 'join_game', actor: user.userId, payload: { seat } }, async (draft, fx) => {
      const mode = this.machine.socketJoinMode(draft, user.userId);
      if (mode === 'member') throw new Unchanged();
      if (!mayEnter(draft, user.userId, invite)) throw new TableError(PRIVATE_TABLE, 403);
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
  }

  spectate(gameId: string, user: Participant, invite?: unknown): Promise<TableView> {
    return this.command(gameId, { type: 'spectate', actor: user.userId }, (rec, fx) => {
      if (!mayEnter(rec, user.userId, invite)) throw new TableError(PRIVATE_TABLE, 403);
      // already watching (a reconnect): no event row, no broadcast to the table; the caller still gets the view
      if (!this.machine.spectate(rec, fx, user)) throw new Unchanged();
    }).then(() => this.view(gameId, user.userId));
  }

  // ------------------------------------------------------------------ invitations (issue #12)

  /** The invite token (host only), created on first use; `renew`: a new one (the old link stops working). */
  async inviteToken(gameId: string, userId: string, renew = false): Promise<string> {
    const rec = await this.record(gameId);
    if (!renew && rec.inviteToken && hostId(rec) === userId) return rec.inviteToken;
    const token = newInviteToken();
    await this.command(gameId, { type: renew ? 'renew_invite_link' : 'create_invite_link', actor: userId }, (draft) => {
      this.machine.setInviteToken(draft, userId, token);
    });
    return token;
  }

  /** Host only: the invite link stops working (a new one can be made later). */
  revokeInviteToken(gameId: string, userId: string): Promise<{ success: true }> {
    return this.command(gameId, { type: 'revoke_invite_link', actor: userId }, (draft) => {
      this.machine.setInviteToken(draft, userId, null);
      return { success: true as const };
    });
  }

  /** In-app invitation of another user (the caller checked the friendship: ParticipantsService.assertCanInvite). */
  invitePlayer(gameId: string, from: Participant, to: Participant, reserveSeat: boolean): Promise<{ ok: true; reservedSeat: number | null }> {
    return this.command(gameId, { type: 'invite_player', actor: from.userId, payload: { userId: to.userId, reserveSeat } }, (draft, fx) => {
      const inv = this.machine.invite(draft, fx, from, to, reserveSeat);
      return { ok: true as const, reservedSeat: inv.seat };
    });
  }

  declineInvitation(gameId: string, userId: string): Promise<{ ok: true }> {
    return this.command(gameId, { type: 'decline_invitation', actor: userId }, (draft, fx) => {
      this.machine.decline(draft, fx, userId);
      return { ok: true as const };
    });
  }

  /** Pending invitations of a user at open tables. */
  invitationsFor(userId: string): GameInvitation[] {
    const out: GameInvitation[] = [];
    for (const a of this.tables.all()) {
      const r = a.rec;
      if (r.status === 'CLOSED') continue;
      const inv = (r.invitations ?? []).find((i) => i.userId === userId);
      if (inv) out.push(invitationPayload(r, inv));
    }
    return out.sort((x, y) => y.createdAt - x.createdAt);
  }

  leave(gameId: string, userId: string): Promise<{ success: true }> {
    return this.command(gameId, { type: 'leave', actor: userId }, (rec, fx) => this.machine.leave(rec, fx, userId)).then(() => ({
      success: true as const,
    }));
  }

  inviteBot(gameId: string, userId: string, seat: number, midgame: boolean): Promise<TableView> {
    return this.command(gameId, { type: midgame ? 'invite_bot_midgame' : 'invite_bot', actor: userId, payload: { seat } }, (rec, fx) =>
      this.machine.inviteBot(rec, fx, userId, seat, midgame),
    ).then(() => this.view(gameId, userId));
  }

  removeBot(gameId: string, userId: string, seat: number, midgame: boolean): Promise<TableView> {
    return this.command(gameId, { type: midgame ? 'remove_bot_midgame' : 'remove_bot', actor: userId, payload: { seat } }, (rec, fx) =>
      this.machine.removeBot(rec, fx, userId, seat, midgame),
    ).then(() => this.view(gameId, userId));
  }

  start(gameId: string, userId: string): Promise<TableView> {
    return this.command(gameId, { type: 'start', actor: userId }, async (rec, fx) => {
      this.machine.start(rec, fx, userId);
      await this.ledger.assertRatedAllowed(rec, userId); // issue #11: a rated start with a banned player is refused
    }).then(() => this.view(gameId, userId));
  }

  /** make_bid / play_card / reveal_cards; `actionId` makes a retry return the original result. */
  act(
    gameId: string,
    userId: string,
    kind: 'bid' | 'play' | 'reveal',
    payload: { bid?: unknown; blind?: unknown; card?: unknown },
    actionId?: string,
  ): Promise<{ ok: true; seq: number }> {
    return this.command(gameId, { type: kind, actor: userId, actionId, payload }, (rec, fx) => {
      this.machine.humanAction(rec, fx, userId, kind, payload);
      return { ok: true as const, seq: 0 };
    });
  }

  startNewHand(gameId: string, userId: string): Promise<{ ok: true }> {
    return this.command(gameId, { type: 'start_new_hand', actor: userId }, (rec, fx) => {
      this.machine.startNewHand(rec, fx, userId);
      return { ok: true as const };
    });
  }

  playAgain(gameId: string, userId: string): Promise<{ ok: true }> {
    return this.command(gameId, { type: 'play_again', actor: userId }, (rec, fx) => {
      this.machine.playAgain(rec, fx, userId);
      return { ok: true as const };
    });
  }

  /** Game chat; `actionId` makes a retry return the original result (no second message). */
  chat(gameId: string, from: Participant, text: string, actionId?: string): Promise<{ ok: true }> {
    return this.command(gameId, { type: 'chat', actor: from.userId, actionId, payload: { message: text } }, (rec, fx) => {
      const member = seatOf(rec, from.userId) !== null || rec.spectators.some((s) => s.userId === from.userId);
      if (!member) throw new TableError('Join or watch the game to chat', 403);
      this.machine.postChat(rec, fx, { userId: from.userId, userName: from.username }, text);
      return { ok: true as const };
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
      const key = opts.actionId ? `${opts.actor}:${opts.actionId}` : null;
      const payload = canonicalJson(opts.payload);
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
      await this.persist(actor, prev, draft, fx, opts, result);
      this.tables.update(actor, draft);
      if (key) actor.results.set(key, { type: opts.type, payload, result });
      await this.fanout.table(prev, draft, fx);
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

  // ------------------------------------------------------------------ settlement

  private async settle(actor: TableActor): Promise<void> {
    const rec = await this.settlement.settle(actor);
    if (!rec) return;
    actor.seq += 1;
    actor.eventsSinceSnapshot = 0;
    const prev = actor.rec;
    this.tables.update(actor, rec);
    await this.fanout.table(prev, rec, newEffects('settlement'));
    this.timers.arm(actor);
  }

  private settlementFailed(actor: TableActor, e: unknown): void {
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
      this.log.error(`Timer of table ${actor.rec.id} failed: ${(e as Error).stack ?? e}`);
      this.timers.retryLater(actor, () => this.tables.get(actor.rec.id) === actor);
    });
  }
}
