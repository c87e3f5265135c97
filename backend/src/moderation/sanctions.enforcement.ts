import { Injectable, Logger, Optional } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { DataSource } from 'typeorm';
import type { Sanction, SanctionNotice } from '@spades/common';
import { banMessage } from '@spades/common';
import { ConsoleTablesService } from '../admin/tables.service';
import { RealtimeService } from '../realtime/realtime.service';
import type { SanctionsCache } from './sanctions.cache';

export const noticeOf = (s: Sanction): SanctionNotice => ({
  kind: s.kind,
  reason: s.reason,
  endsAt: s.endsAt,
  scope: s.scope,
});

/**
 * What a sanction does at once, after its transaction committed (issue #25):
 * - every node forgets the player's cached standing (SanctionsCache.invalidate);
 * - the player's sockets (on every node: socket.io's adapter) get `sanction_notice`;
 * - a ban revokes the sessions once more (after the commit), then disconnects those sockets and gives every seat the player holds to a bot
 *   (ConsoleTablesService.evictEverywhere: before the start they leave, mid-game the seat-replacement rules).
 * Failures are logged, never thrown: the sanction itself is stored and the sign-in/chat checks enforce it anyway.
 */
@Injectable()
export class SanctionsEnforcement {
  private readonly log = new Logger('Sanctions');

  constructor(
    private readonly moduleRef: ModuleRef,
    private readonly ds: DataSource,
    @Optional() private readonly realtime?: RealtimeService,
  ) {}

  /**
   * The console's tables, looked up when a ban needs them: the games module asks SanctionsService for mutes, and
   * ConsoleTablesService depends on the games module, so a constructor dependency would be a cycle.
   */
  private tables(): ConsoleTablesService | null {
    try {
      return this.moduleRef.get(ConsoleTablesService, { strict: false });
    } catch {
      return null;
    }
  }

  async applied(s: Sanction, cache: SanctionsCache): Promise<void> {
    try {
      await cache.invalidate(s.userId);
      const notice = noticeOf(s);
      if (s.kind !== 'ban') {
        this.realtime?.emitToUser(s.userId, 'sanction_notice', notice);
        return;
      }
      // again after the commit: a sign-in that checked for a ban just before the ban became visible got a token
      // issued after the in-transaction revocation; this one is later than any such token
      await this.ds.query(`UPDATE users SET sessions_revoked_at = clock_timestamp() WHERE id = $1`, [s.userId]);
      await this.closeSockets(s.userId, notice);
      await this.tables()?.evictEverywhere(s.userId, banMessage(notice), s.createdBy);
    } catch (e) {
      this.log.error(`enforcing sanction ${s.id} on ${s.userId}: ${(e as Error).stack ?? e}`);
    }
  }

  async lifted(s: Sanction, cache: SanctionsCache): Promise<void> {
    try {
      await cache.invalidate(s.userId);
    } catch (e) {
      this.log.error(`lifting sanction ${s.id}: ${(e as Error).message}`);
    }
  }

  /** Sessions revoked: every socket of the user gets `session_expired` with the reason, then is disconnected. */
  async endSessions(userId: string, reason: string): Promise<number> {
    if (!this.realtime) return 0;
    const sockets = await this.realtime.socketsOfUser(userId);
    for (const socket of sockets) {
      socket.emit('session_expired', { message: `A moderator signed you out: ${reason}` });
      socket.disconnect(true);
    }
    return sockets.length;
  }

  /** Tells every socket of the user why, then disconnects it (every node). Returns how many were closed. */
  async closeSockets(userId: string, notice: SanctionNotice | null): Promise<number> {
    if (!this.realtime) return 0;
    const sockets = await this.realtime.socketsOfUser(userId);
    for (const socket of sockets) {
      if (notice) socket.emit('sanction_notice', notice);
      socket.disconnect(true);
    }
    return sockets.length;
  }
}
