/**
 * Abandoned WAITING tables (issue 15): a table waiting for players whose host has been offline (no socket)
 * for WAITING_HOST_TIMEOUT_MS (default 60 s) loses its host like a leave: another seated human becomes the
 * host, or the table closes when nobody is left (spectators are told why). A sweep every quarter of the
 * timeout (50 ms – 5 s) compares the hosts of the WAITING tables with the socket presence.
 */
import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { RealtimeService } from '../realtime/realtime.service';
import { GAMES_CONFIG } from './games.config';
import type { GamesConfig } from './games.config';
import { GamesService } from './games.service';
import { hostId, TableError } from './table';

@Injectable()
export class AbandonedTables implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly log = new Logger('AbandonedTables');
  /** `${gameId}:${hostId}` → when the host was first seen offline. */
  private readonly offlineSince = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private sweeping = false;

  constructor(
    private readonly games: GamesService,
    private readonly realtime: RealtimeService,
    @Inject(GAMES_CONFIG) private readonly cfg: GamesConfig,
  ) {}

  onApplicationBootstrap(): void {
    const every = Math.min(5000, Math.max(50, Math.floor(this.cfg.waitingHostTimeoutMs / 4)));
    this.timer = setInterval(() => void this.sweep(), every);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async sweep(now = Date.now()): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      const seen = new Set<string>();
      for (const g of this.games.list()) {
        if (g.phase !== 'WAITING' || !g.hostId) continue;
        const host = g.hostId;
        const key = `${g.id}:${host}`;
        seen.add(key);
        if (this.realtime.isOnline(host)) {
          this.offlineSince.delete(key);
          continue;
        }
        const since = this.offlineSince.get(key) ?? now;
        this.offlineSince.set(key, since);
        if (now - since < this.cfg.waitingHostTimeoutMs) continue;
        this.offlineSince.delete(key);
        await this.games
          .command(g.id, { type: 'host_gone', payload: { userId: host } }, (rec, fx) => {
            if (rec.status !== 'WAITING' || hostId(rec) !== host) throw new TableError('The host is back');
            this.games.machine.leave(rec, fx, host, ' (offline)');
          })
          .catch((e) => {
            if (!(e instanceof TableError)) this.log.error(`closing abandoned table ${g.id}: ${(e as Error).message}`);
          });
      }
      for (const k of [...this.offlineSince.keys()]) if (!seen.has(k)) this.offlineSince.delete(k);
    } finally {
      this.sweeping = false;
    }
  }
}
