/**
 * Tables at runtime: one actor per open table serialises every command (a promise queue), applies it to a
 * draft of the table record through the TableMachine (rules from @spades/common), persists the snapshot +
 * an event-log row in ONE transaction (with the escrow transfers when a rated game starts), then emits the
 * personalised events and re-arms the table's timer from the stored deadlines. Settlement of a finished rated
 * game runs right after, exactly once (unique settlement row), with the stats in the same transaction.
 */
import { Inject, Injectable, Optional, Logger, NotFoundException, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { apply, GameAction, GameInvitation, payoutsFor, Seat, validateSettings, viewFor } from '@spades/common';
import { BotPool, botLevelFromEnv } from '../bots/bot-pool';
import { randomInt, randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { GAMES_CONFIG } from './games.config';
import type { GamesConfig } from './games.config';
import { GamesLedger, GamesRealtime, NOT_ENOUGH_COINS, NotEnoughCoinsError } from './ports';
import type { GameListItem, TableView } from './protocol';
import {
  ActorKind,
  AppliedAction,
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
import { listItem, notePayload, Recipient, tableView } from './wire';
import { recordFinishedGame } from './history';
import { canSeeInLobby, isMember, lobbyAudience, mayEnter } from './visibility';

export const PRIVATE_TABLE = 'This table is private: you need an invitation';

class NoChange extends Error {}

/** Thrown by a command body when nothing is to change: nothing is stored or emitted, the command answers undefined. */
class Unchanged extends Error {}

export const DUPLICATE_ACTION_ID = 'Duplicate action id';

/** A client action already done: what it was (type + canonical payload) and what it answered. */
interface DoneAction {
  type: string;
  payload: string;
  result: unknown;
}

interface Actor {
  rec: TableRecord;
  queue: Promise<unknown>;
  timer: NodeJS.Timeout | null;
  /** Client actions by `${userId}:${actionId}` (idempotency). */
  results: Map<string, DoneAction>;
}

export interface CommandOptions {
  type: string;
  actor?: string;
  actionId?: string;
  payload?: unknown;
}

/** JSON with sorted keys (jsonb does not keep key order): compares a retry's payload with the stored one. */
export function canonicalJson(value: unknown): string {
  const norm = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(norm);
    if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      return Object.fromEntries(
        Object.keys(o)
          .filter((k) => o[k] !== undefined)
          .sort()
          .map((k) => [k, norm(o[k])]),
      );
    }
    return v;
  };
  return JSON.stringify(norm(value === undefined ? null : JSON.parse(JSON.stringify(value ?? null)))) ?? 'null';
}

@Injectable()
export class GamesService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('Games');
  private readonly actors = new Map<string, Actor>();
  readonly machine: TableMachine;
  private stopping = false;

  constructor(
    private readonly ds: DataSource,
    @Inject(GAMES_CONFIG) readonly cfg: GamesConfig,
    private readonly ledger: GamesLedger,
    private readonly realtime: GamesRealtime,
    @Optional() private readonly bots?: BotPool,
  ) {
    this.machine = new TableMachine(cfg);
  }

  // ------------------------------------------------------------------ boot / shutdown

  async onApplicationBootstrap(): Promise<void> {
    const rows: { id: string; snapshot: TableRecord; seq: number }[] = await this.ds.query(
      `SELECT id, snapshot, seq FROM games WHERE status <> 'CLOSED' OR snapshot->>'settlement' = 'pending'`,
    );
    for (const row of rows) {
      const actor = this.addActor(row.snapshot);
      const done: { actor: string; action_id: string; type: string; payload: unknown; result: unknown }[] = await this.ds.query(
        `SELECT actor, action_id, type, payload, result FROM game_events WHERE game_id = $1 AND action_id IS NOT NULL ORDER BY seq DESC LIMIT 500`,
        [row.id],
      );
      for (const d of done) actor.results.set(`${d.actor}:${d.action_id}`, { type: d.type, payload: canonicalJson(d.payload), result: d.result });
      if (actor.rec.settlement === 'pending') {
        actor.queue = actor.queue.then(() => this.settle(actor)).catch((e) => this.log.error(`settlement of ${row.id}: ${(e as Error).message}`));
      }
      const restored = this.restoreTurn(actor);
      this.arm(actor);
      await restored;
    }
    if (rows.length) this.log.log(`Restored ${rows.length} table(s)`);
  }

  /**
   * After downtime a human whose turn it is gets a fresh full turn (persisted): a deadline that passed while the
   * server was down must not charge them a timeout. Every other deadline (bot, trick, summary, result, seat
   * replacement) keeps its stored value and fires at once when due.
   */
  private async restoreTurn(actor: Actor): Promise<void> {
    const rec = actor.rec;
    const e = rec.engine;
    if (rec.flow?.kind !== 'turn' || (e.phase !== 'BIDDING' && e.phase !== 'PLAYING') || !isHuman(rec.seats[e.turn as Seat])) return;
    // queued before the timer can fire (the stale deadline then finds nothing due); awaited by the boot restore so
    // a client re-joining right after the restart already sees the fresh deadline
    await this.command(rec.id, { type: 'restore_turn', payload: { seat: e.turn } }, (draft) => {
      if (draft.flow?.kind !== 'turn') throw new Unchanged();
      draft.flow = { ...draft.flow, at: Math.max(Date.now() + this.cfg.turnTimeoutMs, draft.flow.at) };
    }).catch((err) => this.log.error(`restoring the turn of ${rec.id}: ${(err as Error).message}`));
  }

  onApplicationShutdown(): void {
    this.stopping = true;
    for (const a of this.actors.values()) if (a.timer) clearTimeout(a.timer);
  }

  /** Waits until every queued command has finished (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.all([...this.actors.values()].map((a) => a.queue.catch(() => undefined)));
  }

  private addActor(rec: TableRecord): Actor {
    const actor: Actor = { rec, queue: Promise.resolve(), timer: null, results: new Map() };
    this.actors.set(rec.id, actor);
    return actor;
  }

  // ------------------------------------------------------------------ queries

  /** The lobby list as `userId` may see it (private tables only for their members and invitees; null: public only). */
  list(userId: string | null = null): GameListItem[] {
    return [...this.actors.values()]
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
    return tableView(rec, seat ?? 'spectator', Date.now());
  }

  async record(gameId: string): Promise<TableRecord> {
    const a = this.actors.get(gameId);
    if (a) return a.rec;
    if (!/^[0-9a-f-]{36}$/i.test(gameId)) throw new NotFoundException('Game not found');
    const rows: { snapshot: TableRecord }[] = await this.ds.query(`SELECT snapshot FROM games WHERE id = $1`, [gameId]);
    if (!rows.length) throw new NotFoundException('Game not found');
    return rows[0].snapshot;
  }

  // ------------------------------------------------------------------ commands

  async create(settingsInput: unknown, creator: Participant, opts: { private?: boolean } = {}): Promise<TableView> {
    const v = validateSettings(settingsInput);
    if (!v.ok) throw new TableError(v.message);
    await this.ledger.assertCanAfford(creator.userId, v.settings.buyIn);
    const existing = this.tableOfSeatedUser(creator.userId);
    if (existing) throw new TableError('You are already seated at another table');
    const id = randomUUID();
    const rec = newTable(id, v.settings, creator, Date.now(), opts);
    const fx = newEffects('create');
    this.machine.announce(rec, fx, creator);
    fx.lobby = true;
    await this.ds.transaction(async (m) => {
      await m.query(`INSERT INTO games (id, status, seq, snapshot) VALUES ($1, $2, 1, $3)`, [id, rec.status, JSON.stringify(rec)]);
      await m.query(`INSERT INTO game_events (game_id, seq, type, actor, actor_kind, payload) VALUES ($1, 1, 'create', $2, 'human', $3)`, [
        id,
        creator.userId,
        JSON.stringify({ settings: v.settings }),
      ]);
    });
    const actor = this.addActor(rec);
    this.emit(actor.rec, fx);
    return tableView(rec, 0, Date.now());
  }

  /** A table where the user holds a seat and the game is not over (a user plays at one table at a time). */
  private tableOfSeatedUser(userId: string): TableRecord | null {
    for (const a of this.actors.values()) {
      const r = a.rec;
      if (r.status !== 'CLOSED' && r.status !== 'COMPLETED' && seatOf(r, userId) !== null) return r;
    }
    return null;
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
      const other = this.tableOfSeatedUser(user.userId);
      if (other && other.id !== rec.id) throw new TableError('You are already seated at another table');
      if (rec.status === 'WAITING') await this.ledger.assertCanAfford(user.userId, rec.settings.buyIn);
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
      this.machine.spectate(rec, fx, user);
    }).then(() => this.view(gameId, user.userId));
  }

  // ------------------------------------------------------------------ invitations (issue #12)

  /** The invite token (host only), created on first use. */
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

  /** In-app invitation of another user (friends only, nobody blocked either way). */
  async invitePlayer(gameId: string, from: Participant, to: Participant, reserveSeat: boolean): Promise<{ ok: true; reservedSeat: number | null }> {
    const rel: { user_id: string; kind: string }[] = await this.ds.query(
      `SELECT user_id, kind FROM user_relations WHERE (user_id = $1 AND target_id = $2) OR (user_id = $2 AND target_id = $1)`,
      [from.userId, to.userId],
    );
    if (rel.some((r) => r.kind === 'block')) throw new TableError('You cannot invite this player', 403);
    if (!rel.some((r) => r.kind === 'friend' && r.user_id === from.userId)) throw new TableError('You can only invite your friends', 403);
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
    for (const a of this.actors.values()) {
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
    return this.command(gameId, { type: 'start', actor: userId }, (rec, fx) => this.machine.start(rec, fx, userId)).then(() =>
      this.view(gameId, userId),
    );
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
    const actor = this.actors.get(gameId);
    if (!actor) {
      await this.record(gameId); // 404 when unknown
      throw new TableError('This game is closed');
    }
    const run = async (): Promise<T> => {
      const key = opts.actionId ? `${opts.actor}:${opts.actionId}` : null;
      const payload = canonicalJson(opts.payload);
      const done = key ? actor.results.get(key) : undefined;
      if (done) {
        // the same id for another action (type or payload): refused, nothing changes
        if (done.type !== opts.type || done.payload !== payload) throw new TableError(DUPLICATE_ACTION_ID, 409);
        return done.result as T;
      }
      const draft = structuredClone(actor.rec);
      const fx = newEffects(opts.type);
      let result: T;
      try {
        result = await fn(draft, fx);
      } catch (e) {
        if (e instanceof Unchanged) return undefined as T;
        throw e;
      }
      this.machine.scheduleFlow(draft);
      await this.persist(draft, fx, opts, result);
      actor.rec = draft;
      if (key) actor.results.set(key, { type: opts.type, payload, result });
      this.emit(draft, fx);
      this.arm(actor);
      if (draft.settlement === 'pending') await this.settle(actor).catch((e) => this.settlementFailed(actor, e));
      if (actor.rec.status === 'CLOSED' && actor.rec.settlement !== 'pending') this.drop(actor);
      return result;
    };
    const p = actor.queue.then(run, run);
    actor.queue = p.catch(() => undefined);
    return p;
  }

  private drop(actor: Actor): void {
    if (actor.timer) clearTimeout(actor.timer);
    actor.timer = null;
    this.actors.delete(actor.rec.id);
  }

  private async persist(rec: TableRecord, fx: Effects, opts: CommandOptions, result: unknown): Promise<void> {
    // Who issued the row: a user's command, else the server's timer on behalf of a timed-out human / a bot seat.
    const kind: ActorKind = opts.actor
      ? 'human'
      : fx.actions.some((a) => a.by === 'timeout')
        ? 'timeout'
        : fx.actions.some((a) => a.by === 'bot')
          ? 'bot'
          : 'server';
    await this.ds.transaction(async (m) => {
      if (fx.escrow) await this.collectBuyIns(m, rec);
      await this.writeSnapshot(m, rec, {
        type: fx.logType,
        actor: opts.actor ?? null,
        actorKind: kind,
        actionId: opts.actionId ?? null,
        payload: opts.payload ?? null,
        result: result ?? null,
        actions: fx.actions,
      });
    });
  }

  /** Stores the snapshot and appends the event-log row (every applied engine action with who made it). */
  private async writeSnapshot(
    m: EntityManager,
    rec: TableRecord,
    ev: { type: string; actor: string | null; actorKind: ActorKind; actionId: string | null; payload: unknown; result: unknown; actions: AppliedAction[] },
  ): Promise<void> {
    const { type, actor, actionId, payload, result } = ev;
    const res: unknown[] = await m.query(
      `UPDATE games SET status = $2, snapshot = $3, seq = seq + 1, updated_at = now(),
              finished_at = CASE WHEN $4::bigint IS NULL THEN NULL ELSE to_timestamp($4::bigint / 1000.0) END
        WHERE id = $1 RETURNING seq`,
      [rec.id, rec.status, JSON.stringify(rec), rec.finishedAt],
    );
    // TypeORM answers an UPDATE … RETURNING on postgres with [rows, affected]
    const rows = (Array.isArray(res[0]) ? res[0] : res) as { seq: number }[];
    const seq = rows[0].seq;
    await m.query(
      `INSERT INTO game_events (game_id, seq, type, actor, action_id, payload, result, actor_kind, actions)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        rec.id,
        seq,
        type,
        actor,
        actionId,
        payload === null ? null : JSON.stringify(payload),
        result === null ? null : JSON.stringify(result),
        ev.actorKind,
        ev.actions.length ? JSON.stringify(ev.actions) : null,
      ],
    );
    await recordFinishedGame(m, rec);
    const h = rec.engine.history;
    if (h.length) {
      const last = h[h.length - 1];
      await m.query(
        `INSERT INTO game_hands (game_id, game_number, hand_number, seed, commitment, record) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT DO NOTHING`,
        [rec.id, rec.gameNumber, last.handNumber, last.seed, last.commitment, JSON.stringify(last)],
      );
    }
  }

  private escrowRef(rec: TableRecord): string {
    return `${rec.id}:${rec.gameNumber}`;
  }

  /**
   * Rated start: every human's balance is re-checked inside the start transaction (their coins may have moved
   * since they sat down); one short → the start fails as a whole, nothing moves. The transfers re-check under
   * row locks.
   */
  private async collectBuyIns(m: EntityManager, rec: TableRecord): Promise<void> {
    const short = await this.ledger.unableToPay(
      m,
      rec.participants.map((p) => p.userId),
      rec.settings.buyIn,
    );
    if (short.length) {
      const names = rec.participants.filter((p) => short.includes(p.userId)).map((p) => p.username);
      throw new TableError(`${NOT_ENOUGH_COINS}: ${names.join(', ')} cannot cover the buy-in`);
    }
    for (const p of rec.participants) {
      try {
        await this.ledger.buyIn(m, p.userId, rec.id, rec.settings.buyIn, this.escrowRef(rec));
      } catch (e) {
        if (e instanceof NotEnoughCoinsError) throw new TableError(NOT_ENOUGH_COINS);
        throw e;
      }
    }
  }

  // ------------------------------------------------------------------ settlement

  /**
   * Pays a finished (or abandoned) rated game out of escrow exactly once: the settlement row is unique per
   * (game, gameNumber); payouts per common's payoutsFor to participants still seated, the rest to the house;
   * stats in the same transaction. A crash inside rolls everything back; the boot restore settles again.
   */
  private async settle(actor: Actor): Promise<void> {
    const rec = structuredClone(actor.rec);
    if (rec.settlement !== 'pending') return;
    const result = rec.engine.result;
    const abandoned = rec.status === 'CLOSED' && !result;
    const due = result && !abandoned ? payoutsFor(rec.settings, result) : [0, 0, 0, 0];
    const paid = [0, 0, 0, 0];
    await this.ds.transaction(async (m) => {
      const ins: unknown[] = await m.query(
        `INSERT INTO game_settlements (game_id, game_number, reason, payouts, house_amount) VALUES ($1, $2, $3, '[]', 0)
         ON CONFLICT DO NOTHING RETURNING game_id`,
        [rec.id, rec.gameNumber, abandoned ? 'abandoned' : 'completed'],
      );
      if (ins.length === 0) {
        const prev: { payouts: number[] }[] = await m.query(
          `SELECT payouts FROM game_settlements WHERE game_id = $1 AND game_number = $2`,
          [rec.id, rec.gameNumber],
        );
        prev[0]?.payouts?.forEach((v, i) => (paid[i] = v));
      } else {
        const ref = this.escrowRef(rec);
        let transfers = 0;
        for (const p of rec.participants) {
          const amount = due[p.seat];
          const still = rec.seats[p.seat];
          const forfeited = (rec.forfeited ?? []).includes(p.userId);
          if (amount > 0 && !forfeited && isHuman(still) && still.userId === p.userId) {
            await this.ledger.payout(m, rec.id, p.userId, amount, ref);
            paid[p.seat] = amount;
            transfers++;
            if (transfers === 1 && process.env.GAMES_CRASH_DURING_SETTLEMENT === '1') {
              // Test hook: die in the middle of the settlement transaction (crash-safety test).
              process.kill(process.pid, 'SIGKILL');
              await new Promise(() => undefined);
            }
          }
        }
        const house = 4 * rec.settings.buyIn - paid.reduce((a, b) => a + b, 0);
        if (house > 0) await this.ledger.toHouse(m, rec.id, house, ref);
        if (result && !abandoned) await this.ledger.recordStats(m, rec, result);
        await m.query(`UPDATE game_settlements SET payouts = $3, house_amount = $4 WHERE game_id = $1 AND game_number = $2`, [
          rec.id,
          rec.gameNumber,
          JSON.stringify(paid),
          house,
        ]);
      }
      rec.settlement = 'done';
      rec.payouts = paid;
      await this.writeSnapshot(m, rec, {
        type: 'settlement',
        actor: null,
        actorKind: 'server',
        actionId: null,
        payload: null,
        result: { payouts: paid },
        actions: [],
      });
    });
    actor.rec = rec;
    const fx = newEffects('settlement');
    this.emit(rec, fx);
    this.arm(actor);
  }

  private settlementFailed(actor: Actor, e: unknown): void {
    this.log.error(`Settlement of ${actor.rec.id} failed: ${(e as Error).message}; retrying`);
    if (this.stopping) return;
    setTimeout(() => {
      actor.queue = actor.queue.then(() => this.settle(actor)).catch((err) => this.settlementFailed(actor, err));
    }, 1000).unref();
  }

  // ------------------------------------------------------------------ timers

  private arm(actor: Actor): void {
    if (actor.timer) clearTimeout(actor.timer);
    actor.timer = null;
    if (this.stopping || actor.rec.status === 'CLOSED') return;
    const at = this.machine.nextDeadline(actor.rec);
    if (at === null) return;
    const delay = Math.max(0, at - Date.now());
    actor.timer = setTimeout(() => {
      actor.timer = null;
      this.command(actor.rec.id, { type: 'tick' }, async (rec, fx) => {
        const seat = this.machine.dueActor(rec);
        const planned = seat === null ? [] : await this.planBotActions(rec, seat);
        if (!this.machine.tick(rec, fx, planned)) throw new NoChange();
      }).catch((e) => {
        if (e instanceof NoChange) return this.arm(actor);
        this.log.error(`Timer of table ${actor.rec.id} failed: ${(e as Error).stack ?? e}`);
        if (!this.stopping && this.actors.has(actor.rec.id)) {
          actor.timer = setTimeout(() => this.arm(actor), 1000);
        }
      });
    }, Math.min(delay, 2 ** 31 - 1));
  }

  /**
   * Decisions of the configured bot level (BOT_LEVEL, default strong) from the shared BotPool when it is
   * available; the bot only ever sees its seat's view. Empty → the synchronous common bot decides.
   */
  private async planBotActions(rec: TableRecord, seat: Seat): Promise<GameAction[]> {
    if (!this.bots) return [];
    const out: GameAction[] = [];
    let state = rec.engine;
    try {
      for (let i = 0; i < 3; i++) {
        const action = await this.bots.decide(botLevelFromEnv(this.cfg.botLevel), viewFor(state, seat), randomInt(0, 2 ** 31));
        if (!action) break;
        out.push(action);
        if (action.type !== 'reveal') break;
        const r = apply(state, action);
        if (!r.ok) break;
        state = r.state;
      }
    } catch (e) {
      this.log.warn(`bot pool failed, using the inline bot: ${(e as Error).message}`);
      return [];
    }
    return out;
  }

  // ------------------------------------------------------------------ emission

  /** Sends each note to every participant with a payload built from that recipient's own view. */
  private emit(rec: TableRecord, fx: Effects): void {
    const now = Date.now();
    const recipients = new Map<string, Recipient>();
    rec.seats.forEach((s, i) => {
      if (isHuman(s)) recipients.set(s.userId, i as Seat);
    });
    for (const s of rec.spectators) if (!recipients.has(s.userId)) recipients.set(s.userId, 'spectator');
    for (const u of fx.removedUsers) if (!recipients.has(u)) recipients.set(u, 'spectator');
    const notes = [...fx.notes, { type: 'game_update' as const }];
    for (const [userId, viewer] of recipients) {
      const view = tableView(rec, viewer, now);
      for (const note of notes) {
        this.realtime.emitToUser(userId, note.type, notePayload(rec, note, view));
      }
    }
    for (const d of fx.direct) this.realtime.emitToUser(d.userId, d.event, d.payload);
    if (fx.lobby) this.emitLobby();
  }

  /**
   * `games_updated`: the public list to everybody except the members/invitees of private tables, who get their
   * own list (canSeeInLobby) on their personal room.
   */
  private emitLobby(): void {
    const audience = new Set<string>();
    for (const a of this.actors.values()) if (a.rec.status !== 'CLOSED') for (const u of lobbyAudience(a.rec)) audience.add(u);
    this.realtime.emitToAll('games_updated', this.list(null), [...audience]);
    for (const u of audience) this.realtime.emitToUser(u, 'games_updated', this.list(u));
  }

  hostOf(rec: TableRecord): string | null {
    return hostId(rec);
  }
}
