/**
 * The console's tables (issue #25): every table where a user is (evictEverywhere, called on a ban), a staff
 * removal from one table, closing a stuck table, and the list of live and recent tables. Table changes run as
 * ordinary commands in the table's queue on the node that drives it (tables.commands.ts): in a cluster each node
 * answers for its own tables over the cluster bus. Each change writes its audit entry in the same transaction as
 * the table's event row (`Effects.alsoWrite`).
 */
import {
  HttpException,
  Injectable,
  Logger,
  NotFoundException,
  OnModuleInit,
  Optional,
  ServiceUnavailableException,
} from '@nestjs/common';
import type { ConsoleTableItem, ConsoleTablesPage, ConsoleTablesQuery } from '@spades/common';
import { CONSOLE_TABLE_ERRORS } from '@spades/common';
import { DataSource } from 'typeorm';
import { ClusterBus, RemoteError } from '../cluster/cluster.bus';
import { ClusterNodes } from '../cluster/cluster.nodes';
import { GamesService } from '../games/games.service';
import { seatOf, TableError } from '../games/table';
import { AuditService } from './audit.service';
import { closeBody, evictBody, isAt } from './tables.commands';
import { filterLive, limitOf, recentTables } from './tables.query';
import { consoleItem } from './tables.view';

/** Who acts: a moderator/admin, or null = the server itself (e.g. a ban applied by an automatic rule). */
export interface StaffActor {
  actorId: string | null;
  reason: string;
}

/** Bus methods of this service (each node answers for the tables it drives). */
const BUS = { evict: 'console.evict', op: 'console.table', list: 'console.tables' } as const;

@Injectable()
export class ConsoleTablesService implements OnModuleInit {
  private readonly log = new Logger('ConsoleTables');
  private readonly cluster: boolean;

  constructor(
    private readonly games: GamesService,
    private readonly audit: AuditService,
    private readonly ds: DataSource,
    @Optional() private readonly bus?: ClusterBus,
    @Optional() private readonly nodes?: ClusterNodes,
  ) {
    this.cluster = !!(bus?.enabled && nodes?.enabled);
  }

  onModuleInit(): void {
    if (!this.cluster) return;
    const bus = this.bus!;
    // JSON turns an undefined argument into null: whether to audit travels as its own flag
    bus.handle(BUS.evict, (a) =>
      this.evictHere(a[0] as string, a[1] as string, a[2] === true ? (a[3] as string | null) : undefined),
    );
    bus.handle(BUS.op, (a) =>
      this.opHere(a[0] as 'close' | 'remove', a[1] as string, a[2] as StaffActor, a[3] as string | undefined),
    );
    bus.handle(BUS.list, () => this.localItems());
  }

  // ------------------------------------------------------------------ evict everywhere (bans)

  /**
   * Removes `userId` from every open table where they sit, watch or are invited, on every node: before the start
   * the seat is freed; in a running game the leaver rules apply (a rated participant forfeits the buy-in) and a bot
   * takes the seat at once; the player gets `removed_from_table {gameId, reason}`. Returns the table ids.
   * `actorId` given (a staff id, or null for the server): each removal writes a `table.remove_player` audit entry
   * with it; left out: none (the caller's own entry, e.g. the ban's, covers it).
   */
  async evictEverywhere(userId: string, reason: string, actorId?: string | null): Promise<string[]> {
    if (!this.cluster) return this.evictHere(userId, reason, actorId);
    const answers = await Promise.allSettled(
      [...new Set([this.nodes!.nodeId, ...this.nodes!.live()])].map((n) =>
        this.bus!.call<string[]>(n, BUS.evict, [userId, reason, actorId !== undefined, actorId ?? null]),
      ),
    );
    const ids = new Set<string>();
    for (const a of answers) {
      if (a.status === 'fulfilled') a.value.forEach((id) => ids.add(id));
      else this.log.warn(`evicting ${userId}: a node did not answer (${(a.reason as Error).message})`);
    }
    return [...ids];
  }

  /** This node's part of evictEverywhere. */
  async evictHere(userId: string, reason: string, actorId?: string | null): Promise<string[]> {
    const done: string[] = [];
    for (const rec of this.games.liveRecords()) {
      if (!isAt(rec, userId)) continue;
      try {
        await this.removeLocal(rec.id, userId, actorId === undefined ? null : { actorId, reason }, reason);
        done.push(rec.id);
      } catch (e) {
        // the player left, or the table closed or moved meanwhile: nothing to do here
        if (!(e instanceof HttpException || e instanceof TableError))
          this.log.warn(`evicting ${userId} from ${rec.id}: ${(e as Error).message}`);
      }
    }
    return done;
  }

  // ------------------------------------------------------------------ one table

  /** Staff removal of a player (seat, watching or invitation) from one table; a bot takes a running game's seat. */
  removePlayer(gameId: string, userId: string, by: StaffActor): Promise<ConsoleTableItem> {
    return this.onOwner('remove', gameId, by, userId);
  }

  /** Closes a stuck table; a rated game in progress is settled as abandoned (escrow to the house). */
  close(gameId: string, by: StaffActor): Promise<ConsoleTableItem> {
    return this.onOwner('close', gameId, by);
  }

  /** Runs a table operation on the node that drives the table (here, or the one node that answers for it). */
  private async onOwner(
    op: 'close' | 'remove',
    gameId: string,
    by: StaffActor,
    userId?: string,
  ): Promise<ConsoleTableItem> {
    const here = await this.opHere(op, gameId, by, userId);
    if (here) return here;
    if (this.cluster) {
      const me = this.nodes!.nodeId;
      for (const n of this.nodes!.live()) {
        if (n === me) continue;
        const item = await this.bus!.call<ConsoleTableItem | null>(n, BUS.op, [op, gameId, by, userId], 5000).catch(
          (e) => {
            if (e instanceof RemoteError) throw e;
            return null;
          },
        );
        if (item) return item;
      }
    }
    // driven nowhere: unknown (404), closed (400), or an open table between two owners (503: try again)
    const rec = await this.games.record(gameId).catch(() => {
      throw new NotFoundException(CONSOLE_TABLE_ERRORS.NOT_FOUND);
    });
    if (rec.status === 'CLOSED') throw new TableError(CONSOLE_TABLE_ERRORS.ALREADY_CLOSED, 400);
    throw new ServiceUnavailableException('The table is moving to another server: try again');
  }

  /** The operation on a table this node drives; null when it does not drive it. */
  private async opHere(
    op: 'close' | 'remove',
    gameId: string,
    by: StaffActor,
    userId?: string,
  ): Promise<ConsoleTableItem | null> {
    if (!this.games.liveRecords().some((r) => r.id === gameId)) return null;
    if (op === 'close') await this.closeLocal(gameId, by);
    else await this.removeLocal(gameId, userId!, by, by.reason);
    const rec = await this.games.record(gameId);
    return consoleItem(rec, this.cluster ? this.nodes!.nodeId : null);
  }

  private async removeLocal(gameId: string, userId: string, audited: StaffActor | null, reason: string): Promise<void> {
    await this.games.command(gameId, { type: 'console_remove_player', payload: { userId } }, (rec, fx) => {
      const before = { seat: seatOf(rec, userId), status: rec.status };
      const ev = evictBody(this.games.machine, rec, fx, userId, reason);
      if (audited) {
        fx.alsoWrite = (m) =>
          this.audit.record(m, {
            actorId: audited.actorId,
            action: 'table.remove_player',
            targetUserId: userId,
            targetRef: `game:${gameId}`,
            reason: audited.reason,
            before,
            after: ev,
          });
      }
      return ev;
    });
  }

  private async closeLocal(gameId: string, by: StaffActor): Promise<void> {
    await this.games.command(gameId, { type: 'console_close', payload: {} }, (rec, fx) => {
      const c = closeBody(this.games.machine, rec, fx);
      fx.alsoWrite = (m) =>
        this.audit.record(m, {
          actorId: by.actorId,
          action: 'table.close',
          targetRef: `game:${gameId}`,
          reason: by.reason,
          before: { status: c.statusBefore, rated: c.rated },
          after: { status: 'CLOSED', escrowToHouse: c.escrowToHouse },
        });
      return c;
    });
  }

  // ------------------------------------------------------------------ lists

  /** GET /api/admin/tables: live tables of every node (private included) and/or recent closed ones, filtered. */
  async list(q: ConsoleTablesQuery): Promise<ConsoleTablesPage> {
    const status = q.status ?? 'live';
    const limit = limitOf(q);
    const live = status === 'recent' ? [] : await this.liveItems();
    const open = status === 'recent' ? [] : filterLive(live, q).slice(0, limit);
    const recent = status === 'recent' || status === 'all' ? await recentTables(this.ds, q, limit - open.length) : [];
    return { tables: [...open, ...recent], liveCount: live.length };
  }

  /** One table (open on any node, or closed); 404 when unknown. */
  async get(gameId: string): Promise<ConsoleTableItem> {
    const live = (await this.liveItems()).find((t) => t.id === gameId);
    if (live) return live;
    const rec = await this.games.record(gameId).catch(() => {
      throw new NotFoundException(CONSOLE_TABLE_ERRORS.NOT_FOUND);
    });
    return consoleItem(rec, null);
  }

  /** This node's open tables as console rows. */
  localItems(): ConsoleTableItem[] {
    const node = this.cluster ? this.nodes!.nodeId : null;
    return this.games.liveRecords().map((r) => consoleItem(r, node));
  }

  /** Every node's open tables (nodes that do not answer are left out). */
  async liveItems(): Promise<ConsoleTableItem[]> {
    if (!this.cluster) return this.localItems();
    const me = this.nodes!.nodeId;
    const others = await Promise.allSettled(
      this.nodes!.live()
        .filter((n) => n !== me)
        .map((n) => this.bus!.call<ConsoleTableItem[]>(n, BUS.list, [], 3000)),
    );
    const seen = new Set<string>();
    return [this.localItems(), ...others.map((o) => (o.status === 'fulfilled' ? o.value : []))]
      .flat()
      .filter((t) => !seen.has(t.id) && !!seen.add(t.id));
  }
}
