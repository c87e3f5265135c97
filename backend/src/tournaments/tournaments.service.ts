/**
 * Issue #27: tournament commands. Each one is ONE database transaction: lock the tournament row, apply the event(s)
 * with the pure engine (@spades/common), append the event rows and the new snapshot, and move the coins through the
 * ledger (buy-ins into the escrow `tournament:<id>`, refunds, prizes and the house's rest) — all or nothing. Driver
 * writes carry the owner's fencing epoch (tournaments.store.ts). After the commit the watchers get the new state and
 * the owner node is told to drive (tournaments.driver.ts).
 */
import { HttpException, Injectable, Logger, NotFoundException, Optional } from '@nestjs/common';
import {
  applyTournament,
  createTournament,
  droppedAtStart,
  historyItemOf,
  refundsOf,
  isFull,
  isUuid,
  startCheck,
  summaryFor,
  tournamentView,
  TOURNAMENT_ERRORS,
  validateTournamentInput,
  type CreateTournamentInput,
  type RegisterTournamentInput,
  type TournamentErrorCode,
  type TournamentEvent,
  type TournamentHistoryItem,
  type TournamentKind,
  type TournamentState,
  type TournamentSummary,
  type TournamentView,
} from '@spades/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AuditService } from '../admin/audit.service';
import { ClusterNodes } from '../cluster/cluster.nodes';
import { GamesService } from '../games/games.service';
import { CoinsService, InsufficientFundsError, type AccountRef } from '../coins/coins.service';
import { RatingsService } from '../ratings/ratings.service';
import { RealtimeService } from '../realtime/realtime.service';
import { SettingsService } from '../settings/settings.service';
import { StoredTournament, TournamentFencedError, TournamentsStore } from './tournaments.store';

/** HTTP status of each engine refusal. */
const STATUS: Record<TournamentErrorCode, number> = {
  NOT_REGISTERING: 409,
  ALREADY_REGISTERED: 409,
  NOT_REGISTERED: 409,
  FULL: 409,
  PARTNER_REQUIRED: 400,
  PARTNER_NOT_ALLOWED: 400,
  NOT_RUNNING: 409,
  UNKNOWN_MATCH: 404,
  MATCH_STATE: 409,
  BAD_RESULT: 400,
  TOO_FEW_ENTRANTS: 409,
  BAD_CONFIG: 400,
  BAD_EVENT: 400,
};

export const TOURNAMENT_MESSAGES = {
  notFound: 'Tournament not found',
  sitAndGoOff: 'This server does not let players create tournaments',
  partnerSelf: 'You cannot partner yourself',
  partnerUnknown: 'Partner not found',
  partnerNotFriend: 'Your partner must be one of your friends',
  poorSelf: 'You do not have enough coins for the buy-in',
  poorPartner: (name: string) => `${name} does not have enough coins for the buy-in`,
  notOpenYet: 'Registration for this tournament has not opened yet',
  closed: 'Registration for this tournament is closed',
  full: TOURNAMENT_ERRORS.FULL,
  /** An active ban from rated tables (abandoning rated games): tournament games are rated. */
  ratedBan: (who: string, until: Date) =>
    `${who} banned from rated tables until ${until.toISOString().slice(0, 16).replace('T', ' ')} UTC for abandoning rated games, and tournament games are rated`,
  /** An active account ban (the partner: the player could not sign in to play). */
  accountBan: (name: string) => `${name} is banned from this server`,
} as const;

/** A refusal of a tournament command (HTTP status + message; the engine's code when it came from the engine). */
export class TournamentError extends HttpException {
  constructor(
    message: string,
    status: number,
    readonly code: TournamentErrorCode | null = null,
  ) {
    super({ message }, status);
  }
}

/** Ledger reasons (coin_entries.reason, ≤ 40 characters). */
export const TOURNAMENT_LEDGER = {
  buyIn: 'tournament_buyin',
  refund: 'tournament_refund',
  prize: 'tournament_prize',
  house: 'tournament_house',
} as const;

export const escrowOf = (id: string): AccountRef => ({ escrow: `tournament:${id}` });

/** What a command may append: an event, or one computed from the state reached so far (null = nothing). */
export type EventStep = TournamentEvent | ((s: TournamentState) => TournamentEvent | null);

/**
 * Listeners of committed changes (the driver: drive, emit; the lobby feed). `before`: the state the events were
 * applied to (null: just created).
 */
export type CommittedListener = (
  t: StoredTournament,
  events: TournamentEvent[],
  before: TournamentState | null,
) => void;

@Injectable()
export class TournamentsService {
  private readonly log = new Logger('Tournaments');
  private readonly listeners = new Set<CommittedListener>();

  constructor(
    private readonly ds: DataSource,
    private readonly store: TournamentsStore,
    private readonly coins: CoinsService,
    private readonly audit: AuditService,
    private readonly realtime: RealtimeService,
    @Optional() private readonly settings?: SettingsService,
    @Optional() private readonly ratings?: RatingsService,
    @Optional() private readonly nodes?: ClusterNodes,
    @Optional() private readonly games?: GamesService,
  ) {}

  onCommitted(fn: CommittedListener): void {
    this.listeners.add(fn);
  }

  /** This node's id as an owner (the cluster node id; a single server: its configured id too). */
  get nodeId(): string {
    return this.nodes?.nodeId ?? 'local';
  }

  // ------------------------------------------------------------------ reads

  /** The lobby list; each row carries the caller's part (`me`), so the lobby needs no view per tournament. */
  async list(status: unknown, viewerId: string): Promise<TournamentSummary[]> {
    const statuses =
      status === 'running'
        ? (['RUNNING'] as const)
        : status === 'finished'
          ? (['FINISHED', 'CANCELLED'] as const)
          : status === undefined || status === 'open'
            ? (['REGISTERING'] as const)
            : null;
    if (!statuses) throw new TournamentError('status must be open, running or finished', 400);
    return (await this.store.list([...statuses])).map((t) => summaryFor(t.state, t.createdByName, viewerId));
  }

  async view(id: string, viewerId: string | null): Promise<TournamentView> {
    const t = await this.load(id);
    return tournamentView(t.state, t.createdByName, viewerId, await this.liveScores(t.state, viewerId));
  }

  /** matchId → entrantId → score of the games being played (entrant i sits at seat i: a team's score is seat i's). */
  private async liveScores(
    s: TournamentState,
    viewerId: string | null,
  ): Promise<Record<string, Record<string, number>> | undefined> {
    if (!this.games || s.status !== 'RUNNING') return undefined;
    const out: Record<string, Record<string, number>> = {};
    const playing = s.rounds.flatMap((r) => r.matches).filter((m) => m.status === 'PLAYING' && m.gameId);
    await Promise.all(
      playing.map(async (m) => {
        try {
          const v = await this.games!.view(m.gameId!, viewerId ?? s.config.createdBy);
          out[m.id] = Object.fromEntries(m.entrantIds.map((e, i) => [e, v.playerScores[i] ?? 0]));
        } catch {
          // the table is moving or gone: the bracket shows no live score for it
        }
      }),
    );
    return out;
  }

  async history(userId: string): Promise<TournamentHistoryItem[]> {
    if (!isUuid(userId)) throw new NotFoundException('User not found');
    const out: TournamentHistoryItem[] = [];
    for (const t of await this.store.ofUser(userId)) {
      const item = historyItemOf(t.state, userId);
      if (item) out.push(item);
    }
    return out;
  }

  private async load(id: string): Promise<StoredTournament> {
    const t = isUuid(id) ? await this.store.get(id) : null;
    if (!t) throw new TournamentError(TOURNAMENT_MESSAGES.notFound, 404);
    return t;
  }

  // ------------------------------------------------------------------ commands

  /** A sit-and-go (any player, when the setting allows) or a scheduled tournament (console; staff checked by the route). */
  async create(userId: string, raw: unknown, kind: TournamentKind, staff = false): Promise<TournamentView> {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw))
      throw new TournamentError('The tournament must be an object', 400, 'BAD_CONFIG');
    if (kind === 'sit_and_go' && !staff && this.settings && !this.settings.get().tournaments.playerSitAndGo)
      throw new TournamentError(TOURNAMENT_MESSAGES.sitAndGoOff, 403);
    const input = { ...(raw as CreateTournamentInput), kind };
    if (input.noShowMs === undefined && this.settings)
      input.noShowMs = this.settings.get().tournaments.noShowSeconds * 1000;
    const now = Date.now();
    const checked = validateTournamentInput(input, { kind, now, createdBy: userId });
    if (!checked.ok) throw new TournamentError(checked.message, 400, checked.error);
    const state = createTournament(randomUUID(), checked.config, now);
    await this.ds.transaction(async (m) => {
      await this.store.insert(m, state, this.nodeId);
      if (staff)
        await this.audit.record(m, {
          actorId: userId,
          action: 'tournament.create',
          targetRef: `tournament:${state.id}`,
          after: checked.config,
        });
    });
    const stored = (await this.store.get(state.id))!;
    this.committed(stored, [], null);
    return tournamentView(stored.state, stored.createdByName, userId);
  }

  /** Registers the caller (and, PARTNERS, a friend as their partner: both pay). A full sit-and-go starts right here. */
  async register(userId: string, id: string, raw: unknown): Promise<TournamentView> {
    const body = (raw && typeof raw === 'object' ? raw : {}) as RegisterTournamentInput;
    const partnerId = body.partnerId;
    if (partnerId !== undefined && partnerId !== null) {
      if (typeof partnerId !== 'string' || !isUuid(partnerId))
        throw new TournamentError('partnerId must be a user id', 400);
      if (partnerId === userId) throw new TournamentError(TOURNAMENT_MESSAGES.partnerSelf, 400);
    }
    await this.load(id);
    const ids = partnerId ? [userId, partnerId] : [userId];
    // read before the command's transaction: RatingsService queries through the DataSource, which on the embedded
    // database (one connection, held by the transaction) would wait for ever
    const ratingRows = (await this.ratings?.summaries(ids)) ?? [];
    // tournament games are rated (four humans at a table): a player banned from rated tables would only be a
    // no-show, so they (or a team with them) cannot register
    const ratedBans = (await this.ratings?.bannedUntil(ids)) ?? new Map<string, Date>();
    const t = await this.command(id, null, async (m, cur) => {
      // scheduled: registration between its opening and the start (no late registration)
      const now = Date.now();
      if (
        cur.status === 'REGISTERING' &&
        cur.config.registrationOpensAt !== null &&
        now < cur.config.registrationOpensAt
      )
        throw new TournamentError(TOURNAMENT_MESSAGES.notOpenYet, 409, 'NOT_REGISTERING');
      if (cur.status === 'REGISTERING' && cur.config.startsAt !== null && now >= cur.config.startsAt)
        throw new TournamentError(TOURNAMENT_MESSAGES.closed, 409, 'NOT_REGISTERING');
      // a sit-and-go that filled up started in the registration that filled it: late comers hear "full"
      if (cur.status === 'RUNNING' && cur.registrations.length >= cur.config.size)
        throw new TournamentError(TOURNAMENT_MESSAGES.full, 409, 'FULL');
      const users: { id: string; username: string }[] = await m.query(
        `SELECT id, username FROM users WHERE id = ANY($1::uuid[])`,
        [ids],
      );
      if (partnerId && !users.some((u) => u.id === partnerId))
        throw new TournamentError(TOURNAMENT_MESSAGES.partnerUnknown, 404);
      const nameOf = (uid: string) => users.find((u) => u.id === uid)?.username ?? 'A player';
      const banned: { user_id: string }[] = await m.query(
        `SELECT user_id FROM sanctions WHERE user_id = ANY($1::uuid[]) AND kind = 'ban' AND lifted_at IS NULL
            AND (ends_at IS NULL OR ends_at > now()) LIMIT 1`,
        [ids],
      );
      if (banned.length) throw new TournamentError(TOURNAMENT_MESSAGES.accountBan(nameOf(banned[0].user_id)), 403);
      for (const uid of ids) {
        const until = ratedBans.get(uid);
        if (until)
          throw new TournamentError(
            TOURNAMENT_MESSAGES.ratedBan(uid === userId ? 'You are' : `${nameOf(uid)} is`, until),
            403,
          );
      }
      if (partnerId) {
        const friends: unknown[] = await m.query(
          `SELECT 1 FROM user_relations WHERE user_id = $1 AND target_id = $2 AND kind = 'friend'`,
          [userId, partnerId],
        );
        if (!friends.length) throw new TournamentError(TOURNAMENT_MESSAGES.partnerNotFriend, 403);
      }
      const ratings = new Map(ratingRows.map((r) => [r.userId, r.rating]));
      const players = ids.map((uid) => ({
        userId: uid,
        username: users.find((u) => u.id === uid)?.username ?? 'player',
        rating: ratings.get(uid) ?? 1500,
      }));
      const steps: EventStep[] = [{ type: 'registered', at: Date.now(), players }];
      // a full sit-and-go starts in the same transaction
      steps.push((s) =>
        s.config.kind === 'sit_and_go' && s.status === 'REGISTERING' && isFull(s) && startCheck(s).ok
          ? { type: 'started', at: Date.now() }
          : null,
      );
      return steps;
    });
    return tournamentView(t.state, t.createdByName, userId);
  }

  async unregister(userId: string, id: string): Promise<TournamentView> {
    await this.load(id);
    const t = await this.command(id, null, async () => [{ type: 'unregistered', at: Date.now(), userId }]);
    return tournamentView(t.state, t.createdByName, userId);
  }

  /** Console: cancels a tournament that has not finished; every buy-in still in the escrow is refunded. Audited. */
  async cancel(staffId: string, id: string, reason: string): Promise<TournamentView> {
    await this.load(id);
    const t = await this.command(id, null, async () => [{ type: 'cancelled', at: Date.now(), reason }], {
      audit: (m, before) =>
        this.audit.record(m, {
          actorId: staffId,
          action: 'tournament.cancel',
          targetRef: `tournament:${id}`,
          reason,
          before: { status: before.status, registered: before.registrations.length },
          after: { status: 'CANCELLED' },
        }),
    });
    return tournamentView(t.state, t.createdByName, staffId);
  }

  /** Scheduler: a scheduled tournament whose start time came: start it, or cancel it below its minimum (refunds). */
  async startDue(id: string): Promise<void> {
    await this.command(id, null, async (_m, cur) => {
      if (cur.status !== 'REGISTERING' || cur.config.startsAt === null || cur.config.startsAt > Date.now()) return [];
      const check = startCheck(cur);
      return [
        check.ok
          ? { type: 'started', at: Date.now() }
          : { type: 'cancelled', at: Date.now(), reason: `Fewer than ${cur.config.minEntrants} players registered` },
      ];
    });
  }

  /**
   * The driver's write: the events built from the locked current state, under the owner's epoch (fenced). Returns
   * the stored tournament after the commit (unchanged when no event was built).
   */
  drive(
    id: string,
    epoch: number,
    build: (s: TournamentState) => EventStep[] | Promise<EventStep[]>,
  ): Promise<StoredTournament> {
    return this.command(id, epoch, async (_m, cur) => build(cur));
  }

  /**
   * One command: lock, build the events from the current state, apply each (refused → the engine's error, nothing
   * stored), append, ledger; commit; then tell the listeners.
   */
  private async command(
    id: string,
    epoch: number | null,
    build: (m: EntityManager, cur: TournamentState) => Promise<EventStep[]>,
    opts: { audit?: (m: EntityManager, before: TournamentState) => Promise<void> } = {},
  ): Promise<StoredTournament> {
    const applied: TournamentEvent[] = [];
    let before: TournamentState | null = null;
    const result = await this.ds.transaction(async (m) => {
      applied.length = 0;
      let t = await this.store.lock(m, id);
      if (!t) throw new TournamentError(TOURNAMENT_MESSAGES.notFound, 404);
      if (epoch !== null && t.ownerEpoch !== epoch) throw new TournamentFencedError(id);
      before = t.state;
      for (const step of await build(m, t.state)) {
        const event = typeof step === 'function' ? step(t.state) : step;
        if (!event) continue;
        const r = applyTournament(t.state, event);
        if (!r.ok) throw new TournamentError(r.message, STATUS[r.error] ?? 409, r.error);
        await this.ledger(m, t.state, r.state, event);
        const seq = await this.store.append(m, t, event, r.state, epoch);
        t = { ...t, state: r.state, seq };
        applied.push(event);
      }
      if (opts.audit) await opts.audit(m, before);
      return t;
    });
    if (applied.length) this.committed(result, applied, before);
    return result;
  }

  private committed(t: StoredTournament, events: TournamentEvent[], before: TournamentState | null): void {
    for (const fn of this.listeners) {
      try {
        fn(t, events, before);
      } catch (e) {
        this.log.warn(`listener: ${(e as Error).message}`);
      }
    }
  }

  /** The coins of one event, inside its transaction. Free tournaments (buy-in 0) move nothing. */
  private async ledger(m: EntityManager, prev: TournamentState, next: TournamentState, e: TournamentEvent) {
    const buyIn = next.config.buyIn;
    if (buyIn <= 0) return;
    const escrow = escrowOf(next.id);
    const ref = next.id;
    const refund = (userId: string) => this.coins.transfer(m, escrow, { userId }, buyIn, TOURNAMENT_LEDGER.refund, ref);
    switch (e.type) {
      case 'registered': {
        const balances = await this.coins.userBalances(
          e.players.map((p) => p.userId),
          m,
        );
        for (const p of e.players) {
          if ((balances.get(p.userId) ?? 0n) < BigInt(buyIn))
            throw new TournamentError(
              p.userId === e.players[0].userId
                ? TOURNAMENT_MESSAGES.poorSelf
                : TOURNAMENT_MESSAGES.poorPartner(p.username),
              400,
            );
        }
        try {
          for (const p of e.players)
            await this.coins.transfer(m, { userId: p.userId }, escrow, buyIn, TOURNAMENT_LEDGER.buyIn, ref);
        } catch (err) {
          if (err instanceof InsufficientFundsError) throw new TournamentError(TOURNAMENT_MESSAGES.poorSelf, 400);
          throw err;
        }
        break;
      }
      case 'unregistered': {
        const still = new Set(next.registrations.map((r) => r.userId));
        for (const r of prev.registrations) if (!still.has(r.userId)) await refund(r.userId);
        break;
      }
      case 'started':
        for (const r of droppedAtStart(next)) await refund(r.userId);
        break;
      case 'cancelled': {
        for (const r of refundsOf(prev))
          await this.coins.transfer(m, escrow, { userId: r.userId }, r.amount, TOURNAMENT_LEDGER.refund, ref);
        const rest = await this.coins.balanceOf(escrow, m);
        if (rest > 0n) await this.coins.transfer(m, escrow, 'house', rest, TOURNAMENT_LEDGER.house, ref);
        break;
      }
      default:
        break;
    }
    if (prev.status !== 'FINISHED' && next.status === 'FINISHED') {
      for (const p of next.payouts)
        if (p.amount > 0)
          await this.coins.transfer(m, escrow, { userId: p.userId }, p.amount, TOURNAMENT_LEDGER.prize, ref);
      const rest = await this.coins.balanceOf(escrow, m);
      if (rest > 0n) await this.coins.transfer(m, escrow, 'house', rest, TOURNAMENT_LEDGER.house, ref);
    }
  }
}
