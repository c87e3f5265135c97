/**
 * What the games module needs from the platform: the coins ledger + stats (inside the caller's transaction)
 * and the realtime emitter. Thin adapters over CoinsService, StatsService and RealtimeService.
 */
import { Injectable } from '@nestjs/common';
import { GameResult, type ServerEventName, type ServerPayload, type ServerToClientEvents } from '@spades/common';
import { EntityManager } from 'typeorm';
import { CoinsService, InsufficientFundsError } from '../coins/coins.service';
import { RatedBanError, RatingsService } from '../ratings/ratings.service';
import { RealtimeService } from '../realtime/realtime.service';
import { StatsGameType, StatsService } from '../stats/stats.service';
import { humans, TableError, TableRecord } from './table';

export class NotEnoughCoinsError extends Error {}

export const NOT_ENOUGH_COINS = 'Not enough coins';

@Injectable()
export class GamesLedger {
  constructor(
    private readonly coins: CoinsService,
    private readonly stats: StatsService,
    private readonly ratings: RatingsService,
  ) {}

  /** Refuses to seat a user who cannot cover the table's buy-in ("Not enough coins"). */
  async assertCanAfford(userId: string, buyIn: number): Promise<void> {
    const balance = await this.coins.balanceOf({ userId });
    if (balance < BigInt(buyIn)) throw new TableError(NOT_ENOUGH_COINS);
  }

  /** Users (of `userIds`) whose balance, read inside the caller's transaction, is below `amount`. */
  async unableToPay(m: EntityManager, userIds: string[], amount: number): Promise<string[]> {
    const balances = await this.coins.userBalances(userIds, m);
    return userIds.filter((u) => (balances.get(u) ?? 0n) < BigInt(amount));
  }

  async buyIn(m: EntityManager, userId: string, gameId: string, amount: number, ref: string): Promise<void> {
    try {
      await this.coins.transfer(m, { userId }, { escrow: gameId }, amount, 'buy_in', ref);
    } catch (e) {
      if (e instanceof InsufficientFundsError) throw new NotEnoughCoinsError(NOT_ENOUGH_COINS);
      throw e;
    }
  }

  async payout(m: EntityManager, gameId: string, userId: string, amount: number, ref: string): Promise<void> {
    await this.coins.transfer(m, { escrow: gameId }, { userId }, amount, 'payout', ref);
  }

  async toHouse(m: EntityManager, gameId: string, amount: number, ref: string): Promise<void> {
    await this.coins.transfer(m, { escrow: gameId }, 'house', amount, 'rake', ref);
  }

  /** Stats of the rated participants (spec §3), in the settlement transaction. */
  /** Forfeiters count as played, not won. */
  async recordStats(m: EntityManager, rec: TableRecord, result: GameResult): Promise<void> {
    const s = rec.settings;
    const partners = s.gameMode === 'PARTNERS';
    const gameType: StatsGameType = s.biddingOption;
    const players = rec.participants.map((p) => {
      const side = partners ? p.seat % 2 : p.seat;
      let bags = 0;
      let nilsBid = 0;
      let nilsMade = 0;
      let blindNilsBid = 0;
      let blindNilsMade = 0;
      for (const h of rec.engine.history) {
        bags += h.sides.find((x) => x.side === side)?.bagsTaken ?? 0;
        if (h.bids[p.seat] === 0) {
          const made = h.tricksPerSeat[p.seat] === 0;
          if (h.blind[p.seat]) {
            blindNilsBid++;
            if (made) blindNilsMade++;
          } else {
            nilsBid++;
            if (made) nilsMade++;
          }
        }
      }
      const won = result.places[p.seat] === 1 && !(rec.forfeited ?? []).includes(p.userId);
      return { userId: p.userId, won, bags, nilsBid, nilsMade, blindNilsBid, blindNilsMade };
    });
    await this.stats.recordGameResult(m, {
      gameId: `${rec.id}:${rec.gameNumber}`,
      mode: s.gameMode,
      gameType,
      specialRule: s.specialRules.screamer ? 'SCREAMER' : s.specialRules.assassin ? 'ASSASSIN' : null,
      players,
    });
  }
  // ---------------------------------------------------------------- issue #11: ratings port (logic in src/ratings)

  /**
   * The rating update, history, completion counters and leaver bans of a settled rated game, in the settlement
   * transaction, exactly once per game (also for a game every human abandoned: `result` null).
   */
  async recordRatings(
    m: EntityManager,
    rec: TableRecord,
    o: { result: GameResult | null; payouts: number[] },
  ): Promise<void> {
    await this.ratings.recordGame(m, {
      tableId: rec.id,
      gameNumber: rec.gameNumber,
      mode: rec.settings.gameMode,
      buyIn: rec.settings.buyIn,
      participants: rec.participants.map((p) => ({ seat: p.seat, userId: p.userId })),
      places: o.result ? o.result.places : null,
      leavers: rec.forfeited ?? [],
      payouts: o.payouts,
      at: Date.now(),
    });
  }

  /**
   * Ban check. A table is rated when four humans start it, so a player banned from rated tables may not take a
   * seat that makes a WAITING table four humans, nor a seat in a running rated game (`joining`); a start with four
   * humans is refused while one of them is banned (no `joining`, called after TableMachine.start set `rated`).
   * TableError 403 with the message and end time.
   */
  async assertRatedAllowed(
    rec: TableRecord,
    actorId: string,
    joining?: { userId: string; username: string },
  ): Promise<void> {
    const seated = humans(rec).map((h) => ({ userId: h.userId, username: h.username }));
    const players = joining ? [...seated.filter((h) => h.userId !== joining.userId), joining] : seated;
    // joining: the seat is in a running rated game, or makes four humans at a WAITING table; start: rated by now
    const rated = joining ? rec.rated || (rec.status === 'WAITING' && players.length === 4) : rec.rated;
    if (!rated) return;
    try {
      await this.ratings.assertMayPlayRated(joining ? [joining] : players, actorId);
    } catch (e) {
      if (e instanceof RatedBanError) throw new TableError(e.message, 403);
      throw e;
    }
  }
}

/** The arguments of a server → client event (every event has one payload). */
type Args<E extends ServerEventName> = Parameters<ServerToClientEvents[E]>;
/**
 * `[payload]` as the event's argument list. Every server event has exactly one argument; TypeScript cannot see that
 * `[ServerPayload<E>]` is `Parameters<ServerToClientEvents[E]>` for a generic E, so it is said here, once.
 */
const args = <E extends ServerEventName>(payload: ServerPayload<E>) => [payload] as Args<E>;

/** Emits to every socket of a user / to everybody (implemented over the platform's RealtimeService). */
export abstract class GamesRealtime {
  abstract emitToUser<E extends ServerEventName>(userId: string, event: E, payload: ServerPayload<E>): void;
  /** To every socket in a room (e.g. the lobby watchers). */
  abstract emitToRoom<E extends ServerEventName>(room: string, event: E, payload: ServerPayload<E>): void;
  /** Sockets of this server in a room (0 before the server exists). */
  abstract localRoomSize(room: string): number;
  /** To the sockets of THIS server in a room (several nodes: each sends its own sockets the cluster-wide list). */
  abstract emitToLocalRoom<E extends ServerEventName>(room: string, event: E, payload: ServerPayload<E>): void;
  /** Runs `send`; what it emits to each of these users' sockets may leave in one write per socket. */
  toUsersTogether(_userIds: Iterable<string>, send: () => void): void {
    send();
  }
}

/** GamesRealtime over the platform's RealtimeService (personal rooms `user:<id>`, lobby room). */
@Injectable()
export class RealtimeGamesEmitter extends GamesRealtime {
  constructor(private readonly rt: RealtimeService) {
    super();
  }

  emitToUser<E extends ServerEventName>(userId: string, event: E, payload: ServerPayload<E>): void {
    this.rt.emitToUser(userId, event, ...args<E>(payload));
  }

  override toUsersTogether(userIds: Iterable<string>, send: () => void): void {
    this.rt.toUsersTogether(userIds, send);
  }

  emitToRoom<E extends ServerEventName>(room: string, event: E, payload: ServerPayload<E>): void {
    this.rt.emitToRoom(room, event, ...args<E>(payload));
  }

  localRoomSize(room: string): number {
    return this.rt.localRoomSize(room);
  }

  emitToLocalRoom<E extends ServerEventName>(room: string, event: E, payload: ServerPayload<E>): void {
    if (!this.localRoomSize(room)) return;
    this.rt.io.local.to(room).emit(event, ...args<E>(payload));
  }
}
