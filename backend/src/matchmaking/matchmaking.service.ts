/**
 * Issue #28: quick play. Players (or a team of two partners) join a queue by mode, stake band and pace; on every
 * tick the pure matcher (`matchStep`, common/src/matchmaking) forms tables of four by rating and offers bots after
 * `MATCHMAKING_BOT_OFFER_MS`. Formed tables go through GamesService.startMatched (the ordinary creation and seating
 * paths: cluster placement, restart-exactness, escrow at a rated start, exactly-once settlement). "Play bots now"
 * seats one human with three named bots of a chosen level. Identity always comes from the verified token.
 */
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import {
  DEFAULT_SETTINGS,
  estimateWaitMs,
  matchStep,
  presetNotOfferedMessage,
  QUICKPLAY_BOT_LEVELS,
  QUICKPLAY_ERRORS,
  queueKey,
  QueueState,
  QueueTicket,
  QuickPlayJoinPayload,
  QuickPlayStatus,
  STAKE_BANDS,
  tablePresetOf,
  type BotLevelKey,
  type FormedTable,
  type GameSettings,
  type PlayBotsNowPayload,
} from '@spades/common';
import { ClusterNodes } from '../cluster/cluster.nodes';
import { GamesService, MatchedSeat } from '../games/games.service';
import { Participant, TableError } from '../games/table';
import { RatingsService } from '../ratings/ratings.service';
import { RealtimeService } from '../realtime/realtime.service';
import { SettingsService } from '../settings/settings.service';
import { UsersService } from '../users/users.service';
import { MATCHMAKING_CONFIG } from './matchmaking.config';
import type { QueueConfig } from './matchmaking.config';
import { QueueStore } from './matchmaking.store';
import type { QueueOp, StoredTicket } from './matchmaking.types';

/** Names of the bots of "Play bots now" and bot offers: "Ada (Strong)" — the level in the name, the seat marked as a bot. */
const BOT_NAMES = ['Ada', 'Max', 'Ivy'];
const RECENT_WAITS = 50;

export function settingsFor(mode: QueueTicket['mode'], buyIn: number): GameSettings {
  return { ...DEFAULT_SETTINGS, specialRules: { ...DEFAULT_SETTINGS.specialRules }, gameMode: mode, buyIn };
}

export function botSeat(level: BotLevelKey, i: number): MatchedSeat {
  const l = QUICKPLAY_BOT_LEVELS.find((x) => x.key === level)!;
  return { kind: 'bot', level: l.bot, name: `${BOT_NAMES[i % BOT_NAMES.length]} (${l.label})` };
}

@Injectable()
export class MatchmakingService implements OnModuleInit, OnModuleDestroy {
  private readonly log = new Logger('Matchmaking');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly recentWaits = new Map<string, number[]>();
  /** Tables formed (for tests and metrics). */
  formed = 0;

  constructor(
    @Inject(MATCHMAKING_CONFIG) readonly cfg: QueueConfig,
    private readonly store: QueueStore,
    private readonly games: GamesService,
    private readonly users: UsersService,
    private readonly realtime: RealtimeService,
    @Optional() private readonly ratings?: RatingsService,
    @Optional() private readonly settings?: SettingsService,
    @Optional() private readonly nodes?: ClusterNodes,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.tick(), this.cfg.tickMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    // a round waits on Redis at most this long at shutdown
    await Promise.race([this.running, new Promise((r) => setTimeout(r, 2000).unref())]);
  }

  private get nodeId(): string | null {
    return this.store.shared && this.nodes ? this.nodes.nodeId : null;
  }

  // ------------------------------------------------------------------ commands

  async participant(userId: string): Promise<Participant> {
    const u = await this.users.findById(userId);
    if (!u) throw new TableError('User not found', 404);
    return { userId: u.id, username: u.username, avatar: u.avatar ?? null };
  }

  private async rating(userId: string): Promise<number> {
    const [s] = (await this.ratings?.summaries([userId])) ?? [];
    return s?.rating ?? 1500;
  }

  /** Validates a join payload (400 with a message; changes nothing). */
  parse(p: unknown): QuickPlayJoinPayload & { buyIn: number } {
    const o = (p && typeof p === 'object' ? p : {}) as Record<string, unknown>;
    if (o.mode !== 'PARTNERS' && o.mode !== 'SOLO') throw new TableError(QUICKPLAY_ERRORS.badMode);
    const band = STAKE_BANDS.find((b) => b.key === o.stake);
    if (!band) throw new TableError(QUICKPLAY_ERRORS.badStake);
    if (o.pace !== 'normal' && o.pace !== 'fast') throw new TableError(QUICKPLAY_ERRORS.badPace);
    if (o.partnerId !== undefined && o.partnerId !== null && typeof o.partnerId !== 'string')
      throw new TableError('partnerId must be a string');
    const preset = tablePresetOf(settingsFor(o.mode, band.buyIn));
    if (this.settings && !this.settings.get().tablePresets.includes(preset))
      throw new TableError(presetNotOfferedMessage(preset));
    return {
      mode: o.mode,
      stake: band.key,
      pace: o.pace,
      partnerId: (o.partnerId as string | undefined) ?? undefined,
      buyIn: band.buyIn,
    };
  }

  /** Queues the caller (and an accepted partner: `withPartner`). A player already queued is moved to the new queue. */
  async join(userId: string, payload: unknown, withPartner: Participant | null = null): Promise<QuickPlayStatus> {
    const q = this.parse(payload);
    if (withPartner && q.mode !== 'PARTNERS') throw new TableError(QUICKPLAY_ERRORS.soloPartner);
    const me = await this.participant(userId);
    const people = withPartner ? [me, withPartner] : [me];
    for (const p of people)
      if (await this.games.seatedAt(p.userId))
        throw new TableError(p.userId === userId ? QUICKPLAY_ERRORS.seated : QUICKPLAY_ERRORS.partnerBusy);
    const players = await Promise.all(
      people.map(async (p) => ({ userId: p.userId, rating: await this.rating(p.userId) })),
    );
    const ticket: StoredTicket = {
      id: userId,
      players,
      mode: q.mode,
      pace: q.pace,
      stake: q.buyIn,
      joinedAt: Date.now(),
      meta: {
        node: this.nodeId,
        stakeBand: q.stake,
        names: Object.fromEntries(people.map((p) => [p.userId, p.username])),
      },
    };
    await this.store.push({ kind: 'join', ticket });
    const status = this.statusOf(userId, (await this.store.snapshot()).state, [{ kind: 'join', ticket }]);
    for (const p of people) this.realtime.emitToUser(p.userId, 'quickplay_status', status);
    return status;
  }

  async leave(userId: string): Promise<void> {
    const { state, pending } = await this.store.snapshot();
    const mine = this.ticketOf(userId, state, pending);
    await this.store.push({ kind: 'leave', id: userId });
    for (const p of mine?.players ?? [{ userId }])
      this.realtime.emitToUser(p.userId, 'quickplay_status', { queued: false, waiting: 0 });
  }

  async status(userId: string): Promise<QuickPlayStatus> {
    const { state, pending } = await this.store.snapshot();
    return this.statusOf(userId, state, pending);
  }

  private ticketOf(userId: string, state: QueueState, pending: QueueOp[]): StoredTicket | null {
    let t = (state.tickets as StoredTicket[]).find((x) => x.players.some((p) => p.userId === userId)) ?? null;
    for (const op of pending) {
      if (op.kind === 'join' && op.ticket.players.some((p) => p.userId === userId)) t = op.ticket;
      else if (op.kind === 'leave' && t && (op.id === t.id || t.players.some((p) => p.userId === op.id))) t = null;
    }
    return t;
  }

  private statusOf(userId: string, state: QueueState, pending: QueueOp[]): QuickPlayStatus {
    const t = this.ticketOf(userId, state, pending);
    if (!t) return { queued: false, waiting: 0 };
    const key = queueKey(t);
    const others = new Set<string>();
    for (const x of state.tickets) if (queueKey(x) === key) for (const p of x.players) others.add(p.userId);
    for (const p of t.players) others.add(p.userId);
    const partner = t.players.find((p) => p.userId !== userId);
    return {
      queued: true,
      mode: t.mode,
      stake: t.meta.stakeBand,
      pace: t.pace,
      partner: partner ? { userId: partner.userId, username: t.meta.names[partner.userId] ?? '' } : null,
      since: t.joinedAt,
      waiting: others.size,
      estimatedWaitMs: Math.max(
        0,
        estimateWaitMs(this.recentWaits.get(key) ?? [], others.size, this.cfg) - (Date.now() - t.joinedAt),
      ),
      botOffer: state.offered.includes(t.id),
    };
  }

  /** "Play bots now": the caller and three bots of `level`, started at once (unrated), no lobby step. */
  async playBotsNow(userId: string, payload: unknown): Promise<{ gameId: string }> {
    const o = (payload && typeof payload === 'object' ? payload : {}) as Partial<PlayBotsNowPayload>;
    if (!QUICKPLAY_BOT_LEVELS.some((l) => l.key === o.level)) throw new TableError(QUICKPLAY_ERRORS.badLevel);
    const mode = o.mode ?? 'PARTNERS';
    if (mode !== 'PARTNERS' && mode !== 'SOLO') throw new TableError(QUICKPLAY_ERRORS.badMode);
    const me = await this.participant(userId);
    if (await this.games.seatedAt(userId)) throw new TableError(QUICKPLAY_ERRORS.seated);
    await this.store.push({ kind: 'leave', id: userId });
    const level = o.level as BotLevelKey;
    const { gameId } = await this.games.startMatched(settingsFor(mode, STAKE_BANDS[0].buyIn), [
      { kind: 'human', user: me },
      botSeat(level, 0),
      botSeat(level, 1),
      botSeat(level, 2),
    ]);
    return { gameId };
  }

  /** Accepts the bot offer: the caller's ticket (one player or a team) leaves the queue for a table with bots. */
  async acceptBots(userId: string): Promise<{ gameId: string }> {
    const { state, pending } = await this.store.snapshot();
    const t = this.ticketOf(userId, state, pending);
    if (!t) throw new TableError('You are not in the quick play queue');
    await this.store.push({ kind: 'leave', id: t.id });
    const humans = await Promise.all(t.players.map((p) => this.participant(p.userId)));
    const seats: MatchedSeat[] = [
      { kind: 'human', user: humans[0]! },
      botSeat('normal', 0),
      botSeat('normal', 1),
      botSeat('normal', 2),
    ];
    if (humans[1]) seats[2] = { kind: 'human', user: humans[1] };
    const { gameId, rated } = await this.games.startMatched(settingsFor(t.mode, t.stake), seats, {
      fast: t.pace === 'fast',
    });
    for (const h of humans)
      this.realtime.emitToUser(h.userId, 'quickplay_matched', {
        gameId,
        rated,
        partnerId: humans.find((x) => x.userId !== h.userId)?.userId ?? null,
      });
    return { gameId };
  }

  // ------------------------------------------------------------------ the matching round

  /** One round: apply joins/leaves, match, start the formed tables, send bot offers and statuses. */
  tick(): Promise<void> {
    if (this.running) return this.running;
    this.running = this.round()
      .catch((e) => this.log.warn(`matching round failed: ${(e as Error).message}`))
      .finally(() => (this.running = null));
    return this.running;
  }

  private async round(): Promise<void> {
    let formed: FormedTable[] = [];
    let offers: QueueTicket[] = [];
    let after: QueueState | null = null;
    await this.store.round((state, ops) => {
      const now = Date.now();
      // ops apply in order: a leave drops the user's earlier join of this round too; a later join stays
      const arrivals = new Map<string, StoredTicket>();
      const leaves: string[] = [];
      const holds = (t: StoredTicket, id: string) => t.id === id || t.players.some((p) => p.userId === id);
      for (const o of ops) {
        if (o.kind === 'join') {
          for (const [k, t] of arrivals) if (o.ticket.players.some((p) => holds(t, p.userId))) arrivals.delete(k);
          arrivals.set(o.ticket.id, o.ticket);
        } else if (o.kind === 'leave') {
          for (const [k, t] of arrivals) if (holds(t, o.id)) arrivals.delete(k);
          leaves.push(o.id);
        }
      }
      const dead =
        this.nodes && this.store.shared
          ? (state.tickets as StoredTicket[])
              .filter((t) => t.meta.node && !this.nodes!.isLive(t.meta.node))
              .map((t) => t.id)
          : [];
      const r = matchStep(state, { arrivals: [...arrivals.values()], leaves: [...leaves, ...dead], now }, this.cfg);
      formed = r.tables;
      offers = r.botOffers;
      after = r.state;
      return r.state;
    });
    if (!after) return;
    await Promise.all(formed.map((t) => this.start(t)));
    const state: QueueState = after;
    for (const t of offers)
      for (const p of t.players)
        this.realtime.emitToUser(p.userId, 'quickplay_bot_offer', this.statusOf(p.userId, state, []));
    // waiting counts change with every round: tell everyone queued (cheap: one event per queued player)
    for (const t of state.tickets)
      for (const p of t.players)
        this.realtime.emitToUser(p.userId, 'quickplay_status', this.statusOf(p.userId, state, []));
  }

  private async start(t: FormedTable): Promise<void> {
    const tickets = t.tickets as StoredTicket[];
    const key = queueKey(t);
    const waits = this.recentWaits.get(key) ?? [];
    for (const k of tickets) waits.push(Date.now() - k.joinedAt);
    this.recentWaits.set(key, waits.slice(-RECENT_WAITS));
    try {
      const seats: MatchedSeat[] = await Promise.all(
        t.seats.map(async (u) => ({ kind: 'human' as const, user: await this.participant(u) })),
      );
      const { gameId, rated } = await this.games.startMatched(settingsFor(t.mode, t.stake), seats, {
        fast: t.pace === 'fast',
      });
      this.formed++;
      for (const k of tickets)
        for (const p of k.players)
          this.realtime.emitToUser(p.userId, 'quickplay_matched', {
            gameId,
            rated,
            partnerId: k.players.find((x) => x.userId !== p.userId)?.userId ?? null,
          });
    } catch (e) {
      // someone could not sit (coins, already seated meanwhile): the others go back to the queue as they were
      this.log.warn(`a formed table could not start: ${(e as Error).message}`);
      for (const k of tickets) {
        const busy = await Promise.all(k.players.map((p) => this.games.seatedAt(p.userId)));
        if (busy.some(Boolean)) continue;
        await this.store.push({ kind: 'join', ticket: { ...k, joinedAt: k.joinedAt } });
      }
    }
  }
}
