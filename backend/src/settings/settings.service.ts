import { BadRequestException, Injectable, Logger, OnApplicationShutdown, OnModuleInit, Optional } from '@nestjs/common';
import {
  checkSettingsPatch,
  compileChatFilter,
  completeSettings,
  publicSettings,
  type AdminSettingsView,
  type ChatWordFilter,
  type PublicServerSettings,
  type RegistrationMode,
  type ServerSettings,
  type ServerSettingsPatch,
  type SignInsOffered,
} from '@spades/common';
import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { AuditService } from '../admin/audit.service';
import { closeRedis, createRedisClient } from '../common/redis';
import { AppConfig } from '../config/config.schema';
import { ClusterRedis } from '../realtime/cluster-redis';
import type { ServerInfoOverrides } from '../server-info/server-info.service';
import { staffReason } from './staff-reason';

export type SettingsListener = (next: Readonly<ServerSettings>, prev: Readonly<ServerSettings>) => void;

interface SettingsRow {
  value: unknown;
  version: string;
  updated_at: Date | null;
  updated_by: string | null;
  updated_by_name: string | null;
}

/** In cluster mode, a safety net under pub/sub: every node re-reads the version this often (one tiny query). */
export const SETTINGS_POLL_MS = 30_000;

/**
 * The host's server settings (issue #25): one row in `server_settings`, read at boot and kept in memory, so
 * `get()` is synchronous and free. A change (`update`, admins, audited in the same transaction) is applied on this
 * node at once and announced to the other nodes through Redis pub/sub (`<prefix>:settings`, payload = the new
 * version); each node re-reads the row and calls its `onChange` listeners. On a single node there is no Redis: the
 * change is applied in process. A node that missed a message (Redis reconnect) re-reads on reconnect and, at the
 * latest, on the next poll.
 */
@Injectable()
export class SettingsService implements OnModuleInit, OnApplicationShutdown, ServerInfoOverrides {
  private readonly log = new Logger('Settings');
  private current: Readonly<ServerSettings> = freeze(completeSettings(null));
  private filter: ChatWordFilter = compileChatFilter([]);
  private version = -1;
  private updatedAt: string | null = null;
  private updatedBy: { id: string; username: string } | null = null;
  private readonly listeners = new Set<SettingsListener>();
  private readonly channel: string | null;
  private sub: Redis | null = null;
  private poll: NodeJS.Timeout | null = null;
  private reloading: Promise<void> | null = null;
  private reloadAgain = false;
  private closed = false;

  constructor(
    private readonly ds: DataSource,
    private readonly config: AppConfig,
    private readonly audit: AuditService,
    @Optional() private readonly redis?: ClusterRedis,
  ) {
    this.channel = config.cluster.enabled && redis?.enabled ? `${redis.prefix}:settings` : null;
  }

  async onModuleInit(): Promise<void> {
    await this.reload();
    if (!this.channel || !this.config.redisUrl) return;
    const sub = (this.sub = createRedisClient(this.config.redisUrl));
    sub.on('error', (e: Error) => this.log.warn(`Redis: ${e.message}`));
    sub.on('message', (channel: string) => {
      if (channel === this.channel) void this.reload();
    });
    // ioredis resubscribes after a reconnect; what was published meanwhile is lost: re-read
    sub.on('ready', () => void this.reload());
    void sub.subscribe(this.channel).catch((e: Error) => this.log.warn(`subscribe: ${e.message}`));
    this.poll = setInterval(() => void this.reload(), SETTINGS_POLL_MS);
    this.poll.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.closed = true;
    if (this.poll) clearInterval(this.poll);
    this.poll = null;
    const sub = this.sub;
    this.sub = null;
    if (sub) await closeRedis(sub);
  }

  /** The current settings (this node's in-memory copy; never stale by more than a pub/sub hop). Frozen. */
  get(): Readonly<ServerSettings> {
    return this.current;
  }

  /** The chat word filter of the current settings, compiled once per change. */
  chatFilter(): ChatWordFilter {
    return this.filter;
  }

  /**
   * Calls `listener(next, prev)` after every change of the settings on this node (whoever made it, on whichever
   * node). Returns the function that removes it. A throwing listener is logged and does not stop the others.
   */
  onChange(listener: SettingsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Which sign-ins the server is configured for (a setting can only offer those). */
  signInsConfigured(): SignInsOffered {
    // issue #26: the OpenID Connect / GitHub providers configured by environment
    const sso = (this.config.sso ?? []).map((p) => [p.id, true] as const);
    return { discord: !!this.config.discord, ...(sso.length ? { sso: Object.fromEntries(sso) } : {}) };
  }

  /** Whether Discord sign-in is offered now: configured and not switched off by the host. */
  discordOffered(): boolean {
    return !!this.config.discord && this.current.signIns.discord;
  }

  registration(): RegistrationMode {
    return this.current.registration;
  }

  publicView(): PublicServerSettings {
    return publicSettings(this.current, this.signInsConfigured(), this.config.serverInfo);
  }

  adminView(): AdminSettingsView {
    return {
      settings: this.current,
      version: Math.max(0, this.version),
      updatedAt: this.updatedAt,
      updatedBy: this.updatedBy,
      signInsConfigured: this.signInsConfigured(),
    };
  }

  /** GET /api/server-info's live part (issue #30's seam). */
  async serverInfoOverrides(): ReturnType<ServerInfoOverrides['serverInfoOverrides']> {
    const s = this.current;
    return {
      ...(s.serverName !== null ? { name: s.serverName } : {}),
      ...(s.serverDescription !== null ? { description: s.serverDescription } : {}),
      ...(s.serverIcon !== null ? { iconUrl: s.serverIcon } : {}),
      registration: s.registration,
      discord: s.signIns.discord,
      ...(s.signIns.sso ? { sso: s.signIns.sso } : {}),
    };
  }

  /**
   * Applies a validated change by `actorId` (an admin) with its reason, in one transaction with its audit entry
   * (before/after of the changed keys only). Unchanged values are not written; a change that changes nothing is
   * still answered (and not audited). Other nodes hear of it through Redis.
   */
  async update(actorId: string, changes: unknown, reason: unknown): Promise<AdminSettingsView> {
    const why = staffReason(reason);
    const checked = checkSettingsPatch(changes);
    if (!checked.ok) throw new BadRequestException(checked.message);
    const changed = await this.ds.transaction(async (m) => {
      const [row] = (await m.query(
        `SELECT value, version::text AS version FROM server_settings WHERE id = 1 FOR UPDATE`,
      )) as {
        value: unknown;
        version: string;
      }[];
      const prev = completeSettings(row?.value);
      const next = applyPatch(prev, checked.patch);
      const keys = (Object.keys(checked.patch) as (keyof ServerSettings)[]).filter(
        (k) => JSON.stringify(prev[k]) !== JSON.stringify(next[k]),
      );
      if (keys.length === 0) return false;
      await m.query(
        `UPDATE server_settings SET value = $1::jsonb, version = version + 1, updated_at = now(), updated_by = $2 WHERE id = 1`,
        [JSON.stringify(next), actorId],
      );
      await this.audit.record(m, {
        actorId,
        action: 'settings.update',
        targetRef: `setting:${keys.join(',')}`.slice(0, 200),
        reason: why,
        before: Object.fromEntries(keys.map((k) => [k, prev[k]])),
        after: Object.fromEntries(keys.map((k) => [k, next[k]])),
      });
      return true;
    });
    if (changed) {
      await this.reload();
      await this.publish();
    }
    return this.adminView();
  }

  /** Re-reads the row; applies it and tells the listeners when its version is newer than this node's. */
  reload(): Promise<void> {
    if (this.reloading) {
      this.reloadAgain = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      do {
        this.reloadAgain = false;
        await this.readOnce().catch((e: Error) => this.log.warn(`reading the settings failed: ${e.message}`));
      } while (this.reloadAgain && !this.closed);
    })().finally(() => (this.reloading = null));
    return this.reloading;
  }

  private async readOnce(): Promise<void> {
    const rows = (await this.ds.query(
      `SELECT s.value, s.version::text AS version, s.updated_at, s.updated_by, u.username AS updated_by_name
         FROM server_settings s LEFT JOIN users u ON u.id = s.updated_by WHERE s.id = 1`,
    )) as SettingsRow[];
    const row = rows[0];
    if (!row) return;
    const version = Number(row.version);
    if (version <= this.version) return;
    const prev = this.current;
    const next = freeze(completeSettings(row.value));
    this.current = next;
    this.version = version;
    this.updatedAt = row.updated_at ? new Date(row.updated_at).toISOString() : null;
    this.updatedBy = row.updated_by ? { id: row.updated_by, username: row.updated_by_name ?? '' } : null;
    if (JSON.stringify(prev.chatFilter) !== JSON.stringify(next.chatFilter))
      this.filter = compileChatFilter(next.chatFilter);
    for (const l of [...this.listeners]) {
      try {
        l(next, prev);
      } catch (e) {
        this.log.error(`settings listener failed: ${(e as Error).stack ?? e}`);
      }
    }
  }

  private async publish(): Promise<void> {
    if (!this.channel || !this.redis) return;
    await this.redis.command
      .publish(this.channel, String(this.version))
      .catch((e: Error) => this.log.warn(`announcing the change to the other nodes failed: ${e.message}`));
  }
}

/** The patch applied over the current settings; a new announcement text gets a new id and time. */
export function applyPatch(prev: ServerSettings, patch: ServerSettingsPatch): ServerSettings {
  const { announcement, ...rest } = patch;
  const next: ServerSettings = { ...prev, ...rest };
  if (announcement !== undefined) {
    if (announcement === null) next.announcement = null;
    else {
      const level = announcement.level ?? 'info';
      const same =
        prev.announcement && prev.announcement.text === announcement.text && prev.announcement.level === level;
      next.announcement = same
        ? prev.announcement
        : { id: randomUUID(), text: announcement.text, level, at: new Date().toISOString() };
    }
  }
  return next;
}

function freeze(s: ServerSettings): Readonly<ServerSettings> {
  Object.freeze(s.tablePresets);
  Object.freeze(s.chatFilter);
  Object.freeze(s.signIns);
  if (s.announcement) Object.freeze(s.announcement);
  return Object.freeze(s);
}
